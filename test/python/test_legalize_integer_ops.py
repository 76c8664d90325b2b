"""shlo-legalize-integer-ops: boolean add is OR (numpy's logical_or), booleans converted to
numbers are 0 and 1 also where a matrix-vector product reads them, and unsigned reverse keeps
every bit (numpy's flip), on IREE's CPU and Vulkan backends. One module per target."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import compile_functions

TEXT = """func.func @bool_add(%a: tensor<2x4xi1>, %b: tensor<2x4xi1>) -> tensor<2x4xi1> {
  %0 = stablehlo.add %a, %b : tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}
func.func @reverse_ui32(%x: tensor<3x4xui32>) -> tensor<3x4xui32> {
  %0 = stablehlo.reverse %x, dims = [0, 1] : tensor<3x4xui32>
  return %0 : tensor<3x4xui32>
}
func.func @reverse_ui8(%x: tensor<5xui8>) -> tensor<5xui8> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<5xui8>
  return %0 : tensor<5xui8>
}"""
RNG = np.random.default_rng(3)
A = np.array([[0, 0, 1, 1], [1, 0, 1, 0]], bool)
B = np.array([[0, 1, 0, 1], [1, 1, 0, 0]], bool)
U32 = RNG.integers(0, 2**32, (3, 4), dtype=np.uint64).astype(np.uint32)
U8 = np.array([0, 1, 127, 128, 255], np.uint8)


def check(exe):
    np.testing.assert_array_equal(exe.function("bool_add")(A, B), np.logical_or(A, B))
    np.testing.assert_array_equal(exe.function("reverse_ui32")(U32), U32[::-1, ::-1])
    np.testing.assert_array_equal(exe.function("reverse_ui8")(U8), U8[::-1])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_integer_ops(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check(compile_functions(ctx, [(TEXT, None)], target))


BOOL_MATVEC = """func.func @counts(%a: tensor<33x33xi1>) -> tensor<33xi32> {
  %0 = stablehlo.convert %a : (tensor<33x33xi1>) -> tensor<33x33xi32>
  %1 = stablehlo.constant dense<1> : tensor<33xi32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0]
       : (tensor<33x33xi32>, tensor<33xi32>) -> tensor<33xi32>
  return %2 : tensor<33xi32>
}
func.func @weighted(%a: tensor<33x33xi1>, %w: tensor<33xf32>) -> tensor<33xf32> {
  %0 = stablehlo.convert %a : (tensor<33x33xi1>) -> tensor<33x33xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0]
       : (tensor<33x33xf32>, tensor<33xf32>) -> tensor<33xf32>
  return %1 : tensor<33xf32>
}
func.func @as_bf16(%a: tensor<33x33xi1>) -> tensor<33x33xbf16> {
  %0 = stablehlo.convert %a : (tensor<33x33xi1>) -> tensor<33x33xbf16>
  return %0 : tensor<33x33xbf16>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_boolean_converts_read_by_a_matrix_vector_product(ctx, target):
    """IREE 3.13 sign-extended the booleans on CPU ((a > 0).astype(int32) @ ones gave minus
    the counts) and got them wrong or failed to compile on Vulkan."""
    if target == "vulkan":
        vulkan_or_skip()
    exe = compile_functions(ctx, [(BOOL_MATVEC, None)], target)
    a = RNG.integers(0, 2, (33, 33)).astype(bool)
    w = RNG.standard_normal(33).astype(np.float32)
    np.testing.assert_array_equal(exe.function("counts")(a), a.sum(axis=1))
    np.testing.assert_allclose(exe.function("weighted")(a, w), a.astype(np.float64) @ w, rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(np.asarray(exe.function("as_bf16")(a), np.float32),
                                  a.astype(np.float32))
    # the booleans of a compare (jax's (a > 0).astype(...) @ w): sign-extended on CPU before
    import jax
    import jax.numpy as jnp
    import shlo
    x = RNG.integers(-5, 5, (33, 33)).astype(np.int32)
    fn = jax.jit(lambda x, w: ((x > 0).astype(jnp.int32) @ jnp.ones(33, jnp.int32),
                               (x > 0).astype(jnp.float32) @ w))
    counts, weighted = shlo.compile(shlo.parse_module(fn.lower(x, w).as_text(), context=ctx),
                                    target=target)(x, w)
    np.testing.assert_array_equal(counts, (x > 0).sum(axis=1))
    np.testing.assert_allclose(weighted, (x > 0).astype(np.float64) @ w, rtol=1e-5, atol=1e-5)



def _matmul(result):
    import jax.numpy as jnp
    return lambda a, b: jnp.matmul(a, b, preferred_element_type=result)


BOOLEAN_PRODUCTS = {    # name: function of two boolean 256x256 arrays
    "matmul_i32": lambda a, b: _matmul("int32")(a, b),
    "matmul_f32": lambda a, b: _matmul("float32")(a, b),
    "matmul_u32": lambda a, b: _matmul("uint32")(a, b),
    "matmul_bf16": lambda a, b: _matmul("bfloat16")(a[:, :200], b[:200]),
    "matvec_i32": lambda a, b: _matmul("int32")(a, b[:, 0]),
    "batched_i32": lambda a, b: _matmul("int32")(a.reshape(4, 64, 256),
                                                 b.reshape(4, 256, 64)),
    "boolean": lambda a, b: a @ b,
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", list(BOOLEAN_PRODUCTS))
def test_boolean_products_into_numbers(name, target):
    """jnp.matmul of booleans with a preferred_element_type: IREE 3.13 failed to compile
    every one on CPU (the i1 operands' data-tiling encoding) and the f32 one on Vulkan
    ('arith.sitofp' of vector<4xi1>). Exactly against XLA."""
    if target == "vulkan":
        vulkan_or_skip()
    import jax
    import shlo.jax
    f = BOOLEAN_PRODUCTS[name]
    rng = np.random.default_rng(7)
    a, b = rng.random((256, 256)) > 0.5, rng.random((256, 256)) > 0.5
    expected = np.asarray(jax.jit(f, backend="cpu")(a, b))
    got = np.asarray(shlo.jax.jit(f, target=target)(a, b))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint32])
def test_grouped_unsigned_convolutions_with_constant_kernels(dtype, target):
    """A depthwise convolution of unsigned integers with a channel multiplier of 2 by a
    constant kernel: IREE 3.13's compiler crashed (SIGSEGV) on every one tried (shlo-fuzz seed
    161 program 126; a multiplier of 1 compiled). Exactly against numpy, sums that wrap."""
    if target == "vulkan":
        vulkan_or_skip()
    import shlo
    t = {np.uint8: "ui8", np.uint32: "ui32"}[dtype]
    rng = np.random.default_rng(161)
    kernel = rng.integers(0, 256, (3, 1, 32)).astype(dtype)        # [w, i, o], 16 groups
    literal = np.array2string(kernel, separator=", ", threshold=10 ** 6).replace("\n", "")
    exe = shlo.compile(f"""
    func.func @main(%x: tensor<8x512x16x{t}>) -> tensor<8x510x32x{t}> {{
      %k = stablehlo.constant dense<{literal}> : tensor<3x1x32x{t}>
      %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{}} {{batch_group_count = 1 : i64, feature_group_count = 16 : i64}} : (tensor<8x512x16x{t}>, tensor<3x1x32x{t}>) -> tensor<8x510x32x{t}>
      return %r : tensor<8x510x32x{t}>
    }}""", target=target, cache=False)
    x = rng.integers(0, 256, (8, 512, 16)).astype(dtype)
    group = np.repeat(np.arange(16), 2)         # output channel o reads input channel o // 2
    want = sum(x[:, k:510 + k, group].astype(np.uint64) * kernel[k, 0].astype(np.uint64)
               for k in range(3))
    np.testing.assert_array_equal(np.asarray(exe(x)), want.astype(dtype))
