// RUN: shlo-opt --shlo-canonicalize-scatter --split-input-file --verify-diagnostics %s | filecheck %s
// Every scatter becomes IREE's canonical form: indexed dims first and inserted, indices [N, k],
// out-of-bounds points sent to a padded row that is sliced off; the result transposed back.

// CHECK-LABEL: func.func @inserted_0_2
// CHECK:         %[[X:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<4x5x6xf32>) -> tensor<4x6x5xf32>
// CHECK:         stablehlo.compare GE, %arg1
// CHECK:         stablehlo.reduce
// CHECK:         %[[I:.*]] = stablehlo.select
// CHECK:         %[[P:.*]] = stablehlo.pad %[[X]], {{.*}} high = [1, 0, 0]
// CHECK:         %[[S:.*]] = "stablehlo.scatter"(%[[P]], %[[I]], %arg2)
// CHECK-SAME:      update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1
// CHECK:           stablehlo.add
// CHECK:         }) {shlo.canonical} : (tensor<5x6x5xf32>, tensor<3x2xi32>, tensor<3x5xf32>) -> tensor<5x6x5xf32>
// CHECK:         %[[C:.*]] = stablehlo.slice %[[S]] [0:4, 0:6, 0:5]
// CHECK:         %[[R:.*]] = stablehlo.transpose %[[C]], dims = [0, 2, 1]
// CHECK:         return %[[R]]
func.func @inserted_0_2(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi32>, %u: tensor<3x5xf32>) -> tensor<4x5x6xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 2], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x5x6xf32>, tensor<3x2xi32>, tensor<3x5xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// A window of 3 along an indexed dimension becomes 3 points per start index.
// CHECK-LABEL: func.func @window_on_indexed_dim
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [0, 2] : (tensor<2x1xi32>) -> tensor<2x3x1xi32>
// CHECK:         %[[O:.*]] = stablehlo.iota dim = 1 : tensor<2x3x1xi32>
// CHECK:         stablehlo.add %[[B]], %[[O]] : tensor<2x3x1xi32>
// CHECK:         stablehlo.reshape %arg2 : (tensor<2x3x4xi32>) -> tensor<6x4xi32>
// CHECK:         "stablehlo.scatter"
// CHECK-SAME:      update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1
// CHECK:         (tensor<7x4xi32>, tensor<6x1xi32>, tensor<6x4xi32>) -> tensor<7x4xi32>
func.func @window_on_indexed_dim(%x: tensor<6x4xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3x4xi32>) -> tensor<6x4xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<6x4xi32>, tensor<2x1xi32>, tensor<2x3x4xi32>) -> tensor<6x4xi32>
  return %0 : tensor<6x4xi32>
}

// A batching dimension is an indexed dimension whose index is an iota.
// CHECK-LABEL: func.func @batching
// CHECK:         %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<2x3x1xi64>
// CHECK:         stablehlo.concatenate %arg1, %[[IOTA]], dim = 2 : (tensor<2x3x1xi64>, tensor<2x3x1xi64>) -> tensor<2x3x2xi64>
// CHECK:         stablehlo.transpose %arg0, dims = [1, 0]
// CHECK:         "stablehlo.scatter"
// CHECK-SAME:      inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1
// CHECK-NOT:       input_batching_dims
// CHECK:         (tensor<6x2xf32>, tensor<6x2xi64>, tensor<6xf32>) -> tensor<6x2xf32>
func.func @batching(%x: tensor<2x5xf32>, %i: tensor<2x3x1xi64>, %u: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<2x5xf32>, tensor<2x3x1xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// Constant indices whose windows lie inside the operand need no bounds guard.
// CHECK-LABEL: func.func @constant_in_bounds
// CHECK-NOT:     stablehlo.pad
// CHECK:         "stablehlo.scatter"(%arg0, %{{.*}}, %arg1)
// CHECK-NOT:     stablehlo.slice
func.func @constant_in_bounds(%x: tensor<4x3xf32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %i = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// No update elements: the scatter is its input.
// CHECK-LABEL: func.func @no_updates
// CHECK-NOT:     stablehlo.scatter
// CHECK:         return %arg0
func.func @no_updates(%x: tensor<4x3xf32>, %i: tensor<0x1xi32>, %u: tensor<0x3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<0x1xi32>, tensor<0x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Negative: a scatter already rewritten (shlo.canonical) and one with dynamic shapes stay.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.transpose
// CHECK-NOT:     stablehlo.pad
// CHECK:         "stablehlo.scatter"(%arg0, %arg1, %arg2)
// CHECK:         "stablehlo.scatter"(%arg3, %arg4, %arg5)
// CHECK-SAME:      update_window_dims = [1], inserted_window_dims = [0, 2]
func.func @left_alone(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>,
                      %dx: tensor<?x5x6xf32>, %di: tensor<?x2xi32>, %du: tensor<?x5xf32>) -> (tensor<5x3xf32>, tensor<?x5x6xf32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {shlo.canonical} : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %1 = "stablehlo.scatter"(%dx, %di, %du) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 2], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<?x5x6xf32>, tensor<?x2xi32>, tensor<?x5xf32>) -> tensor<?x5x6xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<?x5x6xf32>
}

// -----

// Two inputs whose update computations are independent: one scatter each (IREE 3.13 has
// no variadic scatter).
// CHECK-LABEL: func.func @variadic
// CHECK:         "stablehlo.scatter"({{.*}}) <{
// CHECK:           stablehlo.add {{.*}} : tensor<f32>
// CHECK:         }) {shlo.canonical} : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
// CHECK:         "stablehlo.scatter"({{.*}}) <{
// CHECK:           stablehlo.multiply {{.*}} : tensor<i32>
// CHECK:         }) {shlo.canonical} : (tensor<5x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<5x3xi32>
func.func @variadic(%x: tensor<4x3xf32>, %y: tensor<4x3xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>, %v: tensor<2x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<f32>
    %2 = stablehlo.multiply %b, %d : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xi32>
}

// -----

// An update computation that mixes its inputs (an argmax) cannot be split: a clear error.
func.func @variadic_mixed(%x: tensor<4xf32>, %y: tensor<4xi32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-error @+1 {{shlo-canonicalize-scatter: a scatter of 2 inputs whose update computation combines them (result 1 reads arguments [0, 1, 2, 3]) cannot be split, and IREE 3.13 has no variadic scatter}}
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %p = stablehlo.compare GE, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.select %p, %a, %c : tensor<i1>, tensor<f32>
    %2 = stablehlo.select %p, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) : (tensor<4xf32>, tensor<4xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// A dynamically shaped unsigned scatter (IREE 3.13 fails on its constant update): on signless
// integers of the same width, maximum as a signed compare of sign-flipped values and a select.
// CHECK-LABEL: func.func @unsigned_dynamic
// CHECK-DAG:     %[[X:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<?xui8>) -> tensor<?xi8>
// CHECK:         "stablehlo.scatter"(%[[X]]
// CHECK:           stablehlo.xor
// CHECK:           stablehlo.compare GT, %{{.*}}, %{{.*}}, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
// CHECK:           stablehlo.select
// CHECK:         (tensor<?xi8>, tensor<1xi32>, tensor<i8>) -> tensor<?xi8>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<?xi8>) -> tensor<?xui8>
func.func @unsigned_dynamic(%x: tensor<?xui8>) -> tensor<?xui8> {
  %i = stablehlo.constant dense<1> : tensor<1xi32>
  %u = stablehlo.constant dense<200> : tensor<ui8>
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %m = stablehlo.maximum %a, %b : tensor<ui8>
    stablehlo.return %m : tensor<ui8>
  }) : (tensor<?xui8>, tensor<1xi32>, tensor<ui8>) -> tensor<?xui8>
  return %r : tensor<?xui8>
}

// -----

// Updates of 1024 or more elements that an op computes reach the scatter through a fusion
// barrier (IREE's cpu backend fused their convert into the scatter and kept all of it on the
// stack); an argument's updates do not.
// CHECK-LABEL: func.func @computed_updates
// CHECK:         %[[U:.*]] = stablehlo.convert %arg2 : (tensor<4x256xf16>) -> tensor<4x256xf32>
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[U]]
// CHECK:         "stablehlo.scatter"({{.*}}, {{.*}}, %[[B]])
// CHECK:         "stablehlo.scatter"({{.*}}, {{.*}}, %arg3)
// CHECK-NOT:     compute_barrier
func.func @computed_updates(%x: tensor<8x256xf32>, %i: tensor<4x1xi32>, %u16: tensor<4x256xf16>, %u: tensor<4x256xf32>) -> (tensor<8x256xf32>, tensor<8x256xf32>) {
  %c = stablehlo.convert %u16 : (tensor<4x256xf16>) -> tensor<4x256xf32>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<8x256xf32>, tensor<4x1xi32>, tensor<4x256xf32>) -> tensor<8x256xf32>
  %2 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<8x256xf32>, tensor<4x1xi32>, tensor<4x256xf32>) -> tensor<8x256xf32>
  return %0, %2 : tensor<8x256xf32>, tensor<8x256xf32>
}
