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
