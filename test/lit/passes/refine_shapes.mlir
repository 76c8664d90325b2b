// RUN: shlo-opt --shlo-refine-shapes --split-input-file %s | filecheck %s
// RUN: shlo-opt --shlo-refine-shapes --split-input-file --verify-diagnostics %S/Inputs/refine_shapes_errors.mlir

// CHECK-LABEL: func.func @static_program_unchanged
// CHECK-SAME:    (%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %arg0, %arg0 : tensor<4xf32>
func.func @static_program_unchanged(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Results follow their operands (MLIR's inference, then shlo's tables), and the signature.
// refine-arguments' wrappers go away.
// CHECK-LABEL: func.func @propagate
// CHECK-NOT:     custom_call
// CHECK-SAME:    -> (tensor<4x3xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<4x3xi32>)
// CHECK:         stablehlo.add {{.*}} : tensor<4x3xf32>
// CHECK:         stablehlo.reduce{{.*}} -> tensor<4xf32>
// CHECK:         stablehlo.transpose {{.*}} -> tensor<3x4xf32>
// CHECK:         stablehlo.convert {{.*}} -> tensor<4x3xi32>
func.func @propagate(%a: tensor<4x3xf32>) -> (tensor<?x3xf32>, tensor<?xf32>, tensor<3x?xf32>, tensor<?x3xi32>) {
  %shape_a = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
  %w = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%a, %shape_a) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %0 = stablehlo.add %w, %w : tensor<?x3xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
  %2 = stablehlo.transpose %0, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>
  %3 = stablehlo.convert %0 : (tensor<?x3xf32>) -> tensor<?x3xi32>
  return %0, %1, %2, %3 : tensor<?x3xf32>, tensor<?xf32>, tensor<3x?xf32>, tensor<?x3xi32>
}

// -----

// Shape computations are evaluated and dynamic ops become static ones.
// CHECK-LABEL: func.func @dynamic_ops
// CHECK-NOT:     stablehlo.dynamic_
// CHECK-DAG:     stablehlo.reshape %arg0 : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-DAG:     stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x3xf32>) -> tensor<2x4x3xf32>
// CHECK-DAG:     stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-DAG:     stablehlo.pad %arg0, {{.*}}, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<5x7xf32>
// CHECK-DAG:     stablehlo.slice %arg0 [1:3, 0:3:2] : (tensor<4x3xf32>) -> tensor<2x2xf32>
// CHECK-DAG:     stablehlo.slice %arg0 [2:4, 1:3] : (tensor<4x3xf32>) -> tensor<2x2xf32>
// CHECK:         return {{.*}} : tensor<3x4xf32>, tensor<2x4x3xf32>, tensor<4xi32>, tensor<5x7xf32>, tensor<2x2xf32>, tensor<2x2xf32>
func.func @dynamic_ops(%a: tensor<4x3xf32>) -> (tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x2xf32>) {
  %d0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<4x3xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r1, %r0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %s3 = stablehlo.concatenate %two, %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %1 = stablehlo.dynamic_broadcast_in_dim %a, %s3, dims = [1, 2] : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  %2 = stablehlo.dynamic_iota %r0, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %3 = stablehlo.dynamic_pad %a, %z, %lo, %hi, %in : (tensor<4x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %st = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %li = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  %sd = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %4 = stablehlo.real_dynamic_slice %a, %st, %li, %sd : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  // Start indices are clamped as the spec says: row 9 -> 2.
  %i9 = stablehlo.constant dense<9> : tensor<i64>
  %i1 = stablehlo.constant dense<1> : tensor<i64>
  %5 = stablehlo.dynamic_slice %a, %i9, %i1, sizes = [2, 2] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<2x2xf32>
}

// -----

// A private callee with one caller is refined in place; a callee called with two signatures
// gets a refined copy for the first, and is refined in place for the last.
// CHECK-LABEL: func.func @calls
// CHECK:         call @twice_refined_0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:         call @twice(%arg1) : (tensor<7xf32>) -> tensor<7xf32>
// CHECK:         call @once(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @twice(%arg0: tensor<7xf32>) -> tensor<7xf32>
// CHECK:         stablehlo.add %arg0, %arg0 : tensor<7xf32>
// CHECK-LABEL: func.func private @twice_refined_0(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @once(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
func.func @calls(%a: tensor<4xf32>, %b: tensor<7xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %shape_a = stablehlo.constant dense<4> : tensor<1xi64>
  %shape_b = stablehlo.constant dense<7> : tensor<1xi64>
  %wa = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%a, %shape_a) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  %wb = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%b, %shape_b) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<7xf32>, tensor<1xi64>) -> tensor<?xf32>
  %0 = func.call @twice(%wa) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = func.call @twice(%wb) : (tensor<?xf32>) -> tensor<?xf32>
  %2 = func.call @once(%wa) : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
func.func private @twice(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %x, %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func private @once(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A loop-carried value is refined when the body keeps its shape; one that grows stays dynamic.
// CHECK-LABEL: func.func @loops
// CHECK:         stablehlo.while
// CHECK:         stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK:         stablehlo.concatenate {{.*}} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK:         return {{.*}} : tensor<4xf32>, tensor<?xf32>
func.func @loops(%a: tensor<4xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %shape_a = stablehlo.constant dense<4> : tensor<1xi64>
  %w = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%a, %shape_a) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%it = %i, %x = %w, %g = %w) : tensor<i32>, tensor<?xf32>, tensor<?xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %it, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %it, %one : tensor<i32>
      %y = stablehlo.add %x, %x : tensor<?xf32>
      %h = stablehlo.concatenate %g, %g, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      stablehlo.return %next, %y, %h : tensor<i32>, tensor<?xf32>, tensor<?xf32>
    }
  return %0#1, %0#2 : tensor<?xf32>, tensor<?xf32>
}

// -----

// if and case results take what all branches agree on.
// CHECK-LABEL: func.func @branches
// CHECK:         "stablehlo.if"
// CHECK:         }) : (tensor<i1>) -> tensor<4xf32>
// CHECK:         "stablehlo.case"
// CHECK:         stablehlo.convert %arg2 : (tensor<4xf32>) -> tensor<?xf32>
// CHECK:         stablehlo.convert %arg3 : (tensor<5xf32>) -> tensor<?xf32>
// CHECK:         -> tensor<?xf32>
func.func @branches(%p: tensor<i1>, %k: tensor<i32>, %a: tensor<4xf32>, %b: tensor<5xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %shape_a = stablehlo.constant dense<4> : tensor<1xi64>
  %shape_b = stablehlo.constant dense<5> : tensor<1xi64>
  %wa = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%a, %shape_a) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  %wb = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper(%b, %shape_b) {indices_of_shape_operands = dense<1> : tensor<1xi64>} : (tensor<5xf32>, tensor<1xi64>) -> tensor<?xf32>
  %0 = "stablehlo.if"(%p) ({
    %x = stablehlo.negate %wa : tensor<?xf32>
    stablehlo.return %x : tensor<?xf32>
  }, {
    stablehlo.return %wa : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  %1 = "stablehlo.case"(%k) ({
    stablehlo.return %wa : tensor<?xf32>
  }, {
    stablehlo.return %wb : tensor<?xf32>
  }) : (tensor<i32>) -> tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// A shape assertion that holds for the refined shapes is removed.
// CHECK-LABEL: func.func @assertion_holds
// CHECK-NOT:     shape_assertion
func.func @assertion_holds(%a: tensor<4xf32>) -> tensor<4xf32> {
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4xf32>) -> tensor<i32>
  %four = stablehlo.constant dense<4> : tensor<i32>
  %ok = stablehlo.compare EQ, %d, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %d) {error_message = "size is {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %a : tensor<4xf32>
}

// -----

// jax's cumsum under shape polymorphism, once the length is known: the dynamic_reduce_window
// custom call becomes a reduce_window whose body is the called function's.
// CHECK-LABEL: func.func @cumsum
// CHECK:         %[[R:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}}) <{base_dilations = array<i64: 1>, padding = dense<{{\[\[}}4, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 5>
// CHECK:           stablehlo.add
// CHECK:           stablehlo.return
// CHECK:         }) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NOT:     custom_call
// CHECK:         return %[[R]]
func.func @cumsum(%x: tensor<5xf32>) -> tensor<?xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %n = stablehlo.constant dense<5> : tensor<1xi32>
  %pad = stablehlo.constant dense<[[4, 0]]> : tensor<1x2xi32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %n, %one, %one, %one, %pad) {called_computations = [@add_reducer]} : (tensor<5xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func private @add_reducer(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A dynamic_gather whose index_vector_dim is the default 0 (left unprinted) keeps it when its
// slice sizes become known.
// CHECK-LABEL: func.func @gather_with_default_index_vector_dim
// CHECK:         "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true, slice_sizes = array<i64: 2, 1>}> : (tensor<2x3xi32>, tensor<1xi32>) -> tensor<2x1xi32>
func.func @gather_with_default_index_vector_dim(%x: tensor<2x3xi32>, %i: tensor<1xi32>) -> tensor<?x1xi32> {
  %sizes = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %0 = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<2x3xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x1xi32>
  return %0 : tensor<?x1xi32>
}
