// RUN: shlo-opt --shlo-barrier-conditional-captures %s | filecheck %s

// A computed tensor a conditional reads goes through an optimization barrier in front of it;
// the ops after the conditional read the tensor itself. Arguments, constants and scalars stay.
// CHECK-LABEL: func.func @read_in_a_case_and_after
// CHECK:         %[[Y:.*]] = stablehlo.sine %arg1
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[Y]] : tensor<16xf32>
// CHECK:         "stablehlo.case"
// CHECK:           stablehlo.negate %[[B]]
// CHECK:           stablehlo.add %[[B]], %arg1
// CHECK:         stablehlo.cosine %[[Y]]
// CHECK-NOT:     optimization_barrier
func.func @read_in_a_case_and_after(%i: tensor<i32>, %x: tensor<16xf32>, %s: tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %y = stablehlo.sine %x : tensor<16xf32>
  %t = stablehlo.add %s, %s : tensor<f32>
  %r = "stablehlo.case"(%i) ({
    %n = stablehlo.negate %y : tensor<16xf32>
    stablehlo.return %n : tensor<16xf32>
  }, {
    %a = stablehlo.add %y, %x : tensor<16xf32>
    %b = stablehlo.broadcast_in_dim %t, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %c = stablehlo.multiply %a, %b : tensor<16xf32>
    stablehlo.return %c : tensor<16xf32>
  }) : (tensor<i32>) -> tensor<16xf32>
  %z = stablehlo.cosine %y : tensor<16xf32>
  return %r, %z : tensor<16xf32>, tensor<16xf32>
}

// A branch that returns a captured tensor the other branch reads (through the barrier, fuzz
// seed 98 program 669) returns a copy of it selected by a run-time true (returned as it is,
// a loop after the conditional failed at run time: seed 170 program 129).
// CHECK-LABEL: func.func @returned_as_it_is
// CHECK:         %[[C:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK:         %[[TRUE:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<i1>
// CHECK:         %[[Y:.*]] = stablehlo.sine %arg1
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[Y]]
// CHECK:         "stablehlo.if"
// CHECK:           %[[T:.*]] = stablehlo.broadcast_in_dim %[[TRUE]], dims = []
// CHECK:           %[[COPY:.*]] = stablehlo.select %[[T]], %[[B]], %{{.*}}
// CHECK-NEXT:      stablehlo.return %[[COPY]]
// CHECK:           stablehlo.negate %[[B]]
func.func @returned_as_it_is(%p: tensor<i1>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %y = stablehlo.sine %x : tensor<16xf32>
  %a = "stablehlo.if"(%p) ({
    stablehlo.return %y : tensor<16xf32>
  }, {
    %e = stablehlo.negate %y : tensor<16xf32>
    stablehlo.return %e : tensor<16xf32>
  }) : (tensor<i1>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// A captured tensor a branch only returns is not fenced (fenced, Vulkan's runtime failed), but
// the branch returns a run-time copy of it, a scalar too (returned as it is, the conditional's
// result is the capture's buffer, which IREE deallocated after the result's last use while the
// function still returned the capture: fuzz seed 178 program 197). Function arguments and
// constants stay as they are.
// CHECK-LABEL: func.func @only_returned
// CHECK:         %[[C:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK:         %[[TRUE:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<i1>
// CHECK:         %[[Y:.*]] = stablehlo.sine %arg1
// CHECK-NOT:     optimization_barrier
// CHECK:         "stablehlo.if"
// CHECK:           %[[T:.*]] = stablehlo.broadcast_in_dim %[[TRUE]], dims = []
// CHECK:           %[[COPY:.*]] = stablehlo.select %[[T]], %[[Y]], %{{.*}}
// CHECK-NEXT:      stablehlo.return %[[COPY]]
func.func @only_returned(%p: tensor<i1>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %y = stablehlo.sine %x : tensor<16xf32>
  %a = "stablehlo.if"(%p) ({
    stablehlo.return %y : tensor<16xf32>
  }, {
    %e = stablehlo.negate %x : tensor<16xf32>
    stablehlo.return %e : tensor<16xf32>
  }) : (tensor<i1>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// A value a branch computes is returned as a run-time copy too: IREE merged `x + x` in a branch
// with the same sum before the conditional, made that sum's buffer the conditional's result
// and deallocated it while the function still returned the sum (fuzz seed 190 program 115).
// CHECK-LABEL: func.func @computed_in_a_branch
// CHECK:         "stablehlo.if"
// CHECK:           %[[S:.*]] = stablehlo.add %arg1, %arg1
// CHECK:           %[[C:.*]] = stablehlo.select %{{.*}}, %[[S]], %{{.*}}
// CHECK-NEXT:      stablehlo.return %[[C]]
// CHECK:           %[[N:.*]] = stablehlo.sine %arg1
// CHECK:           %[[D:.*]] = stablehlo.select %{{.*}}, %[[N]], %{{.*}}
// CHECK-NEXT:      stablehlo.return %[[D]]
func.func @computed_in_a_branch(%p: tensor<i1>, %x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %r = stablehlo.add %x, %x : tensor<16xf32>
  %a = "stablehlo.if"(%p) ({
    %s = stablehlo.add %x, %x : tensor<16xf32>
    stablehlo.return %s : tensor<16xf32>
  }, {
    %n = stablehlo.sine %x : tensor<16xf32>
    stablehlo.return %n : tensor<16xf32>
  }) : (tensor<i1>) -> tensor<16xf32>
  return %r, %a : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @scalar_only_returned
// CHECK:         %[[TRUE:.*]] = stablehlo.optimization_barrier
// CHECK:         %[[S:.*]] = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK:         "stablehlo.if"
// CHECK:           stablehlo.return %arg1
// CHECK:           %[[COPY:.*]] = stablehlo.select %{{.*}}, %[[S]], %{{.*}} : tensor<i1>, tensor<f32>
// CHECK-NEXT:      stablehlo.return %[[COPY]]
// CHECK:         stablehlo.minimum
func.func @scalar_only_returned(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %s = stablehlo.add %a, %b : tensor<f32>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %s : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %m = stablehlo.minimum %r, %s : tensor<f32>
  return %s, %m : tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @if_in_a_loop
// CHECK-NOT:     optimization_barrier
func.func @if_in_a_loop(%p: tensor<i1>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c4 = stablehlo.constant dense<4> : tensor<i64>
  %r:2 = stablehlo.while(%k = %c0, %acc = %x) : tensor<i64>, tensor<16xf32>
  cond {
    %q = stablehlo.compare LT, %k, %c4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %n = stablehlo.add %k, %c1 : tensor<i64>
    %y = stablehlo.sine %acc : tensor<16xf32>
    %a = "stablehlo.if"(%p) ({
      %d = stablehlo.add %y, %y : tensor<16xf32>
      stablehlo.return %d : tensor<16xf32>
    }, {
      %e = stablehlo.negate %y : tensor<16xf32>
      stablehlo.return %e : tensor<16xf32>
    }) : (tensor<i1>) -> tensor<16xf32>
    stablehlo.return %n, %a : tensor<i64>, tensor<16xf32>
  }
  return %r#1 : tensor<16xf32>
}
