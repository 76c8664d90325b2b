// --verify-diagnostics: every diagnostic (parser, verifier, C++ pass, Python pass) meets an
// expected-* designator of the line it is on, in the file's own line numbers: exit status 0.
//
// RUN: shlo-opt %s --split-input-file --verify-diagnostics --load-pass-plugin=%test_passes --pass-pipeline='builtin.module(func.func(iree-llvmcpu-emit-vectorization-remarks),test-refuse{op=stablehlo.abs})' | filecheck %s
// RUN: shlo-opt %s --split-input-file --verify-diagnostics=only-expected --load-pass-plugin=%test_passes --pass-pipeline='builtin.module(func.func(iree-llvmcpu-emit-vectorization-remarks),test-refuse{op=stablehlo.abs})' > /dev/null
// An expectation at an unknown location that nobody produced, and a regex that does not compile:
// RUN: not shlo-opt %S/Inputs/verify_unmatched.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=UNMATCHED
// UNMATCHED:      verify_unmatched.mlir:2:4: error: invalid regex: missing ), unterminated subpattern
// UNMATCHED:      <unknown>:0: error: expected error "an error nowhere" was not produced

// A chunk whose pipeline succeeds (warnings or none) is printed, the others are not.
// CHECK-NOT:  @parse_error
// CHECK:      func.func @warnings
// CHECK:      // {{-}}----
// CHECK-NEXT: // {{-}}----
// CHECK-NEXT: // {{-}}----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @clean

func.func @parse_error() {
  %x = 3 // expected-error {{expected operation name in quotes}}
}

// -----

// expected-note @below {{see existing symbol definition here}}
func.func @twice() {
  return
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func.func @twice() {
  return
}

// -----

func.func @verifier(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error-re @-1 {{'stablehlo.{{[a-z]+}}' op expected {{[0-9]+}} operands, but found 1}}
  return %0 : tensor<2xf32>
}

// -----

// expected-warning @+1 {{found one or more ops not vectorized}}
func.func @warnings(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-warning @above {{op is not vectorized}}
  return %0 : tensor<4x4xf32>
}

// -----

func.func @python_pass(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{test-refuse: refusing 'stablehlo.abs'}}
  %0 = stablehlo.abs %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_location(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @unknown {{'stablehlo.add' op expected 2 operands, but found 1}}
  %0 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc(unknown)
  return %0 : tensor<2xf32>
}

// -----

func.func @clean() {
  return
}
