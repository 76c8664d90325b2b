// Python and C++ passes mix in one pipeline, at any nesting; pass flags keep their order.
// RUN: shlo-opt %s --pass-pipeline='builtin.module(func.func(cse, shlo-legalize-chlo), canonicalize)' | filecheck %s
// RUN: shlo-opt %s --cse --shlo-legalize-chlo | filecheck %s
// RUN: shlo-opt - < %s --pass-pipeline='builtin.module(func.func(cse))' -o %t.mlir
// RUN: filecheck %s --check-prefix=CSE < %t.mlir
// RUN: shlo-opt %s | shlo-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @twice
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %arg0, %[[B]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.multiply %[[S]], %[[S]] : tensor<2x3xf32>
// CHECK-NEXT:    return %[[P]]
// CHECK-NOT:     chlo.

// CSE:           chlo.broadcast_add
// CSE-NOT:       chlo.broadcast_add
// GENERIC:       "chlo.broadcast_add"
func.func @twice(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
