module {
  func.func @main(%arg0: tensor<2x7xcomplex<f32>>) -> tensor<1x1x1x14xf64> {
    %0 = stablehlo.reshape %arg0 : (tensor<2x7xcomplex<f32>>) -> tensor<1x1x1x14xcomplex<f32>>
    %1 = stablehlo.reshape %arg0 : (tensor<2x7xcomplex<f32>>) -> tensor<14xcomplex<f32>>
    %2 = stablehlo.reshape %1 : (tensor<14xcomplex<f32>>) -> tensor<1x1x1x14xcomplex<f32>>
    %3 = stablehlo.add %0, %2 : tensor<1x1x1x14xcomplex<f32>>
    %4 = stablehlo.real %3 : (tensor<1x1x1x14xcomplex<f32>>) -> tensor<1x1x1x14xf32>
    %5 = stablehlo.convert %4 : (tensor<1x1x1x14xf32>) -> tensor<1x1x1x14xf64>
    return %5 : tensor<1x1x1x14xf64>
  }
}
