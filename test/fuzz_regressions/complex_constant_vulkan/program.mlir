func.func @main(%x: tensor<5xcomplex<f32>>) -> tensor<5xcomplex<f32>> {
  %c = stablehlo.constant dense<[(5.000000e-01,1.000000e+00), (0.333333343,0.000000e+00), (2.500000e-01,0.000000e+00), (2.000000e-01,-2.000000e+00), (0.166666672,0.000000e+00)]> : tensor<5xcomplex<f32>>
  %0 = stablehlo.multiply %x, %c : tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}
