// RUN: shlo-opt --shlo-expand-complex-bitcast %s | filecheck %s

// Each f64 part's bits split into a low (real) and a high (imaginary) f32 word.
// CHECK-LABEL: func.func @c128_to_c64
// CHECK-NOT:     bitcast_convert %arg0
// CHECK:         %[[RE:.*]] = stablehlo.real %arg0
// CHECK:         %[[BITS:.*]] = stablehlo.bitcast_convert %[[RE]] : (tensor<3xf64>) -> tensor<3xui64>
// CHECK:         stablehlo.and %[[BITS]]
// CHECK:         stablehlo.shift_right_logical %[[BITS]]
// CHECK:         stablehlo.complex
// CHECK:         stablehlo.imag %arg0
// CHECK:         stablehlo.concatenate {{.*}}, dim = 1 : (tensor<3x1xcomplex<f32>>, tensor<3x1xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
func.func @c128_to_c64(%x: tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>> {
  %r = stablehlo.bitcast_convert %x : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>
  return %r : tensor<3x2xcomplex<f32>>
}

// The other direction: each pair's real and imaginary f32 words joined (imaginary high) into
// one f64 part, pair 0 the real part (IREE's compiler segfaulted on it too).
// CHECK-LABEL: func.func @c64_to_c128
// CHECK-NOT:     bitcast_convert %arg0
// CHECK:         %[[P0:.*]] = stablehlo.slice %arg0 [0:3, 0:1]
// CHECK:         %[[P1:.*]] = stablehlo.slice %arg0 [0:3, 1:2]
// CHECK:         %[[HIGH:.*]] = stablehlo.shift_left %{{.*}}, %c : tensor<3xui64>
// CHECK:         %[[BITS:.*]] = stablehlo.or %{{.*}}, %[[HIGH]] : tensor<3xui64>
// CHECK:         %[[RE:.*]] = stablehlo.bitcast_convert %[[BITS]] : (tensor<3xui64>) -> tensor<3xf64>
// CHECK:         %[[IM:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<3xui64>) -> tensor<3xf64>
// CHECK:         stablehlo.complex %[[RE]], %[[IM]] : tensor<3xcomplex<f64>>
func.func @c64_to_c128(%x: tensor<3x2xcomplex<f32>>) -> tensor<3xcomplex<f64>> {
  %r = stablehlo.bitcast_convert %x : (tensor<3x2xcomplex<f32>>) -> tensor<3xcomplex<f64>>
  return %r : tensor<3xcomplex<f64>>
}
