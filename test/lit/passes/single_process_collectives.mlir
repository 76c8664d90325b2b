// RUN: shlo-opt --shlo-single-process-collectives %s | filecheck %s
// RUN: not shlo-opt --shlo-single-process-collectives %S/Inputs/collectives_two_processes.mlir 2>&1 | filecheck %s --check-prefix=ERR

// One process: every group is {0}; the collectives return their operands (permute: zeros
// when no pair sends to process 0).
// CHECK-LABEL: func.func @collectives
// CHECK-NOT:     stablehlo.all_reduce
// CHECK-NOT:     stablehlo.all_gather
// CHECK-NOT:     stablehlo.collective_permute
// CHECK:         %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:         return %arg0, %arg0, %arg0, %[[ZERO]], %arg0
func.func @collectives(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<> : tensor<0x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// ERR: collectives_two_processes.mlir:3:8: error: stablehlo.all_reduce: replica_groups [[0, 1]] names process 1, but the module runs on one process

// CHECK-LABEL: func.func @ids
// CHECK-NOT:     stablehlo.replica_id
// CHECK-NOT:     stablehlo.partition_id
// CHECK:         stablehlo.constant dense<0> : tensor<ui32>
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %0 = stablehlo.replica_id : tensor<ui32>
  %1 = stablehlo.partition_id : tensor<ui32>
  return %0, %1 : tensor<ui32>, tensor<ui32>
}
