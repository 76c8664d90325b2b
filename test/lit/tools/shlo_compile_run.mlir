// shlo-compile legalizes with shlo's pipeline and compiles in-process; shlo-run runs the .vmfb.
// RUN: shlo-compile %s --target cpu -o %t.vmfb --dump-dir %t.dump
// RUN: shlo-run %t.vmfb --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 | filecheck %s
// RUN: filecheck %s --check-prefix=DUMP < %t.dump/1-legalized.mlir
// RUN: shlo-run %s --target vmvx --input=2x3xf32=1 --input=3xf32=0.5 | filecheck %s --check-prefix=SPLAT
// RUN: not shlo-run %t.vmfb --input=3x3xf32=1 --input=3xf32=1 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not shlo-run %t.vmfb --input=2x3xq7=1 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not shlo-compile %s --target tpu -o %t.bad.vmfb 2>&1 | filecheck %s --check-prefix=TARGET

// CHECK:      EXEC @main
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 2x3xf32=[11.0 22.0 33.0][14.0 25.0 36.0]
// DUMP-NOT:   chlo.
// DUMP:       stablehlo.broadcast_in_dim
// SPLAT:      2x3xf32=[1.5 1.5 1.5][1.5 1.5 1.5]
// SHAPE:      shlo-run: main: argument 0 expects 2x3xf32, got 3x3xf32
// SYNTAX:     expected SHAPExTYPE=VALUES
// TARGET:     unknown target 'tpu'
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
