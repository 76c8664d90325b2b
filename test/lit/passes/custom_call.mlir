// RUN: shlo-opt --shlo-expand-custom-calls %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-custom-calls %S/Inputs/custom_call_unknown.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not shlo-opt --shlo-expand-custom-calls %S/Inputs/dynamic_window_not_cumulative.mlir 2>&1 | filecheck %s --check-prefix=WINDOW

// IREE's own shape_assertion stays; nothing is registered from the command line.
// CHECK-LABEL: func.func @iree_target
// CHECK:         stablehlo.custom_call @shape_assertion
func.func @iree_target(%x: tensor<i1>) {
  stablehlo.custom_call @shape_assertion(%x) {error_message = "bad", has_side_effect = true} : (tensor<i1>) -> ()
  return
}

// ERR: custom_call_unknown.mlir:3:8: error: stablehlo.custom_call: no decomposition for target 'my_lib.fused_gelu': register one with shlo.passes.custom_calls.expand_custom_calls.register_custom_call (registered: {{.*}}lapack_spotrf_ffi{{.*}})
// WINDOW: dynamic_window_not_cumulative.mlir:6:8: error: stablehlo.custom_call @stablehlo.dynamic_reduce_window: its window or size operands depend on run-time sizes, and shlo makes it a static op only when they are known at compile time (at any size it decomposes only cumulative windows: add, multiply, max, min, and, or along one dimension): compile for concrete shapes

// jax's cumsum along a run-time sized dimension (reverse=False) becomes a scan: a while loop
// doubling the shift s while s < n, each step the running sums plus themselves shifted by s.
// CHECK-LABEL: func.func @cumsum_rows
// CHECK-NOT:     custom_call
// CHECK:         stablehlo.get_dimension_size %arg0, dim = 1
// CHECK:         %[[N:.*]] = stablehlo.reshape {{.*}} -> tensor<i64>
// CHECK:         stablehlo.while(%[[S:.*]] = %{{.*}}, %[[Y:.*]] = %arg0)
// CHECK:           stablehlo.compare LT, %[[S]], %[[N]]
// CHECK:           %[[ID:.*]] = stablehlo.dynamic_broadcast_in_dim %cst
// CHECK:           %[[JOINED:.*]] = stablehlo.concatenate %[[ID]], %[[Y]], dim = 1
// CHECK:           %[[START:.*]] = stablehlo.subtract %[[N]], %[[S]]
// CHECK:           %[[SHIFTED:.*]] = stablehlo.real_dynamic_slice %[[JOINED]]
// CHECK:           %[[SUM:.*]] = stablehlo.add %[[SHIFTED]], %[[Y]] : tensor<3x?xf32>
// CHECK:           %[[NEXT:.*]] = stablehlo.add %[[S]], %[[S]] : tensor<i64>
// CHECK:           stablehlo.return %[[NEXT]], %[[SUM]]
func.func @cumsum_rows(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x?xf32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c1x2 = stablehlo.constant dense<1> : tensor<2xi32>
  %c00 = stablehlo.constant dense<0> : tensor<1x2xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %cm1 = stablehlo.constant dense<-1> : tensor<i32>
  %lo = stablehlo.add %b, %cm1 : tensor<i32>
  %lo1 = stablehlo.reshape %lo : (tensor<i32>) -> tensor<1xi32>
  %pad_row = stablehlo.concatenate %lo1, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %pad_row2 = stablehlo.reshape %pad_row : (tensor<2xi32>) -> tensor<1x2xi32>
  %padding = stablehlo.concatenate %c00, %pad_row2, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %window = stablehlo.concatenate %c1, %b1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %window, %c1x2, %c1x2, %c1x2, %padding) {called_computations = [@add_reducer]} : (tensor<3x?xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}
func.func private @add_reducer(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
