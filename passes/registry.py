"""The one registry of shlo's Python passes: pass name -> the module and class that define it.

Modules are imported only when a pass is used, so listing and parsing stay fast.
To add a pass: write `passes/<concern>/<name>.py` with a `Pass` subclass and add one line here.
"""
from __future__ import annotations

import importlib

from ..errors import PipelineError

PASSES: dict[str, tuple[str, str]] = {
    "shlo-legalize-chlo": ("shlo.passes.chlo.legalize_chlo", "LegalizeChlo"),
    "shlo-expand-elementwise-maps": ("shlo.passes.expand.expand_elementwise_maps",
                                     "ExpandElementwiseMaps"),
    "shlo-lower-sort": ("shlo.passes.sort.lower_sort", "LowerSort"),
    "shlo-fence-sort-slices": ("shlo.passes.sort.fence_sort_slices", "FenceSortSlices"),
    "shlo-fence-unsigned-contractions": ("shlo.passes.element_types.fence_unsigned_contractions",
                                         "FenceUnsignedContractions"),
    "shlo-signless-loop-carries": ("shlo.passes.element_types.signless_loop_carries",
                                   "SignlessLoopCarries"),
    "shlo-fence-scalar-scatter-updates": ("shlo.passes.dispatch.fence_scalar_scatter_updates",
                                          "FenceScalarScatterUpdates"),
    "shlo-fence-gathered-slices": ("shlo.passes.dispatch.fence_gathered_slices",
                                   "FenceGatheredSlices"),
    "shlo-fence-reduced-gathers": ("shlo.passes.dispatch.fence_reduced_gathers",
                                   "FenceReducedGathers"),
    "shlo-fence-vector-dots-beside-gathers": ("shlo.passes.dispatch.fence_vector_dots_beside_gathers",
                                              "FenceVectorDotsBesideGathers"),
    "shlo-reduce-before-broadcast": ("shlo.passes.dispatch.reduce_before_broadcast",
                                     "ReduceBeforeBroadcast"),
    "shlo-fence-vector-dot-results": ("shlo.passes.dispatch.fence_vector_dot_results",
                                      "FenceVectorDotResults"),
    "shlo-canonicalize-scatter": ("shlo.passes.expand.canonicalize_scatter", "CanonicalizeScatter"),
    "shlo-canonicalize-gather": ("shlo.passes.expand.canonicalize_gather", "CanonicalizeGather"),
    "shlo-expand-reduce-window": ("shlo.passes.expand.expand_reduce_window", "ExpandReduceWindow"),
    "shlo-legalize-integer-ops": ("shlo.passes.element_types.legalize_integer_ops", "LegalizeIntegerOps"),
    "shlo-legalize-dot-algorithm": ("shlo.passes.expand.legalize_dot_algorithm", "LegalizeDotAlgorithm"),
    "shlo-round-narrow-float-converts": ("shlo.passes.element_types.round_narrow_float_converts",
                                         "RoundNarrowFloatConverts"),
    "shlo-expand-select-and-scatter": ("shlo.passes.expand.expand_select_and_scatter",
                                       "ExpandSelectAndScatter"),
    "shlo-refine-arguments": ("shlo.passes.shapes.refine_arguments", "RefineArguments"),
    "shlo-refine-shapes": ("shlo.passes.shapes.refine_shapes", "RefineShapes"),
    "shlo-legalize-shape": ("shlo.passes.shapes.legalize_shape", "LegalizeShape"),
    "shlo-insert-shape-checks": ("shlo.passes.shapes.insert_shape_checks", "InsertShapeChecks"),
    "shlo-expand-dynamic-ops": ("shlo.passes.shapes.expand_dynamic_ops", "ExpandDynamicOps"),
    "shlo-index-extents": ("shlo.passes.shapes.index_extents", "IndexExtents"),
    "shlo-reshape-unit-broadcasts": ("shlo.passes.shapes.reshape_unit_broadcasts",
                                     "ReshapeUnitBroadcasts"),
    "shlo-expand-f64-math": ("shlo.passes.numerics.expand_f64_math", "ExpandF64Math"),
    "shlo-accurate-math": ("shlo.passes.numerics.accurate_math", "AccurateMath"),
    "shlo-expand-linalg": ("shlo.passes.expand.expand_linalg", "ExpandLinalg"),
    "shlo-widen-sub-byte": ("shlo.passes.element_types.widen_sub_byte", "WidenSubByte"),
    "shlo-legalize-quantized": ("shlo.passes.element_types.legalize_quantized", "LegalizeQuantized"),
    "shlo-host-collectives": ("shlo.passes.collectives.host_collectives", "HostCollectives"),
    "shlo-single-process-collectives": ("shlo.passes.collectives.single_process_collectives",
                                        "SingleProcessCollectives"),
    "shlo-expand-custom-calls": ("shlo.passes.custom_calls.expand_custom_calls", "ExpandCustomCalls"),
    "shlo-reject-token-ops": ("shlo.passes.expand.reject_token_ops", "RejectTokenOps"),
    "shlo-expand-complex-minmax": ("shlo.passes.element_types.expand_complex_minmax", "ExpandComplexMinMax"),
    "shlo-legalize-reducer-rounding": ("shlo.passes.numerics.legalize_reducer_rounding",
                                       "LegalizeReducerRounding"),
    "shlo-widen-f6": ("shlo.passes.element_types.widen_f6", "WidenF6"),
    "shlo-expand-complex-pad": ("shlo.passes.element_types.expand_complex_pad", "ExpandComplexPad"),
    "shlo-expand-complex-add": ("shlo.passes.element_types.expand_complex_add", "ExpandComplexAdd"),
    "shlo-expand-complex-bitcast": ("shlo.passes.element_types.expand_complex_bitcast", "ExpandComplexBitcast"),
    "shlo-legalize-reduce-precision": ("shlo.passes.numerics.legalize_reduce_precision",
                                       "LegalizeReducePrecision"),
    "shlo-expand-fft": ("shlo.passes.expand.expand_fft", "ExpandFft"),
    "shlo-expand-batch-norm-grad": ("shlo.passes.expand.expand_batch_norm_grad", "ExpandBatchNormGrad"),
    "shlo-expand-integer-rng": ("shlo.passes.expand.expand_integer_rng", "ExpandIntegerRng"),
    "shlo-expand-invariant-loop-updates": ("shlo.passes.dispatch.expand_invariant_loop_updates",
                                           "ExpandInvariantLoopUpdates"),
    "shlo-split-arg-reduce": ("shlo.passes.expand.split_arg_reduce", "SplitArgReduce"),
    "shlo-split-long-reduce": ("shlo.passes.dispatch.split_long_reduce", "SplitLongReduce"),
    "shlo-guard-square-sums": ("shlo.passes.numerics.guard_square_sums", "GuardSquareSums"),
    "shlo-dot-before-broadcast": ("shlo.passes.dispatch.dot_before_broadcast",
                                  "DotBeforeBroadcast"),
    "shlo-swap-transposed-dots": ("shlo.passes.dispatch.swap_transposed_dots", "SwapTransposedDots"),
    "shlo-unroll-scan-loops": ("shlo.passes.dispatch.unroll_scan_loops", "UnrollScanLoops"),
    "shlo-widen-narrow-convolutions": ("shlo.passes.element_types.widen_narrow_matmuls",
                                       "WidenNarrowConvolutions"),
    "shlo-fence-small-reductions": ("shlo.passes.dispatch.fence_small_reductions",
                                    "FenceSmallReductions"),
    "shlo-hwio-convolution-kernels": ("shlo.passes.dispatch.hwio_convolution_kernels",
                                      "HwioConvolutionKernels"),
    "shlo-few-output-convolutions": ("shlo.passes.dispatch.few_output_convolutions",
                                     "FewOutputConvolutions"),
    "shlo-polyphase-convolutions": ("shlo.passes.dispatch.polyphase_convolutions",
                                    "PolyphaseConvolutions"),
    "shlo-expand-constant-powers": ("shlo.passes.numerics.expand_constant_powers",
                                    "ExpandConstantPowers"),
    "shlo-fence-transposed-dots": ("shlo.passes.dispatch.fence_transposed_dots", "FenceTransposedDots"),
    "shlo-bound-dispatch-operands": ("shlo.passes.dispatch.bound_dispatch_operands",
                                     "BoundDispatchOperands"),
    "shlo-fence-crossed-reductions": ("shlo.passes.dispatch.fence_crossed_reductions",
                                      "FenceCrossedReductions"),
    "shlo-read-barrier-results": (
        "shlo.passes.dispatch.read_barrier_results", "ReadBarrierResults"),
    "shlo-fence-transposed-variadic-reduces": (
        "shlo.passes.dispatch.fence_transposed_variadic_reduces", "FenceTransposedVariadicReduces"),
    "shlo-defer-softmax-division": ("shlo.passes.dispatch.defer_softmax_division",
                                    "DeferSoftmaxDivision"),
    "shlo-fold-self-ops": ("shlo.passes.folding.fold_self_ops", "FoldSelfOps"),
    "shlo-drop-dead-loop-carries": ("shlo.passes.folding.drop_dead_loop_carries",
                                    "DropDeadLoopCarries"),
    "shlo-saturate-float-to-int": ("shlo.passes.element_types.saturate_float_to_int",
                                   "SaturateFloatToInt"),
    "shlo-merge-edge-pads": ("shlo.passes.folding.merge_edge_pads", "MergeEdgePads"),
    "shlo-fence-sliced-products": ("shlo.passes.dispatch.fence_sliced_products",
                                   "FenceSlicedProducts"),
    "shlo-fence-stored-predicates": ("shlo.passes.dispatch.fence_stored_predicates",
                                     "FenceStoredPredicates"),
    "shlo-copy-overlapping-updates": ("shlo.passes.dispatch.copy_overlapping_updates",
                                      "CopyOverlappingUpdates"),
    "shlo-accumulate-in-f32": ("shlo.passes.numerics.accumulate_in_f32", "AccumulateInF32"),
    "shlo-widen-narrow-matmuls": ("shlo.passes.element_types.widen_narrow_matmuls", "WidenNarrowMatmuls"),
    "shlo-round-narrow-arithmetic": ("shlo.passes.element_types.round_narrow_arithmetic", "RoundNarrowArithmetic"),
    "shlo-legalize-convolution": ("shlo.passes.expand.legalize_convolution", "LegalizeConvolution"),
    "shlo-convolution-to-dots": ("shlo.passes.dispatch.convolution_to_dots", "ConvolutionToDots"),
    "shlo-expand-complex-dot": ("shlo.passes.element_types.expand_complex_dot", "ExpandComplexDot"),
    "shlo-legalize-e8m0": ("shlo.passes.element_types.legalize_e8m0", "LegalizeE8M0"),
    "shlo-legalize-vulkan-ops": ("shlo.passes.targets.legalize_vulkan_ops", "LegalizeVulkanOps"),
    "shlo-legalize-gpu-ops": ("shlo.passes.targets.legalize_gpu_ops", "LegalizeGpuOps"),
    "shlo-barrier-loop-captures": ("shlo.passes.dispatch.barrier_loop_captures", "BarrierLoopCaptures"),
    "shlo-select-loop-conditionals": ("shlo.passes.dispatch.select_loop_conditionals",
                                      "SelectLoopConditionals"),
    "shlo-barrier-conditional-captures": ("shlo.passes.dispatch.barrier_conditional_captures",
                                          "BarrierConditionalCaptures"),
    "shlo-recompute-loop-captures": ("shlo.passes.dispatch.recompute_loop_captures",
                                     "RecomputeLoopCaptures"),
    "shlo-barrier-loop-results": ("shlo.passes.dispatch.barrier_loop_results", "BarrierLoopResults"),
    "shlo-copy-rotated-loop-carries": ("shlo.passes.dispatch.copy_rotated_loop_carries",
                                       "CopyRotatedLoopCarries"),
    "shlo-loop-fusion-barriers": ("shlo.passes.dispatch.loop_fusion_barriers", "LoopFusionBarriers"),
    "shlo-read-condition-values": ("shlo.passes.dispatch.read_condition_values",
                                   "ReadConditionValues"),
    "shlo-split-complex-constants": ("shlo.passes.element_types.split_complex_constants",
                                     "SplitComplexConstants"),
    "shlo-legalize-vhlo": ("shlo.passes.expand.legalize_vhlo", "LegalizeVhlo"),
    "shlo-simplify": ("shlo.passes.folding.simplify", "Simplify"),
    "shlo-fold-identity-ops": ("shlo.passes.folding.fold_identity_ops", "FoldIdentityOps"),
    "shlo-fold-constant-scalars": ("shlo.passes.folding.fold_constant_scalars",
                                   "FoldConstantScalars"),
    "shlo-slice-before-elementwise": ("shlo.passes.shapes.slice_before_elementwise",
                                      "SliceBeforeElementwise"),
    "shlo-convert-narrow-iota": ("shlo.passes.element_types.convert_narrow_iota",
                                 "ConvertNarrowIota"),
    "shlo-barrier-returned-arguments": ("shlo.passes.expand.barrier_returned_arguments",
                                        "BarrierReturnedArguments"),
    "shlo-copy-updated-operands": (
        "shlo.passes.dispatch.copy_updated_operands", "CopyUpdatedOperands"),
    "shlo-barrier-constant-expressions": (
        "shlo.passes.dispatch.barrier_constant_expressions",
        "BarrierConstantExpressions"),
}


def is_shlo_pass(name: str) -> bool:
    return name in PASSES


def pass_class(name: str):
    """The `Pass` subclass registered under `name`."""
    try:
        module_name, class_name = PASSES[name]
    except KeyError:
        raise PipelineError(f"'{name}' is not a registered shlo pass") from None
    return getattr(importlib.import_module(module_name), class_name)


def create_pass(name: str, options: dict[str, str] | None = None):
    """An instance of the pass `name` configured from textual options."""
    return pass_class(name).from_options(options or {})
