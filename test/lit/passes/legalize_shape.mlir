// RUN: shlo-opt --shlo-legalize-shape --split-input-file %s | filecheck %s
// RUN: shlo-opt --shlo-legalize-shape --split-input-file --verify-diagnostics %S/Inputs/legalize_shape_errors.mlir

// What chlo-legalize-to-stablehlo emits for a dynamic broadcast: the constraint becomes a
// run-time check naming the op and the shapes, the assuming region is inlined.
// CHECK-LABEL: func.func @broadcast_add
// CHECK-NOT:     shape.
// CHECK:         stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         %[[OK:.*]] = stablehlo.and
// CHECK:         %[[FLAG:.*]] = tensor.extract %[[OK]][] : tensor<i1>
// CHECK:         cf.assert %[[FLAG]], "shape check failed: shape.cstr_broadcastable at {{.*}}legalize_shape.mlir:{{[0-9]+}}:8: shapes of tensor<?x3xf32>, tensor<?x?xf32> do not broadcast"
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg0, %[[E:[^,]*]], dims = [0, 1] : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg1, %[[E]], dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x3xf32>
// CHECK:         stablehlo.add
func.func @broadcast_add(%arg0: tensor<?x3xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x3xf32> {
  %0 = shape.shape_of %arg0 : tensor<?x3xf32> -> tensor<2xindex>
  %1 = shape.shape_of %arg1 : tensor<?x?xf32> -> tensor<2xindex>
  %2 = shape.cstr_broadcastable %0, %1 : tensor<2xindex>, tensor<2xindex>
  %3 = shape.assuming %2 -> (tensor<?x3xf32>) {
    %4 = shape.shape_of %arg0 : tensor<?x3xf32> -> tensor<2xindex>
    %5 = shape.shape_of %arg1 : tensor<?x?xf32> -> tensor<2xindex>
    %6 = shape.broadcast %4, %5 : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
    %7 = stablehlo.dynamic_broadcast_in_dim %arg0, %6, dims = [0, 1] : (tensor<?x3xf32>, tensor<2xindex>) -> tensor<?x3xf32>
    %8 = stablehlo.dynamic_broadcast_in_dim %arg1, %6, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x3xf32>
    %9 = stablehlo.add %7, %8 : tensor<?x3xf32>
    shape.assuming_yield %9 : tensor<?x3xf32>
  }
  return %3 : tensor<?x3xf32>
}

// -----

// A constraint that holds at compile time leaves no check.
// CHECK-LABEL: func.func @static_constraint
// CHECK-NOT:     cf.assert
// CHECK-NOT:     shape.
// CHECK:         stablehlo.add %arg0, %arg1
func.func @static_constraint(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = shape.shape_of %arg0 : tensor<2x3xf32> -> tensor<2xindex>
  %1 = shape.const_shape [1, 3] : tensor<2xindex>
  %2 = shape.cstr_broadcastable %0, %1 : tensor<2xindex>, tensor<2xindex>
  %3 = shape.assuming %2 -> (tensor<2x3xf32>) {
    %4 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    shape.assuming_yield %4 : tensor<2x3xf32>
  }
  return %3 : tensor<2x3xf32>
}

// -----

// Extent arithmetic: concat, split_at, num_elements, get_extent, and the index tensor and
// arith ops around them become i64 StableHLO.
// CHECK-LABEL: func.func @extents
// CHECK-NOT:     shape.
// CHECK-NOT:     index
// CHECK:         stablehlo.multiply
// CHECK:         stablehlo.dynamic_reshape %arg0, %{{.*}} : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
// CHECK:         stablehlo.dynamic_iota %{{.*}}, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
// CHECK:         stablehlo.dynamic_iota %{{.*}}, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
func.func @extents(%arg0: tensor<?x?x4xf32>) -> (tensor<?x4xf32>, tensor<?xi32>, tensor<?xi32>) {
  %s = shape.shape_of %arg0 : tensor<?x?x4xf32> -> tensor<3xindex>
  %c2 = arith.constant 2 : index
  %head, %tail = "shape.split_at"(%s, %c2) : (tensor<3xindex>, index) -> (tensor<2xindex>, tensor<1xindex>)
  %n = shape.num_elements %head : tensor<2xindex> -> index
  %flat = tensor.from_elements %n : tensor<1xindex>
  %new = shape.concat %flat, %tail : tensor<1xindex>, tensor<1xindex> -> tensor<2xindex>
  %0 = stablehlo.dynamic_reshape %arg0, %new : (tensor<?x?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x4xf32>
  %e1 = shape.get_extent %s, %c0 : tensor<3xindex>, index -> index
  %sum = arith.addi %d0, %e1 : index
  %v = tensor.from_elements %sum : tensor<1xindex>
  %1 = stablehlo.dynamic_iota %v, dim = 0 : (tensor<1xindex>) -> tensor<?xi32>
  %cast = arith.index_cast %v : tensor<1xindex> to tensor<1xi64>
  %2 = stablehlo.dynamic_iota %cast, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?xi32>, tensor<?xi32>
}

// -----

// cstr_eq and cstr_require become checks too; JAX's shape_assertion (which IREE drops) too.
// CHECK-LABEL: func.func @constraints
// CHECK:         cf.assert %{{.*}}, "shape check failed: shape.cstr_eq at {{.*}}: shapes of tensor<?xf32>, tensor<?xf32> are not equal"
// CHECK:         cf.assert %{{.*}}, "shape check failed: shape.cstr_require at {{.*}}: need a non-empty input"
// CHECK:         cf.assert %{{.*}}, "shape check failed: stablehlo.custom_call at {{.*}}: x has {0} rows (values of tensor<i32>)"
// CHECK-NOT:     shape.
// CHECK-NOT:     shape_assertion
func.func @constraints(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = shape.shape_of %a : tensor<?xf32> -> tensor<1xindex>
  %1 = shape.shape_of %b : tensor<?xf32> -> tensor<1xindex>
  %w1 = shape.cstr_eq %0, %1 : tensor<1xindex>, tensor<1xindex>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %pos = arith.cmpi sgt, %n, %c0 : index
  %w2 = shape.cstr_require %pos, "need a non-empty input"
  %w = shape.assuming_all %w1, %w2
  %r = shape.assuming %w -> (tensor<?xf32>) {
    %s = stablehlo.add %a, %b : tensor<?xf32>
    shape.assuming_yield %s : tensor<?xf32>
  }
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %ok = stablehlo.compare GE, %d, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %d) {error_message = "x has {0} rows", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %r : tensor<?xf32>
}
