// --mlir-print-ir-*: IR dumps on stderr, in MLIR's format, around Python passes as around C++ ones.
//
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --pass-pipeline='builtin.module(func.func(test-mark,cse))' --mlir-print-ir-before-all 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// BEFORE:      // -----// IR Dump Before Mark: test-mark //----- //
// BEFORE-NEXT: module {
// BEFORE-NEXT:   func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// BEFORE:      // -----// IR Dump Before CSEPass: cse //----- //
// BEFORE-NEXT: func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {test.marked} {
// BEFORE-NEXT:   %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
// BEFORE-NEXT:   %1 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
//
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --test-mark --cse --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// AFTER:      // -----// IR Dump After Mark: test-mark //----- //
// AFTER:        func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {test.marked} {
// AFTER:      // -----// IR Dump After CSEPass: cse //----- //
// AFTER-NOT:    %1 = stablehlo.add
//
// After-change prints only the passes that changed something (the second test-mark does not):
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --test-mark --test-mark --canonicalize --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// CHANGE:     IR Dump After Mark: test-mark
// CHANGE-NOT: IR Dump After Mark: test-mark
// CHANGE:     IR Dump After CanonicalizerPass
//
// After-failure prints the IR of the failing pass only, after its error:
// RUN: not shlo-opt %s --load-pass-plugin=%test_passes --test-mark --test-refuse=op=stablehlo.abs --mlir-print-ir-after-failure 2>&1 >/dev/null | filecheck %s --check-prefix=FAILURE
// FAILURE-NOT: IR Dump After Mark
// FAILURE:     ir_printing.mlir:41:8: error: test-refuse: refusing 'stablehlo.abs'
// FAILURE:     // -----// IR Dump After Refuse Failed: test-refuse //----- //
// FAILURE:       %2 = stablehlo.abs %0 : tensor<2xf32>
//
// Generic form and locations in dumps; a tree of files instead of stderr:
// RUN: shlo-opt %s --cse --mlir-print-ir-after-all --mlir-print-op-generic --mlir-print-debuginfo 2>&1 >/dev/null | filecheck %s --check-prefix=GENERIC
// GENERIC: "stablehlo.add"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc(
// RUN: rm -rf %t.tree
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --test-mark --cse --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t.tree
// RUN: filecheck %s --check-prefix=TREE < %t.tree/builtin_module_no-symbol-name/0_test-mark.mlir
// TREE: // -----// IR Dump After Mark: test-mark //----- //
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.abs %0 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
