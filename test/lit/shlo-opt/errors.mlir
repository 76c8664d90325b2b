// Diagnostics print like mlir-opt's (`file:line:col: error: ...`, the source line, a caret) on
// stderr, and the exit status is 1; a bad command line or pipeline is one line, status 1.
//
// RUN: not shlo-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE --strict-whitespace
// PARSE:      malformed.mlir:3:5: error: expected ':'
// PARSE-NEXT: {{^}}  %x = 3
// PARSE-NEXT: {{^}}    ^
//
// The parse errors are iree-opt's, byte for byte (verifier notes included):
// RUN: not shlo-opt %S/Inputs/malformed.mlir 2> %t.shlo
// RUN: not iree-opt %S/Inputs/malformed.mlir 2> %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: cd %S && not shlo-opt Inputs/locations.mlir --split-input-file 2> %t.shlo
// RUN: cd %S && not iree-opt Inputs/locations.mlir --split-input-file 2> %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: cd %S && not shlo-opt Inputs/locations.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=LOCS --strict-whitespace
// LOCS:      <unknown>:0: error: 'stablehlo.add' op expected 2 operands, but found 1
// LOCS:      other.mlir:7:3: error: 'stablehlo.add' op
// LOCS:      Inputs/locations.mlir:1:5: error: 'stablehlo.add' op
// LOCS-NEXT: {{^}}// Diagnostics at locations of every kind
// LOCS-NEXT: {{^}}    ^
// LOCS:      Inputs/locations.mlir:1:2: error: 'stablehlo.add' op
// LOCS:      Inputs/locations.mlir:4:3: note: called from
// LOCS:      <unknown>:0: error: loc("named"): 'stablehlo.add' op
// LOCS:      Inputs/locations.mlir:28:7: error: 'stablehlo.add' op
// LOCS-NEXT: {{^}}        %6 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
// LOCS-NEXT: {{^}}             ^
//
// RUN: not shlo-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not shlo-opt %s --no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: shlo-opt: 'no-such-pass' does not refer to a registered pass or pass pipeline
//
// RUN: not shlo-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX:  shlo-opt: invalid pass pipeline {{.*}} expected ')'
// RUN: not shlo-opt %s --shlo-legalize-chlo=bogus=1 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:  shlo-opt: shlo-legalize-chlo: unknown option 'bogus'
// RUN: not shlo-opt %s --canonicalize=bogus=1 2>&1 | filecheck %s --check-prefix=CPP-OPTION
// CPP-OPTION: shlo-opt: <Pass-Options-Parser>: no such option bogus
// RUN: not shlo-opt %s --cse --pass-pipeline='builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH:    shlo-opt: '--pass-pipeline' can't be used with individual pass options
//
// RUN: not shlo-opt %t.does-not-exist 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist': No such file or directory
// RUN: not shlo-opt %s %s 2>&1 | filecheck %s --check-prefix=TWO
// TWO:     shlo-opt: too many input files
// RUN: not shlo-opt %s --verify-each=maybe 2>&1 | filecheck %s --check-prefix=BOOL
// BOOL:    shlo-opt: 'maybe' is invalid for the boolean flag '--verify-each'
// RUN: not shlo-opt %s --verify-diagnostics=some 2>&1 | filecheck %s --check-prefix=CHOICE
// CHOICE:  shlo-opt: '--verify-diagnostics=some': expected one of all, only-expected
// RUN: not shlo-opt %s -o 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE:   shlo-opt: '-o' needs a value (filename)
// RUN: not shlo-opt %s --mlir-elide-elementsattrs-if-larger=many 2>&1 | filecheck %s --check-prefix=INT
// INT:     shlo-opt: '--mlir-elide-elementsattrs-if-larger=many': expected an integer
//
// A failed run writes no output file, like mlir-opt:
// RUN: rm -f %t.out
// RUN: not shlo-opt %S/Inputs/malformed.mlir -o %t.out
// RUN: not ls %t.out
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
