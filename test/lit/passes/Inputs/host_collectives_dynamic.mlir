module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}
