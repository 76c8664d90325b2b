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

BOTH, F16 = "shlo-widen-narrow-matmuls", "shlo-widen-narrow-matmuls{types=f16}"


@pytest.mark.parametrize("features, added", [
    ({"avx", "avx2", "fma", "f16c"}, BOTH),                   # AVX2: IREE has no bf16 path
    ({"avx2", "avx512f", "avx512bw"}, BOTH),                  # AVX-512 without BF16
    ({"avx2", "avx512f", "avx512_bf16"}, F16),                # Zen 4/5: bf16, no f16 instructions
    ({"avx2", "avx512f", "avx512_bf16", "avx512_fp16"}, None),    # both: unmeasured
    ({"neon", "asimd", "bf16"}, None),
    (set(), None),
])
def test_only_x86_hosts_without_narrow_instructions_add_the_pass(features, added):
    passes = host_passes(get_target("cpu"), frozenset(features))
    assert [p for p in passes if p.startswith(BOTH)] == ([added] if added else [])
    assert not any(p.startswith(BOTH) for p in host_passes(get_target("cpu:znver3"),
                                                           frozenset(features)))


def test_f16_only_widening_leaves_bf16_alone(ctx):
    from shlo.passes.pipeline import run_pipeline
    text = """func.func @main(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>, %c: tensor<4x8xf16>,
                     %d: tensor<8x2xf16>) -> (tensor<4x2xbf16>, tensor<4x2xf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  return %0, %1 : tensor<4x2xbf16>, tensor<4x2xf16>
}"""
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation, f"builtin.module({F16})")
    dots = [line for line in str(module).splitlines() if "dot_general" in line]
    assert "tensor<8x2xbf16>" in dots[0] and "tensor<8x2xf32>" in dots[1], dots
