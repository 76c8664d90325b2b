// RUN: shlo-opt --shlo-legalize-chlo %s | filecheck %s
// The decomposition shape of the math ops: f64 stays f64, narrow floats go through f32, and
// no CHLO op (and no target sine/atan2 where shlo has its own) is left.

// CHECK-LABEL: func.func @erf_f64
// CHECK-NOT:     chlo.
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.round_nearest_even {{.*}} : tensor<4xf64>
// CHECK:         stablehlo.exponential {{.*}} : tensor<4xf64>
// CHECK:         return {{.*}} : tensor<4xf64>
func.func @erf_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.erf %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @erfc_f8
// CHECK:         stablehlo.convert %arg0 : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
func.func @erfc_f8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = chlo.erfc %x : tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// CHECK-LABEL: func.func @erf_inv_f6
// CHECK:         stablehlo.convert %arg0 : (tensor<4xf6E2M3FN>) -> tensor<4xf32>
// CHECK:         stablehlo.log
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xf6E2M3FN>
func.func @erf_inv_f6(%x: tensor<4xf6E2M3FN>) -> tensor<4xf6E2M3FN> {
  %0 = chlo.erf_inv %x : tensor<4xf6E2M3FN> -> tensor<4xf6E2M3FN>
  return %0 : tensor<4xf6E2M3FN>
}

// lgamma's reflection takes sin(pi x) from a polynomial: no target sine.
// CHECK-LABEL: func.func @lgamma_f64
// CHECK-NOT:     stablehlo.sine
// CHECK:         stablehlo.floor
// CHECK:         stablehlo.log
// CHECK:         return
func.func @lgamma_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.lgamma %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @polygamma_bf16
// CHECK:         stablehlo.convert %arg0 : (tensor<3xbf16>) -> tensor<3xf32>
// CHECK:         stablehlo.power
// CHECK-NOT:     chlo.
// CHECK:         return {{.*}} : tensor<3xbf16>
func.func @polygamma_bf16(%n: tensor<3xbf16>, %x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = chlo.polygamma %n, %x : tensor<3xbf16>, tensor<3xbf16> -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// CHECK-LABEL: func.func @atan_f32
// CHECK-NOT:     stablehlo.atan2
// CHECK:         return
func.func @atan_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tan_complex
// CHECK-NOT:     stablehlo.tan
// CHECK-NOT:     stablehlo.sine
// CHECK:         stablehlo.complex {{.*}} : tensor<2xcomplex<f64>>
func.func @tan_complex(%z: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %0 = chlo.tan %z : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// The kernel returns (p, q); asin takes atan2(re z, p) and sign(im z) q.
// CHECK-LABEL: func.func @asin_acos_kernel
// CHECK:         stablehlo.real %arg0
// CHECK:         stablehlo.imag %arg0
// CHECK:         stablehlo.log_plus_one
// CHECK:         stablehlo.complex
func.func @asin_acos_kernel(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = chlo._asin_acos_kernel %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// Complex bessel_i1e (never lowered upstream) computes complex<f32> in f64.
// CHECK-LABEL: func.func @bessel_i1e_complex
// CHECK:         stablehlo.convert %arg0 : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f64>>
// CHECK:         stablehlo.convert {{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f32>>
func.func @bessel_i1e_complex(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = chlo.bessel_i1e %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// No infinities in f8E4M3FN: is_inf is a constant false.
// CHECK-LABEL: func.func @is_inf_f8
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant dense<false> : tensor<4xi1>
// CHECK-NEXT:    return %[[C]]
func.func @is_inf_f8(%x: tensor<4xf8E4M3FN>) -> tensor<4xi1> {
  %0 = chlo.is_inf %x : tensor<4xf8E4M3FN> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @is_neg_inf_f32
// CHECK:         %[[C:.*]] = stablehlo.constant dense<0xFF800000> : tensor<4xf32>
// CHECK:         stablehlo.compare  EQ, %arg0, %[[C]]
func.func @is_neg_inf_f32(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @mulhi_i16
// CHECK:         stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xi32>
// CHECK:         stablehlo.multiply {{.*}} : tensor<4xi32>
// CHECK:         stablehlo.shift_right_arithmetic {{.*}} : tensor<4xi32>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xi32>) -> tensor<4xi16>
func.func @mulhi_i16(%x: tensor<4xi16>, %y: tensor<4xi16>) -> tensor<4xi16> {
  %0 = chlo.mulhi %x, %y : tensor<4xi16>, tensor<4xi16> -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// 64-bit: 32-bit limbs, no wider integer.
// CHECK-LABEL: func.func @mulhi_ui64
// CHECK-NOT:     i128
// CHECK:         stablehlo.shift_right_logical {{.*}} : tensor<4xui64>
// CHECK:         stablehlo.and {{.*}} : tensor<4xui64>
func.func @mulhi_ui64(%x: tensor<4xui64>, %y: tensor<4xui64>) -> tensor<4xui64> {
  %0 = chlo.mulhi %x, %y : tensor<4xui64>, tensor<4xui64> -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// CHECK-LABEL: func.func @next_after_bf16
// CHECK:         stablehlo.bitcast_convert %arg0 : (tensor<4xbf16>) -> tensor<4xi16>
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xi16>) -> tensor<4xbf16>
func.func @next_after_bf16(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = chlo.next_after %x, %y : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @conj_square
// CHECK:         %[[RE:.*]] = stablehlo.real %arg0
// CHECK:         %[[IM:.*]] = stablehlo.imag %arg0
// CHECK:         %[[NEG:.*]] = stablehlo.negate %[[IM]]
// CHECK:         stablehlo.complex %[[RE]], %[[NEG]]
// CHECK:         stablehlo.multiply %arg1, %arg1 : tensor<4xf32>
func.func @conj_square(%z: tensor<4xcomplex<f32>>, %x: tensor<4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = chlo.conj %z : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %1 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xcomplex<f32>>, tensor<4xf32>
}

// asin and acos share one kernel (a polynomial near 0, atan2 of sqrt(1-x^2) beyond).
// CHECK-LABEL: func.func @asin_f32
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.sqrt
// CHECK:         return
func.func @asin_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @acos_f32
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.sqrt
// CHECK:         return
func.func @acos_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The inverse hyperbolics go through log1p (exact near 0) and log (for large arguments).
// CHECK-LABEL: func.func @acosh_f32
// CHECK-DAG:     stablehlo.log_plus_one
// CHECK-DAG:     stablehlo.log
// CHECK:         return
func.func @acosh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @asinh_f32
// CHECK-DAG:     stablehlo.sign
// CHECK-DAG:     stablehlo.log_plus_one
// CHECK:         return
func.func @asinh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @atanh_f32
// CHECK-COUNT-2: stablehlo.log_plus_one
// CHECK:         return
func.func @atanh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.atanh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// f32 sinh and cosh: f32_math's exp (Cody-Waite reduction, 2^k from exponent bits) of
// min(|x|, 9) and, scaled by 1/2, of |x|; sinh's series below 1; not the target's exp.
// CHECK-LABEL: func.func @sinh_f32
// CHECK-NOT:     stablehlo.exponential
// CHECK:         stablehlo.round_nearest_even
// CHECK-NOT:     stablehlo.exponential
// CHECK:         return
func.func @sinh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cosh_f32
// CHECK-NOT:     stablehlo.exponential
// CHECK-COUNT-2: stablehlo.round_nearest_even
// CHECK-NOT:     stablehlo.exponential
// CHECK:         return
func.func @cosh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// digamma: reflection for negative arguments, recurrence and an asymptotic series.
// CHECK-LABEL: func.func @digamma_f32
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.floor
// CHECK:         return
func.func @digamma_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @zeta_f32
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.power
// CHECK:         return
func.func @zeta_f32(%x: tensor<4xf32>, %q: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @is_pos_inf_f32
// CHECK:         %[[INF:.*]] = stablehlo.constant dense<0x7F800000> : tensor<4xf32>
// CHECK:         stablehlo.compare EQ, %arg0, %[[INF]]
func.func @is_pos_inf_f32(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
