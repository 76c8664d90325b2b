"""shlo-split-long-reduce on CPU against numpy: long reduces into few results, split in parts
by the cpu target's pipeline, give the values of one reduce (sums within float rounding,
everything else exactly; a NaN anywhere still wins a maximum)."""
import numpy as np
import pytest

import shlo

N = 1 << 18


def _reduce(name, shape, element, op, dims, init):
    result = [d for i, d in enumerate(shape) if i not in dims]
    t = lambda s: "tensor<" + "".join(f"{d}x" for d in s) + element + ">"   # noqa: E731
    return f"""
func.func @{name}(%x: {t(shape)}) -> {t(result)} {{
  %init = stablehlo.constant dense<{init}> : tensor<{element}>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.{op} across dimensions = {dims} : ({t(shape)}, tensor<{element}>) -> {t(result)}
  return %0 : {t(result)}
}}"""


CASES = {   # name -> (shape, element, op, dims, init, numpy oracle)
    "sum_all": ((512, 1024), "f32", "add", [0, 1], "0.0", lambda x: x.astype(np.float64).sum()),
    "sum_middle": ((4, 8192, 16), "f32", "add", [1, 2], "0.0",
                   lambda x: x.astype(np.float64).sum(axis=(1, 2))),
    "max_rows": ((3, N), "f32", "maximum", [1], "0xFF800000", lambda x: x.max(axis=1)),
    "min_seven": ((N,), "i32", "minimum", [0], "7", lambda x: min(x.min(), 7)),
    "and_bits": ((N,), "ui32", "and", [0], "4294967295", np.bitwise_and.reduce),
    "sum_i64": ((2, N), "i64", "add", [1], "0", lambda x: x.sum(axis=1)),
    "sum_columns": ((16, 32, 32, 32), "f32", "add", [0, 1, 2], "0.0",
                    lambda x: x.astype(np.float64).sum(axis=(0, 1, 2))),
}


@pytest.fixture(scope="module")
def exe():
    return shlo.compile("".join(_reduce(name, *case[:5]) for name, case in CASES.items()),
                        target="cpu")


@pytest.mark.parametrize("name", CASES)
@pytest.mark.every_case
def test_split_reduces_match_numpy(exe, name):
    shape, element, _op, _dims, _init, oracle = CASES[name]
    rng = np.random.default_rng(len(name))
    dtype = {"f32": np.float32, "i32": np.int32, "i64": np.int64, "ui32": np.uint32}[element]
    if element == "f32":
        x = rng.standard_normal(shape).astype(dtype)
    elif element == "ui32":
        x = ~(np.uint32(1) << rng.integers(0, 32, shape).astype(np.uint32))
        x[: shape[0] // 2] = np.uint32(0xFFFFFFFF)
    else:
        x = rng.integers(-1000, 1000, shape).astype(dtype)
    got = exe.function(name)(x)
    want = oracle(x)
    if element == "f32" and "sum" in name:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(x).sum() / x.size)
    else:
        np.testing.assert_array_equal(got, np.asarray(want, dtype))


def test_a_nan_in_any_part_wins_the_maximum(exe):
    x = np.random.default_rng(3).standard_normal((3, N)).astype(np.float32)
    x[1, N - 5] = np.nan
    got = exe.function("max_rows")(x)
    assert np.isnan(got[1]) and not np.isnan(got[[0, 2]]).any()
    np.testing.assert_array_equal(got[[0, 2]], x[[0, 2]].max(axis=1))


def test_the_cpu_pipeline_splits_them(ctx):
    from shlo.passes.pipeline import run_pipeline
    from shlo.pipelines.targets import get_target
    assert "shlo-split-long-reduce" in get_target("cpu").passes
    module = shlo.parse_module(_reduce("f", (N,), "f32", "add", [0], "0.0"), context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-split-long-reduce)")
    assert str(module).count("stablehlo.reduce") == 2


# Lengths no part count divides into whole vectors (a prime, 1000003 and 166667) and products
# into few results: the parts take a leading piece, the rest is reduced on its own. Before,
# IREE summed each in one scalar chain, 100x less accurate: a sum of 1000003 uniform values
# was 2.9e-6 off, a 4 x 1000000 @ 1000000 x 4 product 1.7e-4 (XLA: 2.5e-8 and 2.1e-7).
LONG = """
func.func @sum_prime(%x: tensor<1000003xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000003xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @sum_rows(%x: tensor<8x200003xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x200003xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @vector_dot(%x: tensor<166667xf32>, %y: tensor<166667xf32>) -> tensor<f32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<166667xf32>, tensor<166667xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @vector_dot_whole(%x: tensor<4194304xf32>, %y: tensor<4194304xf32>) -> tensor<f32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @few_results(%x: tensor<4x1000000xf32>, %y: tensor<1000000x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<4x1000000xf32>, tensor<1000000x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func @matvec(%x: tensor<64x166656xf32>, %y: tensor<166656xf32>) -> tensor<64xf32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<64x166656xf32>, tensor<166656xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
func.func @integer_dot(%x: tensor<1000003xi32>, %y: tensor<1000003xi32>) -> tensor<i32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<1000003xi32>, tensor<1000003xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}
"""
LONG_CASES = {      # name -> (operand shapes, numpy oracle in f64)
    "sum_prime": (((1000003,),), lambda x: x.sum()),
    "sum_rows": (((8, 200003),), lambda x: x.sum(axis=1)),
    "vector_dot": (((166667,), (166667,)), np.dot),
    "vector_dot_whole": (((1 << 22,), (1 << 22,)), np.dot),     # IREE's own: 7.4e-6 off
    "few_results": (((4, 1000000), (1000000, 4)), np.dot),
    "matvec": (((64, 166656), (166656,)), np.dot),
}


@pytest.fixture(scope="module")
def long_exe():
    return shlo.compile(LONG, target="cpu")


@pytest.mark.parametrize("name", LONG_CASES)
@pytest.mark.every_case
def test_long_float_reductions_are_accurate(long_exe, name):
    """Uniform values (no cancellation): within 1e-6 of the exact sums, as XLA is."""
    shapes, oracle = LONG_CASES[name]
    rng = np.random.default_rng(len(name))
    args = [rng.uniform(size=s).astype(np.float32) for s in shapes]
    got = np.asarray(long_exe.function(name)(*args), np.float64)
    want = oracle(*[a.astype(np.float64) for a in args])
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_long_integer_dot_wraps_like_numpy(long_exe):
    rng = np.random.default_rng(5)
    x, y = (rng.integers(-(1 << 20), 1 << 20, 1000003).astype(np.int32) for _ in range(2))
    got = long_exe.function("integer_dot")(x, y)
    want = np.int32(np.int64(np.dot(x.astype(np.int64), y.astype(np.int64)) % (1 << 32)))
    assert int(np.asarray(got)) == int(want)


def _scan(name, shape, element, op, init, reverse=False):
    t = "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"
    n = shape[-1]
    window = ", ".join(["1"] * (len(shape) - 1) + [str(n)])
    pad = ", ".join(["[0, 0]"] * (len(shape) - 1) + [f"[0, {n - 1}]" if reverse else f"[{n - 1}, 0]"])
    return f"""
func.func @{name}(%x: {t}) -> {t} {{
  %init = stablehlo.constant dense<{init}> : tensor<{element}>
  %0 = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
      %s = stablehlo.{op} %a, %b : tensor<{element}>
      stablehlo.return %s : tensor<{element}>
    }}) {{window_dimensions = array<i64: {window}>, padding = dense<[{pad}]> : tensor<{len(shape)}x2xi64>}} : ({t}, tensor<{element}>) -> {t}
  return %0 : {t}
}}"""


# Scans (jnp.cumsum's reduce_window) in blocks of 1024 on the cpu: IREE scanned each in one
# chain, 2.2e-5 off for a cumsum of 1M uniform floats (XLA 2.1e-7).
SCANS = {   # name -> (shape, element, op, init, reverse, numpy oracle)
    "cumsum": ((1 << 20,), "f32", "add", "0.0", False, lambda x: np.cumsum(x)),
    "cumsum_odd": ((100003,), "f32", "add", "0.0", False, lambda x: np.cumsum(x)),
    "cumsum_rows_reversed": ((64, 16384), "f32", "add", "0.0", True,
                             lambda x: np.cumsum(x[:, ::-1], axis=1)[:, ::-1]),
    "cummax": ((1000003,), "i32", "maximum", "-2147483648", False, np.maximum.accumulate),
}


@pytest.fixture(scope="module")
def scan_exe():
    return shlo.compile("".join(_scan(name, *case[:5]) for name, case in SCANS.items()),
                        target="cpu")


@pytest.mark.parametrize("name", SCANS)
@pytest.mark.every_case
def test_long_scans_are_accurate(scan_exe, name):
    """Within 1e-6 of the exact prefix sums (relative to the largest), integers exactly."""
    shape, element, *_, oracle = SCANS[name]
    rng = np.random.default_rng(len(name))
    if element == "f32":
        x = rng.uniform(size=shape).astype(np.float32)
        want = oracle(x.astype(np.float64))
        got = np.asarray(scan_exe.function(name)(x), np.float64)
        assert np.abs(got - want).max() <= 1e-6 * np.abs(want).max()
    else:
        x = rng.integers(-1 << 30, 1 << 30, shape).astype(np.int32)
        np.testing.assert_array_equal(scan_exe.function(name)(x), oracle(x))


COMPLEX_SUMS = """
func.func @complex_sum_prime(%z: tensor<1000003xcomplex<f32>>) -> tensor<complex<f32>> {
  %c = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %0 = stablehlo.reduce(%z init: %c) applies stablehlo.add across dimensions = [0] : (tensor<1000003xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}
func.func @complex_sum_rows(%z: tensor<8x200003xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %c = stablehlo.constant dense<(2.5, -1.0)> : tensor<complex<f32>>
  %0 = stablehlo.reduce(%z init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x200003xcomplex<f32>>, tensor<complex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
"""


@pytest.mark.parametrize("name, shape, start", [("complex_sum_prime", (1000003,), 0),
                                                 ("complex_sum_rows", (8, 200003), 2.5 - 1j)])
@pytest.mark.every_case
def test_long_complex_sums_are_accurate(name, shape, start):
    """Summed by parts (IREE's one chain of complex values was 1.5e-5 off at 1M, XLA 8e-8); a
    start that is not 0 is added once."""
    rng = np.random.default_rng(7)
    z = (rng.uniform(size=shape) + 1j * rng.uniform(size=shape)).astype(np.complex64)
    got = np.asarray(shlo.compile(COMPLEX_SUMS, target="cpu").function(name)(z))
    want = z.astype(np.complex128).sum(axis=-1) + start
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_long_complex_cumsum_is_blocked(target):
    """jnp.cumsum of 1M complex64 values: its parts' scans start from parts of the complex
    constant 0, which now count as the sum's identity, so they are blocked (cpu: 3.3e-5 off,
    XLA 2.4e-7; vulkan refused to split them and failed to compile)."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    import jax.numpy as jnp
    import shlo.jax
    rng = np.random.default_rng(11)
    n = 1 << 20
    z = (rng.uniform(size=n) + 1j * rng.uniform(size=n)).astype(np.complex64)
    got = np.asarray(shlo.jax.jit(jnp.cumsum, target=target)(z))
    want = np.cumsum(z.astype(np.complex128))
    assert np.max(np.abs(got - want) / np.abs(want)) < 5e-6
