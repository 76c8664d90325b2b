// RUN: shlo-opt --shlo-expand-f64-math %s | filecheck %s
// f64 and complex<f64> transcendentals become f64 arithmetic; other element types are left alone.

// CHECK-LABEL: func.func @real_f64
// CHECK-NOT:     stablehlo.{{sine|cosine|tan|tanh|exponential|log|atan2|power|cbrt|remainder|logistic}}
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xf64>) -> tensor<4xi64>
// CHECK:         stablehlo.round_nearest_even
// CHECK:         stablehlo.while
// CHECK-NOT:     stablehlo.{{sine|cosine|tan|tanh|exponential|log|atan2|power|cbrt|remainder|logistic}}
// CHECK:         return
func.func @real_f64(%x: tensor<4xf64>, %y: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %0 = stablehlo.sine %x : tensor<4xf64>
  %1 = stablehlo.log_plus_one %x : tensor<4xf64>
  %2 = stablehlo.power %x, %y : tensor<4xf64>
  %3 = stablehlo.atan2 %x, %y : tensor<4xf64>
  %4 = stablehlo.remainder %x, %y : tensor<4xf64>
  %5 = stablehlo.tanh %x : tensor<4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

// complex<f64>: real and imaginary parts through the real kernels.
// CHECK-LABEL: func.func @complex_f64
// CHECK-NOT:     stablehlo.{{exponential|log|sqrt|sine|cosine}} {{.*}}complex
// CHECK:         stablehlo.real %arg0
// CHECK:         stablehlo.complex
func.func @complex_f64(%z: tensor<3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) {
  %0 = stablehlo.exponential %z : tensor<3xcomplex<f64>>
  %1 = stablehlo.sqrt %z : tensor<3xcomplex<f64>>
  return %0, %1 : tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>
}

// Negative: f32, complex<f32> and real f64 sqrt are IREE's own and stay as they are.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    stablehlo.sine %arg0 : tensor<4xf32>
// CHECK-NEXT:    stablehlo.exponential %arg1 : tensor<2xcomplex<f32>>
// CHECK-NEXT:    stablehlo.sqrt %arg2 : tensor<4xf64>
func.func @untouched(%x: tensor<4xf32>, %z: tensor<2xcomplex<f32>>, %w: tensor<4xf64>) -> (tensor<4xf32>, tensor<2xcomplex<f32>>, tensor<4xf64>) {
  %0 = stablehlo.sine %x : tensor<4xf32>
  %1 = stablehlo.exponential %z : tensor<2xcomplex<f32>>
  %2 = stablehlo.sqrt %w : tensor<4xf64>
  return %0, %1, %2 : tensor<4xf32>, tensor<2xcomplex<f32>>, tensor<4xf64>
}
