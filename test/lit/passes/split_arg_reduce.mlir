// RUN: shlo-opt --shlo-split-arg-reduce %s | filecheck %s

// jnp.argmax: a max reduce, then the smallest index where the value equals it (or is NaN).
// CHECK-LABEL: func.func @jax_argmax
// CHECK:         %[[M:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [1]
// CHECK:         %[[MB:.*]] = stablehlo.broadcast_in_dim %[[M]], dims = [0]
// CHECK:         %[[EQ:.*]] = stablehlo.compare  EQ, %arg0, %[[MB]]
// CHECK:         %[[NAN:.*]] = stablehlo.compare  NE, %arg0, %arg0
// CHECK:         %[[HIT:.*]] = stablehlo.or %[[EQ]], %[[NAN]]
// CHECK:         %[[CAND:.*]] = stablehlo.select %[[HIT]], %{{.*}}, %{{.*}} : tensor<8x16xi1>, tensor<8x16xi32>
// CHECK:         stablehlo.reduce(%[[CAND]] init: %{{.*}}) applies stablehlo.minimum across dimensions = [1]
// CHECK-NOT:     reducer
// CHECK:         return
func.func @jax_argmax(%arg0: tensor<8x16xf32>) -> tensor<8xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %1#1 : tensor<8xi32>
}

// Integers, ties to the last index: a max reduce of the values, a max reduce of the indices.
// A row of 64 or more (a multiple of 8) is reduced as rows of 8 lanes: first over the rows,
// keeping the lanes, then over the lanes.
// CHECK-LABEL: func.func @laned_rows
// CHECK-DAG:     %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<4x64xf32>) -> tensor<4x8x8xf32>
// CHECK-DAG:     %[[I:.*]] = stablehlo.reshape %{{.*}} : (tensor<4x64xi32>) -> tensor<4x8x8xi32>
// CHECK:         %[[M8:.*]] = stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK:         %[[I8:.*]] = stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.minimum across dimensions = [1] : (tensor<4x8x8xi32>, tensor<i32>) -> tensor<4x8xi32>
// CHECK:         %[[M:.*]] = stablehlo.reduce(%[[M8]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.minimum across dimensions = [1] : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NOT:     reducer
func.func @laned_rows(%arg0: tensor<4x64xf32>) -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x64xi32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<4x64xf32>, tensor<4x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %1#1 : tensor<4xi32>
}

// CHECK-LABEL: func.func @last_index
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<5x3xi32>
// CHECK-NOT:     stablehlo.compare  NE
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<5x3xi64>
func.func @last_index(%x: tensor<5x3xi32>, %i: tensor<5x3xi64>) -> (tensor<3xi32>, tensor<3xi64>) {
  %v0 = stablehlo.constant dense<-2147483648> : tensor<i32>
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %r:2 = stablehlo.reduce(%x init: %v0), (%i init: %i0) across dimensions = [0] : (tensor<5x3xi32>, tensor<5x3xi64>, tensor<i32>, tensor<i64>) -> (tensor<3xi32>, tensor<3xi64>)
   reducer(%a: tensor<i32>, %b: tensor<i32>) (%ia: tensor<i64>, %ib: tensor<i64>)  {
    %gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<i32>
    %j = stablehlo.select %gt, %ia, %ib : tensor<i1>, tensor<i64>
    %eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %t = stablehlo.maximum %ia, %ib : tensor<i64>
    %k = stablehlo.select %eq, %t, %j : tensor<i1>, tensor<i64>
    stablehlo.return %m, %k : tensor<i32>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<3xi32>, tensor<3xi64>
}

// Negative: XLA's ArgMax body on floats depends on the reduction order for NaN; it stays.
// CHECK-LABEL: func.func @order_dependent
// CHECK:         reducer
func.func @order_dependent(%x: tensor<5xf32>, %i: tensor<5xi32>) -> tensor<i32> {
  %v0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %v0), (%i init: %i0) across dimensions = [0] : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %m, %j : tensor<f32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}
