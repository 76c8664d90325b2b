// --mlir-timing: MLIR's execution time report, Python passes included, after the output;
// --mlir-pass-statistics: each pass's statistics (as a pipeline, or a list).
//
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --pass-pipeline='builtin.module(func.func(test-mark,cse),canonicalize)' --mlir-timing 2>&1 | filecheck %s --check-prefix=TIMING
// TIMING:      func.func @f
// TIMING:      ... Execution time report ...
// TIMING:      Total Execution Time:
// TIMING:      ----Wall Time----  ----Name----
// TIMING:      Mark
// TIMING:      'func.func' Pipeline
// TIMING-NEXT:   CSEPass
// TIMING:      CanonicalizerPass
// TIMING:      Total
//
// RUN: shlo-opt %s --cse --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// STATS:      ... Pass statistics report ...
// STATS:      CSEPass
// STATS-NEXT:   (S) 1 num-cse'd - Number of operations CSE'd
// RUN: shlo-opt %s --cse --cse --mlir-pass-statistics --mlir-pass-statistics-display=list 2>&1 >/dev/null | filecheck %s --check-prefix=LIST
// LIST:       CSEPass
// LIST-NEXT:    (S) 1 num-cse'd - Number of operations CSE'd
//
// Timing with no pipeline still reports (the parse-and-print run):
// RUN: shlo-opt %s --mlir-timing 2>&1 >/dev/null | filecheck %s --check-prefix=EMPTY
// EMPTY: Total Execution Time:
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
