// RUN: shlo-opt --shlo-legalize-chlo %s | filecheck %s
// RUN: not shlo-opt --shlo-legalize-chlo %S/Inputs/unsupported.mlir 2>&1 | filecheck %s --check-prefix=ERR

// ERR: unsupported.mlir:3:8: error: shlo-legalize-chlo: chlo.ragged_dot with dynamic shapes is not supported: tensor<?x5xf32>

// CHECK-LABEL: func.func @erf_f32
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.divide
// CHECK:         stablehlo.exponential
// CHECK:         return
func.func @erf_f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = chlo.erf %x : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @erf_bf16
// CHECK:         stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
func.func @erf_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = chlo.erf %x : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @numpy_style
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         stablehlo.subtract %arg0, %[[B]] : tensor<2x3xf32>
func.func @numpy_style(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A mapping the C++ lowering rejects (not numpy's trailing alignment): rhs dim 0 -> result dim 0.
// CHECK-LABEL: func.func @explicit_dims
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
// CHECK:         stablehlo.shift_left %arg0, %[[B]] : tensor<2x3xi32>
func.func @explicit_dims(%a: tensor<2x3xi32>, %b: tensor<2xi32>) -> tensor<2x3xi32> {
  %0 = chlo.broadcast_shift_left %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @compare
// CHECK:         stablehlo.compare  GE, %arg0, {{.*}},  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xi1> {
  %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GE>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// Same shapes need no broadcast at all.
// CHECK-LABEL: func.func @same_shape
// CHECK-NEXT:    stablehlo.complex %arg0, %arg1 : tensor<4xcomplex<f32>>
func.func @same_shape(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.broadcast_complex %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
