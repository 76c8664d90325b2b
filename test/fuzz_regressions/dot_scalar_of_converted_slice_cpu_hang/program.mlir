func.func @main(%arg0: tensor<2x2xf32>, %arg1: tensor<8x2x128xi64>) -> tensor<8x2x128xi64> {
  %4 = stablehlo.convert %arg0 : (tensor<2x2xf32>) -> tensor<2x2xi64>
  %5 = stablehlo.reshape %4 : (tensor<2x2xi64>) -> tensor<4xi64>
  %6 = stablehlo.slice %5 [0:1] : (tensor<4xi64>) -> tensor<1xi64>
  %7 = stablehlo.reshape %6 : (tensor<1xi64>) -> tensor<i64>
  %8 = stablehlo.dot_general %arg1, %7, contracting_dims = [] x [] : (tensor<8x2x128xi64>, tensor<i64>) -> tensor<8x2x128xi64>
  return %8 : tensor<8x2x128xi64>
}
