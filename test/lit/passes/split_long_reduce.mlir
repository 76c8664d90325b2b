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

// No part count of 8 to 64 divides 65576 into whole vectors: the parts take its leading
// 65536 elements, 16 of 4096 (a part reads at least 4096), and the 40 left are reduced on
// their own.
// CHECK-LABEL: func.func @odd_length
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK:         %[[H:.*]] = stablehlo.slice %arg0 [0:65536]
// CHECK:         %[[S:.*]] = stablehlo.reshape %[[H]] : (tensor<65536xf32>) -> tensor<16x4096xf32>
// CHECK:         %[[P:.*]] = stablehlo.reduce(%[[S]] init: %[[Z]]) applies stablehlo.multiply across dimensions = [1] {shlo.canonical}
// CHECK:         %[[R:.*]] = stablehlo.reduce(%[[P]] init: %[[Z]]) applies stablehlo.multiply across dimensions = [0] :
// CHECK:         %[[T:.*]] = stablehlo.slice %arg0 [65536:65576]
// CHECK:         %[[U:.*]] = stablehlo.reduce(%[[T]] init: %[[Z]]) applies stablehlo.multiply across dimensions = [0] {shlo.canonical}
// CHECK:         %[[M:.*]] = stablehlo.multiply %[[R]], %[[U]]
// CHECK:         return %[[M]]
func.func @odd_length(%x: tensor<65576xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.multiply across dimensions = [0] : (tensor<65576xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// 1000000 = 50 x 20000: 50 parts of whole vectors rather than 64 of 15625 elements.
// CHECK-LABEL: func.func @whole_vectors
// CHECK:         stablehlo.reshape %arg0 : (tensor<1000000xf32>) -> tensor<50x20000xf32>
func.func @whole_vectors(%x: tensor<1000000xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000000xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A vector dot of a prime length: a leading piece of 40 x 4160 products as a batch, summed,
// plus the product of the 267 left.
// CHECK-LABEL: func.func @vector_dot
// CHECK-DAG:     %[[A:.*]] = stablehlo.slice %arg0 [0:166400]
// CHECK-DAG:     %[[B:.*]] = stablehlo.slice %arg1 [0:166400]
// CHECK-DAG:     %[[RA:.*]] = stablehlo.reshape %[[A]] : (tensor<166400xf32>) -> tensor<40x4160xf32>
// CHECK-DAG:     %[[RB:.*]] = stablehlo.reshape %[[B]] : (tensor<166400xf32>) -> tensor<40x4160xf32>
// CHECK:         %[[D:.*]] = stablehlo.dot_general %[[RA]], %[[RB]], batching_dims = [0] x [0], contracting_dims = [1] x [1] {shlo.canonical} : (tensor<40x4160xf32>, tensor<40x4160xf32>) -> tensor<40xf32>
// CHECK:         %[[S:.*]] = stablehlo.reduce(%[[D]] init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// CHECK-DAG:     %[[TA:.*]] = stablehlo.slice %arg0 [166400:166667]
// CHECK-DAG:     %[[TB:.*]] = stablehlo.slice %arg1 [166400:166667]
// CHECK:         %[[T:.*]] = stablehlo.dot_general %[[TA]], %[[TB]], contracting_dims = [0] x [0] {shlo.canonical}
// CHECK:         %[[R:.*]] = stablehlo.add %[[S]], %[[T]]
// CHECK:         return %[[R]]
func.func @vector_dot(%x: tensor<166667xf32>, %y: tensor<166667xf32>) -> tensor<f32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<166667xf32>, tensor<166667xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A matrix-vector product into 8 results, batched: the parts are a batch dimension of both
// operands, the products of each part summed over the parts.
// CHECK-LABEL: func.func @matvec
// CHECK-DAG:     stablehlo.reshape %arg0 : (tensor<2x8x131072xf32>) -> tensor<2x8x32x4096xf32>
// CHECK-DAG:     stablehlo.reshape %arg1 : (tensor<2x131072xf32>) -> tensor<2x32x4096xf32>
// CHECK:         %[[D:.*]] = stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0, 2] x [0, 1], contracting_dims = [3] x [2] {shlo.canonical} : (tensor<2x8x32x4096xf32>, tensor<2x32x4096xf32>) -> tensor<2x32x8xf32>
// CHECK:         stablehlo.reduce(%[[D]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x32x8xf32>, tensor<f32>) -> tensor<2x8xf32>
func.func @matvec(%m: tensor<2x8x131072xf32>, %v: tensor<2x131072xf32>) -> tensor<2x8xf32> {
  %0 = stablehlo.dot_general %m, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x131072xf32>, tensor<2x131072xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// Negative: a product into more than 64 results, a prime length that is not a leading
// piece of either operand (rows of a matrix), a short one, a complex one and a bf16 vector
// dot of whole vectors (IREE accumulates it in f32) stay whole.
// CHECK-LABEL: func.func @whole_products
// CHECK-NOT:     shlo.canonical
// CHECK:         return
func.func @whole_products(%a: tensor<16x65536xf32>, %b: tensor<65536x16xf32>,
                          %m: tensor<4x166667xf32>, %v: tensor<166667xf32>,
                          %s: tensor<8192xf32>, %c: tensor<65536xcomplex<f32>>,
                          %w: tensor<1048576xbf16>)
    -> (tensor<16x16xf32>, tensor<4xf32>, tensor<f32>, tensor<complex<f32>>, tensor<bf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x65536xf32>, tensor<65536x16xf32>) -> tensor<16x16xf32>
  %1 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<4x166667xf32>, tensor<166667xf32>) -> tensor<4xf32>
  %2 = stablehlo.dot_general %s, %s, contracting_dims = [0] x [0] : (tensor<8192xf32>, tensor<8192xf32>) -> tensor<f32>
  %3 = stablehlo.dot_general %c, %c, contracting_dims = [0] x [0] : (tensor<65536xcomplex<f32>>, tensor<65536xcomplex<f32>>) -> tensor<complex<f32>>
  %4 = stablehlo.dot_general %w, %w, contracting_dims = [0] x [0] : (tensor<1048576xbf16>, tensor<1048576xbf16>) -> tensor<bf16>
  return %0, %1, %2, %3, %4 : tensor<16x16xf32>, tensor<4xf32>, tensor<f32>, tensor<complex<f32>>, tensor<bf16>
}

// A float vector dot of whole vectors (here a row of bf16 into f32) is the sum of its
// products in the result's type, split as a reduce (IREE's own: 16 chains along the whole
// contraction, 100x less accurate than XLA at 1M).
// CHECK-LABEL: func.func @vector_dot_of_whole_vectors
// CHECK-NOT:     stablehlo.dot_general
// CHECK-DAG:     %[[X:.*]] = stablehlo.convert %arg0 : (tensor<1x1048576xbf16>) -> tensor<1x1048576xf32>
// CHECK-DAG:     %[[Y:.*]] = stablehlo.convert %arg1 : (tensor<1048576xbf16>) -> tensor<1048576xf32>
// CHECK-DAG:     %[[XV:.*]] = stablehlo.reshape %[[X]] : (tensor<1x1048576xf32>) -> tensor<1048576xf32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %[[XV]], %[[Y]] : tensor<1048576xf32>
// CHECK:         stablehlo.reshape %[[P]] : (tensor<1048576xf32>) -> tensor<64x16384xf32>
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [1] {shlo.canonical} : (tensor<64x16384xf32>, tensor<f32>) -> tensor<64xf32>
// CHECK:         %[[S:.*]] = stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
// CHECK:         stablehlo.reshape %[[S]] : (tensor<f32>) -> tensor<1xf32>
func.func @vector_dot_of_whole_vectors(%x: tensor<1x1048576xbf16>, %y: tensor<1048576xbf16>) -> tensor<1xf32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<1x1048576xbf16>, tensor<1048576xbf16>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
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

// Negative: empty reductions and products (shlo-fuzz seed 121: a division by zero).
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     shlo.canonical
// CHECK:         return
func.func @empty(%x: tensor<0xf32>, %y: tensor<0x64x31xf32>, %m: tensor<4x0xf32>, %v: tensor<0xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<4xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<0x64x31xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<4x0xf32>, tensor<0xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<4xf32>
}
