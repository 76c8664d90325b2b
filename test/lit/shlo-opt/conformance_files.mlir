// REQUIRES: stablehlo-interpret
// The StableHLO interpreter test files (shared data) parse with --allow-unregistered-dialect,
// every chunk, although IREE registers a `check` dialect with different ops; iree-opt cannot.
//
// RUN: shlo-opt --allow-unregistered-dialect --split-input-file %stablehlo_interpret/add.mlir | filecheck %s
// RUN: not iree-opt --allow-unregistered-dialect --split-input-file %stablehlo_interpret/add.mlir 2>&1 | filecheck %s --check-prefix=IREE
// RUN: shlo-opt --allow-unregistered-dialect --split-input-file %stablehlo_interpret/probe.mlir | filecheck %s --check-prefix=PROBE
// RUN: shlo-opt --allow-unregistered-dialect --split-input-file %stablehlo_interpret/check.mlir --cse > /dev/null
//
// CHECK-LABEL: func.func @add_op_test_si2()
// CHECK:         stablehlo.add
// CHECK:         expect_eq_const"
// CHECK-LABEL: func.func @add_op_test_ui2()
// CHECK-LABEL: func.func @add_op_test_c128()
// IREE: add.mlir:7:24: error: expected '('
// PROBE: probe"
