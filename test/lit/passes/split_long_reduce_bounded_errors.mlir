// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-split-long-reduce{threads=false max-length=16})' %s --verify-diagnostics --split-input-file

// An overlapping window longer than the bound that is not a scan.
func.func @sliding(%x: tensor<64xf32>) -> tensor<33xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{reduce_window: windows of 32 elements}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 32>} : (tensor<64xf32>, tensor<f32>) -> tensor<33xf32>
  return %0 : tensor<33xf32>
}

// -----

// A cumulative sum whose init is not 0 (its padding is data: splitting changes the count).
func.func @cumsum_init(%x: tensor<40xf32>) -> tensor<40xf32> {
  %z = stablehlo.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{cannot be split}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[39, 0]]> : tensor<1x2xi64>} : (tensor<40xf32>, tensor<f32>) -> tensor<40xf32>
  return %0 : tensor<40xf32>
}
