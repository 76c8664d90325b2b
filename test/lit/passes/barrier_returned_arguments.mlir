// RUN: shlo-opt --shlo-barrier-returned-arguments %s | filecheck %s

// An argument returned (twice) and also updated is returned through one barrier; an argument
// only returned, and a private function's, stay as they are.
// CHECK-LABEL: func.func @main
// CHECK:         %[[R:.*]] = stablehlo.dynamic_update_slice %arg0, %arg1
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<4x6xi64>
// CHECK:         return %[[B]], %[[R]], %arg3, %[[B]]
func.func @main(%x: tensor<4x6xi64>, %u: tensor<4x5xi64>, %i: tensor<i32>, %y: tensor<3xf32>) -> (tensor<4x6xi64>, tensor<4x6xi64>, tensor<3xf32>, tensor<4x6xi64>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %c0, %i : (tensor<4x6xi64>, tensor<4x5xi64>, tensor<i32>, tensor<i32>) -> tensor<4x6xi64>
  return %x, %r, %y, %x : tensor<4x6xi64>, tensor<4x6xi64>, tensor<3xf32>, tensor<4x6xi64>
}

// CHECK-LABEL: func.func private @helper
// CHECK-NOT:     optimization_barrier
// CHECK:         return %arg0
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %n = stablehlo.negate %x : tensor<2xf32>
  return %x : tensor<2xf32>
}

// A returned view of an argument that another op reads goes through the barrier (IREE returned
// reshape(x) after sorting x in place); a view of an argument nothing else reads stays.
// CHECK-LABEL: func.func @views
// CHECK-DAG:     %[[N:.*]] = stablehlo.negate %arg0
// CHECK-DAG:     %[[R:.*]] = stablehlo.reshape %arg0
// CHECK-DAG:     %[[S:.*]] = stablehlo.reshape %arg1
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[R]] : tensor<24xf32>
// CHECK:         return %[[B]], %[[N]], %[[S]]
func.func @views(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<4x6xf32>, tensor<24xf32>) {
  %n = stablehlo.negate %x : tensor<4x6xf32>
  %r = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  %s = stablehlo.reshape %y : (tensor<4x6xf32>) -> tensor<24xf32>
  return %r, %n, %s : tensor<24xf32>, tensor<4x6xf32>, tensor<24xf32>
}

// x returned through a reduce over no dimensions, which IREE folds to x (seed 72 program
// 163): looked through, so the returned value goes through the barrier.
// CHECK-LABEL: func.func @through_an_identity
// CHECK:         %[[R:.*]] = stablehlo.reduce
// CHECK:         %[[S:.*]] = "stablehlo.sort"
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[R]]
// CHECK:         return %[[B]], %[[S]]
func.func @through_an_identity(%x: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi8>) {
  %c = stablehlo.constant dense<1> : tensor<i8>
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.multiply across dimensions = [] : (tensor<3xi8>, tensor<i8>) -> tensor<3xi8>
  %1 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<3xi8>) -> tensor<3xi8>
  return %0, %1 : tensor<3xi8>, tensor<3xi8>
}
