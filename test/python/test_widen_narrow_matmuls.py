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
LARGE_BF16 = "shlo-widen-narrow-matmuls{types=bf16 min-free-size=128}"


@pytest.mark.parametrize("features, added", [
    ({"avx", "avx2", "fma", "f16c"}, BOTH),                   # AVX2: IREE has no bf16 path
    ({"avx2", "avx512f", "avx512bw"}, BOTH),                  # AVX-512 without BF16
    ({"avx2", "avx512f", "avx512_bf16"}, F16),                # Zen 4/5: bf16, no f16 instructions
    ({"avx2", "avx512f", "avx512_bf16", "avx512_fp16"}, None),    # both: unmeasured
    # Sapphire Rapids class (AMX, which IREE does not use): large bf16 products only
    ({"avx2", "avx512f", "avx512_bf16", "avx512_fp16", "amx_bf16"}, LARGE_BF16),
    ({"neon", "asimd", "bf16"}, None),
    (set(), None),
])
@pytest.mark.every_case
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


def test_min_free_size_widens_only_products_with_both_sides_large(ctx):
    """A transformer's projection (M 512, N 384) and weight gradient (contracted over batch and
    sequence: 128 x 512) are widened; a thin weight-gradient product (32x4096 by 4096x32) and
    attention's batched 64x64 products stay bf16; every result matches numpy's f64 product
    rounded as IREE rounds a bf16 matmul (f32 sum)."""
    types = ["8x64x128xbf16", "128x384xbf16", "32x4096xbf16", "4096x32xbf16", "32x64x32xbf16",
             "32x64x32xbf16", "8x64x512xbf16"]
    results = ["8x64x384xf32", "32x32xbf16", "32x64x64xf32", "128x512xf32"]
    args = ", ".join(f"%a{i}: tensor<{t}>" for i, t in enumerate(types))
    outs = ", ".join(f"tensor<{t}>" for t in results)
    text = f"""func.func @main({args}) -> ({outs}) {{
  %0 = stablehlo.dot_general %a0, %a1, contracting_dims = [2] x [0] : (tensor<{types[0]}>, tensor<{types[1]}>) -> tensor<{results[0]}>
  %1 = stablehlo.dot %a2, %a3 : (tensor<{types[2]}>, tensor<{types[3]}>) -> tensor<{results[1]}>
  %2 = stablehlo.dot_general %a4, %a5, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<{types[4]}>, tensor<{types[5]}>) -> tensor<{results[2]}>
  %3 = stablehlo.dot_general %a0, %a6, contracting_dims = [0, 1] x [0, 1] : (tensor<{types[0]}>, tensor<{types[6]}>) -> tensor<{results[3]}>
  return %0, %1, %2, %3 : {outs}
}}"""
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation, f"builtin.module({LARGE_BF16})")
    dots = [line for line in str(module).splitlines() if "stablehlo.dot" in line]
    assert ["xf32>, tensor<" in d.split(": (")[1].split(")")[0] for d in dots] == \
        [True, False, False, True], dots

    exe = shlo.compile(text, target="cpu", pipeline=default_pipeline(target_passes=(LARGE_BF16,)))
    rng = np.random.default_rng(3)
    shapes = [tuple(int(n) for n in t.split("x")[:-1]) for t in types]
    a = [rng.standard_normal(s).astype(ml_dtypes.bfloat16) for s in shapes]
    w = [x.astype(np.float64) for x in a]
    exact = [w[0] @ w[1], w[2] @ w[3], np.einsum("bik,bjk->bij", w[4], w[5]),
             np.einsum("bti,btj->ij", w[0], w[6])]
    magnitude = [np.abs(w[0]) @ np.abs(w[1]), np.abs(w[2]) @ np.abs(w[3]),
                 np.einsum("bik,bjk->bij", np.abs(w[4]), np.abs(w[5])),
                 np.einsum("bti,btj->ij", np.abs(w[0]), np.abs(w[6]))]
    # an f32 sum of k exact products, off by k f32 ulps of the magnitudes at most; the bf16
    # result (the thin product) is rounded once more, by half a bf16 ulp
    for got, want, size, k, out in zip(exe(*a), exact, magnitude, (128, 4096, 32, 512),
                                       results):
        got = np.asarray(got).astype(np.float64)
        rounding = 2.0 ** -8 * np.abs(want) if out.endswith("bf16") else 0.0
        assert np.all(np.abs(got - want) <= rounding + k * 2.0 ** -24 * size * 1.01)


def test_a_negative_min_free_size_is_a_one_line_error(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module("func.func @main() {\n  return\n}", context=ctx)
    with pytest.raises(shlo.Error, match="min-free-size=-1: must be 0 or more"):
        run_pipeline(module.operation,
                     "builtin.module(shlo-widen-narrow-matmuls{min-free-size=-1})")
