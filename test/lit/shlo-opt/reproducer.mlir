// --mlir-pass-pipeline-crash-reproducer=PATH: when the pipeline fails, PATH gets the input as it
// was before the pipeline and the pipeline (MLIR's reproducer format), and the messages say so;
// --run-reproducer replays it (iree-opt too, for C++-only pipelines).
//
// RUN: not shlo-opt %s --pass-pipeline='builtin.module(func.func(cse),iree-stablehlo-to-iree-input)' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | filecheck %s --check-prefix=MSG
// MSG: reproducer.mlir:[[LINE:[0-9]+]]:8: error: failed to legalize operation 'stablehlo.custom_call'
// MSG: reproducer.mlir:0:0: error: Failures have been detected while processing an MLIR pass pipeline
// MSG: reproducer.mlir:0:0: note: Pipeline failed while executing [`ConvertStableHloToIreeInputDialects`]: reproducer generated at `{{.*}}repro.mlir`
//
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
// REPRO:      func.func @f
// REPRO-NEXT:   stablehlo.add
// REPRO-NEXT:   stablehlo.add
// REPRO:      {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(func.func(cse),iree-stablehlo-to-iree-input)",
// REPRO-NEXT:       disable_threading: false,
// REPRO-NEXT:       verify_each: true
// REPRO-NEXT:     }
// REPRO-NEXT:   }
// REPRO-NEXT: #-}
//
// RUN: not shlo-opt --run-reproducer %t.repro.mlir 2>&1 | filecheck %s --check-prefix=REPLAY
// RUN: not iree-opt --run-reproducer %t.repro.mlir 2>&1 | filecheck %s --check-prefix=REPLAY
// REPLAY: repro.mlir:{{[0-9]+}}:{{[0-9]+}}: error: failed to legalize operation 'stablehlo.custom_call'
//
// A Python pass: the reproducer replays with the plugin that defines it.
// RUN: not shlo-opt %s --load-pass-plugin=%test_passes --mlir-disable-threading --test-refuse=op=stablehlo.custom_call --mlir-pass-pipeline-crash-reproducer=%t.py.mlir 2>&1 | filecheck %s --check-prefix=PY
// PY: note: Pipeline failed while executing [`Refuse`]: reproducer generated at
// RUN: filecheck %s --check-prefix=PY-REPRO < %t.py.mlir
// PY-REPRO:      pipeline: "builtin.module(test-refuse{op=stablehlo.custom_call})",
// PY-REPRO-NEXT: disable_threading: true,
// RUN: not shlo-opt --load-pass-plugin=%test_passes --run-reproducer %t.py.mlir 2>&1 | filecheck %s --check-prefix=PY-REPLAY
// PY-REPLAY: error: test-refuse: refusing 'stablehlo.custom_call'
//
// RUN: not shlo-opt --run-reproducer %s 2>&1 | filecheck %s --check-prefix=NONE
// NONE: shlo-opt: {{.*}}reproducer.mlir: the input has no 'mlir_reproducer' configuration to run
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.custom_call @foo(%1) : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
