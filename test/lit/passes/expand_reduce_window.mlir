// RUN: shlo-opt --shlo-expand-reduce-window %s | filecheck %s
// Padding and base dilation become an explicit stablehlo.pad with the init value (interior
// padding for base dilation, negative padding for the tail no window reads).

// CHECK-LABEL: func.func @base_dilation
// CHECK:         %[[INIT:.*]] = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %[[INIT]], low = [0, 1], high = [0, 0], interior = [1, 2] : (tensor<4x5xf32>, tensor<f32>) -> tensor<7x14xf32>
// CHECK:         "stablehlo.reduce_window"(%[[P]], %[[INIT]])
// CHECK-NOT:       base_dilations
// CHECK-NOT:       padding
// CHECK-SAME:      window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 1>
// CHECK:         (tensor<7x14xf32>, tensor<f32>) -> tensor<3x12xf32>
func.func @base_dilation(%x: tensor<4x5xf32>) -> tensor<3x12xf32> {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 1>, base_dilations = array<i64: 2, 3>, window_dilations = array<i64: 1, 2>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x5xf32>, tensor<f32>) -> tensor<3x12xf32>
  return %0 : tensor<3x12xf32>
}

// An unsigned cumulative sum (what jnp.cumsum of uint32 lowers to).
// CHECK-LABEL: func.func @cumsum_ui32
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [5], high = [0], interior = [0] : (tensor<6xui32>, tensor<ui32>) -> tensor<11xui32>
// CHECK:         "stablehlo.reduce_window"(%[[P]], %{{.*}}) <{window_dimensions = array<i64: 6>}>
func.func @cumsum_ui32(%x: tensor<6xui32>) -> tensor<6xui32> {
  %c = stablehlo.constant dense<0> : tensor<ui32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[5, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 6>}> ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %1 = stablehlo.add %a, %b : tensor<ui32>
    stablehlo.return %1 : tensor<ui32>
  }) : (tensor<6xui32>, tensor<ui32>) -> tensor<6xui32>
  return %0 : tensor<6xui32>
}

// Strides that never reach the last element: it is sliced off (negative high padding).
// CHECK-LABEL: func.func @unread_tail
// CHECK:         stablehlo.pad %arg0, %{{.*}}, low = [0], high = [-1], interior = [0] : (tensor<5xi32>, tensor<i32>) -> tensor<4xi32>
func.func @unread_tail(%x: tensor<5xi32>) -> tensor<2xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<5xi32>, tensor<i32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// Negative: a plain window that reads its whole input stays as it is.
// CHECK-LABEL: func.func @plain
// CHECK-NOT:     stablehlo.pad
// CHECK:         "stablehlo.reduce_window"(%arg0
func.func @plain(%x: tensor<4x6xf32>) -> tensor<3x3xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// A complex sum (cumsum): the sums of the parts (IREE's Vulkan compiler crashes on the complex
// scan, its CPU compiler on other padded complex windows).
// CHECK-LABEL: func.func @complex_cumsum
// CHECK:         %[[RE:.*]] = "stablehlo.reduce_window"({{.*}}) <{padding = dense<{{\[\[}}3, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 4>}>
// CHECK:         stablehlo.add {{.*}} : tensor<f32>
// CHECK:         %[[IM:.*]] = "stablehlo.reduce_window"
// CHECK:         stablehlo.complex %[[RE]], %[[IM]] : tensor<4xcomplex<f32>>
func.func @complex_cumsum(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %c = stablehlo.constant dense<(0.0,0.0)> : tensor<complex<f32>>
  %r = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 4>, padding = dense<[[3, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
    %s = stablehlo.add %a, %b : tensor<complex<f32>>
    stablehlo.return %s : tensor<complex<f32>>
  }) : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}

// A cumulative sum along the rows of a run-time number of rows: the padded input's five
// shifted slices, all sized by the one run-time row count, added up (the init 0 is the
// identity of add, so it is left out; IREE rejects the dynamic reduce_window).
// CHECK-LABEL: func.func @cumsum_rows_of_a_dynamic_batch
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 4], high = [0, 0], interior = [0, 0] : (tensor<?x5xf32>, tensor<f32>) -> tensor<?x9xf32>
// CHECK:         %[[ROWS:.*]] = tensor.dim %arg0
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[P]][0, 0] [%[[ROWS]], 5] [1, 1]
// CHECK:         %[[S1:.*]] = tensor.extract_slice %[[P]][0, 1] [%[[ROWS]], 5] [1, 1]
// CHECK:         stablehlo.add %[[S0]], %[[S1]]
// CHECK-COUNT-3: tensor.extract_slice %[[P]][0, {{[234]}}] [%[[ROWS]], 5] [1, 1]
// CHECK-NOT:     reduce_window
func.func @cumsum_rows_of_a_dynamic_batch(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [4, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 5>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<?x5xf32>, tensor<f32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}

// A window of 3, stride 2, sliding along a run-time length with the init 1 (not the identity
// of add: it is added once): max((n - 3) / 2 + 1, 0) windows, computed once at run time
// and shared by the three strided slices.
// CHECK-LABEL: func.func @pool_over_a_dynamic_length
// CHECK:         stablehlo.get_dimension_size
// CHECK:         stablehlo.divide
// CHECK:         %[[COUNT:.*]] = stablehlo.select
// CHECK:         %[[C:.*]] = arith.index_cast %[[COUNT]]
// CHECK:         %[[K:.*]] = tensor.extract %[[C]][]
// CHECK:         %[[S0:.*]] = tensor.extract_slice %{{.*}}[0] [%[[K]]] [2]
// CHECK:         %[[INIT:.*]] = stablehlo.dynamic_broadcast_in_dim %cst
// CHECK:         stablehlo.add %[[INIT]], %[[S0]]
// CHECK:         tensor.extract_slice %{{.*}}[1] [%[[K]]] [2]
// CHECK:         tensor.extract_slice %{{.*}}[2] [%[[K]]] [2]
// CHECK-NOT:     reduce_window
func.func @pool_over_a_dynamic_length(%x: tensor<?xf32>) -> tensor<?xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %one) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
