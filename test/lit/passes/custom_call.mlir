// RUN: shlo-opt --shlo-expand-custom-calls %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-custom-calls %S/Inputs/custom_call_unknown.mlir 2>&1 | filecheck %s --check-prefix=ERR

// IREE's own shape_assertion stays; nothing is registered from the command line.
// CHECK-LABEL: func.func @iree_target
// CHECK:         stablehlo.custom_call @shape_assertion
func.func @iree_target(%x: tensor<i1>) {
  stablehlo.custom_call @shape_assertion(%x) {error_message = "bad", has_side_effect = true} : (tensor<i1>) -> ()
  return
}

// ERR: custom_call_unknown.mlir:3:8: error: stablehlo.custom_call: no decomposition for target 'my_lib.fused_gelu': register one with shlo.passes.custom_call.register_custom_call (registered: {{.*}}lapack_spotrf_ffi{{.*}})
