func.func @main(%x: tensor<4099xcomplex<f64>>) -> tensor<4099xcomplex<f64>> {
  // 4099 is prime: one DFT matrix of 4099 x 4099, over shlo's limit
  %0 = stablehlo.fft %x, type = FFT, length = [4099] : (tensor<4099xcomplex<f64>>) -> tensor<4099xcomplex<f64>>
  return %0 : tensor<4099xcomplex<f64>>
}
