// On C++-only pipelines shlo-opt prints exactly what iree-opt prints: both run here, then diff.
//
// RUN: shlo-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' > %t.shlo
// RUN: iree-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' > %t.iree
// RUN: diff %t.shlo %t.iree
//
// Pass flags, with a pass restricted to func.func nested implicitly, and options:
// RUN: shlo-opt %s --split-input-file --chlo-legalize-to-stablehlo --cse --canonicalize='max-iterations=1 top-down=false' > %t.shlo
// RUN: iree-opt %s --split-input-file --chlo-legalize-to-stablehlo --cse --canonicalize='max-iterations=1 top-down=false' > %t.iree
// RUN: diff %t.shlo %t.iree
//
// Locations: the file's name and lines, a split chunk's implicit module where the chunk starts.
// RUN: shlo-opt %s --split-input-file --mlir-print-debuginfo --canonicalize > %t.shlo
// RUN: iree-opt %s --split-input-file --mlir-print-debuginfo --canonicalize > %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: shlo-opt %s --mlir-print-debuginfo --mlir-print-local-scope > %t.shlo
// RUN: iree-opt %s --mlir-print-debuginfo --mlir-print-local-scope > %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: shlo-opt - --split-input-file --mlir-print-debuginfo < %s > %t.shlo
// RUN: iree-opt - --split-input-file --mlir-print-debuginfo < %s > %t.iree
// RUN: diff %t.shlo %t.iree
//
// Printing flags, the whole file as one module:
// RUN: shlo-opt %s --mlir-print-op-generic --mlir-elide-elementsattrs-if-larger=2 > %t.shlo
// RUN: iree-opt %s --mlir-print-op-generic --mlir-elide-elementsattrs-if-larger=2 > %t.iree
// RUN: diff %t.shlo %t.iree
//
// IR dumps and statistics go to stderr, in the same format (one thread: a stable order):
// RUN: shlo-opt %s --split-input-file --mlir-disable-threading --mlir-print-ir-before-all --mlir-print-ir-after-all --cse --canonicalize 2> %t.shlo > /dev/null
// RUN: iree-opt %s --split-input-file --mlir-disable-threading --mlir-print-ir-before-all --mlir-print-ir-after-all --cse --canonicalize 2> %t.iree > /dev/null
// RUN: diff %t.shlo %t.iree
// RUN: shlo-opt %s --mlir-disable-threading --mlir-print-ir-after-all --mlir-print-ir-after-change --mlir-print-ir-module-scope --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' 2> %t.shlo > /dev/null
// RUN: iree-opt %s --mlir-disable-threading --mlir-print-ir-after-all --mlir-print-ir-after-change --mlir-print-ir-module-scope --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' 2> %t.iree > /dev/null
// RUN: diff %t.shlo %t.iree
// RUN: shlo-opt %s --split-input-file --mlir-pass-statistics --mlir-pass-statistics-display=list --cse 2> %t.shlo > /dev/null
// RUN: iree-opt %s --split-input-file --mlir-pass-statistics --mlir-pass-statistics-display=list --cse 2> %t.iree > /dev/null
// RUN: diff %t.shlo %t.iree
//
// Warnings with their notes, the op in a note printed as the printing flags say:
// RUN: shlo-opt %S/Inputs/not_vectorized.mlir --mlir-print-debuginfo --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(iree-llvmcpu-emit-vectorization-remarks))' 2> %t.shlo > /dev/null
// RUN: iree-opt %S/Inputs/not_vectorized.mlir --mlir-print-debuginfo --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(iree-llvmcpu-emit-vectorization-remarks))' 2> %t.iree > /dev/null
// RUN: diff %t.shlo %t.iree
//
// Bytecode, byte for byte:
// RUN: shlo-opt %s --emit-bytecode --cse -o %t.shlo.mlirbc
// RUN: iree-opt %s --emit-bytecode --cse -o %t.iree.mlirbc
// RUN: diff %t.shlo.mlirbc %t.iree.mlirbc

func.func @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %c = stablehlo.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

func.func private @unused() -> tensor<f32>
func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
	%1 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
// -----
module @named attributes {test.attr = 3 : i32} {
  func.func @nested(%a: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.add %a, %c : tensor<i32>
    return %0 : tensor<i32>
  } loc("elsewhere.mlir":7:1)
}
