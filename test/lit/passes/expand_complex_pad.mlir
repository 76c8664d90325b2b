// RUN: shlo-opt --shlo-expand-complex-pad %s | filecheck %s

// A complex pad: its parts pad apart (IREE's compiler crashes on the complex one).
// CHECK-LABEL: func.func @complex
// CHECK-DAG:     %[[RE:.*]] = stablehlo.real %arg0
// CHECK-DAG:     %[[IM:.*]] = stablehlo.imag %arg0
// CHECK-DAG:     %[[P0:.*]] = stablehlo.pad %[[RE]], %{{.*}}, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x8xf32>
// CHECK-DAG:     %[[P1:.*]] = stablehlo.pad %[[IM]], %{{.*}}, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x8xf32>
// CHECK:         stablehlo.complex %[[P0]], %[[P1]] : tensor<5x8xcomplex<f32>>
func.func @complex(%x: tensor<4x6xcomplex<f32>>) -> tensor<5x8xcomplex<f32>> {
  %c = stablehlo.constant dense<(1.0,-2.0)> : tensor<complex<f32>>
  %r = stablehlo.pad %x, %c, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<4x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<5x8xcomplex<f32>>
  return %r : tensor<5x8xcomplex<f32>>
}

// A real pad stays.
// CHECK-LABEL: func.func @real
// CHECK:         stablehlo.pad %arg0
// CHECK-NOT:     stablehlo.complex
func.func @real(%x: tensor<4xf32>, %c: tensor<f32>) -> tensor<6xf32> {
  %r = stablehlo.pad %x, %c, low = [1], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// A pad of an empty operand (any type) is a broadcast of its padding value (IREE hoisted it
// into a global initializer and failed to compile).
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     stablehlo.pad
// CHECK:         %[[R:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<bf16>) -> tensor<3x2xbf16>
// CHECK:         return %[[R]]
func.func @empty(%x: tensor<2x0xbf16>, %c: tensor<bf16>) -> tensor<3x2xbf16> {
  %r = stablehlo.pad %x, %c, low = [0, 2], high = [1, 0], interior = [0, 3] : (tensor<2x0xbf16>, tensor<bf16>) -> tensor<3x2xbf16>
  return %r : tensor<3x2xbf16>
}

// The parts of a complex value converted from f16 are padded behind fusion barriers.
// CHECK-LABEL: func.func @from_f16
// CHECK:         %[[C:.*]] = stablehlo.convert %arg0
// CHECK-DAG:     %[[RE:.*]] = stablehlo.real %[[C]]
// CHECK-DAG:     %[[IM:.*]] = stablehlo.imag %[[C]]
// CHECK-DAG:     %[[BR:.*]] = iree_tensor_ext.compute_barrier.start %[[RE]]
// CHECK-DAG:     %[[BI:.*]] = iree_tensor_ext.compute_barrier.start %[[IM]]
// CHECK-DAG:     stablehlo.pad %[[BR]]
// CHECK-DAG:     stablehlo.pad %[[BI]]
func.func @from_f16(%x: tensor<1x8xf16>, %c: tensor<complex<f32>>) -> tensor<2x24xcomplex<f32>> {
  %0 = stablehlo.convert %x : (tensor<1x8xf16>) -> tensor<1x8xcomplex<f32>>
  %r = stablehlo.pad %0, %c, low = [0, 1], high = [1, 1], interior = [0, 2] : (tensor<1x8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x24xcomplex<f32>>
  return %r : tensor<2x24xcomplex<f32>>
}
