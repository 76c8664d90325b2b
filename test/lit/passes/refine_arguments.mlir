// RUN: shlo-opt --shlo-refine-arguments='types=tensor<4x3xf32>,tensor<i32>' %s | filecheck %s
// RUN: shlo-opt --shlo-refine-arguments='types=tensor<4x3xf32>,tensor<i32>' --shlo-refine-shapes %s | filecheck %s --check-prefix=REFINED
// RUN: not shlo-opt --shlo-refine-arguments='types=tensor<4x4xf32>,tensor<i32>' %s 2>&1 | filecheck %s --check-prefix=MISMATCH
// RUN: not shlo-opt --shlo-refine-arguments='types=tensor<4x3xf32>' %s 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not shlo-opt --shlo-refine-arguments='types=tensor<4x3xf32>,tensor<i32>' --shlo-refine-arguments='function=nope' %s 2>&1 | filecheck %s --check-prefix=NAME

// The signature changes; the body sees the old type through a wrapper until refine-shapes.
// CHECK-LABEL: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<i32>) -> tensor<?x3xf32>
// CHECK:         %[[SHAPE:.*]] = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
// CHECK:         %[[W:.*]] = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%arg0, %[[SHAPE]]) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
// CHECK:         stablehlo.add %[[W]], %[[W]] : tensor<?x3xf32>

// REFINED-LABEL: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<i32>) -> tensor<4x3xf32>
// REFINED-NOT:     custom_call
// REFINED:         stablehlo.add %arg0, %arg0 : tensor<4x3xf32>

// MISMATCH: error: shlo-refine-arguments: argument 0 has type tensor<?x3xf32>, which tensor<4x4xf32> does not refine
// COUNT: error: shlo-refine-arguments: @main has 2 arguments but types= gives 1
// NAME: error: shlo-refine-arguments: no function @nope (functions: @main)
func.func @main(%a: tensor<?x3xf32>, %n: tensor<i32>) -> tensor<?x3xf32> {
  %0 = stablehlo.add %a, %a : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
