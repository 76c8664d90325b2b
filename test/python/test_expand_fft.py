"""shlo-expand-fft against numpy.fft (fftn, ifftn, rfftn, irfftn computed in float64): 2-D and
3-D ffts with batch dimensions, f32 and f64, lengths IREE lowers itself (powers of two in f32),
lengths it rejects (6, 3, 5) and one long enough for the four-step split (96), on CPU (all
cases) and Vulkan (a subset, for compile time). One module per target."""
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

ELEMENT = {np.float32: "f32", np.float64: "f64",
           np.complex64: "complex<f32>", np.complex128: "complex<f64>"}
PRECISIONS = {"f32": (np.float32, np.complex64, 1e-5), "f64": (np.float64, np.complex128, 1e-12)}
# (batch dims, fft_length)
SHAPES = {"2d": ((2,), [4, 6]), "3d": ((2,), [3, 4, 5]), "long": ((3,), [2, 96])}
KINDS = ("FFT", "IFFT", "RFFT", "IRFFT")
CASES = [(k, p, s) for k in KINDS for p in PRECISIONS for s in SHAPES]
# Vulkan compiles ~5 s per function here: IREE's and shlo's 1-D forms in f32, shlo's in f64
VULKAN_CASES = [(k, p, s) for k in KINDS for p, s in (("f32", "3d"), ("f64", "2d"))]
R = np.random.default_rng(10)


def _type(shape, dtype) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + ELEMENT[dtype] + ">"


def _shapes(kind, precision, shape):
    """(operand shape, operand dtype, result shape, result dtype)."""
    real, cplx, _ = PRECISIONS[precision]
    batch, lengths = SHAPES[shape]
    full = tuple(batch) + tuple(lengths)
    half = full[:-1] + (lengths[-1] // 2 + 1,)
    return {"FFT": (full, cplx, full, cplx), "IFFT": (full, cplx, full, cplx),
            "RFFT": (full, real, half, cplx), "IRFFT": (half, cplx, full, real)}[kind]


def _function(kind, precision, shape) -> str:
    arg, at, res, rt = _shapes(kind, precision, shape)
    a, r = _type(arg, at), _type(res, rt)
    return f"""func.func @{kind.lower()}_{precision}_{shape}(%x: {a}) -> {r} {{
  %0 = stablehlo.fft %x, type = {kind}, length = {SHAPES[shape][1]} : ({a}) -> {r}
  return %0 : {r}
}}"""


def _text(cases) -> str:
    return "\n".join(_function(*c) for c in cases)


def _oracle(kind, x, lengths):
    axes = tuple(range(-len(lengths), 0))
    if kind == "FFT":
        return np.fft.fftn(x.astype(np.complex128), axes=axes)
    if kind == "IFFT":
        return np.fft.ifftn(x.astype(np.complex128), axes=axes)
    if kind == "RFFT":
        return np.fft.rfftn(x.astype(np.float64), axes=axes)
    return np.fft.irfftn(x.astype(np.complex128), s=lengths, axes=axes)


def _check(exe, kind, precision, shape):
    arg, dtype, _, _ = _shapes(kind, precision, shape)
    x = R.standard_normal(arg)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * R.standard_normal(arg)     # IRFFT: imaginary DC/Nyquist terms included
    x = x.astype(dtype)
    got = np.asarray(exe.function(f"{kind.lower()}_{precision}_{shape}")(x))
    want = _oracle(kind, x, SHAPES[shape][1])
    assert got.shape == want.shape
    error = np.max(np.abs(got - want)) / np.max(np.abs(want))
    assert error < PRECISIONS[precision][2], f"{kind} {precision} {shape}: error {error:.2e}"


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(_text(CASES), context=ctx), target="cpu")


@pytest.mark.parametrize("kind,precision,shape", CASES)
@pytest.mark.every_case
def test_cpu_against_numpy(cpu, kind, precision, shape):
    _check(cpu, kind, precision, shape)


@pytest.mark.slow
def test_vulkan_against_numpy(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(_text(VULKAN_CASES), context=ctx), target="vulkan")
    for case in VULKAN_CASES:
        _check(exe, *case)


PRIMES = [  # (n, batch, dtype, kinds, target)
    (4099, (2,), np.float64, ("fft", "ifft", "rfft", "irfft"), "cpu"),
    (4099, (3,), np.float32, ("fft", "irfft"), "cpu"),
    (65537, (), np.float32, ("rfft",), "cpu"),
    (4099, (3,), np.float32, ("fft", "irfft"), "vulkan"),
]


@pytest.mark.parametrize("n,batch,dtype,kinds,target", PRIMES)
@pytest.mark.slow
def test_prime_lengths_beyond_the_matrix_limit(n, batch, dtype, kinds, target):
    """A prime factor past FACTOR_MAX is Bluestein's convolution (it was a clean error),
    against numpy (XLA's f32 ffts were 2.1-3.7e-7 off here, shlo's 1.7-3.3e-7)."""
    if target == "vulkan":
        vulkan_or_skip()
    jnp = pytest.importorskip("jax.numpy")
    import jax
    import shlo.jax
    rng = np.random.default_rng(n)
    x = rng.standard_normal(batch + (n,)).astype(dtype)
    z = x + 1j * rng.standard_normal(x.shape).astype(dtype)
    tolerance = 1e-6 if dtype == np.float32 else 1e-13
    cases = {"fft": (jnp.fft.fft, z, np.fft.fft), "ifft": (jnp.fft.ifft, z, np.fft.ifft),
             "rfft": (jnp.fft.rfft, x, np.fft.rfft),
             "irfft": (lambda v: jnp.fft.irfft(v, n), z[..., :n // 2 + 1],
                       lambda v: np.fft.irfft(v, n))}
    with jax.enable_x64(dtype == np.float64):
        for kind in kinds:
            f, a, oracle = cases[kind]
            got = np.asarray(shlo.jax.jit(f, target=target)(a))
            want = oracle(a.astype(np.complex128 if np.iscomplexobj(a) else np.float64))
            assert np.abs(got - want).max() / np.abs(want).max() < tolerance, kind


def test_dynamic_prime_length_beyond_the_matrix_limit_is_a_clear_error(ctx):
    text = """func.func @main(%x: tensor<?x4099xcomplex<f64>>) -> tensor<?x4099xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4099] : (tensor<?x4099xcomplex<f64>>) -> tensor<?x4099xcomplex<f64>>
  return %0 : tensor<?x4099xcomplex<f64>>
}"""
    with pytest.raises(shlo.Error, match="DFT of length 4099 on a dynamic shape needs a "
                                         "4099x4099 matrix"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)


def test_long_native_fft_with_a_fused_consumer():
    """The real part of a 65536-point f32 fft: IREE fused it into its own fft and needed
    256 KiB of stack ("exceeded stack allocation limit"); the fft now sits behind a fence."""
    n = 1 << 16
    exe = shlo.compile(f"""
func.func @main(%x: tensor<{n}xcomplex<f32>>) -> tensor<{n}xf32> {{
  %0 = stablehlo.fft %x, type = FFT, length = [{n}] : (tensor<{n}xcomplex<f32>>) -> tensor<{n}xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<{n}xcomplex<f32>>) -> tensor<{n}xf32>
  return %1 : tensor<{n}xf32>
}}""", target="cpu")
    x = (R.standard_normal(n) + 1j * R.standard_normal(n)).astype(np.complex64)
    want = np.fft.fft(x.astype(np.complex128)).real
    np.testing.assert_allclose(exe(x), want, rtol=0, atol=2e-6 * np.abs(want).max())
