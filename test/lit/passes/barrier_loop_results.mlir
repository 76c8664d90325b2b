// RUN: shlo-opt '--shlo-barrier-loop-results=condition-only=true' %s | filecheck %s
// RUN: shlo-opt --shlo-barrier-loop-results %s | filecheck %s --check-prefix=DEFAULT
// RUN: shlo-opt '--shlo-barrier-loop-results=every-loop=true' %s | filecheck %s --check-prefix=EVERY

// A loop carrying a value that only its condition reads: every static result, used or not,
// goes through one barrier after the loop, and the loop's users read the barrier's results,
// so the flag stays a used result.
// CHECK-LABEL: func.func @flag_read_by_the_condition_only
// CHECK:         %[[L:.*]]:3 = stablehlo.while
// CHECK:         %[[B:.*]]:3 = stablehlo.optimization_barrier %[[L]]#0, %[[L]]#1, %[[L]]#2 : tensor<i64>, tensor<i1>, tensor<4xf64>
// CHECK:         return %[[B]]#2 : tensor<4xf64>
func.func @flag_read_by_the_condition_only(%x0: tensor<4xf64>) -> tensor<4xf64> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c9 = stablehlo.constant dense<9> : tensor<i64>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %eps = stablehlo.constant dense<1.0e-3> : tensor<4xf64>
  %r:3 = stablehlo.while(%i = %c0, %flag = %t, %x = %x0) : tensor<i64>, tensor<i1>, tensor<4xf64>
  cond {
    %lt = stablehlo.compare LT, %i, %c9, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %a = stablehlo.and %lt, %flag : tensor<i1>
    stablehlo.return %a : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i64>
    %x1 = stablehlo.multiply %x, %x : tensor<4xf64>
    %big = stablehlo.compare GT, %x1, %eps, FLOAT : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
    %f = stablehlo.constant dense<false> : tensor<i1>
    %any = stablehlo.reduce(%big init: %f) applies stablehlo.or across dimensions = [0] : (tensor<4xi1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %i1, %any, %x1 : tensor<i64>, tensor<i1>, tensor<4xf64>
  }
  return %r#2 : tensor<4xf64>
}

// Loops whose body reads every carried value stay as they are with condition-only. With every-loop,
// a loop whose results nobody reads is still left alone, and dynamic results stay out of the
// barrier.
// CHECK-LABEL: func.func @dead_loop_and_dynamic_results
// CHECK-NOT:     optimization_barrier
// EVERY-LABEL: func.func @dead_loop_and_dynamic_results
// EVERY:         %[[D:.*]]:2 = stablehlo.while
// EVERY:         %[[B:.*]] = stablehlo.optimization_barrier %[[D]]#0 : tensor<i64>
// EVERY:         return %[[B]], %[[D]]#1 : tensor<i64>, tensor<?xf32>
// EVERY-NOT:     optimization_barrier
func.func @dead_loop_and_dynamic_results(%v: tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c3 = stablehlo.constant dense<3> : tensor<i64>
  %dead = stablehlo.while(%i = %c0) : tensor<i64>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  %r:2 = stablehlo.while(%i = %c0, %w = %v) : tensor<i64>, tensor<?xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i64>
    %w2 = stablehlo.add %w, %w : tensor<?xf32>
    stablehlo.return %n, %w2 : tensor<i64>, tensor<?xf32>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<?xf32>
}

// By default: a loop whose trip count may be zero (a bound computed at run time) returns its
// operands then, here the caller's argument, so its results go through a barrier; so do those
// of a counted loop whose body returns a carried value in another one's place (after two trips
// the loop returns its operands). A counted loop (constant start below a constant bound, step
// 1) stays as it is, as do the loops of the functions above: the first one's condition, a
// count and a flag carried from true, folds to true on its operands, so its first trip runs.
// DEFAULT-LABEL: func.func @flag_read_by_the_condition_only
// DEFAULT-NOT:     optimization_barrier
// DEFAULT-LABEL: func.func @dead_loop_and_dynamic_results
// DEFAULT-NOT:     optimization_barrier
// DEFAULT-LABEL: func.func @bound_computed_at_run_time
// DEFAULT:         %[[L:.*]]:2 = stablehlo.while
// DEFAULT:         %[[B:.*]]:2 = stablehlo.optimization_barrier %[[L]]#0, %[[L]]#1 : tensor<i32>, tensor<4xf32>
// DEFAULT:         stablehlo.subtract %[[B]]#1, %{{.*}} : tensor<4xf32>
// EVERY-LABEL:   func.func @bound_computed_at_run_time
func.func @bound_computed_at_run_time(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %d = stablehlo.subtract %r#1, %x : tensor<4xf32>
  return %d : tensor<4xf32>
}

// A counted loop that swaps two values: those results are fenced, not its counter.
// DEFAULT-LABEL: func.func @counted_swap
// DEFAULT:         %[[L:.*]]:3 = stablehlo.while
// DEFAULT:         stablehlo.optimization_barrier %[[L]]#1, %[[L]]#2 :
// DEFAULT-LABEL: func.func @counted
// DEFAULT-NOT:     optimization_barrier
// DEFAULT:         return
func.func @counted_swap(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %p = %a, %q = %b) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %t = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %q, %p : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

func.func @counted(%x: tensor<4xf32>, %m: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %k = %m) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.multiply %v, %k : tensor<4xf32>
    stablehlo.return %j, %w, %k : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  %d = stablehlo.subtract %r#1, %x : tensor<4xf32>
  return %d : tensor<4xf32>
}

// A loop that counts by 7 from 0 to 21 (shlo-lower-sort's merge steps, unrolled) runs its
// first trip: its results are not its operands, so the default leaves it alone; one that may
// run no trip (from 21 up to a bound of 21) goes through a barrier.
// DEFAULT-LABEL: func.func @counted_by_seven
// DEFAULT:         %[[L:.*]]:2 = stablehlo.while
// DEFAULT-NOT:     stablehlo.optimization_barrier
// DEFAULT:         %[[E:.*]]:2 = stablehlo.while
// DEFAULT:         stablehlo.optimization_barrier %[[E]]#0, %[[E]]#1
func.func @counted_by_seven(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %c21 = stablehlo.constant dense<21> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<64xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c7 : tensor<i32>
    %b = stablehlo.add %a, %a : tensor<64xf32>
    stablehlo.return %j, %b : tensor<i32>, tensor<64xf32>
  }
  %e:2 = stablehlo.while(%i = %c21, %a = %x) : tensor<i32>, tensor<64xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c7 : tensor<i32>
    %b = stablehlo.add %a, %a : tensor<64xf32>
    stablehlo.return %j, %b : tensor<i32>, tensor<64xf32>
  }
  %s = stablehlo.add %r#1, %e#1 : tensor<64xf32>
  return %r#1, %s : tensor<64xf32>, tensor<64xf32>
}

// A counted loop whose result another loop takes as an operand (stacked scans): fenced.
// DEFAULT-LABEL: func.func @loop_into_loop
// DEFAULT:         %[[A:.*]]:2 = stablehlo.while
// DEFAULT:         %[[F:.*]]:2 = stablehlo.optimization_barrier %[[A]]#0, %[[A]]#1
// DEFAULT:         %[[B:.*]]:2 = stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %[[F]]#1)
// DEFAULT-NOT:     optimization_barrier
// DEFAULT:         return %[[B]]#1
func.func @loop_into_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %a:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.sine %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %b:2 = stablehlo.while(%i = %c0, %v = %a#1) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.cosine %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  return %b#1 : tensor<4xf32>
}

// A loop that may run no trip returns its operand %x, which the function reads again. Its
// result, updated in place by a dynamic_update_slice (through a reshape, a view), is kept
// alive to the end of the function: read with the returned values by a second barrier, so
// IREE copies before updating. A result only an elementwise op reads (it writes a buffer of its
// own) needs no such barrier.
// DEFAULT-LABEL: func.func @zero_trips_then_updated_in_place
// DEFAULT:         %[[L:.*]]:2 = stablehlo.while
// DEFAULT:         %[[B:.*]]:2 = stablehlo.optimization_barrier %[[L]]#0, %[[L]]#1
// DEFAULT:         %[[R:.*]] = stablehlo.reshape %[[B]]#1
// DEFAULT:         %[[U:.*]] = stablehlo.dynamic_update_slice %[[R]]
// DEFAULT:         %[[K:.*]]:3 = stablehlo.optimization_barrier %[[U]], %{{.*}}, %[[B]]#1
// DEFAULT:         return %[[K]]#0, %[[K]]#1
// DEFAULT-LABEL: func.func @zero_trips_then_read
// DEFAULT:         %[[L:.*]]:2 = stablehlo.while
// DEFAULT:         %[[B:.*]]:2 = stablehlo.optimization_barrier %[[L]]#0, %[[L]]#1
// DEFAULT-NOT:     optimization_barrier
// DEFAULT:         return
func.func @zero_trips_then_updated_in_place(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<2x2xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %m = stablehlo.reshape %r#1 : (tensor<4xf32>) -> tensor<2x2xf32>
  %z = stablehlo.constant dense<7.0> : tensor<1x1xf32>
  %u = stablehlo.dynamic_update_slice %m, %z, %c0, %c1 : (tensor<2x2xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %d = stablehlo.negate %x : tensor<4xf32>
  return %u, %d : tensor<2x2xf32>, tensor<4xf32>
}

func.func @zero_trips_then_read(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %e = stablehlo.exponential %r#1 : tensor<4xf32>
  %d = stablehlo.negate %x : tensor<4xf32>
  return %e, %d : tensor<4xf32>, tensor<4xf32>
}

// A flag carried from an argument: the first trip may not run, the results are fenced (and
// with condition-only, the flag being read by the condition only).
// CHECK-LABEL: func.func @flag_from_an_argument
// CHECK:         stablehlo.optimization_barrier
// DEFAULT-LABEL: func.func @flag_from_an_argument
// DEFAULT:         %[[L:.*]]:2 = stablehlo.while
// DEFAULT:         %[[B:.*]]:2 = stablehlo.optimization_barrier %[[L]]#0, %[[L]]#1 : tensor<i1>, tensor<4xf32>
// DEFAULT:         return %[[B]]#1 : tensor<4xf32>
func.func @flag_from_an_argument(%x: tensor<4xf32>, %go: tensor<i1>) -> tensor<4xf32> {
  %r:2 = stablehlo.while(%flag = %go, %v = %x) : tensor<i1>, tensor<4xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    %a = stablehlo.and %flag, %t : tensor<i1>
    stablehlo.return %a : tensor<i1>
  } do {
    %w = stablehlo.add %v, %v : tensor<4xf32>
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f, %w : tensor<i1>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// Conditions that do not fold to true: a count that starts past its bound, and an unsigned
// comparison (not folded) beside a flag carried from `not false`: both loops are fenced.
// DEFAULT-LABEL: func.func @first_trip_not_certain
// DEFAULT:         %[[A:.*]]:2 = stablehlo.while
// DEFAULT:         stablehlo.optimization_barrier %[[A]]#0, %[[A]]#1
// DEFAULT:         %[[U:.*]]:3 = stablehlo.while
// DEFAULT:         stablehlo.optimization_barrier %[[U]]#0, %[[U]]#1, %[[U]]#2
func.func @first_trip_not_certain(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a:2 = stablehlo.while(%i = %c5, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %u:3 = stablehlo.while(%i = %c1, %stop = %f, %v = %x) : tensor<i32>, tensor<i1>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %go = stablehlo.not %stop : tensor<i1>
    %q = stablehlo.and %p, %go : tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %stop, %w : tensor<i32>, tensor<i1>, tensor<4xf32>
  }
  return %a#1, %u#2 : tensor<4xf32>, tensor<4xf32>
}

// The same count from below its bound, compared as signed, and `not false`: no barrier.
// DEFAULT-LABEL: func.func @first_trip_certain
// DEFAULT-NOT:     optimization_barrier
func.func @first_trip_certain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %u:3 = stablehlo.while(%i = %c1, %stop = %f, %v = %x) : tensor<i32>, tensor<i1>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %go = stablehlo.not %stop : tensor<i1>
    %q = stablehlo.and %p, %go : tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %j, %stop, %w : tensor<i32>, tensor<i1>, tensor<4xf32>
  }
  return %u#2 : tensor<4xf32>
}

// A complex constant carried beside the count: the condition still folds (complex and float
// operands are not read as integers), no barrier.
// DEFAULT-LABEL: func.func @complex_carry_beside_a_count
// DEFAULT-NOT:     optimization_barrier
func.func @complex_carry_beside_a_count() -> tensor<2xcomplex<f32>> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<2xcomplex<f32>>
  %r:2 = stablehlo.while(%i = %c0, %v = %z) : tensor<i32>, tensor<2xcomplex<f32>>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<2xcomplex<f32>>
    stablehlo.return %j, %w : tensor<i32>, tensor<2xcomplex<f32>>
  }
  return %r#1 : tensor<2xcomplex<f32>>
}
