// RUN: shlo-opt --shlo-bound-dispatch-operands %s | filecheck %s
// RUN: shlo-opt '--shlo-bound-dispatch-operands=max-bindings=16' %s | filecheck %s --check-prefix=SIXTEEN

// A sum of 34 arguments: the partial sum of the first 30 (30 buffers, its result and one
// spare binding: 32) is fenced; the rest reads it as one computed buffer. With 16
// bindings, a fence every 14 buffers.
// CHECK-LABEL: func.func @sum34
// CHECK:         %[[P:.*]] = stablehlo.add %{{.*}}, %arg29
// CHECK-NEXT:    %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[P]]
// CHECK-NEXT:    stablehlo.add %[[F]], %arg30
// CHECK-NOT:     compute_barrier
// CHECK:         return
// SIXTEEN-LABEL: func.func @sum34
// SIXTEEN:         stablehlo.add %{{.*}}, %arg13
// SIXTEEN-NEXT:    iree_tensor_ext.compute_barrier.start
// SIXTEEN:         stablehlo.add %{{.*}}, %arg26
// SIXTEEN-NEXT:    iree_tensor_ext.compute_barrier.start
// SIXTEEN-NOT:     compute_barrier
// SIXTEEN:         return
func.func @sum34(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>, %a8: tensor<16xf32>, %a9: tensor<16xf32>, %a10: tensor<16xf32>, %a11: tensor<16xf32>, %a12: tensor<16xf32>, %a13: tensor<16xf32>, %a14: tensor<16xf32>, %a15: tensor<16xf32>, %a16: tensor<16xf32>, %a17: tensor<16xf32>, %a18: tensor<16xf32>, %a19: tensor<16xf32>, %a20: tensor<16xf32>, %a21: tensor<16xf32>, %a22: tensor<16xf32>, %a23: tensor<16xf32>, %a24: tensor<16xf32>, %a25: tensor<16xf32>, %a26: tensor<16xf32>, %a27: tensor<16xf32>, %a28: tensor<16xf32>, %a29: tensor<16xf32>, %a30: tensor<16xf32>, %a31: tensor<16xf32>, %a32: tensor<16xf32>, %a33: tensor<16xf32>) -> tensor<16xf32> {
  %s1 = stablehlo.add %a0, %a1 : tensor<16xf32>
  %s2 = stablehlo.add %s1, %a2 : tensor<16xf32>
  %s3 = stablehlo.add %s2, %a3 : tensor<16xf32>
  %s4 = stablehlo.add %s3, %a4 : tensor<16xf32>
  %s5 = stablehlo.add %s4, %a5 : tensor<16xf32>
  %s6 = stablehlo.add %s5, %a6 : tensor<16xf32>
  %s7 = stablehlo.add %s6, %a7 : tensor<16xf32>
  %s8 = stablehlo.add %s7, %a8 : tensor<16xf32>
  %s9 = stablehlo.add %s8, %a9 : tensor<16xf32>
  %s10 = stablehlo.add %s9, %a10 : tensor<16xf32>
  %s11 = stablehlo.add %s10, %a11 : tensor<16xf32>
  %s12 = stablehlo.add %s11, %a12 : tensor<16xf32>
  %s13 = stablehlo.add %s12, %a13 : tensor<16xf32>
  %s14 = stablehlo.add %s13, %a14 : tensor<16xf32>
  %s15 = stablehlo.add %s14, %a15 : tensor<16xf32>
  %s16 = stablehlo.add %s15, %a16 : tensor<16xf32>
  %s17 = stablehlo.add %s16, %a17 : tensor<16xf32>
  %s18 = stablehlo.add %s17, %a18 : tensor<16xf32>
  %s19 = stablehlo.add %s18, %a19 : tensor<16xf32>
  %s20 = stablehlo.add %s19, %a20 : tensor<16xf32>
  %s21 = stablehlo.add %s20, %a21 : tensor<16xf32>
  %s22 = stablehlo.add %s21, %a22 : tensor<16xf32>
  %s23 = stablehlo.add %s22, %a23 : tensor<16xf32>
  %s24 = stablehlo.add %s23, %a24 : tensor<16xf32>
  %s25 = stablehlo.add %s24, %a25 : tensor<16xf32>
  %s26 = stablehlo.add %s25, %a26 : tensor<16xf32>
  %s27 = stablehlo.add %s26, %a27 : tensor<16xf32>
  %s28 = stablehlo.add %s27, %a28 : tensor<16xf32>
  %s29 = stablehlo.add %s28, %a29 : tensor<16xf32>
  %s30 = stablehlo.add %s29, %a30 : tensor<16xf32>
  %s31 = stablehlo.add %s30, %a31 : tensor<16xf32>
  %s32 = stablehlo.add %s31, %a32 : tensor<16xf32>
  %s33 = stablehlo.add %s32, %a33 : tensor<16xf32>
  return %s33 : tensor<16xf32>
}

// 30 arguments and the result fit in 32 bindings: unchanged.
// CHECK-LABEL: func.func @sum30
// CHECK-NOT:     compute_barrier
// CHECK:         return
func.func @sum30(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>, %a8: tensor<16xf32>, %a9: tensor<16xf32>, %a10: tensor<16xf32>, %a11: tensor<16xf32>, %a12: tensor<16xf32>, %a13: tensor<16xf32>, %a14: tensor<16xf32>, %a15: tensor<16xf32>, %a16: tensor<16xf32>, %a17: tensor<16xf32>, %a18: tensor<16xf32>, %a19: tensor<16xf32>, %a20: tensor<16xf32>, %a21: tensor<16xf32>, %a22: tensor<16xf32>, %a23: tensor<16xf32>, %a24: tensor<16xf32>, %a25: tensor<16xf32>, %a26: tensor<16xf32>, %a27: tensor<16xf32>, %a28: tensor<16xf32>, %a29: tensor<16xf32>) -> tensor<16xf32> {
  %s1 = stablehlo.add %a0, %a1 : tensor<16xf32>
  %s2 = stablehlo.add %s1, %a2 : tensor<16xf32>
  %s3 = stablehlo.add %s2, %a3 : tensor<16xf32>
  %s4 = stablehlo.add %s3, %a4 : tensor<16xf32>
  %s5 = stablehlo.add %s4, %a5 : tensor<16xf32>
  %s6 = stablehlo.add %s5, %a6 : tensor<16xf32>
  %s7 = stablehlo.add %s6, %a7 : tensor<16xf32>
  %s8 = stablehlo.add %s7, %a8 : tensor<16xf32>
  %s9 = stablehlo.add %s8, %a9 : tensor<16xf32>
  %s10 = stablehlo.add %s9, %a10 : tensor<16xf32>
  %s11 = stablehlo.add %s10, %a11 : tensor<16xf32>
  %s12 = stablehlo.add %s11, %a12 : tensor<16xf32>
  %s13 = stablehlo.add %s12, %a13 : tensor<16xf32>
  %s14 = stablehlo.add %s13, %a14 : tensor<16xf32>
  %s15 = stablehlo.add %s14, %a15 : tensor<16xf32>
  %s16 = stablehlo.add %s15, %a16 : tensor<16xf32>
  %s17 = stablehlo.add %s16, %a17 : tensor<16xf32>
  %s18 = stablehlo.add %s17, %a18 : tensor<16xf32>
  %s19 = stablehlo.add %s18, %a19 : tensor<16xf32>
  %s20 = stablehlo.add %s19, %a20 : tensor<16xf32>
  %s21 = stablehlo.add %s20, %a21 : tensor<16xf32>
  %s22 = stablehlo.add %s21, %a22 : tensor<16xf32>
  %s23 = stablehlo.add %s22, %a23 : tensor<16xf32>
  %s24 = stablehlo.add %s23, %a24 : tensor<16xf32>
  %s25 = stablehlo.add %s24, %a25 : tensor<16xf32>
  %s26 = stablehlo.add %s25, %a26 : tensor<16xf32>
  %s27 = stablehlo.add %s26, %a27 : tensor<16xf32>
  %s28 = stablehlo.add %s27, %a28 : tensor<16xf32>
  %s29 = stablehlo.add %s28, %a29 : tensor<16xf32>
  return %s29 : tensor<16xf32>
}

// A reduce of 20 arguments into 20 returned results (40 buffers), each result its own
// sum: split into reduces of 15 and 5 (15 inputs, 15 results and a spare binding).
// CHECK-LABEL: func.func @reduce20
// CHECK:         %{{.*}}:15 = stablehlo.reduce(%arg0 init: %{{.*}}), (%arg1 init:
// CHECK-SAME:      (%arg14 init: %{{.*}}) across
// CHECK:         %{{.*}}:5 = stablehlo.reduce(%arg15 init: %{{.*}}),
// CHECK-SAME:      (%arg19 init: %{{.*}}) across
// CHECK-NOT:     stablehlo.reduce
// CHECK:         return
func.func @reduce20(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>, %a3: tensor<8x16xf32>, %a4: tensor<8x16xf32>, %a5: tensor<8x16xf32>, %a6: tensor<8x16xf32>, %a7: tensor<8x16xf32>, %a8: tensor<8x16xf32>, %a9: tensor<8x16xf32>, %a10: tensor<8x16xf32>, %a11: tensor<8x16xf32>, %a12: tensor<8x16xf32>, %a13: tensor<8x16xf32>, %a14: tensor<8x16xf32>, %a15: tensor<8x16xf32>, %a16: tensor<8x16xf32>, %a17: tensor<8x16xf32>, %a18: tensor<8x16xf32>, %a19: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:20 = "stablehlo.reduce"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %x2: tensor<f32>, %x3: tensor<f32>, %x4: tensor<f32>, %x5: tensor<f32>, %x6: tensor<f32>, %x7: tensor<f32>, %x8: tensor<f32>, %x9: tensor<f32>, %x10: tensor<f32>, %x11: tensor<f32>, %x12: tensor<f32>, %x13: tensor<f32>, %x14: tensor<f32>, %x15: tensor<f32>, %x16: tensor<f32>, %x17: tensor<f32>, %x18: tensor<f32>, %x19: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>, %y2: tensor<f32>, %y3: tensor<f32>, %y4: tensor<f32>, %y5: tensor<f32>, %y6: tensor<f32>, %y7: tensor<f32>, %y8: tensor<f32>, %y9: tensor<f32>, %y10: tensor<f32>, %y11: tensor<f32>, %y12: tensor<f32>, %y13: tensor<f32>, %y14: tensor<f32>, %y15: tensor<f32>, %y16: tensor<f32>, %y17: tensor<f32>, %y18: tensor<f32>, %y19: tensor<f32>):
    %o0 = stablehlo.add %x0, %y0 : tensor<f32>
    %o1 = stablehlo.add %x1, %y1 : tensor<f32>
    %o2 = stablehlo.add %x2, %y2 : tensor<f32>
    %o3 = stablehlo.add %x3, %y3 : tensor<f32>
    %o4 = stablehlo.add %x4, %y4 : tensor<f32>
    %o5 = stablehlo.add %x5, %y5 : tensor<f32>
    %o6 = stablehlo.add %x6, %y6 : tensor<f32>
    %o7 = stablehlo.add %x7, %y7 : tensor<f32>
    %o8 = stablehlo.add %x8, %y8 : tensor<f32>
    %o9 = stablehlo.add %x9, %y9 : tensor<f32>
    %o10 = stablehlo.add %x10, %y10 : tensor<f32>
    %o11 = stablehlo.add %x11, %y11 : tensor<f32>
    %o12 = stablehlo.add %x12, %y12 : tensor<f32>
    %o13 = stablehlo.add %x13, %y13 : tensor<f32>
    %o14 = stablehlo.add %x14, %y14 : tensor<f32>
    %o15 = stablehlo.add %x15, %y15 : tensor<f32>
    %o16 = stablehlo.add %x16, %y16 : tensor<f32>
    %o17 = stablehlo.add %x17, %y17 : tensor<f32>
    %o18 = stablehlo.add %x18, %y18 : tensor<f32>
    %o19 = stablehlo.add %x19, %y19 : tensor<f32>
    stablehlo.return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16, %o17, %o18, %o19 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Results that read each other's operands cannot be split: left to the runtime's error.
// CHECK-LABEL: func.func @coupled20
// CHECK:         stablehlo.reduce
// CHECK-NOT:     stablehlo.reduce
func.func @coupled20(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>, %a3: tensor<8x16xf32>, %a4: tensor<8x16xf32>, %a5: tensor<8x16xf32>, %a6: tensor<8x16xf32>, %a7: tensor<8x16xf32>, %a8: tensor<8x16xf32>, %a9: tensor<8x16xf32>, %a10: tensor<8x16xf32>, %a11: tensor<8x16xf32>, %a12: tensor<8x16xf32>, %a13: tensor<8x16xf32>, %a14: tensor<8x16xf32>, %a15: tensor<8x16xf32>, %a16: tensor<8x16xf32>, %a17: tensor<8x16xf32>, %a18: tensor<8x16xf32>, %a19: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:20 = "stablehlo.reduce"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %x2: tensor<f32>, %x3: tensor<f32>, %x4: tensor<f32>, %x5: tensor<f32>, %x6: tensor<f32>, %x7: tensor<f32>, %x8: tensor<f32>, %x9: tensor<f32>, %x10: tensor<f32>, %x11: tensor<f32>, %x12: tensor<f32>, %x13: tensor<f32>, %x14: tensor<f32>, %x15: tensor<f32>, %x16: tensor<f32>, %x17: tensor<f32>, %x18: tensor<f32>, %x19: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>, %y2: tensor<f32>, %y3: tensor<f32>, %y4: tensor<f32>, %y5: tensor<f32>, %y6: tensor<f32>, %y7: tensor<f32>, %y8: tensor<f32>, %y9: tensor<f32>, %y10: tensor<f32>, %y11: tensor<f32>, %y12: tensor<f32>, %y13: tensor<f32>, %y14: tensor<f32>, %y15: tensor<f32>, %y16: tensor<f32>, %y17: tensor<f32>, %y18: tensor<f32>, %y19: tensor<f32>):
    %o0 = stablehlo.add %x0, %y0 : tensor<f32>
    %o1 = stablehlo.add %x1, %y0 : tensor<f32>
    %o2 = stablehlo.add %x2, %y0 : tensor<f32>
    %o3 = stablehlo.add %x3, %y0 : tensor<f32>
    %o4 = stablehlo.add %x4, %y0 : tensor<f32>
    %o5 = stablehlo.add %x5, %y0 : tensor<f32>
    %o6 = stablehlo.add %x6, %y0 : tensor<f32>
    %o7 = stablehlo.add %x7, %y0 : tensor<f32>
    %o8 = stablehlo.add %x8, %y0 : tensor<f32>
    %o9 = stablehlo.add %x9, %y0 : tensor<f32>
    %o10 = stablehlo.add %x10, %y0 : tensor<f32>
    %o11 = stablehlo.add %x11, %y0 : tensor<f32>
    %o12 = stablehlo.add %x12, %y0 : tensor<f32>
    %o13 = stablehlo.add %x13, %y0 : tensor<f32>
    %o14 = stablehlo.add %x14, %y0 : tensor<f32>
    %o15 = stablehlo.add %x15, %y0 : tensor<f32>
    %o16 = stablehlo.add %x16, %y0 : tensor<f32>
    %o17 = stablehlo.add %x17, %y0 : tensor<f32>
    %o18 = stablehlo.add %x18, %y0 : tensor<f32>
    %o19 = stablehlo.add %x19, %y0 : tensor<f32>
    stablehlo.return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16, %o17, %o18, %o19 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// A loop body that sums 34 values it updates each iteration: they are one buffer, no fence.
// CHECK-LABEL: func.func @loop34
// CHECK-NOT:     compute_barrier
// CHECK-NOT:     optimization_barrier
// CHECK:         return
func.func @loop34(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>, %a8: tensor<16xf32>, %a9: tensor<16xf32>, %a10: tensor<16xf32>, %a11: tensor<16xf32>, %a12: tensor<16xf32>, %a13: tensor<16xf32>, %a14: tensor<16xf32>, %a15: tensor<16xf32>, %a16: tensor<16xf32>, %a17: tensor<16xf32>, %a18: tensor<16xf32>, %a19: tensor<16xf32>, %a20: tensor<16xf32>, %a21: tensor<16xf32>, %a22: tensor<16xf32>, %a23: tensor<16xf32>, %a24: tensor<16xf32>, %a25: tensor<16xf32>, %a26: tensor<16xf32>, %a27: tensor<16xf32>, %a28: tensor<16xf32>, %a29: tensor<16xf32>, %a30: tensor<16xf32>, %a31: tensor<16xf32>, %a32: tensor<16xf32>, %a33: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %r:34 = stablehlo.while(%c0 = %a0, %c1 = %a1, %c2 = %a2, %c3 = %a3, %c4 = %a4, %c5 = %a5, %c6 = %a6, %c7 = %a7, %c8 = %a8, %c9 = %a9, %c10 = %a10, %c11 = %a11, %c12 = %a12, %c13 = %a13, %c14 = %a14, %c15 = %a15, %c16 = %a16, %c17 = %a17, %c18 = %a18, %c19 = %a19, %c20 = %a20, %c21 = %a21, %c22 = %a22, %c23 = %a23, %c24 = %a24, %c25 = %a25, %c26 = %a26, %c27 = %a27, %c28 = %a28, %c29 = %a29, %c30 = %a30, %c31 = %a31, %c32 = %a32, %c33 = %a33) : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
   cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s1 = stablehlo.add %c0, %c1 : tensor<16xf32>
    %s2 = stablehlo.add %s1, %c2 : tensor<16xf32>
    %s3 = stablehlo.add %s2, %c3 : tensor<16xf32>
    %s4 = stablehlo.add %s3, %c4 : tensor<16xf32>
    %s5 = stablehlo.add %s4, %c5 : tensor<16xf32>
    %s6 = stablehlo.add %s5, %c6 : tensor<16xf32>
    %s7 = stablehlo.add %s6, %c7 : tensor<16xf32>
    %s8 = stablehlo.add %s7, %c8 : tensor<16xf32>
    %s9 = stablehlo.add %s8, %c9 : tensor<16xf32>
    %s10 = stablehlo.add %s9, %c10 : tensor<16xf32>
    %s11 = stablehlo.add %s10, %c11 : tensor<16xf32>
    %s12 = stablehlo.add %s11, %c12 : tensor<16xf32>
    %s13 = stablehlo.add %s12, %c13 : tensor<16xf32>
    %s14 = stablehlo.add %s13, %c14 : tensor<16xf32>
    %s15 = stablehlo.add %s14, %c15 : tensor<16xf32>
    %s16 = stablehlo.add %s15, %c16 : tensor<16xf32>
    %s17 = stablehlo.add %s16, %c17 : tensor<16xf32>
    %s18 = stablehlo.add %s17, %c18 : tensor<16xf32>
    %s19 = stablehlo.add %s18, %c19 : tensor<16xf32>
    %s20 = stablehlo.add %s19, %c20 : tensor<16xf32>
    %s21 = stablehlo.add %s20, %c21 : tensor<16xf32>
    %s22 = stablehlo.add %s21, %c22 : tensor<16xf32>
    %s23 = stablehlo.add %s22, %c23 : tensor<16xf32>
    %s24 = stablehlo.add %s23, %c24 : tensor<16xf32>
    %s25 = stablehlo.add %s24, %c25 : tensor<16xf32>
    %s26 = stablehlo.add %s25, %c26 : tensor<16xf32>
    %s27 = stablehlo.add %s26, %c27 : tensor<16xf32>
    %s28 = stablehlo.add %s27, %c28 : tensor<16xf32>
    %s29 = stablehlo.add %s28, %c29 : tensor<16xf32>
    %s30 = stablehlo.add %s29, %c30 : tensor<16xf32>
    %s31 = stablehlo.add %s30, %c31 : tensor<16xf32>
    %s32 = stablehlo.add %s31, %c32 : tensor<16xf32>
    %s33 = stablehlo.add %s32, %c33 : tensor<16xf32>
    %n0 = stablehlo.add %c0, %s33 : tensor<16xf32>
    %n1 = stablehlo.add %c1, %s33 : tensor<16xf32>
    %n2 = stablehlo.add %c2, %s33 : tensor<16xf32>
    %n3 = stablehlo.add %c3, %s33 : tensor<16xf32>
    %n4 = stablehlo.add %c4, %s33 : tensor<16xf32>
    %n5 = stablehlo.add %c5, %s33 : tensor<16xf32>
    %n6 = stablehlo.add %c6, %s33 : tensor<16xf32>
    %n7 = stablehlo.add %c7, %s33 : tensor<16xf32>
    %n8 = stablehlo.add %c8, %s33 : tensor<16xf32>
    %n9 = stablehlo.add %c9, %s33 : tensor<16xf32>
    %n10 = stablehlo.add %c10, %s33 : tensor<16xf32>
    %n11 = stablehlo.add %c11, %s33 : tensor<16xf32>
    %n12 = stablehlo.add %c12, %s33 : tensor<16xf32>
    %n13 = stablehlo.add %c13, %s33 : tensor<16xf32>
    %n14 = stablehlo.add %c14, %s33 : tensor<16xf32>
    %n15 = stablehlo.add %c15, %s33 : tensor<16xf32>
    %n16 = stablehlo.add %c16, %s33 : tensor<16xf32>
    %n17 = stablehlo.add %c17, %s33 : tensor<16xf32>
    %n18 = stablehlo.add %c18, %s33 : tensor<16xf32>
    %n19 = stablehlo.add %c19, %s33 : tensor<16xf32>
    %n20 = stablehlo.add %c20, %s33 : tensor<16xf32>
    %n21 = stablehlo.add %c21, %s33 : tensor<16xf32>
    %n22 = stablehlo.add %c22, %s33 : tensor<16xf32>
    %n23 = stablehlo.add %c23, %s33 : tensor<16xf32>
    %n24 = stablehlo.add %c24, %s33 : tensor<16xf32>
    %n25 = stablehlo.add %c25, %s33 : tensor<16xf32>
    %n26 = stablehlo.add %c26, %s33 : tensor<16xf32>
    %n27 = stablehlo.add %c27, %s33 : tensor<16xf32>
    %n28 = stablehlo.add %c28, %s33 : tensor<16xf32>
    %n29 = stablehlo.add %c29, %s33 : tensor<16xf32>
    %n30 = stablehlo.add %c30, %s33 : tensor<16xf32>
    %n31 = stablehlo.add %c31, %s33 : tensor<16xf32>
    %n32 = stablehlo.add %c32, %s33 : tensor<16xf32>
    %n33 = stablehlo.add %c33, %s33 : tensor<16xf32>
    stablehlo.return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15, %n16, %n17, %n18, %n19, %n20, %n21, %n22, %n23, %n24, %n25, %n26, %n27, %n28, %n29, %n30, %n31, %n32, %n33 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19, %r#20, %r#21, %r#22, %r#23, %r#24, %r#25, %r#26, %r#27, %r#28, %r#29, %r#30, %r#31, %r#32, %r#33 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// The same sum of values the loop passes on unchanged (the buffers they came in): the
// partial sum is fenced, by an optimization barrier inside the loop.
// CHECK-LABEL: func.func @invariant34
// CHECK:         stablehlo.while
// CHECK:           stablehlo.optimization_barrier
func.func @invariant34(%a0: tensor<16xf32>, %a1: tensor<16xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>, %a6: tensor<16xf32>, %a7: tensor<16xf32>, %a8: tensor<16xf32>, %a9: tensor<16xf32>, %a10: tensor<16xf32>, %a11: tensor<16xf32>, %a12: tensor<16xf32>, %a13: tensor<16xf32>, %a14: tensor<16xf32>, %a15: tensor<16xf32>, %a16: tensor<16xf32>, %a17: tensor<16xf32>, %a18: tensor<16xf32>, %a19: tensor<16xf32>, %a20: tensor<16xf32>, %a21: tensor<16xf32>, %a22: tensor<16xf32>, %a23: tensor<16xf32>, %a24: tensor<16xf32>, %a25: tensor<16xf32>, %a26: tensor<16xf32>, %a27: tensor<16xf32>, %a28: tensor<16xf32>, %a29: tensor<16xf32>, %a30: tensor<16xf32>, %a31: tensor<16xf32>, %a32: tensor<16xf32>, %a33: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %r:34 = stablehlo.while(%c0 = %a0, %c1 = %a1, %c2 = %a2, %c3 = %a3, %c4 = %a4, %c5 = %a5, %c6 = %a6, %c7 = %a7, %c8 = %a8, %c9 = %a9, %c10 = %a10, %c11 = %a11, %c12 = %a12, %c13 = %a13, %c14 = %a14, %c15 = %a15, %c16 = %a16, %c17 = %a17, %c18 = %a18, %c19 = %a19, %c20 = %a20, %c21 = %a21, %c22 = %a22, %c23 = %a23, %c24 = %a24, %c25 = %a25, %c26 = %a26, %c27 = %a27, %c28 = %a28, %c29 = %a29, %c30 = %a30, %c31 = %a31, %c32 = %a32, %c33 = %a33) : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
   cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %s1 = stablehlo.add %c0, %c1 : tensor<16xf32>
    %s2 = stablehlo.add %s1, %c2 : tensor<16xf32>
    %s3 = stablehlo.add %s2, %c3 : tensor<16xf32>
    %s4 = stablehlo.add %s3, %c4 : tensor<16xf32>
    %s5 = stablehlo.add %s4, %c5 : tensor<16xf32>
    %s6 = stablehlo.add %s5, %c6 : tensor<16xf32>
    %s7 = stablehlo.add %s6, %c7 : tensor<16xf32>
    %s8 = stablehlo.add %s7, %c8 : tensor<16xf32>
    %s9 = stablehlo.add %s8, %c9 : tensor<16xf32>
    %s10 = stablehlo.add %s9, %c10 : tensor<16xf32>
    %s11 = stablehlo.add %s10, %c11 : tensor<16xf32>
    %s12 = stablehlo.add %s11, %c12 : tensor<16xf32>
    %s13 = stablehlo.add %s12, %c13 : tensor<16xf32>
    %s14 = stablehlo.add %s13, %c14 : tensor<16xf32>
    %s15 = stablehlo.add %s14, %c15 : tensor<16xf32>
    %s16 = stablehlo.add %s15, %c16 : tensor<16xf32>
    %s17 = stablehlo.add %s16, %c17 : tensor<16xf32>
    %s18 = stablehlo.add %s17, %c18 : tensor<16xf32>
    %s19 = stablehlo.add %s18, %c19 : tensor<16xf32>
    %s20 = stablehlo.add %s19, %c20 : tensor<16xf32>
    %s21 = stablehlo.add %s20, %c21 : tensor<16xf32>
    %s22 = stablehlo.add %s21, %c22 : tensor<16xf32>
    %s23 = stablehlo.add %s22, %c23 : tensor<16xf32>
    %s24 = stablehlo.add %s23, %c24 : tensor<16xf32>
    %s25 = stablehlo.add %s24, %c25 : tensor<16xf32>
    %s26 = stablehlo.add %s25, %c26 : tensor<16xf32>
    %s27 = stablehlo.add %s26, %c27 : tensor<16xf32>
    %s28 = stablehlo.add %s27, %c28 : tensor<16xf32>
    %s29 = stablehlo.add %s28, %c29 : tensor<16xf32>
    %s30 = stablehlo.add %s29, %c30 : tensor<16xf32>
    %s31 = stablehlo.add %s30, %c31 : tensor<16xf32>
    %s32 = stablehlo.add %s31, %c32 : tensor<16xf32>
    %s33 = stablehlo.add %s32, %c33 : tensor<16xf32>
    %n0 = stablehlo.add %c0, %s33 : tensor<16xf32>
    stablehlo.return %n0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14, %c15, %c16, %c17, %c18, %c19, %c20, %c21, %c22, %c23, %c24, %c25, %c26, %c27, %c28, %c29, %c30, %c31, %c32, %c33 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19, %r#20, %r#21, %r#22, %r#23, %r#24, %r#25, %r#26, %r#27, %r#28, %r#29, %r#30, %r#31, %r#32, %r#33 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// A scatter of 20 operands and 20 updates into 20 returned results: split into scatters of 10
// (20 inputs, the indices, 10 results and a spare binding: 32), each with the indices.
// CHECK-LABEL: func.func @scatter20
// CHECK:         %{{.*}}:10 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg20, %arg21,
// CHECK:         %{{.*}}:10 = "stablehlo.scatter"(%arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg31,
// CHECK-NOT:     "stablehlo.scatter"(
// CHECK:         return
func.func @scatter20(%a0: tensor<64xf32>, %a1: tensor<64xf32>, %a2: tensor<64xf32>, %a3: tensor<64xf32>, %a4: tensor<64xf32>, %a5: tensor<64xf32>, %a6: tensor<64xf32>, %a7: tensor<64xf32>, %a8: tensor<64xf32>, %a9: tensor<64xf32>, %a10: tensor<64xf32>, %a11: tensor<64xf32>, %a12: tensor<64xf32>, %a13: tensor<64xf32>, %a14: tensor<64xf32>, %a15: tensor<64xf32>, %a16: tensor<64xf32>, %a17: tensor<64xf32>, %a18: tensor<64xf32>, %a19: tensor<64xf32>, %idx: tensor<8x1xi32>, %u0: tensor<8xf32>, %u1: tensor<8xf32>, %u2: tensor<8xf32>, %u3: tensor<8xf32>, %u4: tensor<8xf32>, %u5: tensor<8xf32>, %u6: tensor<8xf32>, %u7: tensor<8xf32>, %u8: tensor<8xf32>, %u9: tensor<8xf32>, %u10: tensor<8xf32>, %u11: tensor<8xf32>, %u12: tensor<8xf32>, %u13: tensor<8xf32>, %u14: tensor<8xf32>, %u15: tensor<8xf32>, %u16: tensor<8xf32>, %u17: tensor<8xf32>, %u18: tensor<8xf32>, %u19: tensor<8xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %r:20 = "stablehlo.scatter"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %idx, %u0, %u1, %u2, %u3, %u4, %u5, %u6, %u7, %u8, %u9, %u10, %u11, %u12, %u13, %u14, %u15, %u16, %u17, %u18, %u19) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %x2: tensor<f32>, %x3: tensor<f32>, %x4: tensor<f32>, %x5: tensor<f32>, %x6: tensor<f32>, %x7: tensor<f32>, %x8: tensor<f32>, %x9: tensor<f32>, %x10: tensor<f32>, %x11: tensor<f32>, %x12: tensor<f32>, %x13: tensor<f32>, %x14: tensor<f32>, %x15: tensor<f32>, %x16: tensor<f32>, %x17: tensor<f32>, %x18: tensor<f32>, %x19: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>, %y2: tensor<f32>, %y3: tensor<f32>, %y4: tensor<f32>, %y5: tensor<f32>, %y6: tensor<f32>, %y7: tensor<f32>, %y8: tensor<f32>, %y9: tensor<f32>, %y10: tensor<f32>, %y11: tensor<f32>, %y12: tensor<f32>, %y13: tensor<f32>, %y14: tensor<f32>, %y15: tensor<f32>, %y16: tensor<f32>, %y17: tensor<f32>, %y18: tensor<f32>, %y19: tensor<f32>):
    %o0 = stablehlo.add %x0, %y0 : tensor<f32>
    %o1 = stablehlo.add %x1, %y1 : tensor<f32>
    %o2 = stablehlo.add %x2, %y2 : tensor<f32>
    %o3 = stablehlo.add %x3, %y3 : tensor<f32>
    %o4 = stablehlo.add %x4, %y4 : tensor<f32>
    %o5 = stablehlo.add %x5, %y5 : tensor<f32>
    %o6 = stablehlo.add %x6, %y6 : tensor<f32>
    %o7 = stablehlo.add %x7, %y7 : tensor<f32>
    %o8 = stablehlo.add %x8, %y8 : tensor<f32>
    %o9 = stablehlo.add %x9, %y9 : tensor<f32>
    %o10 = stablehlo.add %x10, %y10 : tensor<f32>
    %o11 = stablehlo.add %x11, %y11 : tensor<f32>
    %o12 = stablehlo.add %x12, %y12 : tensor<f32>
    %o13 = stablehlo.add %x13, %y13 : tensor<f32>
    %o14 = stablehlo.add %x14, %y14 : tensor<f32>
    %o15 = stablehlo.add %x15, %y15 : tensor<f32>
    %o16 = stablehlo.add %x16, %y16 : tensor<f32>
    %o17 = stablehlo.add %x17, %y17 : tensor<f32>
    %o18 = stablehlo.add %x18, %y18 : tensor<f32>
    %o19 = stablehlo.add %x19, %y19 : tensor<f32>
    stablehlo.return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16, %o17, %o18, %o19 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<8x1xi32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
