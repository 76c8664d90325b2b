// RUN: shlo-opt --shlo-expand-fft %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-fft %S/Inputs/expand_fft_dynamic_length.mlir 2>&1 | filecheck %s --check-prefix=ERR

// n-D FFT: one 1-D fft per axis, the axis moved last and back; f32 power-of-two 1-D ffts
// stay for IREE, each behind a fusion barrier (IREE fused a 65536-point fft's real part into
// it and ran out of stack).
// CHECK-LABEL: func.func @fft_2d
// CHECK:         %[[T:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x8x4xcomplex<f32>>
// CHECK:         %[[F:.*]] = stablehlo.fft %[[T]], type = FFT, length = [4] : (tensor<2x8x4xcomplex<f32>>)
// CHECK-NEXT:    %[[FB:.*]] = iree_tensor_ext.compute_barrier.start %[[F]]
// CHECK:         %[[B:.*]] = stablehlo.transpose %[[FB]], dims = [0, 2, 1] : (tensor<2x8x4xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
// CHECK:         %[[G:.*]] = stablehlo.fft %[[B]], type = FFT, length = [8] : (tensor<2x4x8xcomplex<f32>>)
// CHECK-NEXT:    %[[GB:.*]] = iree_tensor_ext.compute_barrier.start %[[G]]
// CHECK:         return %[[GB]]
func.func @fft_2d(%x: tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4, 8] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
  return %0 : tensor<2x4x8xcomplex<f32>>
}

// RFFT: real RFFT on the last axis (its input behind a fence), then complex FFT on the
// leading one.
// CHECK-LABEL: func.func @rfft_2d
// CHECK:         %[[IN:.*]] = iree_tensor_ext.compute_barrier.start %arg0 : tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.fft %[[IN]], type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
// CHECK-NEXT:    %[[RB:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]
// CHECK:         %[[T:.*]] = stablehlo.transpose %[[RB]], dims = [1, 0]
// CHECK:         stablehlo.fft %[[T]], type = FFT, length = [4] : (tensor<5x4xcomplex<f32>>)
// CHECK:         stablehlo.transpose
func.func @rfft_2d(%x: tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [4, 8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  return %0 : tensor<4x5xcomplex<f32>>
}

// A native RFFT reads its input through one fence: IREE folded x - x to zeros and made them
// one tensor with the RFFT's zero imaginary part, which failed to compile (cpu, vulkan).
// CHECK-LABEL: func.func @rfft_of_difference
// CHECK:         %[[D:.*]] = stablehlo.subtract
// CHECK-NEXT:    %[[IN:.*]] = iree_tensor_ext.compute_barrier.start %[[D]]
// CHECK-NEXT:    %[[R:.*]] = stablehlo.fft %[[IN]], type = RFFT, length = [8]
// CHECK-NEXT:    %[[RB:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]
// CHECK-NEXT:    return %[[RB]]
func.func @rfft_of_difference(%x: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  %d = stablehlo.subtract %x, %x : tensor<8xf32>
  %0 = stablehlo.fft %d, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}

// IRFFT: complex IFFT on the leading axis, then the real IRFFT on the last.
// CHECK-LABEL: func.func @irfft_2d
// CHECK:         %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x5xcomplex<f32>>) -> tensor<5x4xcomplex<f32>>
// CHECK:         %[[I:.*]] = stablehlo.fft %[[T]], type = IFFT, length = [4]
// CHECK-NEXT:    %[[IB:.*]] = iree_tensor_ext.compute_barrier.start %[[I]]
// CHECK:         %[[B:.*]] = stablehlo.transpose %[[IB]], dims = [1, 0]
// CHECK:         %[[R:.*]] = stablehlo.fft %[[B]], type = IRFFT, length = [8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[RB:.*]] = iree_tensor_ext.compute_barrier.start %[[R]]
// CHECK:         return %[[RB]]
func.func @irfft_2d(%x: tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [4, 8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// complex<f64> (IREE's lowering fails to verify): a DFT on the real and imaginary parts, two
// twiddle matrices (exact on quarter turns) and four dot_generals.
// CHECK-LABEL: func.func @fft_1d_f64
// CHECK-NOT:     stablehlo.fft
// CHECK-DAG:     %[[C:.*]] = stablehlo.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00]{{.*}} : tensor<4x4xf64>
// CHECK-DAG:     %[[S:.*]] = stablehlo.constant dense<{{\[\[}}-0.000000e+00, -0.000000e+00, -0.000000e+00, -0.000000e+00], [-0.000000e+00, -1.000000e+00, -0.000000e+00, 1.000000e+00]{{.*}} : tensor<4x4xf64>
// CHECK-DAG:     %[[RE:.*]] = stablehlo.real %arg0
// CHECK-DAG:     %[[IM:.*]] = stablehlo.imag %arg0
// CHECK:         stablehlo.dot_general %[[RE]], %[[C]], contracting_dims = [1] x [0]
// CHECK:         stablehlo.dot_general %[[RE]], %[[S]], contracting_dims = [1] x [0]
// CHECK:         stablehlo.dot_general %[[IM]], %[[S]], contracting_dims = [1] x [0]
// CHECK:         stablehlo.subtract
// CHECK:         stablehlo.dot_general %[[IM]], %[[C]], contracting_dims = [1] x [0]
// CHECK:         stablehlo.add
// CHECK-COUNT-2: iree_tensor_ext.compute_barrier.start
// CHECK:         stablehlo.complex
func.func @fft_1d_f64(%x: tensor<3x4xcomplex<f64>>) -> tensor<3x4xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<3x4xcomplex<f64>>) -> tensor<3x4xcomplex<f64>>
  return %0 : tensor<3x4xcomplex<f64>>
}

// A non-power-of-two f32 length IREE rejects; long enough (96 = 8 x 12) for the four-step
// split: DFTs of 8 and 12 with a twiddle multiply between, the halves kept by RFFT.
// CHECK-LABEL: func.func @rfft_four_step
// CHECK-NOT:     stablehlo.fft
// CHECK:         stablehlo.reshape %arg0 : (tensor<2x96xf32>) -> tensor<2x8x12xf32>
// CHECK:         stablehlo.dot_general {{.*}} (tensor<2x12x8xf32>, tensor<8x8xf32>) -> tensor<2x12x8xf32>
// CHECK:         stablehlo.broadcast_in_dim {{.*}} (tensor<12x8xf32>) -> tensor<2x12x8xf32>
// CHECK:         stablehlo.dot_general {{.*}} (tensor<2x8x12xf32>, tensor<12x12xf32>) -> tensor<2x8x12xf32>
// CHECK:         stablehlo.reshape {{.*}} : (tensor<2x12x8xf32>) -> tensor<2x96xf32>
// CHECK:         stablehlo.slice {{.*}} [0:2, 0:49]
// CHECK:         stablehlo.complex {{.*}} : tensor<2x49xcomplex<f32>>
func.func @rfft_four_step(%x: tensor<2x96xf32>) -> tensor<2x49xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [96] : (tensor<2x96xf32>) -> tensor<2x49xcomplex<f32>>
  return %0 : tensor<2x49xcomplex<f32>>
}

// IRFFT of a length IREE rejects: the half spectrum extended by conjugate mirroring
// (X[n-k] = conj X[k]), then the real part of the inverse DFT.
// CHECK-LABEL: func.func @irfft_1d_f64
// CHECK:         stablehlo.slice {{.*}} [1:3]
// CHECK:         stablehlo.reverse {{.*}} dims = [0]
// CHECK:         stablehlo.concatenate {{.*}} dim = 0 : (tensor<4xf64>, tensor<2xf64>) -> tensor<6xf64>
// CHECK:         stablehlo.negate
// CHECK:         stablehlo.concatenate {{.*}} dim = 0 : (tensor<4xf64>, tensor<2xf64>) -> tensor<6xf64>
// CHECK-NOT:     stablehlo.complex
// CHECK:         return {{.*}} : tensor<6xf64>
func.func @irfft_1d_f64(%x: tensor<4xcomplex<f64>>) -> tensor<6xf64> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [6] : (tensor<4xcomplex<f64>>) -> tensor<6xf64>
  return %0 : tensor<6xf64>
}

// A 1-D f32 fft of power-of-two length is IREE's own; the pass only fences its result, once.
// CHECK-LABEL: func.func @native_1d
// CHECK-NEXT:    %[[F:.*]] = stablehlo.fft %arg0, type = IFFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK-NEXT:    %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[F]]
// CHECK-NEXT:    return %[[B]]
func.func @native_1d(%x: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = IFFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  return %0 : tensor<3x8xcomplex<f32>>
}

// ERR: expand_fft_dynamic_length.mlir:3:8: error: stablehlo.fft: a DFT of length 4099 on a dynamic shape needs a 4099x4099 matrix; shlo builds at most 4096x4096 (static shapes have no limit)

// An axis of length 1 is the identity: no fft of length 1 remains (IREE failed to compile a
// complex one).
// CHECK-LABEL: func.func @rfft_length_one
// CHECK:         stablehlo.fft %{{.*}}, type = RFFT, length = [2]
// CHECK-NOT:     length = [1]
func.func @rfft_length_one(%x: tensor<1x2xf32>) -> tensor<1x2xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [1, 2] : (tensor<1x2xf32>) -> tensor<1x2xcomplex<f32>>
  return %0 : tensor<1x2xcomplex<f32>>
}

// An IRFFT of 16384 points or more is the real part of IREE's complex IFFT of the Hermitian
// extension (IREE's own IRFFT kept its unused imaginary half on the cpu's stack).
// CHECK-LABEL: func.func @long_irfft
// CHECK:         %[[C:.*]] = stablehlo.complex
// CHECK:         %[[F:.*]] = stablehlo.fft %[[C]], type = IFFT, length = [16384] : (tensor<16384xcomplex<f32>>) -> tensor<16384xcomplex<f32>>
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[F]]
// CHECK:         stablehlo.real %[[B]]
// CHECK-NOT:     type = IRFFT
func.func @long_irfft(%x: tensor<8193xcomplex<f32>>) -> tensor<16384xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [16384] : (tensor<8193xcomplex<f32>>) -> tensor<16384xf32>
  return %0 : tensor<16384xf32>
}

// A prime length past the matrix limit on a static shape: Bluestein's convolution, an FFT and
// an IFFT of 16384 points (the first power of two >= 2 * 4099 - 1), chirp multiplies around.
// CHECK-LABEL: func.func @bluestein
// CHECK:         stablehlo.pad %{{.*}}, low = [0, 0], high = [0, 12285]
// CHECK:         stablehlo.fft %{{.*}}, type = FFT, length = [16384]
// CHECK:         stablehlo.fft %{{.*}}, type = IFFT, length = [16384]
// CHECK:         stablehlo.slice %{{.*}} [0:2, 0:4099]
func.func @bluestein(%x: tensor<2x4099xcomplex<f32>>) -> tensor<2x4099xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4099] : (tensor<2x4099xcomplex<f32>>) -> tensor<2x4099xcomplex<f32>>
  return %0 : tensor<2x4099xcomplex<f32>>
}
