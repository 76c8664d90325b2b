// RUN: shlo-opt --shlo-expand-complex-add %s | filecheck %s

// A complex add of two reshapes of one value: the parts add apart (IREE 3.13 mistranslated its
// own late rewrite of it: 'failed to legalize operation stablehlo.add').
// CHECK-LABEL: func.func @add
// CHECK-DAG:     %[[A:.*]] = stablehlo.reshape %arg0
// CHECK-DAG:     %[[B:.*]] = stablehlo.reshape %arg0
// CHECK-DAG:     %[[RA:.*]] = stablehlo.real %[[A]]
// CHECK-DAG:     %[[RB:.*]] = stablehlo.real %[[B]]
// CHECK-DAG:     %[[IA:.*]] = stablehlo.imag %[[A]]
// CHECK-DAG:     %[[IB:.*]] = stablehlo.imag %[[B]]
// CHECK-DAG:     %[[R:.*]] = stablehlo.add %[[RA]], %[[RB]] : tensor<1x14xf32>
// CHECK-DAG:     %[[I:.*]] = stablehlo.add %[[IA]], %[[IB]] : tensor<1x14xf32>
// CHECK:         stablehlo.complex %[[R]], %[[I]] : tensor<1x14xcomplex<f32>>
func.func @add(%x: tensor<2x7xcomplex<f32>>) -> tensor<1x14xcomplex<f32>> {
  %a = stablehlo.reshape %x : (tensor<2x7xcomplex<f32>>) -> tensor<1x14xcomplex<f32>>
  %b = stablehlo.reshape %x : (tensor<2x7xcomplex<f32>>) -> tensor<1x14xcomplex<f32>>
  %r = stablehlo.add %a, %b : tensor<1x14xcomplex<f32>>
  return %r : tensor<1x14xcomplex<f32>>
}

// Subtract keeps its operand order.
// CHECK-LABEL: func.func @subtract
// CHECK-DAG:     %[[RA:.*]] = stablehlo.real %arg0
// CHECK-DAG:     %[[RB:.*]] = stablehlo.real %arg1
// CHECK-DAG:     %[[IA:.*]] = stablehlo.imag %arg0
// CHECK-DAG:     %[[IB:.*]] = stablehlo.imag %arg1
// CHECK-DAG:     %[[R:.*]] = stablehlo.subtract %[[RA]], %[[RB]] : tensor<4xf64>
// CHECK-DAG:     %[[I:.*]] = stablehlo.subtract %[[IA]], %[[IB]] : tensor<4xf64>
// CHECK:         stablehlo.complex %[[R]], %[[I]] : tensor<4xcomplex<f64>>
func.func @subtract(%x: tensor<4xcomplex<f64>>, %y: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  %r = stablehlo.subtract %x, %y : tensor<4xcomplex<f64>>
  return %r : tensor<4xcomplex<f64>>
}

// Real adds, and complex adds in a reducer body, stay.
// CHECK-LABEL: func.func @kept
// CHECK:         stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.add
// CHECK-NOT:     stablehlo.real
func.func @kept(%x: tensor<4xf32>, %y: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<complex<f32>>) {
  %r = stablehlo.add %x, %x : tensor<4xf32>
  %z = stablehlo.constant dense<(0.0,0.0)> : tensor<complex<f32>>
  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  return %r, %s : tensor<4xf32>, tensor<complex<f32>>
}
