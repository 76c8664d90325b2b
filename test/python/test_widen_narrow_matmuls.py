"""shlo-widen-narrow-matmuls: bf16/f16 matmuls multiply f32 copies of their operands (IREE's
bf16 matmul without bf16 instructions is 70-100x slower than XLA; timings are
benchmarks', not tests'). Here: the values stay those of an f32 accumulator rounded once,
and only x86 hosts with AVX2 and without AVX512-BF16 add the pass."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.pipelines import default_pipeline
from shlo.pipelines.cpu_tuning import host_passes
from shlo.pipelines.targets import get_target

PIPELINE = default_pipeline(target_passes=("shlo-widen-narrow-matmuls",))


@pytest.mark.parametrize("dtype, name", [(ml_dtypes.bfloat16, "bf16"), (np.float16, "f16")])
def test_widened_matmuls_round_the_exact_product_once(ctx, dtype, name):
    a_t, b_t, r_t = (f"tensor<{s}x{name}>" for s in ("3x24x40", "3x40x16", "3x24x16"))
    text = f"""func.func @main(%a: {a_t}, %b: {b_t}) -> {r_t} {{
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({a_t}, {b_t}) -> {r_t}
  return %r : {r_t}
}}"""
    module = shlo.parse_module(text, context=ctx)
    exe = shlo.compile(module, target="cpu", pipeline=PIPELINE)
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 24, 40)).astype(dtype)
    b = rng.standard_normal((3, 40, 16)).astype(dtype)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = np.asarray(exe(a, b)).astype(np.float64)
    # the f32 sum of 40 exact products is off by at most 40 f32 ulps of the sum of their
    # magnitudes; rounding it to the narrow type adds half an ulp of that type
    ulp = 2.0 ** (np.floor(np.log2(np.abs(exact))) - (7 if name == "bf16" else 10))
    magnitudes = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    assert np.all(np.abs(got - exact) <= 0.5 * ulp + 40 * 2.0 ** -24 * magnitudes * 1.01)

@pytest.mark.parametrize("features, added", [
    ({"avx", "avx2", "fma", "f16c"}, True),                   # AVX2: IREE has no bf16 path
    ({"avx2", "avx512f", "avx512bw"}, True),                  # AVX-512 without BF16
    ({"avx2", "avx512f", "avx512_bf16"}, False),              # bf16 instructions: unmeasured
    ({"neon", "asimd", "bf16"}, False),
    (set(), False),
])
def test_only_x86_hosts_without_bf16_instructions_add_the_pass(features, added):
    assert ("shlo-widen-narrow-matmuls" in host_passes(get_target("cpu"), frozenset(features))) \
        == added
    assert "shlo-widen-narrow-matmuls" not in host_passes(get_target("cpu:znver3"),
                                                          frozenset(features))
