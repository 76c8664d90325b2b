// RUN: shlo-opt --shlo-legalize-vhlo %s | filecheck %s
// RUN: shlo-opt --shlo-legalize-vhlo --shlo-legalize-vhlo %s | filecheck %s

// A portable artifact's VHLO (StableHLO's serializer, version 1.0.0) back to StableHLO: the
// function ops, builtin types, gather's and dot_general's dimension numbers gathered from
// VHLO's separate fields, 1-D tensors as array attributes; a second run changes nothing.
// CHECK-LABEL: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<2x1xi32>) -> (tensor<2x3xf32>, tensor<4x4xf32>, tensor<4x3xf32>)
// CHECK:         "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}>
// CHECK:         stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT]
// CHECK:         "stablehlo.reduce_window"(%arg0, %{{.*}}) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}1, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>}>
// CHECK:           stablehlo.add
// CHECK-NEXT:      stablehlo.return
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<4x4xf32>, tensor<4x3xf32>
// CHECK-NOT:   vhlo.
module {
  vhlo.func_v1 @main(%arg0: !vhlo.tensor_v1<4x3x!vhlo.f32_v1>, %arg1: !vhlo.tensor_v1<2x1x!vhlo.i32_v1>) -> (!vhlo.tensor_v1<2x3x!vhlo.f32_v1>, !vhlo.tensor_v1<4x4x!vhlo.f32_v1>, !vhlo.tensor_v1<4x3x!vhlo.f32_v1>) {
    %0 = "vhlo.gather_v1"(%arg0, %arg1) <{collapsed_slice_dims = #vhlo.tensor_v1<dense<0> : tensor<1xi64>>, index_vector_dim = #vhlo.integer_v1<1 : i64>, indices_are_sorted = #vhlo.bool_v1<false>, offset_dims = #vhlo.tensor_v1<dense<1> : tensor<1xi64>>, slice_sizes = #vhlo.tensor_v1<dense<[1, 3]> : tensor<2xi64>>, start_index_map = #vhlo.tensor_v1<dense<0> : tensor<1xi64>>}> : (!vhlo.tensor_v1<4x3x!vhlo.f32_v1>, !vhlo.tensor_v1<2x1x!vhlo.i32_v1>) -> !vhlo.tensor_v1<2x3x!vhlo.f32_v1>
    %1 = "vhlo.dot_general_v1"(%arg0, %arg0) <{lhs_batching_dimensions = #vhlo.tensor_v1<dense<> : tensor<0xi64>>, lhs_contracting_dimensions = #vhlo.tensor_v1<dense<1> : tensor<1xi64>>, precision_config = #vhlo.array_v1<[#vhlo<precision_v1 DEFAULT>, #vhlo<precision_v1 DEFAULT>]>, rhs_batching_dimensions = #vhlo.tensor_v1<dense<> : tensor<0xi64>>, rhs_contracting_dimensions = #vhlo.tensor_v1<dense<1> : tensor<1xi64>>}> : (!vhlo.tensor_v1<4x3x!vhlo.f32_v1>, !vhlo.tensor_v1<4x3x!vhlo.f32_v1>) -> !vhlo.tensor_v1<4x4x!vhlo.f32_v1>
    %2 = "vhlo.constant_v1"() <{value = #vhlo.tensor_v1<dense<0.000000e+00> : tensor<f32>>}> : () -> !vhlo.tensor_v1<!vhlo.f32_v1>
    %3 = "vhlo.reduce_window_v1"(%arg0, %2) <{base_dilations = #vhlo.tensor_v1<dense<1> : tensor<2xi64>>, padding = #vhlo.tensor_v1<dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>>, window_dilations = #vhlo.tensor_v1<dense<1> : tensor<2xi64>>, window_dimensions = #vhlo.tensor_v1<dense<[2, 1]> : tensor<2xi64>>, window_strides = #vhlo.tensor_v1<dense<1> : tensor<2xi64>>}> ({
    ^bb0(%arg2: !vhlo.tensor_v1<!vhlo.f32_v1>, %arg3: !vhlo.tensor_v1<!vhlo.f32_v1>):
      %4 = "vhlo.add_v1"(%arg2, %arg3) : (!vhlo.tensor_v1<!vhlo.f32_v1>, !vhlo.tensor_v1<!vhlo.f32_v1>) -> !vhlo.tensor_v1<!vhlo.f32_v1>
      "vhlo.return_v1"(%4) : (!vhlo.tensor_v1<!vhlo.f32_v1>) -> ()
    }) : (!vhlo.tensor_v1<4x3x!vhlo.f32_v1>, !vhlo.tensor_v1<!vhlo.f32_v1>) -> !vhlo.tensor_v1<4x3x!vhlo.f32_v1>
    "vhlo.return_v1"(%0, %1, %3) : (!vhlo.tensor_v1<2x3x!vhlo.f32_v1>, !vhlo.tensor_v1<4x4x!vhlo.f32_v1>, !vhlo.tensor_v1<4x3x!vhlo.f32_v1>) -> ()
  } {arg_attrs = #vhlo.array_v1<[]>, res_attrs = #vhlo.array_v1<[]>, sym_visibility = #vhlo.string_v1<"">}
}

