"""Named pipelines (textual, mixing shlo's Python passes with C++ passes) and IREE targets."""

# What `shlo.compile` and `shlo-compile` run before handing a module to IREE, in order:
# one pass (or nested pipeline) per entry.
DEFAULT_PASSES = [
    "inline",
    "symbol-dce",
    "shlo-legalize-shape",
    "shlo-refine-shapes",
    "shlo-insert-shape-checks",
    "shlo-expand-custom-calls",
    "shlo-legalize-chlo",
    "shlo-legalize-quantized",
    "shlo-legalize-shape",
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
    "shlo-legalize-reducer-rounding",
    "shlo-round-narrow-arithmetic",
    "shlo-barrier-loop-captures",
    "shlo-bound-dispatch-operands",
    "canonicalize",
    "cse",
    "shlo-copy-overlapping-updates",
    "shlo-fold-dynamic-self-ops",
    "shlo-split-complex-constants",
]
FINAL_PASSES = 5        # canonicalize, cse and what must follow them


def default_pipeline(target_passes=()) -> str:
    """shlo's default pipeline, with a target's own passes (`TargetKind.passes`) run after the
    other rewrites, before the final canonicalize and cse."""
    passes = (DEFAULT_PASSES[:-FINAL_PASSES] + list(target_passes)
              + DEFAULT_PASSES[-FINAL_PASSES:])
    return "builtin.module(" + ", ".join(passes) + ")"


DEFAULT = default_pipeline()

PIPELINES = {
    "default": DEFAULT,
    "legalize-chlo": "builtin.module(shlo-legalize-chlo)",
    "none": "",
}


def with_pass_options(pipeline: str, options) -> str:
    """`pipeline` with each (pass, "key=value") of `options` set on that pass where it appears
    without options of its own (the user's own options win)."""
    import re
    grouped: dict[str, list[str]] = {}
    for name, option in options:
        grouped.setdefault(name, []).append(option)
    for name, opts in grouped.items():
        pipeline = re.sub(rf"\b{re.escape(name)}\b(?![{{\w-])", f"{name}{{{' '.join(opts)}}}",
                          pipeline)
    return pipeline


def get_pipeline(name_or_text: str) -> str:
    """A named pipeline's text, or the argument itself when it is already a pipeline."""
    return PIPELINES.get(name_or_text, name_or_text)
