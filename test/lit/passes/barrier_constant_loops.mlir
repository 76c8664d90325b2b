// RUN: shlo-opt --pass-pipeline='builtin.module(shlo-barrier-constant-expressions{loops=true})' %s | filecheck %s
// RUN: shlo-opt --shlo-barrier-constant-expressions %s | filecheck %s --check-prefix=OFF

// A loop of constants alone carries its largest value selected by a run-time true, read
// through a barrier at the top of the function; its other reader keeps the value itself.
// CHECK-LABEL: func.func @constant_loop
// CHECK:         %[[T:.*]] = stablehlo.optimization_barrier %{{.*}} : tensor<i1>
// CHECK:         %[[Z:.*]] = stablehlo.iota dim = 0 : tensor<1024xi32>
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %[[T]], dims = [] : (tensor<i1>) -> tensor<1024xi1>
// CHECK:         %[[S:.*]] = stablehlo.select %[[B]], %[[Z]], %{{.*}} : tensor<1024xi1>, tensor<1024xi32>
// CHECK:         stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %[[S]])
// CHECK:         stablehlo.add %{{.*}}, %[[Z]]
// OFF-LABEL:   func.func @constant_loop
// OFF-NOT:       optimization_barrier
func.func @constant_loop() -> (tensor<1024xi32>, tensor<1024xi32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %z = stablehlo.iota dim = 0 : tensor<1024xi32>
  %w = stablehlo.constant dense<3> : tensor<1024xi32>
  %r:2 = stablehlo.while(%i = %c0, %a = %z) : tensor<i32>, tensor<1024xi32>
  cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %b = stablehlo.add %a, %w : tensor<1024xi32>
    stablehlo.return %j, %b : tensor<i32>, tensor<1024xi32>
  }
  %y = stablehlo.add %r#1, %z : tensor<1024xi32>
  return %r#1, %y : tensor<1024xi32>, tensor<1024xi32>
}

// Left alone: a loop that carries an argument, and one whose body reads an argument.
// CHECK-LABEL: func.func @argument_loops
// CHECK-NOT:     optimization_barrier
func.func @argument_loops(%x: tensor<1024xi32>) -> (tensor<1024xi32>, tensor<1024xi32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %z = stablehlo.iota dim = 0 : tensor<1024xi32>
  %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<1024xi32>
  cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %b = stablehlo.add %a, %z : tensor<1024xi32>
    stablehlo.return %j, %b : tensor<i32>, tensor<1024xi32>
  }
  %s:2 = stablehlo.while(%i = %c0, %a = %z) : tensor<i32>, tensor<1024xi32>
  cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %b = stablehlo.add %a, %x : tensor<1024xi32>
    stablehlo.return %j, %b : tensor<i32>, tensor<1024xi32>
  }
  return %r#1, %s#1 : tensor<1024xi32>, tensor<1024xi32>
}
