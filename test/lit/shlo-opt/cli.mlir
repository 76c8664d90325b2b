// shlo-opt's command line: mlir-opt's spellings (one or two dashes, `=value` or ` value`),
// --help, --version, --list-passes, standard input and -o, bytecode in and out.
//
// RUN: shlo-opt --help | filecheck %s --check-prefix=HELP
// HELP: USAGE: shlo-opt [options] [input file, or - for standard input]
// HELP: --split-input-file[=<marker>]
// HELP: --verify-diagnostics[=<mode>]
// HELP: --mlir-pass-pipeline-crash-reproducer=<path>
// HELP: Any other --NAME[=OPTIONS] adds the pass NAME
// RUN: shlo-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: shlo-opt (shlo {{[0-9.]+}}, iree-base-compiler {{[0-9.]+}})
//
// --list-passes: the wheel's C++ passes and shlo's, sorted, each with its summary and options.
// RUN: shlo-opt --list-passes --load-pass-plugin=%test_passes | filecheck %s --check-prefix=LIST --strict-whitespace
// LIST:      Passes:
// LIST:      {{^}}  --canonicalize                                     -   Canonicalize operations
// LIST-NEXT: {{^}}    --cse-between-iterations
// LIST:      {{^}}  --shlo-legalize-chlo                               -   Legalize CHLO ops to StableHLO
// LIST:      {{^}}  --test-refuse                                      -   Fail at the first op whose name is `op` (a test pass).
// LIST-NEXT: {{^}}    --op=<string>                                    - The op to refuse (default: stablehlo.add)
//
// One dash or two, `=value` or a separate value, standard input, -o:
// RUN: shlo-opt -pass-pipeline 'builtin.module(cse)' -mlir-print-op-generic - -o %t.mlir < %s
// RUN: filecheck %s --check-prefix=GENERIC < %t.mlir
// GENERIC:     "func.func"()
// GENERIC:     "stablehlo.add"
// GENERIC-NOT: "stablehlo.add"
//
// Bytecode out, and back in; an older bytecode version on request:
// RUN: shlo-opt %s --emit-bytecode -o %t.mlirbc
// RUN: shlo-opt %t.mlirbc | filecheck %s --check-prefix=ROUND
// RUN: shlo-opt %s --emit-bytecode --emit-bytecode-version=1 | shlo-opt - | filecheck %s --check-prefix=ROUND
// ROUND: func.func @f
// ROUND: stablehlo.add
//
// Verification after each pass can be turned off; threading too:
// RUN: shlo-opt %s --verify-each=false --mlir-disable-threading --cse | filecheck %s --check-prefix=ROUND
// Printing the whole module around each pass needs a single thread, like in mlir-opt:
// RUN: not shlo-opt %s --cse --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 | filecheck %s --check-prefix=SCOPE
// SCOPE: shlo-opt: IR print for module scope can't be setup on a pass-manager without disabling multi-threading first
// RUN: shlo-opt %s --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-module-scope --mlir-disable-threading 2>&1 >/dev/null | filecheck %s --check-prefix=MODULE
// MODULE: IR Dump After CSEPass: cse ('func.func' operation: @f) //----- //
// MODULE-NEXT: module {
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
