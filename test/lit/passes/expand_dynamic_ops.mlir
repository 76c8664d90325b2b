// RUN: shlo-opt --shlo-expand-dynamic-ops --split-input-file %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-dynamic-ops %S/Inputs/expand_dynamic_ops_errors.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not shlo-opt --shlo-expand-dynamic-ops %S/Inputs/dynamic_conv_runtime_padding.mlir 2>&1 | filecheck %s --check-prefix=CONV

// CONV: dynamic_conv_runtime_padding.mlir:4:8: error: stablehlo.dynamic_conv: its padding depends on run-time sizes (jax's SAME padding with a stride over a symbolic length), which shlo does not compile yet: compile for concrete shapes (shlo.compile(..., specialize=True), or --shlo-refine-arguments)
// ERR: expand_dynamic_ops_errors.mlir:3:8: error: stablehlo.dynamic_broadcast_in_dim: 5 operand dimensions may or may not expand (IREE needs to know; shlo branches on at most 4): set known_expanding_dimensions or known_nonexpanding_dimensions

// A dynamic_reshape to a dynamic result: collapse to 1-D, expand to the runtime sizes.
// CHECK-LABEL: func.func @reshape
// CHECK:         %[[F:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x?xf32> into tensor<?xf32>
// CHECK:         %[[E0:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<2xi64>
// CHECK:         %[[I0:.*]] = arith.index_cast %[[E0]] : i64 to index
// CHECK:         %[[E1:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<2xi64>
// CHECK:         %[[I1:.*]] = arith.index_cast %[[E1]] : i64 to index
// CHECK:         tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [%[[I0]], %[[I1]]] : tensor<?xf32> into tensor<?x?xf32>
// CHECK-NOT:     stablehlo.dynamic_reshape
func.func @reshape(%a: tensor<?x?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A static result is left to IREE, which compiles it.
// CHECK-LABEL: func.func @static_result
// CHECK:         stablehlo.dynamic_reshape
func.func @static_result(%a: tensor<?xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A dimension that may or may not expand: branch on its size.
// CHECK-LABEL: func.func @ambiguous_broadcast
// CHECK:         %[[N:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         %[[ONE:.*]] = stablehlo.compare EQ, %[[N]]
// CHECK:         "stablehlo.if"(%[[ONE]])
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] {known_expanding_dimensions = array<i64: 0>}
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] {known_nonexpanding_dimensions = array<i64: 0>}
func.func @ambiguous_broadcast(%a: tensor<?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An unsigned tensor of dynamic shape: its size is read from, and its broadcast made on, a
// signless convert of it (IREE 3.13 cannot read the size of an unsigned tensor).
// CHECK-LABEL: func.func @unsigned
// CHECK:         %[[S:.*]] = stablehlo.convert %arg0 : (tensor<?xui16>) -> tensor<?xi16>
// CHECK:         %[[N:.*]] = stablehlo.get_dimension_size %[[S]], dim = 0 : (tensor<?xi16>) -> tensor<i32>
// CHECK:         %[[S2:.*]] = stablehlo.convert %arg0 : (tensor<?xui16>) -> tensor<?xi16>
// CHECK:         %[[B:.*]] = stablehlo.dynamic_broadcast_in_dim %[[S2]], %arg1, dims = [1] {{.*}}: (tensor<?xi16>, tensor<2xi32>) -> tensor<?x?xi16>
// CHECK:         %[[U:.*]] = stablehlo.convert %[[B]] : (tensor<?x?xi16>) -> tensor<?x?xui16>
// CHECK:         return %[[N]], %[[U]]
func.func @unsigned(%a: tensor<?xui16>, %s: tensor<2xi32>) -> (tensor<i32>, tensor<?x?xui16>) {
  %0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?xui16>) -> tensor<i32>
  %1 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] {known_nonexpanding_dimensions = array<i64: 0>} : (tensor<?xui16>, tensor<2xi32>) -> tensor<?x?xui16>
  return %0, %1 : tensor<i32>, tensor<?x?xui16>
}

// -----

// A matrix-vector product with a run-time size: a broadcast multiply and a sum (IREE 3.13
// rejects the dynamic reshape it would make of the dot_general).
// CHECK-LABEL: func.func @matvec
// CHECK:         %[[L:.*]] = stablehlo.dynamic_broadcast_in_dim %arg0, %{{.*}}, dims = [0, 1] {known_nonexpanding_dimensions = array<i64: 0, 1>} : (tensor<?x5xf32>, tensor<2xi32>) -> tensor<?x5xf32>
// CHECK:         %[[R:.*]] = stablehlo.dynamic_broadcast_in_dim %arg1, %{{.*}}, dims = [1] {known_nonexpanding_dimensions = array<i64: 0>} : (tensor<5xf32>, tensor<2xi32>) -> tensor<?x5xf32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %[[L]], %[[R]] : tensor<?x5xf32>
// CHECK:         stablehlo.reduce(%[[P]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<?x5xf32>, tensor<f32>) -> tensor<?xf32>
// CHECK-NOT:     stablehlo.dot_general
func.func @matvec(%a: tensor<?x5xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x5xf32>, tensor<5xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Matrix products keep their dot_general (IREE compiles them with run-time sizes).
// CHECK-LABEL: func.func @matmul
// CHECK:         stablehlo.dot_general
func.func @matmul(%a: tensor<?x5xf32>, %b: tensor<5x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x5xf32>, tensor<5x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// One slice with run-time sizes (jax's x[1:]): a real_dynamic_slice from the clamped start.
// CHECK-LABEL: func.func @tail
// CHECK:         %[[S:.*]] = stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<1xi64>
// CHECK:         %[[E:.*]] = stablehlo.add %[[S]], %{{.*}} : tensor<1xi64>
// CHECK:         stablehlo.real_dynamic_slice %arg0, %[[S]], %[[E]], %{{.*}} : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
// CHECK-NOT:     dynamic_gather
func.func @tail(%x: tensor<?xf32>, %n: tensor<1xi32>) -> tensor<?xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %0 = "stablehlo.dynamic_gather"(%x, %one, %n) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], start_index_map = [0]>, indices_are_sorted = true}> : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One slice with a collapsed dimension (y[0] of a [1, b, 16] convolution result): the slice
// keeps the dimension (size 1), a collapse_shape drops it.
// CHECK-LABEL: func.func @first_of_one
// CHECK:         %[[S:.*]] = stablehlo.real_dynamic_slice %arg0, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x16xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x?x16xf32>
// CHECK:         tensor.collapse_shape %[[S]] {{\[}}[0, 1], [2]] : tensor<1x?x16xf32> into tensor<?x16xf32>
// CHECK-NOT:     dynamic_gather
func.func @first_of_one(%y: tensor<1x?x16xf32>, %sizes: tensor<3xi32>) -> tensor<?x16xf32> {
  %zero = stablehlo.constant dense<0> : tensor<1xi32>
  %0 = "stablehlo.dynamic_gather"(%y, %zero, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true}> : (tensor<1x?x16xf32>, tensor<1xi32>, tensor<3xi32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// A row sum broadcast back to the rows' shape (jax's softmax with a symbolic batch): both
// sizes are dimension 0 of %x, so the broadcast cannot expand there (no stablehlo.if), and
// the [b] -> [b, 1] -> [b, 16] pair becomes one broadcast that says so.
// CHECK-LABEL: func.func @row_sum_back
// CHECK-NOT:     stablehlo.if
// CHECK:         stablehlo.dynamic_broadcast_in_dim %{{.*}}, %{{.*}}, dims = [0] {known_nonexpanding_dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x16xf32>
// CHECK-NOT:     stablehlo.if
func.func @row_sum_back(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %n16 = stablehlo.constant dense<16> : tensor<1xi32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x16xf32>, tensor<f32>) -> tensor<?xf32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %shape1 = stablehlo.concatenate %b1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s1 = stablehlo.dynamic_broadcast_in_dim %s, %shape1, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
  %shape2 = stablehlo.concatenate %b1, %n16, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s2 = stablehlo.dynamic_broadcast_in_dim %s1, %shape2, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x16xf32>
  %0 = stablehlo.divide %x, %s2 : tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// x[:, [3, 1]] with a run-time number of rows: the slice size of dimension 0 is that
// dimension's own size, so it becomes a batching dimension of a gather with static slice
// sizes, the indices broadcast along it.
// CHECK-LABEL: func.func @whole_rows
// CHECK:         %[[I:.*]] = stablehlo.dynamic_broadcast_in_dim %arg1, %{{.*}}, dims = [1, 2] : (tensor<2x1xi32>, tensor<3xi64>) -> tensor<?x2x1xi32>
// CHECK:         "stablehlo.gather"(%arg0, %[[I]]) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<?x5xf32>, tensor<?x2x1xi32>) -> tensor<?x2xf32>
// CHECK-NOT:     dynamic_gather
func.func @whole_rows(%x: tensor<?x5xf32>, %i: tensor<2x1xi32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x5xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x5xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// A convolution over a run-time length (IREE 3.13 rejects it): per window position, a slice
// of the padded input sized by the window count (computed once), collapsed to rows, times the
// kernel's matrix there; the sum expanded back to [batch, length, features].
// CHECK-LABEL: func.func @conv1d_over_a_dynamic_length
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 1, 0], high = [0, 1, 0]
// CHECK:         %[[K:.*]] = tensor.extract %{{.*}}[] : tensor<index>
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[P]][0, 0, 0] [2, %[[K]], 8] [1, 1, 1]
// CHECK:         %[[R0:.*]] = tensor.collapse_shape %[[S0]] {{\[\[}}0, 1], [2]] : tensor<2x?x8xf32> into tensor<?x8xf32>
// CHECK:         %[[D0:.*]] = stablehlo.dot_general %[[R0]], %{{.*}}, contracting_dims = [1] x [0]
// CHECK:         tensor.extract_slice %[[P]][0, 1, 0] [2, %[[K]], 8]
// CHECK:         %[[D1:.*]] = stablehlo.dot_general
// CHECK:         stablehlo.add %[[D0]], %[[D1]]
// CHECK:         tensor.extract_slice %[[P]][0, 2, 0] [2, %[[K]], 8]
// CHECK:         %[[SUM:.*]] = stablehlo.add
// CHECK:         tensor.expand_shape %[[SUM]] {{\[\[}}0, 1], [2]] output_shape [2, %[[K]], 4]
// CHECK-NOT:     stablehlo.convolution
func.func @conv1d_over_a_dynamic_length(%x: tensor<2x?x8xf32>, %w: tensor<3x8x4xf32>) -> tensor<2x?x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x8xf32>, tensor<3x8x4xf32>) -> tensor<2x?x4xf32>
  return %0 : tensor<2x?x4xf32>
}

// -----

// lax.scan stacking its outputs into a buffer of run-time length (IREE 3.13 rejects a
// dynamic_update_slice of a run-time sized operand): a tensor.insert_slice at the start
// clamped to [0, rows - 1].
// CHECK-LABEL: func.func @stack_into_a_dynamic_buffer
// CHECK:         %[[ROWS:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         %[[ROOM:.*]] = stablehlo.subtract
// CHECK:         %[[I:.*]] = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<i64>
// CHECK:         %[[CLAMPED:.*]] = stablehlo.clamp %{{.*}}, %[[I]], %[[ROOM]]
// CHECK:         %[[CAST:.*]] = arith.index_cast %[[CLAMPED]]
// CHECK:         %[[ROW:.*]] = tensor.extract %[[CAST]][]
// CHECK:         tensor.insert_slice %arg1 into %arg0[%[[ROW]], %{{.*}}] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
// CHECK-NOT:     dynamic_update_slice
func.func @stack_into_a_dynamic_buffer(%buf: tensor<?x4xf32>, %row: tensor<1x4xf32>, %i: tensor<i32>) -> tensor<?x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %buf, %row, %i, %c0 : (tensor<?x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A run-time size converted to f64 (IREE's host VM has no i32 -> f64 cast): 2^52 + n as bits,
// read as f64, less 2^52.
// CHECK-LABEL: func.func @size_as_f64
// CHECK:         %[[N:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         %[[WIDE:.*]] = stablehlo.convert %[[N]] : (tensor<i32>) -> tensor<i64>
// CHECK:         %[[BITS:.*]] = stablehlo.or %[[WIDE]], %{{.*}} : tensor<i64>
// CHECK:         %[[F:.*]] = stablehlo.bitcast_convert %[[BITS]] : (tensor<i64>) -> tensor<f64>
// CHECK:         stablehlo.subtract %[[F]], %{{.*}} : tensor<f64>
func.func @size_as_f64(%x: tensor<?xf32>) -> tensor<f64> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %0 = stablehlo.convert %n : (tensor<i32>) -> tensor<f64>
  return %0 : tensor<f64>
}
