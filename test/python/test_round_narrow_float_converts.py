"""shlo-round-narrow-float-converts: conversions to every f8 type and f4E2M1FN, from f32, f64,
f16 and bf16, equal ml_dtypes' round-to-nearest-even on a dense sweep that crosses every
binade, the subnormal range and the boundary below the smallest normal (where IREE alone
returns 0), on CPU and Vulkan. One module per target."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from reference_oracle import integers_to_bf16

TARGETS = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
           "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz, "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
           "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz, "f8E3M4": ml_dtypes.float8_e3m4,
           "f8E4M3": ml_dtypes.float8_e4m3, "f4E2M1FN": ml_dtypes.float4_e2m1fn}
SOURCES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
CASES = [(s, t) for s in SOURCES for t in TARGETS]
N = 4096


def _sweep(target) -> np.ndarray:
    """Magnitudes from a quarter of the smallest subnormal to twice the largest value, with
    every exact tie between neighbours, both signs."""
    info = ml_dtypes.finfo(target)
    values = np.unique(np.arange(256, dtype=np.uint8).view(target).astype(np.float64))
    values = values[np.isfinite(values) & (values >= 0)]
    ties = (values[1:] + values[:-1]) / 2
    dense = np.geomspace(float(info.smallest_subnormal) / 4, float(info.max) * 0.99, N // 2
                         - values.size - ties.size)
    x = np.concatenate([values, ties, dense])
    return np.concatenate([x, -x])[:N]


def _module() -> str:
    funcs = []
    for i, (s, t) in enumerate(CASES):
        funcs.append(f"""func.func @f{i}(%a: tensor<{N}x{s}>) -> tensor<{N}xf32> {{
  %x = stablehlo.convert %a : (tensor<{N}x{s}>) -> tensor<{N}x{t}>
  %o = stablehlo.convert %x : (tensor<{N}x{t}>) -> tensor<{N}xf32>
  return %o : tensor<{N}xf32>
}}""")
    return "\n".join(funcs)


def _check(exe, index):
    source, target = CASES[index]
    x = _sweep(TARGETS[target]).astype(SOURCES[source])
    got = exe.function(f"f{index}")(x)
    with np.errstate(all="ignore"):      # ml_dtypes rounds once, to nearest even
        want = x.astype(TARGETS[target]).astype(np.float32)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert not bad.size, (f"{source} -> {target}: {bad.size} wrong, e.g. {x[bad[:3]]} -> "
                          f"{got[bad[:3]]}, want {want[bad[:3]]}")


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(_module(), context=ctx), target="cpu")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{s}-{t}" for s, t in CASES])
@pytest.mark.every_case
def test_conversion_rounds_to_nearest_even_on_cpu(cpu, index):
    _check(cpu, index)


@pytest.mark.slow
def test_conversions_on_vulkan(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(_module(), context=ctx), target="vulkan")
    for index in range(len(CASES)):
        _check(exe, index)


WIDE = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}
F8 = {name: dtype for name, dtype in TARGETS.items() if name.startswith("f8")}


def _widen_function(name: str) -> str:
    results = ", ".join(f"tensor<256x{w}>" for w in WIDE)
    lines = [f"func.func @widen_{name}(%b: tensor<256xui8>) -> ({results}) {{",
             f"  %x = stablehlo.bitcast_convert %b : (tensor<256xui8>) -> tensor<256x{name}>"]
    lines += [f"  %{w} = stablehlo.convert %x : (tensor<256x{name}>) -> tensor<256x{w}>"
              for w in WIDE]
    lines += [f"  return {', '.join('%' + w for w in WIDE)} : {results}", "}"]
    return "\n".join(lines)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_every_f8_byte_widens_to_every_wider_float(ctx, target):
    """IREE compiles these only to f32 (and to bf16 on the CPU), and reads the f8E4M3FN NaN
    0xFF as -480: every byte of every f8 type, to f32/f16/bf16/f64, against ml_dtypes."""
    if target == "vulkan":
        vulkan_or_skip()
    text = "\n".join(_widen_function(name) for name in F8)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    bits = np.arange(256, dtype=np.uint8)
    for name, dtype in F8.items():
        for got, wide in zip(exe.function(f"widen_{name}")(bits), WIDE.values()):
            got = np.asarray(got).astype(np.float64)
            want = bits.view(dtype).astype(wide).astype(np.float64)
            np.testing.assert_array_equal(got, want, err_msg=f"{name} -> {wide}")   # NaN == NaN
            finite = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]),
                                          err_msg=f"{name} -> {wide}")


def _integer_cases(dtype) -> np.ndarray:
    """Ties, just past ties (where a first rounding to f64 would lose the tie-break) and
    extremes of a 64-bit integer type, and random values."""
    info = np.iinfo(dtype)
    hard = []
    for e in (53, 54, 60, 62, 63):
        for q in (0x80, 0x81, 0xFF):                     # even, odd, about to carry
            base = q << (e - 7)
            half = 1 << (e - 8)
            hard += [base + half, base + half + 1, base + half - 1, base + 1, base - 1]
    hard += [info.max, info.max - 1, info.min, info.min + 1, 0, 1, 255, 257, 1 << 53]
    hard = [v for v in hard if info.min <= v <= info.max]
    hard += [-v for v in hard if info.min <= -v <= info.max]
    rng = np.random.default_rng(11)
    return np.concatenate([np.array(hard, dtype=dtype),
                           rng.integers(info.min, info.max, 64, dtype=dtype, endpoint=True)])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("source", ["i64", "ui64", "i32"])
def test_integer_to_bf16_rounds_once(ctx, target, source):
    """Integer -> bf16 is rounded once, to nearest even: IREE's CPU code cannot link it on
    CPUs without AVX512-BF16 and SPIR-V cannot compile it, and a first rounding to f64 would
    break ties above 2^53."""
    if target == "vulkan":
        vulkan_or_skip()
    dtype = {"i64": np.int64, "ui64": np.uint64, "i32": np.int32}[source]
    x = _integer_cases(dtype)
    text = f"""func.func @main(%x: tensor<{x.size}x{source}>) -> tensor<{x.size}xbf16> {{
  %r = stablehlo.convert %x : (tensor<{x.size}x{source}>) -> tensor<{x.size}xbf16>
  return %r : tensor<{x.size}xbf16>
}}"""
    got = shlo.compile(shlo.parse_module(text, context=ctx), target=target)(x)
    want = integers_to_bf16(x)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("source", ["i64", "i32", "ui32"])
@pytest.mark.every_case
def test_integer_constants_to_bf16_round_once(ctx, source):
    """A constant integer -> bf16 convert is folded by shlo (the bit operations on a constant
    failed in IREE's compile-time evaluation in modules with run-time sizes), with the same
    rounding as at run time."""
    dtype = {"i64": np.int64, "i32": np.int32, "ui32": np.uint32}[source]
    x = _integer_cases(dtype)
    values = ", ".join(str(int(v)) for v in x)
    text = f"""func.func @main() -> tensor<{x.size}xbf16> {{
  %c = stablehlo.constant dense<[{values}]> : tensor<{x.size}x{source}>
  %r = stablehlo.convert %c : (tensor<{x.size}x{source}>) -> tensor<{x.size}xbf16>
  return %r : tensor<{x.size}xbf16>
}}"""
    module = shlo.parse_module(text, context=ctx)
    got = shlo.compile(module, target="cpu")()
    np.testing.assert_array_equal(np.asarray(got).view(np.uint16),
                                  integers_to_bf16(x).view(np.uint16))


def test_jnp_pad_of_bf16_with_a_symbolic_size(ctx):
    jax = pytest.importorskip("jax")
    from jax import export
    b, = export.symbolic_shape("b")
    fn = lambda x: jax.numpy.pad(x, (2, 3), constant_values=5)
    text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b,), ml_dtypes.bfloat16)).mlir_module()
    exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
    for n in (1, 4):
        x = np.arange(n).astype(ml_dtypes.bfloat16)
        np.testing.assert_array_equal(exe(x), np.asarray(jax.jit(fn)(x)))
