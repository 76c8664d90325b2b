// RUN: shlo-opt --shlo-lower-sort %s | filecheck %s
// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-lower-sort{min-size=8})' %s | filecheck %s --check-prefix=SMALL

// A stable sort of 1000 elements along dimension 1: rows flattened, padded to 1024, a while
// loop over the 55 (block, half) steps of the network; positions break ties and mark padding.
// CHECK-LABEL: func.func @stable_rows
// CHECK-NOT:     stablehlo.sort
// CHECK:         stablehlo.pad {{.*}} high = [0, 24]
// CHECK:         stablehlo.iota dim = 1 : tensor<2x1024xi32>
// CHECK:         stablehlo.constant dense<[2, 4, 4, {{.*}}]> : tensor<55xi32>
// CHECK:         stablehlo.while
// CHECK:           stablehlo.gather
// CHECK:           stablehlo.compare  LT, {{.*}} TOTALORDER
// CHECK:           stablehlo.select
// CHECK:         stablehlo.slice {{.*}} [0:2, 0:1000]
// CHECK:         return {{.*}} : tensor<2x1000xf32>
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

// A comparator with a non-elementwise op cannot run on whole tensors: the sort stays.
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
