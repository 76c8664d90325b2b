func.func @main(%x: tensor<?x4099xcomplex<f64>>) -> tensor<?x4099xcomplex<f64>> {
  // a run-time batch: no split and no convolution, one DFT matrix of 4099 x 4099, over the limit
  %0 = stablehlo.fft %x, type = FFT, length = [4099] : (tensor<?x4099xcomplex<f64>>) -> tensor<?x4099xcomplex<f64>>
  return %0 : tensor<?x4099xcomplex<f64>>
}
