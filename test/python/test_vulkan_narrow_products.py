"""vk-narrow-product-input: dot_generals whose operands are computed from booleans, for
integer products from narrower integers, for f32 ones from bf16 or f16 (an i32 convert of i8
fused into a 64x256 by 256x128 product: every result wrong, IREE alone too; seed 68 program
304, an i8 -> ui16 convert). Fused into the product's Vulkan dispatch, the i1 reads went out of
bounds, also without shlo's passes: `convert(b) @ convert(b).reshape(-1)[:8]` of i1[8, 512]
segfaulted in the call (with shlo's select form of the convert it ran and corrupted the heap:
`free(): invalid pointer` at exit, seed 67 program 885), i1[8, 65536] hung. Float products of
values widened from bf16 (jnp.dot(a.astype(jnp.float32), b) of bf16[64, 256] and
f32[256, 128], issue 37) failed to compile ("failed to legalize operation 'vector.bitcast'"),
also without shlo's passes; f16 -> f32 + x ran IREE's compile past 300 s. Against numpy (and
XLA) at 16K-512K elements, cpu and vulkan."""
import ml_dtypes
import numpy as np
import pytest

import shlo


def _matvec(k: int, n: int) -> str:
    return f"""
func.func @matvec_{n}(%b: tensor<{k}x{n}xi1>) -> tensor<{n}xi32> {{
  %0 = stablehlo.convert %b : (tensor<{k}x{n}xi1>) -> tensor<{k}x{n}xi32>
  %1 = stablehlo.reshape %0 : (tensor<{k}x{n}xi32>) -> tensor<{k * n}xi32>
  %2 = stablehlo.slice %1 [0:{k}] : (tensor<{k * n}xi32>) -> tensor<{k}xi32>
  %3 = stablehlo.dot_general %0, %2, contracting_dims = [0] x [0] : (tensor<{k}x{n}xi32>, tensor<{k}xi32>) -> tensor<{n}xi32>
  return %3 : tensor<{n}xi32>
}}"""


def _widened(src: str, dst: str) -> str:
    return f"""
func.func @widened_{src}_{dst}(%a: tensor<256x128x{src}>, %b: tensor<64x256x{dst}>) -> tensor<64x128x{dst}> {{
  %0 = stablehlo.convert %a : (tensor<256x128x{src}>) -> tensor<256x128x{dst}>
  %1 = stablehlo.dot_general %b, %0, contracting_dims = [1] x [0] : (tensor<64x256x{dst}>, tensor<256x128x{dst}>) -> tensor<64x128x{dst}>
  return %1 : tensor<64x128x{dst}>
}}"""


def _float_widened(name: str, lhs: str, rhs: str, body: str, operands: str, out: str,
                   dims: str) -> str:
    """An f32 product of `operands`, which `body` computes from %a and %b."""
    return f"""
func.func @{name}(%a: tensor<{lhs}>, %b: tensor<{rhs}>) -> tensor<{out}xf32> {{{body}
  %r = stablehlo.dot_general {operands}, {dims} : (tensor<{lhs.rsplit("x", 1)[0]}xf32>, tensor<{rhs.rsplit("x", 1)[0]}xf32>) -> tensor<{out}xf32>
  return %r : tensor<{out}xf32>
}}"""


_MK = "contracting_dims = [1] x [0]"
# name: lhs, rhs, body, the product's operands, its result and dimensions; the numpy oracle
FLOAT_WIDENED = {
    "bf16_lhs": ("64x256xbf16", "256x128xf32", """
  %x = stablehlo.convert %a : (tensor<64x256xbf16>) -> tensor<64x256xf32>""", "%x, %b",
                 "64x128", _MK, lambda a, b: a @ b),
    "bf16_both": ("32x512xbf16", "512x64xbf16", """
  %x = stablehlo.convert %a : (tensor<32x512xbf16>) -> tensor<32x512xf32>
  %y = stablehlo.convert %b : (tensor<512x64xbf16>) -> tensor<512x64xf32>""", "%x, %y",
                  "32x64", _MK, lambda a, b: a @ b),
    "bf16_batched": ("4x64x256xbf16", "4x256x128xf32", """
  %x = stablehlo.convert %a : (tensor<4x64x256xbf16>) -> tensor<4x64x256xf32>""", "%x, %b",
                     "4x64x128", "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
                     lambda a, b: a @ b),
    "bf16_transposed_lhs": ("256x64xbf16", "256x128xf32", """
  %x = stablehlo.convert %a : (tensor<256x64xbf16>) -> tensor<256x64xf32>""", "%x, %b",
                            "64x128", "contracting_dims = [0] x [0]", lambda a, b: a.T @ b),
}
# widened, then computed on: each took IREE's Vulkan compile past 150 s
WIDENED_AND_COMPUTED = {
    "bf16_squared_batched": ("4x64x256xbf16", "4x256x128xf32", """
  %c = stablehlo.convert %a : (tensor<4x64x256xbf16>) -> tensor<4x64x256xf32>
  %x = stablehlo.multiply %c, %c : tensor<4x64x256xf32>""", "%x, %b", "4x64x128",
                             "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
                             lambda a, b: (a * a) @ b),
    "f16_doubled": ("64x256xf16", "256x128xf32", """
  %c = stablehlo.convert %a : (tensor<64x256xf16>) -> tensor<64x256xf32>
  %x = stablehlo.add %c, %c : tensor<64x256xf32>""", "%x, %b", "64x128", _MK,
                    lambda a, b: (a + a) @ b),
}


WIDENED = {("i8", "i32"): (np.int8, np.int32), ("i16", "i32"): (np.int16, np.int32),
           ("i8", "ui16"): (np.int8, np.uint16)}
PROGRAM = "".join(_widened(*k) for k in WIDENED) + "".join(
    _float_widened(name, *case[:-1]) for name, case in FLOAT_WIDENED.items()) + \
    _matvec(8, 512) + _matvec(8, 65536) + """
func.func @masked_matmul(%m: tensor<256x256xi1>, %x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<256x256xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<256x256xf32>
  %w = stablehlo.select %m, %one, %zero : tensor<256x256xi1>, tensor<256x256xf32>
  %r = stablehlo.dot_general %w, %x, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}"""


@pytest.fixture(scope="module", params=["cpu", "vulkan"])
def exe(request):
    """PROGRAM compiled for the target."""
    if request.param == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    return shlo.compile(PROGRAM, target=request.param, cache=False)


@pytest.mark.slow
def test_products_of_boolean_values(exe):
    rng = np.random.default_rng(885)
    for n in (512, 65536):
        b = rng.integers(0, 2, (8, n)).astype(bool)
        i = b.astype(np.int32)
        np.testing.assert_array_equal(np.asarray(exe.function(f"matvec_{n}")(b)),
                                      i.T @ i.reshape(-1)[:8], err_msg=str(n))
    for (src, dst), (sn, dn) in WIDENED.items():
        info = np.iinfo(sn)
        a = rng.integers(info.min, info.max + 1, (256, 128)).astype(sn)
        b = rng.integers(0, 8, (64, 256)).astype(dn)
        want = (b.astype(np.int64) @ a.astype(dn).astype(np.int64)).astype(dn)  # wraps as dn
        np.testing.assert_array_equal(np.asarray(exe.function(f"widened_{src}_{dst}")(a, b)),
                                      want, err_msg=f"{src} -> {dst}")
    m = rng.integers(0, 2, (256, 256)).astype(bool)
    x = rng.integers(-4, 5, (256, 512)).astype(np.float32)       # exact sums
    np.testing.assert_array_equal(np.asarray(exe.function("masked_matmul")(m, x)),
                                  m.astype(np.float32) @ x)


def _bits(t: str) -> np.dtype:
    return {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f32": np.float32}[t.rsplit("x", 1)[1]]


def _check_float_products(exe, cases: dict) -> None:
    rng = np.random.default_rng(37)
    for name, (lhs, rhs, *_, oracle) in cases.items():
        a, b = (rng.standard_normal([int(d) for d in t.split("x")[:-1]]).astype(_bits(t))
                for t in (lhs, rhs))
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        bound = oracle(np.abs(a64), np.abs(b64)).max()      # of f32's rounding errors
        np.testing.assert_allclose(np.asarray(exe.function(name)(a, b)), oracle(a64, b64),
                                   rtol=0, atol=1e-6 * bound, err_msg=name)


def test_products_of_widened_floats(exe):
    _check_float_products(exe, FLOAT_WIDENED)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_products_of_widened_and_computed_floats(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    program = "".join(_float_widened(name, *case[:-1])
                      for name, case in WIDENED_AND_COMPUTED.items())
    _check_float_products(shlo.compile(program, target=target, cache=False),
                          WIDENED_AND_COMPUTED)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_jax_product_of_bf16_converted_to_f32(target):
    """jnp.dot(a.astype(jnp.float32), b) of bf16[64, 256] and f32[256, 128] (issue 37), as
    XLA computes it."""
    jax = pytest.importorskip("jax")
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()

    def f(a, b):
        return jax.numpy.dot(a.astype(jax.numpy.float32), b)
    rng = np.random.default_rng(64)
    a = rng.standard_normal((64, 256)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((256, 128)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(shlo.jax.jit(f, target=target, cache=False)(a, b)),
                               np.asarray(jax.jit(f)(a, b)), rtol=1e-5, atol=1e-4)
