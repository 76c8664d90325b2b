// RUN: shlo-opt --shlo-insert-shape-checks --split-input-file %s | filecheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[A:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         %[[B:.*]] = stablehlo.get_dimension_size %arg1, dim = 0
// CHECK:         stablehlo.compare EQ
// CHECK:         cf.assert %{{.*}}, "shape check failed: stablehlo.add at {{.*}}insert_shape_checks.mlir:{{[0-9]+}}:8: operand shapes tensor<?x3xf32>, tensor<?x3xf32> differ"
// CHECK-NEXT:    stablehlo.add %arg0, %arg1
func.func @elementwise(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_and_reshape
// CHECK:         cf.assert %{{.*}}, "shape check failed: stablehlo.dynamic_broadcast_in_dim at {{.*}}: operand tensor<?xf32> does not broadcast to the output shape (each size must be 1 or the output's)"
// CHECK-NEXT:    stablehlo.dynamic_broadcast_in_dim
// CHECK:         cf.assert %{{.*}}, "shape check failed: stablehlo.dynamic_reshape at {{.*}}: operand tensor<?xf32> and the output shape have different element counts"
// CHECK-NEXT:    stablehlo.dynamic_reshape
func.func @broadcast_and_reshape(%a: tensor<?xf32>, %s: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = stablehlo.dynamic_reshape %a, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Static shapes need no run-time check.
// CHECK-LABEL: func.func @static
// CHECK-NOT:     cf.assert
func.func @static(%a: tensor<4xf32>, %s: tensor<2xi64>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x4xf32>
}
