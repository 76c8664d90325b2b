// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-split-long-reduce{scan-length=16})' %s | filecheck %s

// The cpu target's scans: a cumulative max of 40 from its end in blocks of at most 16 (3 of
// 14, padded at the start), the blocks' totals scanned, each block's prefix taken by maximum.
// CHECK-LABEL: func.func @cummax_reverse
// CHECK:         stablehlo.pad %arg0, %{{.*}}, low = [2], high = [0]
// CHECK:         "stablehlo.reduce_window"{{.*}}padding = dense<{{\[\[}}0, 0], [0, 13]]>{{.*}}window_dimensions = array<i64: 1, 14>
// CHECK:         "stablehlo.reduce_window"{{.*}}padding = dense<{{\[\[}}0, 2]]>{{.*}}window_dimensions = array<i64: 3>
// CHECK:         stablehlo.maximum %{{.*}}, %{{.*}} : tensor<3x14xf32>
// CHECK:         stablehlo.slice %{{.*}} [2:42] : (tensor<42xf32>) -> tensor<40xf32>
func.func @cummax_reverse(%x: tensor<40xf32>) -> tensor<40xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[0, 39]]> : tensor<1x2xi64>} : (tensor<40xf32>, tensor<f32>) -> tensor<40xf32>
  return %0 : tensor<40xf32>
}

// Negative: a scan of 16, a cumulative sum whose init is not 0 (each block would add it), a
// window that is not a scan and a scan of two operands stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     stablehlo.pad
// CHECK-NOT:     stablehlo.reshape
// CHECK:         return
func.func @unchanged(%s: tensor<16xf32>, %x: tensor<40xf32>, %i: tensor<40xi32>)
    -> (tensor<16xf32>, tensor<40xf32>, tensor<20xf32>, tensor<40xf32>, tensor<40xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%s, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {window_dimensions = array<i64: 16>, padding = dense<[[15, 0]]> : tensor<1x2xi64>} : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %1 = "stablehlo.reduce_window"(%x, %one) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[39, 0]]> : tensor<1x2xi64>} : (tensor<40xf32>, tensor<f32>) -> tensor<40xf32>
  %2 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {window_dimensions = array<i64: 21>} : (tensor<40xf32>, tensor<f32>) -> tensor<20xf32>
  %3:2 = "stablehlo.reduce_window"(%x, %i, %z, %zi) ({
    ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
      %r = stablehlo.add %a, %c : tensor<f32>
      %q = stablehlo.add %b, %d : tensor<i32>
      stablehlo.return %r, %q : tensor<f32>, tensor<i32>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[39, 0]]> : tensor<1x2xi64>} : (tensor<40xf32>, tensor<40xi32>, tensor<f32>, tensor<i32>) -> (tensor<40xf32>, tensor<40xi32>)
  return %0, %1, %2, %3#0, %3#1 : tensor<16xf32>, tensor<40xf32>, tensor<20xf32>, tensor<40xf32>, tensor<40xi32>
}

// Negative: a complex cumulative product stays whole (complex scans are not split).
// CHECK-LABEL: func.func @complex_scan
// CHECK-NOT:     stablehlo.pad
// CHECK:         return
func.func @complex_scan(%x: tensor<40xcomplex<f32>>) -> tensor<40xcomplex<f32>> {
  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f32>>
  %0 = "stablehlo.reduce_window"(%x, %one) ({
    ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
      %r = stablehlo.multiply %a, %b : tensor<complex<f32>>
      stablehlo.return %r : tensor<complex<f32>>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[39, 0]]> : tensor<1x2xi64>} : (tensor<40xcomplex<f32>>, tensor<complex<f32>>) -> tensor<40xcomplex<f32>>
  return %0 : tensor<40xcomplex<f32>>
}
