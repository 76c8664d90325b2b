// A dynamic module runs through shlo-run: shapes come from the inputs; a mismatch is a
// one-line error naming the op and the shapes.
// RUN: shlo-run %s --input=2x3xf32=1,2,3,4,5,6 --input=1x3xf32=10,20,30 | filecheck %s
// RUN: shlo-run %s --input=1x3xf32=1,2,3 --input=2x1xf32=10,20 | filecheck %s --check-prefix=OTHER
// RUN: not shlo-run %s --input=2x3xf32=1,2,3,4,5,6 --input=3x3xf32=0,0,0,0,0,0,0,0,0 2>&1 | filecheck %s --check-prefix=ERR

// CHECK: 2x3xf32=[11 22 33][14 25 36]
// OTHER: 2x3xf32=[11 12 13][21 22 23]
// ERR: main: shape.cstr_broadcastable at {{.*}}shlo_run_dynamic.mlir:11:8: shapes of tensor<?x3xf32>, tensor<?x?xf32>{{.*}} do not broadcast (called with 2x3xf32, 3x3xf32)
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x?xf32>) -> tensor<?x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
