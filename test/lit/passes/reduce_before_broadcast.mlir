// RUN: shlo-opt --shlo-reduce-before-broadcast %s | filecheck %s
// RUN: shlo-opt --shlo-reduce-before-broadcast --shlo-reduce-before-broadcast %s | filecheck %s

// A sum over all of a broadcast of an outer product (the new dimension 2 repeats it 3 times):
// the sum of the product, times 3.
// CHECK-LABEL: func.func @sum_of_broadcast
// CHECK:         %[[N:.*]] = stablehlo.constant dense<3.000000e+00> : tensor<f32>
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK:         %[[R:.*]] = stablehlo.reduce(%[[D]] init: %{{.*}}) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<3x1x5x3xf32>, tensor<f32>) -> tensor<f32>
// CHECK:         %[[M:.*]] = stablehlo.multiply %[[R]], %[[N]]
// CHECK-NEXT:    return %[[M]]
func.func @sum_of_broadcast(%a: tensor<3x1xf32>, %b: tensor<5x3xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<3x1xf32>, tensor<5x3xf32>) -> tensor<3x1x5x3xf32>
  %e = stablehlo.broadcast_in_dim %d, dims = [0, 1, 3, 4] : (tensor<3x1x5x3xf32>) -> tensor<3x1x3x5x3xf32>
  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0, 1, 2, 3, 4] : (tensor<3x1x3x5x3xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// A max over a product of a broadcast and a splat, along dimensions neither varies along:
// the product without them (a reduce over none, from the start).
// CHECK-LABEL: func.func @max_of_product
// CHECK:         %[[C:.*]] = stablehlo.constant dense<3> : tensor<4xi32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %arg0, %[[C]] : tensor<4xi32>
// CHECK:         stablehlo.reduce(%[[P]] init: %arg1) applies stablehlo.maximum across dimensions = []
func.func @max_of_product(%a: tensor<4xi32>, %i: tensor<i32>) -> tensor<4xi32> {
  %x = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<4xi32>) -> tensor<4x7x6xi32>
  %c = stablehlo.constant dense<3> : tensor<4x7x6xi32>
  %p = stablehlo.multiply %x, %c : tensor<4x7x6xi32>
  %r = stablehlo.reduce(%p init: %i) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<4x7x6xi32>, tensor<i32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// An `or` over a compare (its direction kept) of broadcasts along a new dimension: the
// compare of the smaller broadcasts.
// CHECK-LABEL: func.func @any_of_compare
// CHECK:         %[[C:.*]] = stablehlo.compare GT, %arg0, %{{.*}} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
// CHECK:         stablehlo.reduce(%[[C]] init: %{{.*}}) applies stablehlo.or across dimensions = []
func.func @any_of_compare(%a: tensor<16xf32>, %h: tensor<f32>) -> tensor<16xi1> {
  %f = stablehlo.constant dense<false> : tensor<i1>
  %x = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<16xf32>) -> tensor<7x16xf32>
  %y = stablehlo.broadcast_in_dim %h, dims = [] : (tensor<f32>) -> tensor<7x16xf32>
  %c = stablehlo.compare GT, %x, %y : (tensor<7x16xf32>, tensor<7x16xf32>) -> tensor<7x16xi1>
  %r = stablehlo.reduce(%c init: %f) applies stablehlo.or across dimensions = [0] : (tensor<7x16xi1>, tensor<i1>) -> tensor<16xi1>
  return %r : tensor<16xi1>
}

// Left alone: a sum from a start that is not 0, a product, a reduce of a value that varies
// along every reduced dimension, and a sum of complex values (shlo-fuzz seed 160 program 24:
// the pass read the complex start and failed).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: stablehlo.reduce(%{{.*}}) applies
// CHECK-NOT:     stablehlo.multiply
func.func @kept(%a: tensor<4xf32>, %x: tensor<4x7xf32>, %z: tensor<1xcomplex<f32>>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<complex<f32>>) {
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %zb = stablehlo.broadcast_in_dim %z, dims = [0] : (tensor<1xcomplex<f32>>) -> tensor<1x5xcomplex<f32>>
  %zs = stablehlo.reduce(%zb init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<4xf32>) -> tensor<4x7xf32>
  %s = stablehlo.reduce(%b init: %one) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x7xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.reduce(%b init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<4x7xf32>, tensor<f32>) -> tensor<f32>
  %t = stablehlo.reduce(%x init: %one) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x7xf32>, tensor<f32>) -> tensor<f32>
  return %s, %p, %t, %zs : tensor<f32>, tensor<f32>, tensor<f32>, tensor<complex<f32>>
}
