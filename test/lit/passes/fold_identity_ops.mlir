// RUN: shlo-opt --shlo-fold-identity-ops %s | filecheck %s

// Ops that return their operand unchanged (IREE folds them after shlo's pipeline, where
// shlo-barrier-returned-arguments would have seen the op, not the argument): each result is x.
// CHECK-LABEL: func.func @identities
// CHECK-NOT:     stablehlo.reduce
// CHECK-NOT:     stablehlo.pad
// CHECK-NOT:     stablehlo.select
// CHECK-NOT:     stablehlo.case
// CHECK:         return %arg0, %arg0, %arg0, %arg0 :
func.func @identities(%x: tensor<4x8xf32>, %k: tensor<i32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %n = stablehlo.negate %x : tensor<4x8xf32>
  %0 = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.pad %x, %one, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %2 = stablehlo.select %true, %x, %n : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "stablehlo.case"(%k) ({
    stablehlo.return %x : tensor<4x8xf32>
  }) : (tensor<i32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// An if on a constant: the branch it runs is inlined.
// CHECK-LABEL: func.func @constant_if
// CHECK-NOT:     stablehlo.if
// CHECK:         %[[S:.*]] = stablehlo.sine %arg0
// CHECK:         return %[[S]]
func.func @constant_if(%x: tensor<4xf32>) -> tensor<4xf32> {
  %false = stablehlo.constant dense<false> : tensor<i1>
  %0 = "stablehlo.if"(%false) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %s = stablehlo.sine %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Look-alikes that move or change elements stay.
// CHECK-LABEL: func.func @kept
// CHECK:         stablehlo.transpose %arg0, dims = [1, 0]
// CHECK:         stablehlo.pad
// CHECK:         stablehlo.reduce
func.func @kept(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.pad %x, %zero, low = [-1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %2 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>
}

// A dynamic_update_slice of an empty update writes nothing: its operand; a non-empty one stays.
// CHECK-LABEL: func.func @empty_update
// CHECK:         %[[U:.*]] = stablehlo.dynamic_update_slice %arg0, %arg2
// CHECK-NEXT:    return %arg0, %[[U]]
func.func @empty_update(%x: tensor<2x3xf32>, %e: tensor<2x0xf32>, %u: tensor<1x3xf32>, %i: tensor<i32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.dynamic_update_slice %x, %e, %i, %i : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %1 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// clamp(x, x, x) is x (fuzz seed 101 program 294); a clamp of x between other values stays.
// CHECK-LABEL: func.func @clamp_by_itself
// CHECK:         %[[C:.*]] = stablehlo.clamp %arg1, %arg0, %arg0
// CHECK-NEXT:    return %arg0, %[[C]]
func.func @clamp_by_itself(%x: tensor<4xi1>, %y: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.clamp %x, %x, %x : tensor<4xi1>
  %1 = stablehlo.clamp %y, %x, %x : tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// One-element windows from the body's identity return the input (max from INT_MIN, a float
// sum from -0.0); a float sum from +0.0 (it turns -0.0 into +0.0), a window of two and a
// padded window are kept.
// CHECK-LABEL: func.func @unit_windows
// CHECK-COUNT-3: stablehlo.reduce_window
// CHECK-NOT:     stablehlo.reduce_window
// CHECK:         return %arg0, %arg1, %{{.*}}, %{{.*}}, %{{.*}} :
func.func @unit_windows(%i: tensor<8xi32>, %f: tensor<8xf32>) -> (tensor<8xi32>, tensor<8xf32>, tensor<8xf32>, tensor<7xi32>, tensor<10xi32>) {
  %min = stablehlo.constant dense<-2147483648> : tensor<i32>
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %pz = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%i, %min) <{window_dimensions = array<i64: 1>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  %1 = "stablehlo.reduce_window"(%f, %nz) <{window_dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "stablehlo.reduce_window"(%f, %pz) <{window_dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "stablehlo.reduce_window"(%i, %min) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<7xi32>
  %4 = "stablehlo.reduce_window"(%i, %min) <{window_dimensions = array<i64: 1>, padding = dense<1> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<10xi32>
  return %0, %1, %2, %3, %4 : tensor<8xi32>, tensor<8xf32>, tensor<8xf32>, tensor<7xi32>, tensor<10xi32>
}
