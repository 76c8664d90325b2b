// A failing function gets one line: file:line, function, cause, check, first mismatch.
// The exit status is 1, and 0 once a ledger lists exactly the failures.
// RUN: not %PYTHON -m shlo.tools.shlo_conformance --target cpu %s | FileCheck %s
// RUN: not %PYTHON -m shlo.tools.shlo_conformance --target reference %s | FileCheck %s
// RUN: %PYTHON -m shlo.tools.shlo_conformance --target cpu --ledger %S/Inputs/failing_ledger.txt %s | FileCheck %s --check-prefix=LEDGER
// RUN: not %PYTHON -m shlo.tools.shlo_conformance --target cpu --ledger %S/Inputs/stale_ledger.txt %s | FileCheck %s --check-prefix=STALE

// CHECK: failing.mlir:13: @nan_is_never_equal: mismatch: check.expect_eq_const at line 17: index [1]: got nan, want nan, ULP distance 0
// CHECK: failing.mlir:23: @beyond_tolerance: mismatch: check.expect_almost_eq_const at line 26: index [0, 1]: got 2.0, want 2.002, ULP distance 1 (tolerance 0.0001)
// CHECK: failing.mlir:32: @too_many_ulps: mismatch: check.expect_close at line 36: index []: got 1.0, want 1.0000004, ULP distance 3 (allowed 2 ULPs)
// CHECK: failing.mlir:42: @custom_call_eq: mismatch: custom_call @check.eq at line 45: index [2]: got 3, want 4
// CHECK: 1 passed, 4 failed, 0 skipped
func.func @nan_is_never_equal() {
  %0 = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %1 = stablehlo.abs %0 : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  check.expect_eq_const %1, dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @beyond_tolerance() {
  %0 = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf16>
  %1 = stablehlo.floor %0 : tensor<1x2xf16>
  check.expect_almost_eq_const %1, dense<[[1.0, 2.001]]> : tensor<1x2xf16>
  func.return
}

// -----

func.func @too_many_ulps() {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.constant dense<1.00000036> : tensor<f32>
  %2 = stablehlo.multiply %0, %0 : tensor<f32>
  check.expect_close %2, %1, max_ulp_difference = 2 : tensor<f32>, tensor<f32>
  func.return
}

// -----

func.func @custom_call_eq() -> tensor<i1> {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = stablehlo.constant dense<[1, 2, 4]> : tensor<3xi32>
  %2 = stablehlo.custom_call @check.eq(%0, %1) : (tensor<3xi32>, tensor<3xi32>) -> tensor<i1>
  return %2 : tensor<i1>
}

// -----

func.func @passes() {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  check.expect_eq_const %0, dense<[1, 2, 3]> : tensor<3xi32>
  func.return
}

// LEDGER-NOT: new failure
// LEDGER:     1 passed, 4 failed, 0 skipped
// STALE:      new failure: failing.mlir::custom_call_eq: mismatch:
// STALE:      unexpected pass (remove it from the ledger): failing.mlir::passes
