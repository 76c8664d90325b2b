// RUN: shlo-opt --shlo-split-complex-constants %s | filecheck %s

// complex<f64> constants, splat or not, become stablehlo.complex of their f64 parts (bits
// kept: the NaN payload and -0.0); complex<f32> ones stay.
// CHECK-LABEL: func.func @constants
// CHECK-DAG:     %[[R:.*]] = stablehlo.constant dense<0x7FF8000000000001> : tensor<2x2xf64>
// CHECK-DAG:     %[[I:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<2x2xf64>
// CHECK-DAG:     stablehlo.complex %[[R]], %[[I]] : tensor<2x2xcomplex<f64>>
// CHECK-DAG:     %[[VR:.*]] = stablehlo.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf64>
// CHECK-DAG:     %[[VI:.*]] = stablehlo.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xf64>
// CHECK-DAG:     stablehlo.complex %[[VR]], %[[VI]] : tensor<2xcomplex<f64>>
// CHECK-DAG:     stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<3xcomplex<f32>>
func.func @constants() -> (tensor<2x2xcomplex<f64>>, tensor<2xcomplex<f64>>, tensor<3xcomplex<f32>>) {
  %0 = stablehlo.constant dense<(0x7FF8000000000001, -0.0)> : tensor<2x2xcomplex<f64>>
  %1 = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>
  %2 = stablehlo.constant dense<(1.0, 2.0)> : tensor<3xcomplex<f32>>
  return %0, %1, %2 : tensor<2x2xcomplex<f64>>, tensor<2xcomplex<f64>>, tensor<3xcomplex<f32>>
}
