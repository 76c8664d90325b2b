// RUN: shlo-opt --shlo-reject-token-ops %s | filecheck %s
// RUN: not shlo-opt --shlo-reject-token-ops %S/Inputs/token_ops.mlir 2>&1 | filecheck %s --check-prefix=ERR

// Token plumbing that stays inside the function is fine (canonicalize drops it).
// CHECK-LABEL: func.func @plumbing
// CHECK:         stablehlo.after_all
func.func @plumbing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t0 = stablehlo.create_token : !stablehlo.token
  %t1 = stablehlo.after_all %t0, %t0 : !stablehlo.token
  return %x : tensor<4xf32>
}

// ERR: token_ops.mlir:3:8: error: stablehlo.create_token: a function returning a !stablehlo.token is not supported (IREE has no token type at its boundary)
