module {
  func.func @main(%arg0: tensor<2x7xf32>, %arg1: tensor<2x7xf32>) -> tensor<1x1x1x14xf64> {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2x7xcomplex<f32>>
    %1 = stablehlo.reshape %0 : (tensor<2x7xcomplex<f32>>) -> tensor<1x1x1x14xcomplex<f32>>
    %2 = stablehlo.reshape %0 : (tensor<2x7xcomplex<f32>>) -> tensor<14xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<14xcomplex<f32>>) -> tensor<1x1x1x14xcomplex<f32>>
    %4 = stablehlo.add %1, %3 : tensor<1x1x1x14xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<1x1x1x14xcomplex<f32>>) -> tensor<1x1x1x14xf32>
    %6 = stablehlo.convert %5 : (tensor<1x1x1x14xf32>) -> tensor<1x1x1x14xf64>
    return %6 : tensor<1x1x1x14xf64>
  }
}
