// RUN: shlo-opt --shlo-lower-sort %s | filecheck %s
// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{min-size=8})' %s | filecheck %s --check-prefix=SMALL
// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{unroll=1})' %s | filecheck %s --check-prefix=ONE
// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{top-k=true})' %s | filecheck %s --check-prefix=TOPK
// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{static-from=0})' %s | filecheck %s --check-prefix=STATIC
// RUN: not shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{native-max-length=8})' %s 2>&1 | filecheck %s --check-prefix=NATIVE

// A stable sort of 1000 elements along dimension 1, its comparator a TOTALORDER less-than on
// the keys alone: the keys' order-preserving i32 image and their positions packed into one
// i64 (never two equal), rows flattened, padded to 1024 with the largest i64 (no position
// needed), a while loop over the 55 (block, half) steps of the network, 8 per iteration (7
// iterations: one step of half 0 pads the schedule); the operand is gathered by the positions.
// CHECK-LABEL: func.func @stable_rows
// CHECK-NOT:     stablehlo.sort
// CHECK:         stablehlo.shift_left {{.*}} : tensor<2x1000xi64>
// CHECK:         stablehlo.pad {{.*}} high = [0, 24], {{.*}} -> tensor<2x1024xi64>
// CHECK:         stablehlo.constant dense<[2, 4, 4, {{.*}}, 1024, 1]> : tensor<56xi32>
// CHECK:         stablehlo.constant dense<[1, 2, 1, {{.*}}, 2, 1, 0]> : tensor<56xi32>
// CHECK:         stablehlo.while({{.*}}) : tensor<i32>, tensor<2048xi64>
// CHECK-COUNT-8:   stablehlo.gather{{.*}} -> tensor<2048xi64>
// CHECK-NOT:       stablehlo.gather{{.*}} -> tensor<2048xi64>
// CHECK:           stablehlo.constant dense<8> : tensor<i32>
// CHECK:         stablehlo.slice {{.*}} [0:2, 0:1000]
// CHECK:         "stablehlo.gather"{{.*}} -> tensor<2x1000xf32>
// CHECK:         return {{.*}} : tensor<2x1000xf32>
// ONE-LABEL: func.func @stable_rows
// ONE:         stablehlo.constant dense<[2, 4, 4, {{.*}}, 1024]> : tensor<55xi32>
// ONE:         stablehlo.while
// ONE:           stablehlo.gather{{.*}} -> tensor<2048xi64>
// ONE:           stablehlo.compare  LT, {{.*}} SIGNED
// ONE:           stablehlo.select
// ONE-NOT:       stablehlo.gather{{.*}} -> tensor<2048xi64>
// ONE:         stablehlo.slice {{.*}} [0:2, 0:1000]
// With static-from=0 (the default: 16384 elements and more) the same sort's 55 steps are in
// line, each on static slices of a [pairs, 2, half / 64, 64] view. Bits 0-2 of a position
// are kept at storage bits 7-9 (and 7-9 at 0-2), so the first step (bit 0) pairs elements 128
// apart; each stage's direction bit is an opaque scalar (one constant vector behind an
// optimization_barrier, its last entry one that no other sort's vector has); the padding is
// a constant xor an opaque 0; the keys move back to position order once, at the end.
// STATIC-LABEL: func.func @stable_rows
// STATIC-NOT:     stablehlo.sort
// STATIC:         stablehlo.constant dense<[0, 256, 512, 8, 16, 32, 64, 1, 2, 4, 0, {{[0-9]+}}]> : tensor<12xi32>
// STATIC:         stablehlo.optimization_barrier
// STATIC-COUNT-11: iree_tensor_ext.compute_barrier.start
// STATIC:         stablehlo.xor
// STATIC:         stablehlo.pad {{.*}} high = [0, 24]
// STATIC:         stablehlo.reshape {{.*}} : (tensor<2048xi64>) -> tensor<8x2x2x64xi64>
// STATIC:         stablehlo.slice {{.*}} [0:8, 0:1, 0:2, 0:64]
// STATIC:         stablehlo.compare  LT, {{.*}} SIGNED : (tensor<8x2x2x64xi64>
// STATIC-COUNT-54: stablehlo.reshape {{.*}} : (tensor<2048xi64>) -> tensor<{{[0-9]+}}x2x{{[0-9]+}}x{{[0-9]+}}xi64>
// STATIC-NOT:     stablehlo.reshape {{.*}} : (tensor<2048xi64>) -> tensor<{{[0-9]+}}x2x{{[0-9]+}}x{{[0-9]+}}xi64>
// STATIC:         stablehlo.transpose {{.*}} dims = [0, 3, 2, 1] : (tensor<2x8x16x8xi64>)
// STATIC:         stablehlo.slice {{.*}} [0:2, 0:1000]
// STATIC-NOT:     stablehlo.while
// STATIC:         return {{.*}} : tensor<2x1000xf32>
func.func @stable_rows(%x: tensor<2x1000xf32>) -> tensor<2x1000xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<2x1000xf32>) -> tensor<2x1000xf32>
  return %0 : tensor<2x1000xf32>
}

// Below min-size (512 by default) IREE's own sort is faster: the op stays.
// CHECK-LABEL: func.func @short
// CHECK:         stablehlo.sort
// SMALL-LABEL: func.func @short
// SMALL-NOT:     stablehlo.sort
// SMALL:         stablehlo.transpose {{.*}} dims = [1, 0]
// SMALL:         stablehlo.while
// SMALL:         stablehlo.transpose {{.*}} dims = [1, 0]
func.func @short(%x: tensor<16x3xi32>) -> tensor<16x3xi32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<16x3xi32>) -> tensor<16x3xi32>
  return %0 : tensor<16x3xi32>
}

// A comparator with a non-elementwise op cannot run on whole tensors: the sort stays; longer
// than native-max-length (vulkan: 256, IREE's own sort is wrong past it) it is an error.
// NATIVE: lower_sort.mlir:{{[0-9]+}}:8: error: shlo-lower-sort: a sort of rows of 16 elements cannot take shlo-lower-sort's network (comparator uses stablehlo.reshape), and IREE's own sort is right only up to 8 elements a row
// SMALL-LABEL: func.func @opaque_comparator
// SMALL:         stablehlo.sort
func.func @opaque_comparator(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %v = stablehlo.reshape %a : (tensor<f32>) -> tensor<1xf32>
    %w = stablehlo.reshape %v : (tensor<1xf32>) -> tensor<f32>
    %r = stablehlo.compare LT, %w, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// jnp.argsort of a run-time sized vector (IREE 3.13 cannot sort two operands of run-time
// size): jax's comparator orders the keys alone (NaN and -0 canonicalised, TOTALORDER), so
// the keys' order-preserving i32 image and the positions are packed into one i64, sorted
// alone, and both operands are gathered by the positions.
// CHECK-LABEL: func.func @argsort_dynamic
// CHECK:         stablehlo.bitcast_convert {{.*}} -> tensor<?xi32>
// CHECK:         %[[WIDE:.*]] = stablehlo.convert {{.*}} -> tensor<?xi64>
// CHECK:         %[[POS:.*]] = stablehlo.dynamic_iota
// CHECK:         %[[HIGH:.*]] = stablehlo.shift_left %[[WIDE]]
// CHECK:         %[[PACKED:.*]] = stablehlo.or %[[HIGH]], %[[POS]]
// CHECK:         %[[SORTED:.*]] = "stablehlo.sort"(%[[PACKED]])
// CHECK:         %[[LOW:.*]] = stablehlo.and %[[SORTED]]
// CHECK:         %[[IDX:.*]] = stablehlo.convert %[[LOW]] : (tensor<?xi64>) -> tensor<?xi32>
// CHECK:         "stablehlo.gather"(%arg0, %[[IDX]])
// CHECK:         "stablehlo.gather"(%arg1, %[[IDX]])
func.func @argsort_dynamic(%x: tensor<?xf32>, %i: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<?xf32>, tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xi32>
}

// A comparator that reads the second operand too (two sort keys) has no packed form: the
// sort stays as it is.
// CHECK-LABEL: func.func @two_keys_dynamic
// CHECK:         "stablehlo.sort"(%arg0, %arg1)
func.func @two_keys_dynamic(%x: tensor<?xi32>, %y: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.and %2, %3 : tensor<i1>
    %5 = stablehlo.or %1, %4 : tensor<i1>
    stablehlo.return %5 : tensor<i1>
  }) : (tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %0#0, %0#1 : tensor<?xi32>, tensor<?xi32>
}

// top-k=true (the cpu target): a stable sort cut to its first 16 of 4096 along dimension 1,
// comparator on the keys alone (chlo.top_k's form), becomes a top-k of packed i64 keys, as the
// cost model plans it for 64 rows: the largest of chunks of 4, of those in chunks of 4, and
// again; the top 16 of those 64 by rank (each one's count of larger ones, then a scatter to
// place min(rank, 16) of rows of 17); the 16 chunks of 4 maxima they are in, their top 16 by
// rank; twice more. The operand is gathered at the positions (one flat offset each), the
// iota is the positions. Without the option, the network.
// TOPK-LABEL: func.func @first_sixteen
// TOPK-NOT:     stablehlo.sort
// TOPK-NOT:     stablehlo.while
// TOPK:         stablehlo.shift_left {{.*}} : tensor<64x4096xi64>
// TOPK:         stablehlo.reduce{{.*}} applies stablehlo.maximum across dimensions = [2] : (tensor<64x1024x4xi64>, tensor<i64>) -> tensor<64x1024xi64>
// TOPK:         stablehlo.reduce{{.*}} applies stablehlo.maximum across dimensions = [2] : (tensor<64x256x4xi64>, tensor<i64>) -> tensor<64x256xi64>
// TOPK:         stablehlo.reduce{{.*}} applies stablehlo.maximum across dimensions = [2] : (tensor<64x64x4xi64>, tensor<i64>) -> tensor<64x64xi64>
// TOPK-NOT:     stablehlo.optimization_barrier
// TOPK-NOT:     iree_linalg_ext.topk
// TOPK:         stablehlo.compare GT, {{.*}} : (tensor<64x64x64xi64>, tensor<64x64x64xi64>) -> tensor<64x64x64xi1>
// TOPK:         stablehlo.reduce{{.*}} applies stablehlo.add across dimensions = [2] : (tensor<64x64x64xi32>, tensor<i32>) -> tensor<64x64xi32>
// TOPK:         "stablehlo.scatter"
// TOPK:         }) : (tensor<1088xi64>, tensor<4096x1xi32>, tensor<4096xi64>) -> tensor<1088xi64>
// TOPK:         "stablehlo.gather"{{.*}} -> tensor<64x16x4xi64>
// TOPK:         stablehlo.compare GT, {{.*}} -> tensor<64x64x64xi1>
// TOPK:         "stablehlo.scatter"
// TOPK:         }) : (tensor<1088xi64>, tensor<4096x1xi32>, tensor<4096xi64>) -> tensor<1088xi64>
// TOPK:         "stablehlo.gather"{{.*}} -> tensor<64x16x4xi64>
// TOPK:         "stablehlo.scatter"
// TOPK:         }) : (tensor<1088xi64>, tensor<4096x1xi32>, tensor<4096xi64>) -> tensor<1088xi64>
// TOPK:         "stablehlo.gather"{{.*}} -> tensor<64x16x4xi64>
// TOPK:         "stablehlo.scatter"
// TOPK:         }) : (tensor<1088xi64>, tensor<4096x1xi32>, tensor<4096xi64>) -> tensor<1088xi64>
// TOPK:         %[[POSITIONS:.*]] = stablehlo.convert {{.*}} : (tensor<64x16xi64>) -> tensor<64x16xi32>
// TOPK:         %[[VALUES:.*]] = "stablehlo.gather"{{.*}} : (tensor<262144xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
// TOPK-NEXT:    return %[[VALUES]], %[[POSITIONS]]
// CHECK-LABEL: func.func @first_sixteen
// CHECK:         tensor<256x2x8x64xi64>
// CHECK-NOT:     iree_linalg_ext.topk
func.func @first_sixteen(%x: tensor<64x4096xf32>) -> (tensor<64x16xf32>, tensor<64x16xi32>) {
  %iota = stablehlo.iota dim = 1 : tensor<64x4096xi32>
  %0:2 = "stablehlo.sort"(%x, %iota) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<64x4096xf32>, tensor<64x4096xi32>) -> (tensor<64x4096xf32>, tensor<64x4096xi32>)
  %1:2 = stablehlo.optimization_barrier %0#0, %0#1 : tensor<64x4096xf32>, tensor<64x4096xi32>
  %2 = stablehlo.slice %1#0 [0:64, 0:16] : (tensor<64x4096xf32>) -> tensor<64x16xf32>
  %3 = stablehlo.slice %1#1 [0:64, 0:16] : (tensor<64x4096xi32>) -> tensor<64x16xi32>
  return %2, %3 : tensor<64x16xf32>, tensor<64x16xi32>
}

// A slice that does not start at 0, or a use that is not a slice, keeps the sort. Stable, but
// of one integer operand ordered by value (ties are equal values): no positions are carried.
// CHECK-LABEL: func.func @not_leading
// CHECK:         stablehlo.while({{.*}}) : tensor<i32>, tensor<4096xi32>
// TOPK-LABEL: func.func @not_leading
// TOPK:         stablehlo.while
// TOPK-NOT:     iree_linalg_ext.topk
func.func @not_leading(%x: tensor<4096xi32>) -> (tensor<2xi32>, tensor<4096xi32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4096xi32>) -> tensor<4096xi32>
  %1 = stablehlo.slice %0 [1:3] : (tensor<4096xi32>) -> tensor<2xi32>
  %2 = stablehlo.add %0, %0 : tensor<4096xi32>
  return %1, %2 : tensor<2xi32>, tensor<4096xi32>
}

// An operand that is an iota along the dimension (jnp.argsort's) is the positions: the steps
// move the packed keys only, and the i64 result is converted from their positions.
// CHECK-LABEL: func.func @argsort
// CHECK:         stablehlo.while({{.*}}) : tensor<i32>, tensor<4096xi64>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4096xi64>) -> tensor<4096xi32>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4096xi32>) -> tensor<4096xi64>
// CHECK:         return {{.*}} : tensor<4096xi64>
func.func @argsort(%x: tensor<4096xf32>) -> tensor<4096xi64> {
  %iota = stablehlo.iota dim = 0 : tensor<4096xi64>
  %0:2 = "stablehlo.sort"(%x, %iota) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i64>, %j: tensor<i64>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4096xf32>, tensor<4096xi64>) -> (tensor<4096xf32>, tensor<4096xi64>)
  return %0#1 : tensor<4096xi64>
}

// A sort of no elements is its operands.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     stablehlo.sort
// CHECK-NOT:     stablehlo.while
// CHECK:         return %arg0 : tensor<0x4096xf32>
func.func @empty(%x: tensor<0x4096xf32>) -> tensor<0x4096xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<0x4096xf32>) -> tensor<0x4096xf32>
  return %0 : tensor<0x4096xf32>
}

// A sort along a dimension of size 1 is its operands (one element per sorted row).
// CHECK-LABEL: func.func @rows_of_one
// CHECK-NOT:     stablehlo.sort
// CHECK:         return %arg0, %arg1 : tensor<1x4096xf32>, tensor<1x4096xi32>
func.func @rows_of_one(%x: tensor<1x4096xf32>, %i: tensor<1x4096xi32>) -> (tensor<1x4096xf32>, tensor<1x4096xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<1x4096xf32>, tensor<1x4096xi32>) -> (tensor<1x4096xf32>, tensor<1x4096xi32>)
  return %0#0, %0#1 : tensor<1x4096xf32>, tensor<1x4096xi32>
}
