func.func @main(%x: tensor<131072xf32>) -> tensor<65537xcomplex<f32>> {
  %r = stablehlo.fft %x, type = RFFT, length = [131072] : (tensor<131072xf32>) -> tensor<65537xcomplex<f32>>
  return %r : tensor<65537xcomplex<f32>>
}
