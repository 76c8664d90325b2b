// RUN: shlo-opt --shlo-split-long-reduce %s | filecheck %s

// A sum of a whole matrix: its outermost reduced dimension cut into 64 parts, summed over the
// rest, then over the parts.
// CHECK-LABEL: func.func @sum_all
// CHECK:         %[[S:.*]] = stablehlo.reshape %arg0 : (tensor<4096x4096xf32>) -> tensor<64x64x4096xf32>
// CHECK:         %[[P:.*]] = stablehlo.reduce(%[[S]] init: %[[Z:.*]]) applies stablehlo.add across dimensions = [1, 2] {shlo.canonical} : (tensor<64x64x4096xf32>, tensor<f32>) -> tensor<64xf32>
// CHECK:         %[[R:.*]] = stablehlo.reduce(%[[P]] init: %[[Z]]) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
// CHECK:         return %[[R]]
func.func @sum_all(%x: tensor<4096x4096xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A few rows, each long: the parts sit after the kept dimension. maximum is idempotent, so
// any init value will do.
// CHECK-LABEL: func.func @max_rows
// CHECK:         stablehlo.reshape %arg0 : (tensor<8x1048576xi32>) -> tensor<8x64x16384xi32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [2] {shlo.canonical} : (tensor<8x64x16384xi32>, tensor<i32>) -> tensor<8x64xi32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<8x64xi32>, tensor<i32>) -> tensor<8xi32>
func.func @max_rows(%x: tensor<8x1048576xi32>) -> tensor<8xi32> {
  %z = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<8x1048576xi32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// A column reduction (batch-norm's sum over all but the channels): few elements per result,
// but together enough for 16 parts of the batch.
// CHECK-LABEL: func.func @sum_columns
// CHECK:         stablehlo.reshape %arg0 : (tensor<16x32x32x32xf32>) -> tensor<16x1x32x32x32xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1, 2, 3] {shlo.canonical} : (tensor<16x1x32x32x32xf32>, tensor<f32>) -> tensor<16x32xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
func.func @sum_columns(%x: tensor<16x32x32x32xf32>) -> tensor<32xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x32x32x32xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// A reduce over no dimension (one element a result) stays as it is.
// CHECK-LABEL: func.func @no_dimension
// CHECK-NOT:     shlo.canonical
// CHECK:         return
func.func @no_dimension(%x: tensor<16xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [] : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// A reduced dimension 64 does not divide: the largest of 32, 16, 8 that does.
// CHECK-LABEL: func.func @odd_length
// CHECK:         stablehlo.reshape %arg0 : (tensor<65576xf32>) -> tensor<8x8197xf32>
func.func @odd_length(%x: tensor<65576xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.multiply across dimensions = [0] : (tensor<65576xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Negative: a sum whose init is not 0 (it would be added once per part), too few elements,
// too many results, two operands, a run-time size and a complex sum stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     stablehlo.reshape
// CHECK-NOT:     shlo.canonical
// CHECK:         return
func.func @unchanged(%x: tensor<1048576xf32>, %s: tensor<8192xf32>, %m: tensor<128x65536xf32>,
                     %i: tensor<1048576xi32>, %d: tensor<?xf32>, %cx: tensor<1048576xcomplex<f32>>)
    -> (tensor<f32>, tensor<f32>, tensor<128xf32>, tensor<f32>, tensor<i32>, tensor<f32>,
        tensor<complex<f32>>) {
  %five = stablehlo.constant dense<5.0> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %five) applies stablehlo.add across dimensions = [0] : (tensor<1048576xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8192xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<128x65536xf32>, tensor<f32>) -> tensor<128xf32>
  %3:2 = stablehlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [0] : (tensor<1048576xf32>, tensor<1048576xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %e: tensor<i32>) {
      %s0 = stablehlo.add %a, %b : tensor<f32>
      %s1 = stablehlo.add %c, %e : tensor<i32>
      stablehlo.return %s0, %s1 : tensor<f32>, tensor<i32>
    }
  %4 = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
  %zc = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %5 = stablehlo.reduce(%cx init: %zc) applies stablehlo.add across dimensions = [0] : (tensor<1048576xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  return %0, %1, %2, %3#0, %3#1, %4, %5 : tensor<f32>, tensor<f32>, tensor<128xf32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<complex<f32>>
}
