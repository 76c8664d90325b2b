// RUN: shlo-opt --shlo-fence-transposed-variadic-reduces %s | filecheck %s

// An arg-max whose values are unused and whose indices are transposed: the indices are fenced.
// CHECK-LABEL: func.func @argmax_transposed
// CHECK:         %[[R:.*]]:2 = stablehlo.reduce
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]#1
// CHECK-NEXT:    stablehlo.transpose %[[F]], dims = [1, 0]
func.func @argmax_transposed(%x: tensor<8x16x32xf32>) -> tensor<32x8xi32> {
  %i = stablehlo.iota dim = 1 : tensor<8x16x32xi32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %m), (%i init: %z) across dimensions = [1] : (tensor<8x16x32xf32>, tensor<8x16x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %g = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %g, %a, %c : tensor<i1>, tensor<f32>
    %k = stablehlo.select %g, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  %t = stablehlo.transpose %r#1, dims = [1, 0] : (tensor<8x32xi32>) -> tensor<32x8xi32>
  return %t : tensor<32x8xi32>
}

// Both results used, one reaching a transpose through a convert and a reshape: both fenced.
// CHECK-LABEL: func.func @through_reshape
// CHECK:         %[[R:.*]]:2 = stablehlo.reduce
// CHECK:         %[[A:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]#0
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]#1
// CHECK:         stablehlo.convert %[[B]]
// CHECK:         return %[[A]]
func.func @through_reshape(%x: tensor<8x16x32xf32>) -> (tensor<8x32xf32>, tensor<8x8x4xf32>) {
  %i = stablehlo.iota dim = 1 : tensor<8x16x32xi32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %m), (%i init: %z) across dimensions = [1] : (tensor<8x16x32xf32>, tensor<8x16x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %g = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %g, %a, %c : tensor<i1>, tensor<f32>
    %k = stablehlo.select %g, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  %f = stablehlo.convert %r#1 : (tensor<8x32xi32>) -> tensor<8x32xf32>
  %s = stablehlo.reshape %f : (tensor<8x32xf32>) -> tensor<8x4x8xf32>
  %t = stablehlo.transpose %s, dims = [2, 0, 1] : (tensor<8x4x8xf32>) -> tensor<8x8x4xf32>
  return %r#0, %t : tensor<8x32xf32>, tensor<8x8x4xf32>
}

// Not fenced: a single-result reduce, and an arg-max read only by a slice and a plain reshape.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     compute_barrier
func.func @untouched(%x: tensor<8x16x32xf32>) -> (tensor<32x8xf32>, tensor<4x16xi32>, tensor<256xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<8x16x32xi32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %st = stablehlo.transpose %s, dims = [1, 0] : (tensor<8x32xf32>) -> tensor<32x8xf32>
  %r:2 = stablehlo.reduce(%x init: %m), (%i init: %z) across dimensions = [1] : (tensor<8x16x32xf32>, tensor<8x16x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %g = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %g, %a, %c : tensor<i1>, tensor<f32>
    %k = stablehlo.select %g, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  %sl = stablehlo.slice %r#1 [0:4, 0:32:2] : (tensor<8x32xi32>) -> tensor<4x16xi32>
  %rs = stablehlo.reshape %r#1 : (tensor<8x32xi32>) -> tensor<256xi32>
  return %st, %sl, %rs : tensor<32x8xf32>, tensor<4x16xi32>, tensor<256xi32>
}
