// RUN: shlo-opt --shlo-simplify %s | filecheck %s
// RUN: shlo-opt --pass-pipeline='builtin.module(func.func(shlo-simplify{fold-op-element-limit=2}))' %s | filecheck %s --check-prefix=LIMIT

// Integer folds: division truncates toward zero, remainder takes the dividend's sign, add
// wraps, shift amounts >= the width (-1 is 255 as a shift amount) give the sign, UNSIGNED
// compares the bits as unsigned.
// CHECK-LABEL: func.func @fold_int
// CHECK-DAG:     stablehlo.constant dense<[3, -3, 2147483647, 1073741824]> : tensor<4xi32>
// CHECK-DAG:     stablehlo.constant dense<[1, -1, 0, 0]> : tensor<4xi32>
// CHECK-DAG:     stablehlo.constant dense<[-64, -1, 32, 0]> : tensor<4xi8>
// CHECK-DAG:     stablehlo.constant dense<[false, false, false, true]> : tensor<4xi1>
// CHECK-DAG:     stablehlo.constant dense<[9, -5, -2147483648, 2147483646]> : tensor<4xi32>
// CHECK-NOT:     stablehlo.divide
// CHECK-NOT:     stablehlo.remainder
// CHECK-NOT:     stablehlo.shift_right_arithmetic
// CHECK-NOT:     stablehlo.compare
// CHECK:         return
func.func @fold_int() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xi32>) {
  %a = stablehlo.constant dense<[7, -7, 2147483647, -2147483648]> : tensor<4xi32>
  %b = stablehlo.constant dense<[2, 2, 1, -2]> : tensor<4xi32>
  %0 = stablehlo.divide %a, %b : tensor<4xi32>
  %1 = stablehlo.remainder %a, %b : tensor<4xi32>
  %x = stablehlo.constant dense<[-128, -128, 64, 1]> : tensor<4xi8>
  %s = stablehlo.constant dense<[1, 8, 1, -1]> : tensor<4xi8>
  %2 = stablehlo.shift_right_arithmetic %x, %s : tensor<4xi8>
  %3 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %4 = stablehlo.add %a, %b : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xi32>
}

// Float folds: maximum(-0.0, 0.0) is +0.0; f64 -> bf16 rounds once (2.0078125 is a tie: 2.0);
// remainder is fmod; float -> int truncates.
// CHECK-LABEL: func.func @fold_float
// CHECK-DAG:     stablehlo.constant dense<[1.000000e+00, 0.000000e+00, 0x7F800000, 5.500000e+00]> : tensor<4xf32>
// CHECK-DAG:     stablehlo.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00]> : tensor<3xbf16>
// CHECK-DAG:     stablehlo.constant dense<[-1.500000e+00, 1.500000e+00]> : tensor<2xf32>
// CHECK-DAG:     stablehlo.constant dense<[-2, 2, 0]> : tensor<3xi32>
// CHECK-NOT:     stablehlo.convert
// CHECK:         return
func.func @fold_float() -> (tensor<4xf32>, tensor<3xbf16>, tensor<2xf32>, tensor<3xi32>) {
  %a = stablehlo.constant dense<[1.0, -0.0, 0x7F800000, 5.5]> : tensor<4xf32>
  %b = stablehlo.constant dense<[0.0, 0.0, 1.0, 2.0]> : tensor<4xf32>
  %0 = stablehlo.maximum %a, %b : tensor<4xf32>
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %d = stablehlo.constant dense<[1.0078125, 2.0, 3.0]> : tensor<3xf64>
  %e = stablehlo.add %c, %d : tensor<3xf64>
  %1 = stablehlo.convert %e : (tensor<3xf64>) -> tensor<3xbf16>
  %f = stablehlo.constant dense<[-5.5, 5.5]> : tensor<2xf32>
  %g = stablehlo.constant dense<2.0> : tensor<2xf32>
  %2 = stablehlo.remainder %f, %g : tensor<2xf32>
  %h = stablehlo.constant dense<[-2.9, 2.9, -0.5]> : tensor<3xf32>
  %3 = stablehlo.convert %h : (tensor<3xf32>) -> tensor<3xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<3xbf16>, tensor<2xf32>, tensor<3xi32>
}

// Shape ops on constants; pad with interior and negative padding.
// CHECK-LABEL: func.func @fold_shapes
// CHECK-DAG:     stablehlo.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-DAG:     stablehlo.constant dense<{{\[}}[0, 2, 0, 3, 0], [0, 5, 0, 6, 0]]> : tensor<2x5xi32>
// CHECK-DAG:     stablehlo.constant dense<{{\[}}{{\[}}[1, 2, 3], [1, 2, 3]], {{\[}}[4, 5, 6], [4, 5, 6]]]> : tensor<2x2x3xi32>
// CHECK-NOT:     stablehlo.pad
// CHECK:         return
func.func @fold_shapes() -> (tensor<3x2xi32>, tensor<2x5xi32>, tensor<2x2x3xi32>) {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.pad %a, %z, low = [0, -1], high = [0, 1], interior = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x5xi32>
  %2 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<2x3xi32>) -> tensor<2x2x3xi32>
  return %0, %1, %2 : tensor<3x2xi32>, tensor<2x5xi32>, tensor<2x2x3xi32>
}

// x + (-0.0), x * 1.0, int x * 0, not(not x), compare GE of an int with itself; two reshapes
// become one, and two transposes that cancel disappear.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-DAG:     %[[Z:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-DAG:     %[[T:.*]] = stablehlo.constant dense<true> : tensor<4xi1>
// CHECK-DAG:     %[[R:.*]] = stablehlo.reshape %[[X]] : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK:         return %[[X]], %[[X]], %[[Z]], %[[I]], %[[T]], %[[R]] :
func.func @identities(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<2x2xf32>) {
  %mz = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %mz : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %1 = stablehlo.multiply %x, %one : tensor<4xf32>
  %zero = stablehlo.constant dense<0> : tensor<4xi32>
  %2 = stablehlo.multiply %i, %zero : tensor<4xi32>
  %n = stablehlo.not %i : tensor<4xi32>
  %3 = stablehlo.not %n : tensor<4xi32>
  %4 = stablehlo.compare GE, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %r = stablehlo.reshape %x : (tensor<4xf32>) -> tensor<4x1xf32>
  %r2 = stablehlo.reshape %r : (tensor<4x1xf32>) -> tensor<2x2xf32>
  %t = stablehlo.transpose %r2, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = stablehlo.transpose %t, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<2x2xf32>
}

// Not identities: x + 0.0 (-0.0 + 0.0 is +0.0), x * 0.0 (NaN, -0.0), compare EQ of a float
// with itself (NaN); integer division by zero is the implementation's.
// CHECK-LABEL: func.func @stays
// CHECK:         stablehlo.add
// CHECK:         stablehlo.multiply
// CHECK:         stablehlo.compare EQ
// CHECK:         stablehlo.divide
func.func @stays(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<2xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %z : tensor<4xf32>
  %1 = stablehlo.multiply %x, %z : tensor<4xf32>
  %2 = stablehlo.compare EQ, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %3 = stablehlo.divide %a, %b : tensor<2xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<2xi32>
}

// A slice of a slice is one slice; a dynamic_slice at constant starts is a slice, its starts
// clamped (9 -> 6).
// CHECK-LABEL: func.func @slices
// CHECK:         stablehlo.slice %arg0 [5:8:2, 3:7:3] : (tensor<8x8xf32>) -> tensor<2x2xf32>
// CHECK:         stablehlo.slice %arg0 [6:8, 6:8] : (tensor<8x8xf32>) -> tensor<2x2xf32>
// CHECK-NOT:     stablehlo.dynamic_slice
func.func @slices(%x: tensor<8x8xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %s = stablehlo.slice %x [1:8:2, 2:8] : (tensor<8x8xf32>) -> tensor<4x6xf32>
  %0 = stablehlo.slice %s [2:4, 1:5:3] : (tensor<4x6xf32>) -> tensor<2x2xf32>
  %c = stablehlo.constant dense<9> : tensor<i32>
  %1 = stablehlo.dynamic_slice %x, %c, %c, sizes = [2, 2] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// Ops in regions are simplified too (the reducer's b * 1).
// CHECK-LABEL: func.func @region
// CHECK:         stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0]
func.func @region(%x: tensor<4xi32>) -> tensor<i32> {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %m = stablehlo.multiply %b, %one : tensor<i32>
    %s = stablehlo.maximum %a, %m : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  return %0 : tensor<i32>
}

// optimization_barrier is never looked through.
// CHECK-LABEL: func.func @barrier
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier
// CHECK:         stablehlo.add %[[B]]
func.func @barrier() -> tensor<2xi32> {
  %a = stablehlo.constant dense<1> : tensor<2xi32>
  %b = stablehlo.optimization_barrier %a : tensor<2xi32>
  %0 = stablehlo.add %b, %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// fold-op-element-limit=2: the 4-element add stays, the 2-element one folds.
// LIMIT-LABEL: func.func @limit
// LIMIT-DAG:     stablehlo.constant dense<[2, 4]> : tensor<2xi32>
// LIMIT-DAG:     stablehlo.add %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-LABEL: func.func @limit
// CHECK-NOT:     stablehlo.add
func.func @limit() -> (tensor<4xi32>, tensor<2xi32>) {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.add %a, %a : tensor<4xi32>
  %1 = stablehlo.add %b, %b : tensor<2xi32>
  return %0, %1 : tensor<4xi32>, tensor<2xi32>
}
