"""shlo-convolution-to-dots: wide convolutions as sums of matmuls over shifted input slices.

Random convolutions wide enough to be rewritten (1-D to 3-D, every dimension order, strides,
padding from -1 to 2, lhs and rhs dilation, window reversal) compile on CPU through the
default pipeline with the pass added (first, and where the cpu target adds it) and must equal
the reference interpreter's result exactly (small integer inputs: every sum is exact in any order). Which hosts get the pass
(AVX2 without AVX-512) is checked on given feature sets.
"""
import numpy as np
import pytest

import shlo
from shlo.passes.dispatch.convolution_to_dots import ConvolutionToDots
from shlo.passes.pipeline import run_passes
from shlo.pipelines import DEFAULT_PASSES, default_pipeline
from shlo.pipelines.cpu_tuning import host_passes
from shlo.pipelines.targets import get_target

from conv_programs import random_window, sample
from reference_oracle import compile_functions, evaluate, function_name


def _shape_text(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _conv_text(name, dims, window: str):
    """A convolution function; `dims` gives each operand's (label, size) pairs in order."""
    numbers = "x".join(f"[{', '.join(label for label, _ in d)}]" for d in dims[:2])
    numbers += f"->[{', '.join(label for label, _ in dims[2])}]"
    lt, rt, ot = (_shape_text([s for _, s in d]) for d in dims)
    return (f"func.func @{name}(%x: {lt}, %w: {rt}) -> {ot} {{\n"
            f"  %r = stablehlo.convolution(%x, %w) dim_numbers = {numbers}, window = {window} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({lt}, {rt}) -> "
            f"{ot}\n  return %r : {ot}\n}}")


def _random_wide_convolution(rng, index: int):
    """A convolution the pass rewrites, with its operands' dimensions in a random order:
    (function text, args, the same in NHWC order with its args, the result's permutation),
    or None when the window does not fit the padded input. (The reference interpreter
    aborts on some dimension orders, so it runs the NHWC form; numpy transposes.)"""
    nd = int(rng.choice([1, 2, 2, 3]))
    cin, cout = int(rng.integers(8, 11)), int(rng.integers(16, 19))
    n = int(rng.integers(1, 3))
    size = [int(rng.integers(3, 7 if nd < 3 else 5)) for _ in range(nd)]
    window = random_window(rng, size)
    if window is None:
        return None
    kernel, window_text, out = window
    if np.prod(kernel) == 1:            # one window position: a matmul already
        return None
    spatial = [str(i) for i in range(nd)]
    nhwc = [[("b", n), *zip(spatial, size), ("f", cin)],
            [*zip(spatial, kernel), ("i", cin), ("o", cout)],
            [("b", n), *zip(spatial, out), ("f", cout)]]
    orders = [list(rng.permutation(nd + 2)) for _ in range(3)]
    permuted = [[d[j] for j in order] for d, order in zip(nhwc, orders)]
    args = [rng.integers(-3, 4, [s for _, s in d]).astype(np.float32) for d in nhwc[:2]]
    return (_conv_text(f"conv{index}", permuted, window_text),
            [np.ascontiguousarray(a.transpose(o)) for a, o in zip(args, orders)],
            _conv_text("nhwc", nhwc, window_text), args, orders[2])


CASES = sample(_random_wide_convolution, 16, seed=5)


def test_the_pass_rewrites_every_case(ctx):
    module = shlo.parse_module("\n".join(case[0] for case in CASES), context=ctx)
    run_passes(module, [ConvolutionToDots()])
    text = str(module)
    assert "stablehlo.convolution" not in text
    assert text.count("stablehlo.dot_general") >= 2 * len(CASES)


# The pass first (it meets reversal, negative padding and lhs dilation itself), and where the
# cpu target runs it (after shlo-legalize-convolution made those explicit); each on half of
# the cases (compiling is what the test costs).
PIPELINES = {"first": "builtin.module(" + ", ".join(["shlo-convolution-to-dots",
                                                      *DEFAULT_PASSES]) + ")",
             "as_on_avx2": default_pipeline(["shlo-convolution-to-dots"])}


@pytest.mark.parametrize("half, order", list(enumerate(PIPELINES)))
def test_rewritten_convolutions_match_the_interpreter(ctx, half, order):
    cases = CASES[half::2]
    exe = compile_functions(ctx, [case[:2] for case in cases], "cpu", pipeline=PIPELINES[order])
    for text, args, nhwc_text, nhwc_args, result_order in cases:
        got = exe.function(function_name(text))(*args)
        want = evaluate(nhwc_text, nhwc_args)[0].transpose(result_order)
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=text)


@pytest.mark.parametrize("spec, flags, features, added", [
    ("cpu", (), {"avx", "avx2", "fma"}, True),                   # AVX2 only: rewritten
    ("cpu", (), {"avx", "avx2", "avx512f", "avx512bw"}, False),  # AVX-512: IREE's conv wins
    ("cpu", (), {"neon", "asimd"}, False),                       # not measured
    ("cpu", (), set(), False),                                   # unknown features
    ("cpu:znver3", (), {"avx2"}, False),                         # not this machine's CPU
    ("cpu:aarch64-linux-gnu", (), {"avx2"}, False),
    ("cpu", ("--iree-llvmcpu-target-cpu=skylake-avx512",), {"avx2"}, False),
    ("vulkan", (), {"avx2"}, False),
])
@pytest.mark.every_case
def test_only_avx2_hosts_without_avx512_add_the_pass(spec, flags, features, added):
    passes = host_passes(get_target(spec, flags), frozenset(features))
    assert ("shlo-convolution-to-dots" in passes) == added
