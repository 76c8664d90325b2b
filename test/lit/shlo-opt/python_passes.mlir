// shlo's Python passes in shlo-opt: as flags (nested under their anchor op like mlir-opt's
// implicit nesting) or in pipelines; a failure is an error at the op's location, exit status 1,
// and a note says how to reproduce it; a Python exception in a pass is an error, not a crash.
//
// RUN: shlo-opt %s --load-pass-plugin=%test_passes --test-mark=attr=test.first --cse | filecheck %s
// CHECK: func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {test.first} {
// CHECK: func.func @g(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {test.first} {
//
// RUN: not shlo-opt %s --load-pass-plugin=%test_passes --pass-pipeline='builtin.module(func.func(cse,test-refuse{op=stablehlo.multiply}))' 2>&1 | filecheck %s --check-prefix=REFUSE --strict-whitespace
// REFUSE:      python_passes.mlir:32:8: error: test-refuse: refusing 'stablehlo.multiply'
// REFUSE-NEXT: {{^}}  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
// REFUSE-NEXT: {{^}}       ^
// REFUSE-NEXT: python_passes.mlir:0:0: note: the pass pipeline failed; reproduce with `shlo-opt {{.*}}python_passes.mlir --load-pass-plugin={{.*}}test_passes.py '--pass-pipeline=builtin.module(func.func(cse,test-refuse{op=stablehlo.multiply}))'` (add --mlir-pass-pipeline-crash-reproducer=FILE to save this input and pipeline)
//
// RUN: not shlo-opt %s --load-pass-plugin=%test_passes --test-crash 2>&1 | filecheck %s --check-prefix=CRASH
// CRASH: python_passes.mlir:0:0: error: test-crash: internal error: ZeroDivisionError: a bug in the pass
//
// Pass flags of shlo's own passes work without a plugin:
// RUN: shlo-opt %s --shlo-legalize-chlo | filecheck %s --check-prefix=LEGALIZE
// LEGALIZE-NOT: chlo.
//
// A plugin that is not there, or has no pass, is one line and status 1:
// RUN: not shlo-opt %s --load-pass-plugin=%t.missing.py 2>&1 | filecheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: shlo-opt: cannot load pass plugin '{{.*}}missing.py': no such file
// RUN: echo "x = 1" > %t.empty.py
// RUN: not shlo-opt %s --load-pass-plugin=%t.empty.py 2>&1 | filecheck %s --check-prefix=NOPASS
// NOPASS: shlo-opt: pass plugin '{{.*}}empty.py' defines no Pass subclass with a NAME

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = chlo.broadcast_add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
