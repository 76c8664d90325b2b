// shlo-run runs a module for several processes: inputs of process 0, then process 1; each
// process's results and outfeed are printed.
// RUN: shlo-run %s --num-replicas 2 --input=4xi64=1,2,3,4 --input=4xi64=10,20,30,40 | filecheck %s
// RUN: not shlo-run %s --input=4xi64=1,2,3,4 2>&1 | filecheck %s --check-prefix=ALONE

// CHECK:      EXEC @main
// CHECK-NEXT: process 0:
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 4xi64=11 22 33 44
// CHECK-NEXT: result[1]: hal.buffer_view
// CHECK-NEXT: ui32=0
// CHECK-NEXT: outfeed[0]: hal.buffer_view
// CHECK-NEXT: 4xi64=1 2 3 4
// CHECK-NEXT: process 1:
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 4xi64=11 22 33 44
// CHECK-NEXT: result[1]: hal.buffer_view
// CHECK-NEXT: ui32=1
// CHECK-NEXT: outfeed[0]: hal.buffer_view
// CHECK-NEXT: 4xi64=10 20 30 40

// ALONE: shlo-run: process 0 (replica 0, partition 0): stablehlo.all_reduce: the module is for 2 replica(s) x 1 partition(s) but runs as 1 x 1: run it as 2 x 1 processes ({{.*}}shlo-run --num-replicas 2 --num-partitions 1)
module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xi64>) -> (tensor<4xi64>, tensor<ui32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
    %id = stablehlo.replica_id : tensor<ui32>
    %t = stablehlo.create_token : !stablehlo.token
    %t1 = "stablehlo.outfeed"(%x, %t) : (tensor<4xi64>, !stablehlo.token) -> !stablehlo.token
    return %sum, %id : tensor<4xi64>, tensor<ui32>
  }
}
