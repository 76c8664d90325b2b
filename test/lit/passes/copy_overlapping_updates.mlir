// RUN: shlo-opt --shlo-copy-overlapping-updates %s | filecheck %s

// An update sliced from the operand itself: a select of the update written into zeros and the
// operand, with the start clamped to [0, 1] (IREE 3.13 wrote it in place and read it back);
// where it lands is the same update of trues into falses (no iota: seed 70 program 1066).
// CHECK-LABEL: func.func @own_slice
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-DAG:     %[[F:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<1000xf32>
// CHECK-DAG:     %[[T:.*]] = stablehlo.constant dense<true> : tensor<999xi1>
// CHECK-DAG:     %[[NO:.*]] = stablehlo.constant dense<false> : tensor<1000xi1>
// CHECK:         %[[U:.*]] = stablehlo.slice %arg0 [0:999]
// CHECK:         %[[C:.*]] = stablehlo.clamp %[[ZERO]], %arg1, %[[ONE]] : tensor<i32>
// CHECK:         %[[I:.*]] = stablehlo.convert %[[C]] : (tensor<i32>) -> tensor<i64>
// CHECK:         %[[S:.*]] = stablehlo.dynamic_update_slice %[[F]], %[[U]], %[[I]]
// CHECK:         %[[M:.*]] = stablehlo.dynamic_update_slice %[[NO]], %[[T]], %[[I]]
// CHECK:         %[[R:.*]] = stablehlo.select %[[M]], %[[S]], %arg0
// CHECK-NOT:     stablehlo.iota
// CHECK:         return %[[R]]
func.func @own_slice(%a: tensor<1000xf32>, %i: tensor<i32>) -> tensor<1000xf32> {
  %0 = stablehlo.slice %a [0:999] : (tensor<1000xf32>) -> tensor<999xf32>
  %1 = stablehlo.dynamic_update_slice %a, %0, %i : (tensor<1000xf32>, tensor<999xf32>, tensor<i32>) -> tensor<1000xf32>
  return %1 : tensor<1000xf32>
}

// An update that is a view of the operand through a transpose, a slice and a barrier: rewritten.
// CHECK-LABEL: func.func @view
// CHECK:         stablehlo.select
// CHECK-NOT:     stablehlo.dynamic_update_slice
func.func @view(%a: tensor<8x8xf32>, %i: tensor<i64>) -> tensor<8x8xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.slice %0 [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.optimization_barrier %1 : tensor<4x8xf32>
  %3 = stablehlo.dynamic_update_slice %a, %2, %i, %i : (tensor<8x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// An update computed from the operand (IREE writes it to a buffer of its own) is left alone.
// CHECK-LABEL: func.func @computed
// CHECK:         stablehlo.dynamic_update_slice
// CHECK-NOT:     stablehlo.select
func.func @computed(%a: tensor<8x8xf32>, %i: tensor<i64>) -> tensor<8x8xf32> {
  %0 = stablehlo.slice %a [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<4x8xf32>
  %2 = stablehlo.dynamic_update_slice %a, %1, %i, %i : (tensor<8x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// An update computed from the operand by ops that may return it unchanged (IREE folds
// maximum by -inf into its operand, then copied the view in place): read through a copy,
// a select by a barrier's true, fenced. Float arithmetic by other constants is left alone.
// CHECK-LABEL: func.func @may_be_a_view
// CHECK:         %[[M:.*]] = stablehlo.maximum
// CHECK:         %[[U:.*]] = stablehlo.slice %[[M]]
// CHECK:         %[[T:.*]] = stablehlo.optimization_barrier
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %[[T]]
// CHECK:         %[[C:.*]] = stablehlo.select %[[B]], %[[U]]
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[C]]
// CHECK:         stablehlo.dynamic_update_slice %arg0, %[[F]], %arg1
// CHECK:         %[[S:.*]] = stablehlo.multiply
// CHECK-NOT:     stablehlo.optimization_barrier
// CHECK:         stablehlo.dynamic_update_slice %arg0, %[[S]], %arg1
func.func @may_be_a_view(%a: tensor<1000xf32>, %i: tensor<i32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %inf, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %0 = stablehlo.maximum %a, %b : tensor<1000xf32>
  %1 = stablehlo.slice %0 [0:10] : (tensor<1000xf32>) -> tensor<10xf32>
  %2 = stablehlo.dynamic_update_slice %a, %1, %i : (tensor<1000xf32>, tensor<10xf32>, tensor<i32>) -> tensor<1000xf32>
  %c = stablehlo.constant dense<0.9> : tensor<10xf32>
  %3 = stablehlo.slice %a [0:10] : (tensor<1000xf32>) -> tensor<10xf32>
  %4 = stablehlo.multiply %3, %c : tensor<10xf32>
  %5 = stablehlo.dynamic_update_slice %a, %4, %i : (tensor<1000xf32>, tensor<10xf32>, tensor<i32>) -> tensor<1000xf32>
  return %2, %5 : tensor<1000xf32>, tensor<1000xf32>
}

// An update computed from the operand at starts known when compiling: the starts read
// through a barrier (IREE wrote the update's dispatch into the operand while it read it);
// a start known at run time is left as it is.
// CHECK-LABEL: func.func @constant_start
// CHECK:         %[[N:.*]] = stablehlo.tanh
// CHECK:         %[[I:.*]] = stablehlo.optimization_barrier %c
// CHECK:         stablehlo.dynamic_update_slice %arg0, %[[N]], %[[I]]
// CHECK:         %[[M:.*]] = stablehlo.tanh
// CHECK-NOT:     stablehlo.optimization_barrier
// CHECK:         stablehlo.dynamic_update_slice %arg0, %[[M]], %arg1
func.func @constant_start(%a: tensor<1000xf32>, %i: tensor<i32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %0 = stablehlo.slice %a [0:10] : (tensor<1000xf32>) -> tensor<10xf32>
  %1 = stablehlo.tanh %0 : tensor<10xf32>
  %2 = stablehlo.dynamic_update_slice %a, %1, %c : (tensor<1000xf32>, tensor<10xf32>, tensor<i32>) -> tensor<1000xf32>
  %3 = stablehlo.slice %a [0:10] : (tensor<1000xf32>) -> tensor<10xf32>
  %4 = stablehlo.tanh %3 : tensor<10xf32>
  %5 = stablehlo.dynamic_update_slice %a, %4, %i : (tensor<1000xf32>, tensor<10xf32>, tensor<i32>) -> tensor<1000xf32>
  return %2, %5 : tensor<1000xf32>, tensor<1000xf32>
}

// An update that does not read the operand is left alone.
// CHECK-LABEL: func.func @independent
// CHECK:         stablehlo.dynamic_update_slice %arg0, %arg1, %arg2
// CHECK-NOT:     stablehlo.select
func.func @independent(%a: tensor<1000xf32>, %u: tensor<10xf32>, %i: tensor<i32>) -> tensor<1000xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<1000xf32>, tensor<10xf32>, tensor<i32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}
