"""vk-narrow-product-input: dot_generals whose operands are computed from booleans or, for
integer products, from narrower integers (an i32 convert of i8 fused into a 64x256 by 256x128
product: every result wrong, IREE alone too; seed 68 program 304, an i8 -> ui16 convert). Fused
into the product's Vulkan dispatch, the i1 reads went out of bounds, also without shlo's
passes: `convert(b) @ convert(b).reshape(-1)[:8]` of i1[8, 512] segfaulted in the call (with
shlo's select form of the convert it ran and corrupted the heap: `free(): invalid pointer` at
exit, seed 67 program 885), i1[8, 65536] hung. Against numpy at 64K-512K elements, cpu and
vulkan."""
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


WIDENED = {("i8", "i32"): (np.int8, np.int32), ("i16", "i32"): (np.int16, np.int32),
           ("i8", "ui16"): (np.int8, np.uint16)}
PROGRAM = "".join(_widened(*k) for k in WIDENED) + _matvec(8, 512) + _matvec(8, 65536) + """
func.func @masked_matmul(%m: tensor<256x256xi1>, %x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<256x256xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<256x256xf32>
  %w = stablehlo.select %m, %one, %zero : tensor<256x256xi1>, tensor<256x256xf32>
  %r = stablehlo.dot_general %w, %x, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_products_of_boolean_values(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(PROGRAM, target=target, cache=False)
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
