// RUN: shlo-opt --shlo-barrier-constant-expressions %s | filecheck %s

// Two complex start values made of constants each read copies of their constants through a
// barrier; the constants' other reader (the add) keeps the constant itself.
// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[C0:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[A:.*]]:2 = stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK:         %[[Z:.*]] = stablehlo.complex %[[A]]#0, %[[A]]#1
// CHECK:         %[[B:.*]]:2 = stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK:         %[[O:.*]] = stablehlo.complex %[[B]]#0, %[[B]]#1
// CHECK:         stablehlo.add %arg1, %[[C0]]
func.func @main(%z: tensor<8xcomplex<f32>>, %x: tensor<f32>) -> (tensor<complex<f32>>, tensor<complex<f32>>, tensor<f32>) {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %zero = stablehlo.complex %c0, %c0 : tensor<complex<f32>>
  %one = stablehlo.complex %c1, %c0 : tensor<complex<f32>>
  %s = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %p = stablehlo.reduce(%z init: %one) applies stablehlo.multiply across dimensions = [0] : (tensor<8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %y = stablehlo.add %x, %c0 : tensor<f32>
  return %s, %p, %y : tensor<complex<f32>>, tensor<complex<f32>>, tensor<f32>
}

// Ops of more than one element, ops reading an argument and real scalars stay as they are.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     optimization_barrier
func.func @untouched(%x: tensor<f32>) -> (tensor<4xcomplex<f32>>, tensor<complex<f32>>, tensor<f32>) {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %v = stablehlo.complex %c, %c : tensor<4xcomplex<f32>>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.complex %x, %c0 : tensor<complex<f32>>
  %e = stablehlo.exponential %c0 : tensor<f32>
  return %v, %w, %e : tensor<4xcomplex<f32>>, tensor<complex<f32>>, tensor<f32>
}

// A value of constants over 1 MiB updated in place and read elsewhere: every reader reads it
// selected by a run-time true (a constant through a barrier, at the top of the function).
// CHECK-LABEL: func.func @updated
// CHECK:         %[[T:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[T]]
// CHECK:         %[[IO:.*]] = stablehlo.iota
// CHECK-NEXT:    %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<524288xf32>
// CHECK-NEXT:    %[[BT:.*]] = stablehlo.broadcast_in_dim %[[B]], dims = [] : (tensor<i1>) -> tensor<524288xi1>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.select %[[BT]], %[[IO]], %[[Z]]
// CHECK-NEXT:    %[[U:.*]] = stablehlo.dynamic_update_slice %[[S]]
// CHECK-NEXT:    return %[[S]], %[[U]]
func.func @updated(%x: tensor<2xf32>, %i: tensor<i32>) -> (tensor<524288xf32>, tensor<524288xf32>) {
  %io = stablehlo.iota dim = 0 : tensor<524288xf32>
  %u = stablehlo.dynamic_update_slice %io, %x, %i : (tensor<524288xf32>, tensor<2xf32>, tensor<i32>) -> tensor<524288xf32>
  return %io, %u : tensor<524288xf32>, tensor<524288xf32>
}

// Left alone: a value of 1 MiB (IREE hoists it and copies it right), a constant, and a value
// read by its update alone.
// CHECK-LABEL: func.func @not_updated_elsewhere
// CHECK-NOT:     optimization_barrier
func.func @not_updated_elsewhere(%x: tensor<2xf32>, %i: tensor<i32>) -> (tensor<262144xf32>, tensor<262144xf32>, tensor<524288xf32>, tensor<524288xf32>, tensor<524288xf32>) {
  %io = stablehlo.iota dim = 0 : tensor<262144xf32>
  %u = stablehlo.dynamic_update_slice %io, %x, %i : (tensor<262144xf32>, tensor<2xf32>, tensor<i32>) -> tensor<262144xf32>
  %c = stablehlo.constant dense<3.0> : tensor<524288xf32>
  %v = stablehlo.dynamic_update_slice %c, %x, %i : (tensor<524288xf32>, tensor<2xf32>, tensor<i32>) -> tensor<524288xf32>
  %big = stablehlo.iota dim = 0 : tensor<524288xf32>
  %w = stablehlo.dynamic_update_slice %big, %x, %i : (tensor<524288xf32>, tensor<2xf32>, tensor<i32>) -> tensor<524288xf32>
  return %io, %u, %c, %v, %w : tensor<262144xf32>, tensor<262144xf32>, tensor<524288xf32>, tensor<524288xf32>, tensor<524288xf32>
}
