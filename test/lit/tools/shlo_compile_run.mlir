// shlo-compile legalizes with shlo's pipeline and compiles in-process; shlo-run runs the .vmfb.
// RUN: rm -rf %t.dump
// RUN: shlo-compile %s --target cpu -o %t.vmfb --dump-dir %t.dump --no-cache
// RUN: shlo-run %t.vmfb --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 | filecheck %s
// RUN: ls %t.dump | filecheck %s --check-prefix=STAGES
// RUN: cat %t.dump/*-shlo-legalize-chlo.mlir | filecheck %s --check-prefix=LEGAL
// RUN: shlo-run %s --target vmvx --input=2x3xf32=1 --input=3xf32=0.5 | filecheck %s --check-prefix=SPLAT
// RUN: shlo-run %t.vmfb --device local-sync --input="2x3xf32=[1 2 3][4 5 6]" --input=0,0,-1 | filecheck %s --check-prefix=UNTYPED
// RUN: not shlo-run %t.vmfb --input=3x3xf32=1 --input=3xf32=1 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not shlo-run %t.vmfb --input=2x3xq7=1 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not shlo-run %t.vmfb --input=2x3xf32=1,2 --input=3xf32=1 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not shlo-run %t.vmfb --function nope 2>&1 | filecheck %s --check-prefix=FUNCTION
// RUN: not shlo-run %t.missing.vmfb 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not shlo-compile %s --target tpu -o %t.bad.vmfb 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not shlo-compile %s --target vulkan:swiftshader -o %t.bad.vmfb 2>&1 | filecheck %s --check-prefix=GPU

// CHECK:      EXEC @main
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 2x3xf32=[11 22 33][14 25 36]
// STAGES:     000-input.mlir
// STAGES:      {{[0-9]+}}-shlo-legalize-chlo.mlir
// STAGES:      {{[0-9]+}}-canonicalize.mlir
// STAGES-NEXT: {{[0-9]+}}-cse.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-copy-rotated-loop-carries.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-barrier-conditional-captures.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-recompute-loop-captures.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-fence-transposed-variadic-reduces.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-copy-overlapping-updates.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-fold-self-ops.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-split-complex-constants.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-read-barrier-results.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-merge-edge-pads.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-barrier-returned-arguments.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-copy-updated-operands.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-barrier-constant-expressions.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-signless-loop-carries.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-reshape-unit-broadcasts.mlir
// STAGES-NEXT: {{[0-9]+}}-shlo-index-extents.mlir
// STAGES-NEXT: {{[0-9]+}}-boundary.mlir
// STAGES-NEXT: {{[0-9]+}}-iree-input.mlir
// STAGES:     iree-flow.mlir
// STAGES:     iree-vm.mlir
// LEGAL-NOT:  chlo.
// LEGAL:      stablehlo.broadcast_in_dim
// SPLAT:      2x3xf32=[1.5 1.5 1.5][1.5 1.5 1.5]
// UNTYPED:    2x3xf32=[1 2 2][4 5 5]
// SHAPE:      shlo-run: main: argument 0 expects 2x3xf32, got 3x3xf32
// SYNTAX:     expected SHAPExTYPE=VALUES
// COUNT:      2 values for shape 2x3 (6 elements)
// FUNCTION:   shlo-run: module has no function 'nope' (functions: main)
// MISSING:    shlo-run: {{.*}}missing.vmfb: No such file or directory
// TARGET:     shlo-compile: unknown target 'tpu'
// GPU:        shlo-compile: unknown vulkan target 'swiftshader' (known: {{.*}}llvmpipe
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
