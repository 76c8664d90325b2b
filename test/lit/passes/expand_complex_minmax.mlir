// RUN: shlo-opt --shlo-expand-complex-minmax %s | filecheck %s

// Complex: compare real parts, then imaginary parts; select each part.
// CHECK-LABEL: func.func @complex_max
// CHECK-NOT:     stablehlo.maximum
// CHECK:         stablehlo.compare  GT
// CHECK:         stablehlo.compare  EQ
// CHECK:         stablehlo.compare  GT
// CHECK:         stablehlo.complex
func.func @complex_max(%a: tensor<3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.maximum %a, %b : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// Negative: real maximum/minimum are IREE's own.
// CHECK-LABEL: func.func @real
// CHECK-NEXT:    stablehlo.minimum %arg0, %arg1 : tensor<3xf32>
func.func @real(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.minimum %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32>
}
