// RUN: shlo-opt --shlo-read-condition-values %s | filecheck %s

// A rejection loop: the condition alone reads %v; the body returns select(cond(x), new, old)
// for it, with the condition recomputed in the body on the body's arguments.
// CHECK-LABEL: func.func @rejection
// CHECK:         stablehlo.while(%{{.*}} = %{{.*}}, %[[V:.*]] = %{{.*}})
// CHECK:         cond {
// CHECK:           %[[LT:.*]] = stablehlo.compare LT
// CHECK-NEXT:      stablehlo.return %[[LT]]
// CHECK:         } do {
// CHECK:           %[[NEW:.*]] = stablehlo.sine
// CHECK:           %[[AGAIN:.*]] = stablehlo.compare LT, %[[V]]
// CHECK:           %[[SEL:.*]] = stablehlo.select %[[AGAIN]], %[[NEW]], %[[V]]
// CHECK:           stablehlo.return %{{.*}}, %[[SEL]]
func.func @rejection(%x: tensor<f32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r:2 = stablehlo.while(%k = %z, %v = %z) : tensor<f32>, tensor<f32>
  cond {
    %lt = stablehlo.compare LT, %v, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %k1 = stablehlo.add %k, %one : tensor<f32>
    %s = stablehlo.sine %k1 : tensor<f32>
    stablehlo.return %k1, %s : tensor<f32>, tensor<f32>
  }
  return %r#1 : tensor<f32>
}

// A loop whose body reads every carried value, and a rejection loop inside a loop of three
// trips, stay as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.select
func.func @left_alone(%x: tensor<f32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c3 = stablehlo.constant dense<3> : tensor<i64>
  %a:2 = stablehlo.while(%k = %z, %v = %z) : tensor<f32>, tensor<f32>
  cond {
    %lt = stablehlo.compare LT, %v, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %v1 = stablehlo.add %v, %k : tensor<f32>
    %k1 = stablehlo.add %k, %one : tensor<f32>
    stablehlo.return %k1, %v1 : tensor<f32>, tensor<f32>
  }
  %o:2 = stablehlo.while(%i = %c0, %acc = %a#1) : tensor<i64>, tensor<f32>
  cond {
    %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %r:2 = stablehlo.while(%k = %z, %v = %z) : tensor<f32>, tensor<f32>
    cond {
      %lt = stablehlo.compare LT, %v, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %k1 = stablehlo.add %k, %one : tensor<f32>
      %s = stablehlo.sine %k1 : tensor<f32>
      stablehlo.return %k1, %s : tensor<f32>, tensor<f32>
    }
    %i1 = stablehlo.add %i, %c1 : tensor<i64>
    %acc1 = stablehlo.add %acc, %r#1 : tensor<f32>
    stablehlo.return %i1, %acc1 : tensor<i64>, tensor<f32>
  }
  return %o#1 : tensor<f32>
}
