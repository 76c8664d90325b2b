// shlo-compile reports IREE's own diagnostic, a reproducer and the command that replays it
// (with no shlo pipeline, IREE meets a cholesky it cannot lower); f64 is never demoted
// without --demote-f64.
// RUN: not shlo-compile %s --target cpu --pipeline none --no-cache -o %t.vmfb 2>&1 | filecheck %s
// RUN: not shlo-compile %s --target vulkan --pipeline none -o %t.vmfb 2>&1 | filecheck %s --check-prefix=F64
// RUN: shlo-compile --list-targets | filecheck %s --check-prefix=LIST

// CHECK:      shlo-compile: IREE compilation for target 'cpu:host' failed:
// CHECK-SAME: shlo_compile_errors.mlir:21:8: failed to legalize operation 'stablehlo.cholesky'
// CHECK-SAME: (reproducer: {{.*}}input.mlir; replay: shlo-compile {{.*}}input.mlir --target cpu:host {{.*}}-o {{.*}}out.vmfb)
// F64:        shlo-compile: {{.*}}shlo_compile_errors.mlir:22:8: vulkan:llvmpipe cannot compute stablehlo.sine in f64
// F64-SAME:   compile with demote_f64=True (shlo-compile --demote-f64)
// LIST:       cpu     llvm-cpu
// LIST:       vulkan  SPIR-V
// LIST:       llvmpipe
// LIST:       cuda    PTX
// LIST:       sm_89, sm_90, sm_90a
// LIST:       hip
// LIST:       vmvx
func.func @main(%a: tensor<3x3xf32>, %x: tensor<2xf64>) -> (tensor<3x3xf32>, tensor<2xf64>) {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  %1 = stablehlo.sine %x : tensor<2xf64>
  return %0, %1 : tensor<3x3xf32>, tensor<2xf64>
}
