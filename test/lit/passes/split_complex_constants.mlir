// RUN: shlo-opt --shlo-split-complex-constants %s | filecheck %s

// complex<f64> constants, splat or not, become stablehlo.complex of their f64 parts (bits
// kept: the NaN payload and -0.0); complex<f32> ones only read stay.
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

// A complex<f32> splat that a dynamic_update_slice updates, directly or broadcast, is split
// (IREE 3.13 fails to compile the update into it); one only read stays.
// CHECK-LABEL: func.func @updated_splats
// CHECK-DAG:     %[[R:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[I:.*]] = stablehlo.constant dense<-2.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[C:.*]] = stablehlo.complex %[[R]], %[[I]] : tensor<complex<f32>>
// CHECK-DAG:     stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-DAG:     %[[ZR:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4x2xf32>
// CHECK-DAG:     stablehlo.complex %[[ZR]], %[[ZR]] : tensor<4x2xcomplex<f32>>
// CHECK-DAG:     stablehlo.constant dense<(3.000000e+00,0.000000e+00)> : tensor<4x2xcomplex<f32>>
func.func @updated_splats(%x: tensor<1x2xcomplex<f32>>, %i: tensor<i32>) -> (tensor<4x2xcomplex<f32>>, tensor<4x2xcomplex<f32>>, tensor<4x2xcomplex<f32>>) {
  %s = stablehlo.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<complex<f32>>) -> tensor<4x2xcomplex<f32>>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<4x2xcomplex<f32>>
  %r = stablehlo.constant dense<(3.0, 0.0)> : tensor<4x2xcomplex<f32>>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %b, %x, %i, %c0 : (tensor<4x2xcomplex<f32>>, tensor<1x2xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<4x2xcomplex<f32>>
  %1 = stablehlo.dynamic_update_slice %z, %x, %i, %c0 : (tensor<4x2xcomplex<f32>>, tensor<1x2xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<4x2xcomplex<f32>>
  %2 = stablehlo.add %r, %1 : tensor<4x2xcomplex<f32>>
  return %0, %1, %2 : tensor<4x2xcomplex<f32>>, tensor<4x2xcomplex<f32>>, tensor<4x2xcomplex<f32>>
}
