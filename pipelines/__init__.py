"""Named pipelines (shlo's Python passes mixed with C++ passes) and IREE targets.

Pipelines are edited as `Pipeline` values (shlo.passes.pipeline): parsed from mlir-opt's text,
changed by pass name (remove, insert_before/after, replace, set_options), printed back.
"""
from ..passes.pipeline import Pipeline, parse_pipeline

# What `shlo.compile` and `shlo-compile` run before handing a module to IREE, in order:
# one pass (or nested pipeline) per entry.
DEFAULT_PASSES = [
    "inline",
    "symbol-dce",
    "shlo-legalize-shape",
    "shlo-refine-shapes",
    "shlo-insert-shape-checks",
    "shlo-saturate-float-to-int",
    "shlo-select-loop-conditionals",
    "shlo-expand-custom-calls",
    "shlo-legalize-chlo",
    "shlo-expand-elementwise-maps",
    "shlo-legalize-quantized",
    "shlo-legalize-shape",
    "shlo-fold-self-ops",
    "shlo-drop-dead-loop-carries",
    "shlo-expand-dynamic-ops",
    "shlo-expand-linalg",
    "shlo-expand-f64-math",
    "shlo-expand-constant-powers",
    "shlo-accurate-math",
    "shlo-widen-sub-byte",
    "shlo-host-collectives",
    "shlo-single-process-collectives",
    "shlo-reject-token-ops",
    "shlo-expand-complex-minmax",
    "shlo-expand-complex-bitcast",
    "shlo-legalize-reduce-precision",
    "shlo-lower-sort",
    "shlo-accumulate-in-f32",
    "shlo-expand-select-and-scatter",
    "shlo-expand-reduce-window",
    "shlo-legalize-integer-ops",
    "shlo-legalize-dot-algorithm",
    "shlo-expand-complex-dot",
    "shlo-legalize-convolution",
    "shlo-convert-narrow-iota",
    "shlo-round-narrow-float-converts",
    "shlo-widen-f6",
    "shlo-legalize-e8m0",
    "shlo-expand-batch-norm-grad",
    "shlo-expand-integer-rng",
    "shlo-expand-fft",
    "shlo-canonicalize-scatter",
    "shlo-canonicalize-gather",
    "shlo-expand-invariant-loop-updates",
    "shlo-read-condition-values",
    "shlo-expand-complex-pad",
    "shlo-expand-complex-add",
    "shlo-legalize-reducer-rounding",
    "shlo-round-narrow-arithmetic",
    "shlo-fold-identity-ops",
    "shlo-slice-before-elementwise",
    "shlo-barrier-loop-captures",
    "shlo-barrier-loop-results",
    "shlo-bound-dispatch-operands",
    "shlo-fence-sort-slices",
    "shlo-fence-unsigned-contractions",
    "shlo-fence-scalar-scatter-updates",
    "shlo-fence-gathered-slices",
    "shlo-dot-before-broadcast",
    "shlo-reduce-before-broadcast",
    "shlo-fence-vector-dot-results",
    "shlo-fold-constant-scalars",
    "canonicalize",
    "cse",
    "shlo-copy-rotated-loop-carries",
    "shlo-barrier-conditional-captures",
    "shlo-recompute-loop-captures",
    "shlo-fence-transposed-variadic-reduces",
    "shlo-copy-overlapping-updates",
    "shlo-fold-self-ops",
    "shlo-split-complex-constants",
    "shlo-read-barrier-results",
    "shlo-merge-edge-pads",
    "shlo-barrier-returned-arguments",
    "shlo-copy-updated-operands",
    "shlo-barrier-constant-expressions",
    "shlo-signless-loop-carries",
    "shlo-reshape-unit-broadcasts",
    "shlo-index-extents",
]
# A target's own passes run just before this one: after the other rewrites, before the final
# canonicalize and cse and what must follow them.
TARGET_PASSES_BEFORE = "canonicalize"


def default_pass_list(target_passes=()) -> Pipeline:
    """shlo's default pipeline, with a target's own passes (`TargetKind.passes`) run after the
    other rewrites, before the final canonicalize and cse."""
    pipeline = Pipeline().append(*DEFAULT_PASSES)
    return pipeline.insert_before(TARGET_PASSES_BEFORE, *target_passes) if target_passes \
        else pipeline


def default_pipeline(target_passes=()) -> str:
    """The text of `default_pass_list(target_passes)`."""
    return default_pass_list(target_passes).text(", ")


DEFAULT = default_pipeline()

PIPELINES = {
    "default": DEFAULT,
    "legalize-chlo": "builtin.module(shlo-legalize-chlo)",
    "none": "",
}


def with_pass_options(pipeline: str, options) -> str:
    """`pipeline` with each (pass, "key=value") of `options` set on that pass wherever it
    appears; an option the pass is given in `pipeline` keeps its value (the user's own win)."""
    if not pipeline or not options:
        return pipeline
    edited = parse_pipeline(pipeline)
    for name, option in options:
        edited.set_options(name, option)
    return edited.text(", ")


def target_pipeline(pipeline: str | None, target, *, fast_math: bool = False) -> str:
    """The pipeline text `shlo.compile` runs for `target`: `pipeline` (a name or text; the
    default one gets the target's passes), without shlo-expand-f64-math where IREE computes f64
    in f32 (its expansions' bit tricks would break), without shlo-accurate-math for `fast_math`,
    and with the target's pass options."""
    text = get_pipeline(pipeline) if pipeline else ""
    if not text:
        return ""
    edited = default_pass_list(target.passes) if text == DEFAULT else parse_pipeline(text)
    if target.demote_f64:
        edited.remove("shlo-expand-f64-math")
    if fast_math:
        edited.remove("shlo-accurate-math")
    for name, option in target.pass_options:
        edited.set_options(name, option)
    return edited.text(", ")


def get_pipeline(name_or_text: str) -> str:
    """A named pipeline's text, or the argument itself when it is already a pipeline."""
    return PIPELINES.get(name_or_text, name_or_text)
