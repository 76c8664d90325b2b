// RUN: shlo-opt --shlo-fence-stored-predicates %s | filecheck %s
// RUN: shlo-opt --shlo-fence-stored-predicates --shlo-fence-stored-predicates %s | filecheck %s

// A boolean argument that a select of a product's result reads: read as fenced bytes, compared
// with 0 (IREE 3.13's data-tiled llvm-cpu compile failed on the stored i1 in the product's layout).
// CHECK-LABEL: func.func @where_product
// CHECK:         %[[C:.*]] = stablehlo.convert %arg1 : (tensor<64x64xi1>) -> tensor<64x64xi8>
// CHECK-NEXT:    %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[C]]
// CHECK-NEXT:    %[[Z:.*]] = stablehlo.constant dense<0> : tensor<64x64xi8>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.compare NE, %[[F]], %[[Z]]
// CHECK:         stablehlo.select %[[P]], %{{.*}}, %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
func.func @where_product(%x: tensor<64x64xf32>, %m: tensor<64x64xi1>) -> tensor<64x64xf32> {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %r = stablehlo.select %m, %d, %z : tensor<64x64xi1>, tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Found through the ops that compute the operand (a not, a convert), and an array constant too.
// CHECK-LABEL: func.func @through_ops
// CHECK-DAG:     stablehlo.convert %arg1 : (tensor<64x64xi1>) -> tensor<64x64xi8>
// CHECK-DAG:     %[[K:.*]] = stablehlo.constant dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-DAG:     stablehlo.convert %[[K]] : (tensor<2x2xi1>) -> tensor<2x2xi8>
func.func @through_ops(%x: tensor<64x64xf32>, %m: tensor<64x64xi1>, %y: tensor<2x2xf32>) -> (tensor<64x64xf32>, tensor<2x2xf32>) {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %n = stablehlo.not %m : tensor<64x64xi1>
  %f = stablehlo.convert %n : (tensor<64x64xi1>) -> tensor<64x64xf32>
  %r = stablehlo.multiply %d, %f : tensor<64x64xf32>
  %k = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %e = stablehlo.dot_general %y, %y, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = stablehlo.select %k, %e, %y : tensor<2x2xi1>, tensor<2x2xf32>
  return %r, %s : tensor<64x64xf32>, tensor<2x2xf32>
}

// Computed masks (a compare), splat constants, scalars and masks no product's reader reads:
// unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     compute_barrier
// CHECK-NOT:     stablehlo.convert
// CHECK:         return
func.func @unchanged(%x: tensor<64x64xf32>, %m: tensor<64x64xi1>, %b: tensor<i1>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %t = stablehlo.constant dense<true> : tensor<64x64xi1>
  %c = stablehlo.compare GT, %x, %z : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
  %a = stablehlo.and %c, %t : tensor<64x64xi1>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<i1>) -> tensor<64x64xi1>
  %p = stablehlo.and %a, %bb : tensor<64x64xi1>
  %r = stablehlo.select %p, %d, %z : tensor<64x64xi1>, tensor<64x64xf32>
  %o = stablehlo.select %m, %x, %z : tensor<64x64xi1>, tensor<64x64xf32>
  return %r, %o : tensor<64x64xf32>, tensor<64x64xf32>
}
