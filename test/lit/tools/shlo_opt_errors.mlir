// Bad input gives one `file:line:col: error:` line on stderr and exit status 1, like mlir-opt.
// RUN: not shlo-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not shlo-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not shlo-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not shlo-opt %s --shlo-legalize-chlo=bogus=1 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not shlo-opt %t.does-not-exist 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: shlo-opt --list-passes | filecheck %s --check-prefix=LIST

// PARSE:   malformed.mlir:3:5: error: expected ':'
// UNKNOWN: 'no-such-pass' does not refer to a registered pass or pass pipeline
// SYNTAX:  invalid pass pipeline {{.*}} expected ')'
// OPTION:  shlo-legalize-chlo: unknown option 'bogus'
// MISSING: cannot open input file {{.*}}does-not-exist{{.*}} no such file
// LIST:    --shlo-legalize-chlo  Legalize CHLO ops to StableHLO
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
