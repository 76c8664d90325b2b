// RUN: shlo-opt --split-input-file --shlo-host-collectives %s | filecheck %s
// RUN: not shlo-opt --shlo-host-collectives %S/Inputs/host_collectives_dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR

// A module for two replicas: the collective moves bytes through the host, the program folds
// the gathered rows with the op's own computation; replica_id asks the host.
// CHECK: module attributes {mhlo.num_replicas = 2 : i32}
// CHECK:       func.func private @shlo_host.collective(tensor<?xi8>, tensor<?xi8>, tensor<?x?xi64>, i32, i32, i32, i32, i32) -> tensor<?xi8>
// CHECK-NEXT:  func.func private @shlo_host.process_id(tensor<?xi8>, i32, i32) -> tensor<?xi8>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    iree.reflection = {shlo.host = "1"}
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4x4xi8>
// CHECK:         %[[ROWS:.*]] = call @shlo_host.collective(
// CHECK:         tensor.cast %[[ROWS]] : tensor<?xi8> to tensor<32xi8>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<2x4x4xi8>) -> tensor<2x4xf32>
// CHECK:         "stablehlo.map"
// CHECK:           stablehlo.maximum
// CHECK:         call @shlo_host.process_id(%[[ROWS]],
// CHECK-NOT:     stablehlo.all_reduce
// CHECK-NOT:     stablehlo.replica_id
module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %m : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.replica_id : tensor<ui32>
    return %0, %1 : tensor<4xf32>, tensor<ui32>
  }
}

// -----

// One process: collectives stay (shlo-single-process-collectives' job); outfeed and send
// still go to the host, in program order (each call takes the previous one's result), and
// their tokens become fresh after_all tokens.
// CHECK-LABEL: func.func @io
// CHECK:         stablehlo.all_gather
// CHECK:         %[[OUT:.*]] = call @shlo_host.outfeed(
// CHECK:         call @shlo_host.send(%[[OUT]],
// CHECK-NOT:     stablehlo.outfeed
// CHECK-NOT:     stablehlo.send
func.func @io(%x: tensor<2xi1>) -> tensor<2xi1> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi1>) -> tensor<2xi1>
  %t = stablehlo.create_token : !stablehlo.token
  %t1 = "stablehlo.outfeed"(%g, %t) {outfeed_config = "tag"} : (tensor<2xi1>, !stablehlo.token) -> !stablehlo.token
  %t2 = "stablehlo.send"(%g, %t1) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<2xi1>, !stablehlo.token) -> !stablehlo.token
  return %g : tensor<2xi1>
}

// ERR: host_collectives_dynamic.mlir:3:10: error: stablehlo.all_gather: operand tensor<?xf32> has a dynamic shape; exchanging it between processes needs static shapes (refine the module first)
