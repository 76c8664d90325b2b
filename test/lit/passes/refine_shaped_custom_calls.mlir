// RUN: shlo-opt '--shlo-refine-arguments=types=tensor<2x3x3xf32> function=potrf_of_a_batch' --shlo-refine-shapes %s | filecheck %s

// jax's LAPACK calls under shape polymorphism: the results' shapes are operands
// (indices_of_shape_operands); known, they become the results' types. The symbolic size
// reaches the helper function as a known scalar argument, which the refined callee folds in.
// CHECK-LABEL: func.func @potrf_of_a_batch
// CHECK:         call @potrf(%{{.*}}, %arg0) : (tensor<i32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK-LABEL: func.func private @potrf
// CHECK-SAME:    (%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK:         stablehlo.constant dense<2> : tensor<i32>
// CHECK:         stablehlo.custom_call @lapack_spotrf_ffi({{.*}}) {{.*}} -> (tensor<2x3x3xf32>, tensor<2xi32>)
func.func @potrf_of_a_batch(%x: tensor<?x3x3xf32>) -> tensor<?x3x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3x3xf32>) -> tensor<i32>
  %0 = call @potrf(%n, %x) : (tensor<i32>, tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
  return %0 : tensor<?x3x3xf32>
}
func.func private @potrf(%b: tensor<i32> {jax.global_constant = "b"}, %x: tensor<?x3x3xf32>) -> tensor<?x3x3xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %c3, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%x, %shape, %b1) {indices_of_shape_operands = dense<[1, 2]> : tensor<2xi64>, mhlo.backend_config = {uplo = 76 : ui8}, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : (tensor<?x3x3xf32>, tensor<3xi32>, tensor<1xi32>) -> (tensor<?x3x3xf32>, tensor<?xi32>)
  return %0#0 : tensor<?x3x3xf32>
}
