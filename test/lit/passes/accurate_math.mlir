// RUN: shlo-opt --shlo-accurate-math %s | filecheck %s
// sin/cos/tan/atan2 below f64 and complex<f32> functions become shlo's accurate kernels;
// f64 (shlo-expand-f64-math's) and ops IREE computes accurately are left alone.

// f32 sine: Cody-Waite, and Payne-Hanek's 64-bit products of table words (gathered by
// exponent) for |x| >= 2^12; atan2 from its series; exp stays IREE's.
// CHECK-LABEL: func.func @real_f32
// CHECK-NOT:     stablehlo.sine
// CHECK:         stablehlo.round_nearest_even
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xf32>) -> tensor<4xui32>
// CHECK:         "stablehlo.gather"({{.*}}) <{{.*}}> : (tensor<116xui64>, tensor<4xi32>) -> tensor<4xui64>
// CHECK:         stablehlo.multiply {{.*}} : tensor<4xui64>
// CHECK-NOT:     stablehlo.{{sine|atan2}}
// CHECK:         stablehlo.exponential %arg0 : tensor<4xf32>
// CHECK-NOT:     stablehlo.{{sine|atan2}}
// CHECK:         return
func.func @real_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.sine %x : tensor<4xf32>
  %1 = stablehlo.atan2 %x, %y : tensor<4xf32>
  %2 = stablehlo.exponential %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Narrow floats compute in f32 and round once; dynamic shapes too.
// CHECK-LABEL: func.func @narrow
// CHECK:         stablehlo.convert %arg0 : (tensor<?xf16>) -> tensor<?xf32>
// CHECK-NOT:     stablehlo.cosine
// CHECK:         stablehlo.convert {{.*}} : (tensor<?xf32>) -> tensor<?xf16>
func.func @narrow(%x: tensor<?xf16>) -> tensor<?xf16> {
  %0 = stablehlo.cosine %x : tensor<?xf16>
  return %0 : tensor<?xf16>
}

// complex<f32> log: log|z| without overflow, atan2 of the parts (itself expanded).
// CHECK-LABEL: func.func @complex_f32
// CHECK:         stablehlo.real %arg0
// CHECK:         stablehlo.imag %arg0
// CHECK-NOT:     stablehlo.atan2
// CHECK:         stablehlo.complex
func.func @complex_f32(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.log %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// Negative: f64 is another pass's; complex atan2 is left as it is.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    stablehlo.sine %arg0 : tensor<4xf64>
// CHECK-NEXT:    stablehlo.atan2 %arg1, %arg1 : tensor<2xcomplex<f32>>
func.func @untouched(%x: tensor<4xf64>, %z: tensor<2xcomplex<f32>>) -> (tensor<4xf64>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.sine %x : tensor<4xf64>
  %1 = stablehlo.atan2 %z, %z : tensor<2xcomplex<f32>>
  return %0, %1 : tensor<4xf64>, tensor<2xcomplex<f32>>
}

// exp-log=true (the Vulkan target's option): f32 exp and log1p become arithmetic too.
// RUN: shlo-opt --pass-pipeline='builtin.module(shlo-accurate-math{exp-log=true})' %s | filecheck %s --check-prefix=EXPLOG
// EXPLOG-LABEL: func.func @exp_log
// EXPLOG-NOT:     stablehlo.{{exponential|log_plus_one}}
// EXPLOG:         stablehlo.round_nearest_even
// EXPLOG:         stablehlo.shift_left
// EXPLOG:         stablehlo.log
// EXPLOG-NOT:     stablehlo.{{exponential|log_plus_one}}
// EXPLOG:         return
func.func @exp_log(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.exponential %x : tensor<4xf32>
  %1 = stablehlo.log_plus_one %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
