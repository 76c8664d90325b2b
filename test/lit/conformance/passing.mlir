// Every check form of the StableHLO test files passes on CPU, one compile for the whole file.
// RUN: %PYTHON -m shlo.tools.shlo_conformance --target cpu --json %t.jsonl %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.jsonl
// RUN: %PYTHON -m shlo.tools.shlo_conformance --target reference %s | FileCheck %s

// CHECK-NOT: failed:
// CHECK: 9 passed, 0 failed, 1 skipped
// JSON: "function": "dialect_checks", {{.*}}"status": "passed"

func.func @dialect_checks() {
  %x = stablehlo.constant dense<[1.0, -2.0, 0x7FC00000]> : tensor<3xf32>
  %y = stablehlo.add %x, %x : tensor<3xf32>
  %e = stablehlo.constant dense<[2.0, -4.0, 0x7FC00000]> : tensor<3xf32>
  check.expect_almost_eq %y, %e : tensor<3xf32>
  check.expect_almost_eq_const %y, dense<[2.00001, -4.00001, 0x7FC00000]> : tensor<3xf32>
  check.expect_almost_eq_const %y, dense<[2.05, -4.05, 0x7FC00000]> : tensor<3xf32> {tolerance = 0.1 : f64}
  check.expect_close %y, %e, max_ulp_difference = 0 : tensor<3xf32>, tensor<3xf32>
  func.return
}

// -----

func.func @integer_and_complex() {
  %i = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
  %j = stablehlo.multiply %i, %i : tensor<2x2xui8>
  check.expect_eq_const %j, dense<[[1, 4],
                                   [9, 16]]> : tensor<2x2xui8>
  %c = stablehlo.constant dense<[(1.0, 2.0), (0.5, -1.0)]> : tensor<2xcomplex<f32>>
  %d = stablehlo.negate %c : tensor<2xcomplex<f32>>
  check.expect_eq_const %d, dense<[(-1.0, -2.0), (-0.5, 1.0)]> : tensor<2xcomplex<f32>>
  func.return
}

// -----

// A sub-byte type crosses the runtime boundary in a wider carrier.
func.func @sub_byte() {
  %a = stablehlo.constant dense<[1, -2, 7, -8]> : tensor<4xi4>
  %b = stablehlo.constant dense<[1, 1, 1, 1]> : tensor<4xi4>
  %c = stablehlo.add %a, %b : tensor<4xi4>
  check.expect_eq_const %c, dense<[2, -1, -8, -7]> : tensor<4xi4>
  func.return
}

// -----

// The testdata form: @main calls @inputs and @expected and checks with custom calls.
func.func @main() -> tensor<i1> {
  %0 = call @inputs() : () -> tensor<3xf32>
  %1 = call @expected() : () -> tensor<3xf32>
  %2 = stablehlo.sqrt %0 : tensor<3xf32>
  stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  %3 = stablehlo.custom_call @check.eq(%2, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<i1>
  return %3 : tensor<i1>
}
func.func private @inputs() -> tensor<3xf32> {
  %0 = stablehlo.constant dense<[4.0, 9.0, 0.25]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @expected() -> tensor<3xf32> {
  %0 = stablehlo.constant dense<[2.0, 3.0, 0.5]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// run_parallel without communication: each program is called with its own partition id.
module @parallel {
  func.func @id() -> tensor<ui32> {
    %0 = stablehlo.partition_id : tensor<ui32>
    return %0 : tensor<ui32>
  }
  func.func @main() {
    %r:2 = "interpreter.run_parallel"() {programs = [[@id, @id]]} : () -> (tensor<ui32>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<0> : tensor<ui32>
    check.expect_eq_const %r#1, dense<1> : tensor<ui32>
    func.return
  }
}

// -----

// A probe's value is read back by expect_serialized_eq.
func.func @probe() {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = stablehlo.add %0, %0 : tensor<2xi64>
  %2 = interpreter.probe %1, probe_id = "sum" : tensor<2xi64>
  %3 = stablehlo.constant dense<[6, 8]> : tensor<2xi64>
  check.expect_serialized_eq %3, probe_id = "sum" : tensor<2xi64>
  func.return
}

// -----

// Two test functions in one chunk, and a helper that is not a test.
func.func @helper(%a: tensor<f64>) -> tensor<f64> {
  %0 = stablehlo.multiply %a, %a : tensor<f64>
  return %0 : tensor<f64>
}
func.func @first() {
  %0 = stablehlo.constant dense<3.0> : tensor<f64>
  %1 = func.call @helper(%0) : (tensor<f64>) -> tensor<f64>
  check.expect_eq_const %1, dense<9.0> : tensor<f64>
  func.return
}
func.func @second() {
  %0 = stablehlo.constant dense<-0.0> : tensor<f64>
  %1 = stablehlo.abs %0 : tensor<f64>
  check.expect_eq_const %1, dense<0.0> : tensor<f64>
  func.return
}

// -----

// No checks: it passes when it runs.
func.func @no_checks() -> tensor<2xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Takes arguments (the interpreter's --args): skipped.
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  return %a : tensor<2xi32>
}
