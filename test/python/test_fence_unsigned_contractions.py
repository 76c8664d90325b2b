"""shlo-fence-unsigned-contractions: products and convolutions of values converted from uint8,
uint16 and uint32 (IREE 3.13 alone read them as signed, silently) are exact against numpy on cpu and
vulkan; the contraction reads such an operand through a barrier."""
import numpy as np
import pytest

import shlo
from shlo.passes.pipeline import run_pipeline

NUMPY = {"ui8": np.uint8, "ui16": np.uint16, "f32": np.float32, "f64": np.float64,
         "i32": np.int32, "f16": np.float16}


def _product(src: str, dst: str, m: int, k: int, n: int) -> str:
    return f'''func.func @main(%a: tensor<{k}x{n}x{src}>, %b: tensor<{m}x{k}x{dst}>) -> tensor<{m}x{n}x{dst}> {{
  %0 = stablehlo.convert %a : (tensor<{k}x{n}x{src}>) -> tensor<{k}x{n}x{dst}>
  %1 = stablehlo.dot_general %b, %0, contracting_dims = [1] x [0] : (tensor<{m}x{k}x{dst}>, tensor<{k}x{n}x{dst}>) -> tensor<{m}x{n}x{dst}>
  return %1 : tensor<{m}x{n}x{dst}>
}}'''


def _check(text: str, a: np.ndarray, b: np.ndarray, want: np.ndarray, target: str) -> None:
    got = shlo.compile(text, target=target, cache=False)(a, b)
    np.testing.assert_array_equal(np.asarray(got).astype(np.float64), want)


def test_the_product_reads_the_convert_through_a_barrier():
    module = shlo.parse_module(_product("ui8", "f32", 2, 3, 4))
    run_pipeline(module, "builtin.module(shlo-fence-unsigned-contractions)")
    text = str(module)
    assert text.index("stablehlo.convert") < text.index("compute_barrier.start") < \
        text.index("stablehlo.dot_general")


@pytest.mark.parametrize("src,dst", [("ui8", "f32"), ("ui16", "i32"), ("ui8", "f64")])
def test_product_of_converted_unsigned(src, dst):
    """uint8 images times weights (x.astype(f32) @ w): 489 of 512 results were wrong."""
    rng = np.random.default_rng(0)
    a = rng.integers(0, np.iinfo(NUMPY[src]).max + 1, (256, 96)).astype(NUMPY[src])
    b = rng.integers(-2, 3, (128, 256)).astype(NUMPY[dst])
    _check(_product(src, dst, 128, 256, 96), a, b, b.astype(np.float64) @ a, "cpu")


def test_product_of_a_sliced_converted_unsigned():
    """Shlo-fuzz seed 42 program 76: dot(f32[1, 7], slice(reshape(convert(ui8[6, 2])))) gave 323
    for 579 once shlo-slice-before-elementwise moved the convert next to the dot."""
    a = np.array([[68, 124], [72, 245], [51, 17], [2, 213], [210, 31], [180, 131]], np.uint8)
    b = np.ones((1, 7), np.float32)
    text = '''func.func @main(%a: tensor<6x2xui8>, %b: tensor<1x7xf32>) -> tensor<1xf32> {
  %0 = stablehlo.convert %a : (tensor<6x2xui8>) -> tensor<6x2xf32>
  %1 = stablehlo.reshape %0 : (tensor<6x2xf32>) -> tensor<12xf32>
  %2 = stablehlo.slice %1 [0:7] : (tensor<12xf32>) -> tensor<7xf32>
  %3 = stablehlo.dot_general %b, %2, contracting_dims = [1] x [0] : (tensor<1x7xf32>, tensor<7xf32>) -> tensor<1xf32>
  return %3 : tensor<1xf32>
}'''
    _check(text, a, b, np.array([579.0]), "cpu")


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_i64_product_of_a_sliced_converted_uint32(target):
    """An i64 product of a ui32 -> i64 convert (through a reshape and slice) read values from
    2^31 up as negative: every result of this 300x1024 product on cpu, 8 of 72 of shlo-fuzz
    seed 64 program 1466 on vulkan."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = '''func.func @main(%x: tensor<64x33x32xui32>, %y: tensor<64x300xi64>) -> tensor<300x1024xi64> {
  %0 = stablehlo.convert %x : (tensor<64x33x32xui32>) -> tensor<64x33x32xi64>
  %1 = stablehlo.reshape %0 : (tensor<64x33x32xi64>) -> tensor<64x1056xi64>
  %2 = stablehlo.slice %1 [0:64, 0:1024] : (tensor<64x1056xi64>) -> tensor<64x1024xi64>
  %3 = stablehlo.dot_general %y, %2, contracting_dims = [0] x [0] : (tensor<64x300xi64>, tensor<64x1024xi64>) -> tensor<300x1024xi64>
  return %3 : tensor<300x1024xi64>
}'''
    rng = np.random.default_rng(1466)
    x = rng.integers(0, 2 ** 32, (64, 33, 32), dtype=np.uint64).astype(np.uint32)
    y = rng.integers(-2 ** 20, 2 ** 20, (64, 300), dtype=np.int64)
    got = np.asarray(shlo.compile(text, target=target, cache=False)(x, y))
    np.testing.assert_array_equal(got, y.T @ x.astype(np.int64).reshape(64, 1056)[:, :1024])


def test_convolution_of_converted_unsigned():
    """A 3x3 convolution of a uint8 image (NHWC) converted to f32."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, (2, 32, 32, 3)).astype(np.uint8)
    w = rng.integers(-2, 3, (3, 3, 3, 8)).astype(np.float32)
    text = '''func.func @main(%a: tensor<2x32x32x3xui8>, %w: tensor<3x3x3x8xf32>) -> tensor<2x30x30x8xf32> {
  %0 = stablehlo.convert %a : (tensor<2x32x32x3xui8>) -> tensor<2x32x32x3xf32>
  %1 = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x30x30x8xf32>
  return %1 : tensor<2x30x30x8xf32>
}'''
    x = a.astype(np.float64)
    want = np.zeros((2, 30, 30, 8))
    for i in range(3):
        for j in range(3):
            want += np.einsum("bhwc,co->bhwo", x[:, i:i + 30, j:j + 30], w[i, j])
    _check(text, a, w, want, "cpu")


def test_product_of_converted_unsigned_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    rng = np.random.default_rng(2)
    a = rng.integers(0, 256, (64, 32)).astype(np.uint8)
    b = rng.integers(-2, 3, (16, 64)).astype(np.float32)
    _check(_product("ui8", "f32", 16, 64, 32), a, b, b.astype(np.float64) @ a, "vulkan")
