// RUN: shlo-opt --shlo-index-extents %s | filecheck %s

// Sizes read with get_dimension_size (i32), reshaped and concatenated with a constant, become
// index extents of tensor.dim; an iota's and a reshape's shapes too.
// CHECK-LABEL: func.func @sizes
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?xf32>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[S:.*]] = tensor.from_elements %[[N]], %[[C1]] : tensor<2xindex>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg1, %[[S]], dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x1xf32>
// CHECK:         %[[I:.*]] = tensor.from_elements %{{.*}} : tensor<1xindex>
// CHECK:         stablehlo.dynamic_iota %[[I]], dim = 0 : (tensor<1xindex>) -> tensor<?xi32>
// CHECK:         stablehlo.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<1xindex>) -> tensor<?xf32>
func.func @sizes(%x: tensor<?xf32>, %c: tensor<f32>) -> (tensor<?x1xf32>, tensor<?xi32>, tensor<?xf32>) {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %c, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
  %n64 = stablehlo.convert %n1 : (tensor<1xi32>) -> tensor<1xi64>
  %i = stablehlo.dynamic_iota %n64, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
  %r = stablehlo.dynamic_reshape %b, %n1 : (tensor<?x1xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %b, %i, %r : tensor<?x1xf32>, tensor<?xi32>, tensor<?xf32>
}

// Arithmetic on sizes (jax's symbolic dimensions, here 2 * b - 1) is index arithmetic; a slice
// of an extents tensor picks its entries.
// CHECK-LABEL: func.func @arithmetic
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[M:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK:         %[[D:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK:         %[[S:.*]] = tensor.from_elements %[[D]] : tensor<1xindex>
// CHECK:         stablehlo.dynamic_iota %[[S]]
// CHECK:         %[[T:.*]] = tensor.from_elements %{{.*}} : tensor<1xindex>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %{{.*}}, %[[T]], dims = []
func.func @arithmetic(%x: tensor<?x3xf32>) -> (tensor<?xi64>, tensor<?xf32>) {
  %two = stablehlo.constant dense<2> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %n64 = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>
  %m = stablehlo.multiply %two, %n64 : tensor<i64>
  %d = stablehlo.subtract %m, %one : tensor<i64>
  %d1 = stablehlo.reshape %d : (tensor<i64>) -> tensor<1xi64>
  %i = stablehlo.dynamic_iota %d1, dim = 0 : (tensor<1xi64>) -> tensor<?xi64>
  %three = stablehlo.constant dense<3> : tensor<1xi64>
  %s = stablehlo.concatenate %d1, %three, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %t = stablehlo.slice %s [0:1] : (tensor<2xi64>) -> tensor<1xi64>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.dynamic_broadcast_in_dim %z, %t, dims = [] : (tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  return %i, %b : tensor<?xi64>, tensor<?xf32>
}

// A shape computed from data, and a size of an unsigned tensor (IREE cannot read it), stay.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     tensor.from_elements
// CHECK:         return
func.func @kept(%s: tensor<1xi64>, %u: tensor<?xui8>) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.dynamic_broadcast_in_dim %z, %s, dims = [] : (tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  %n = stablehlo.get_dimension_size %u, dim = 0 : (tensor<?xui8>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %z, %n1, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}
