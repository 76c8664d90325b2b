"""shlo-fence-vector-dot-results: a vector-matrix or matrix-vector dot_general whose result
is converted to f32 both directly and through a broadcast_in_dim (IREE 3.13 alone fails to
compile it: 'failed to legalize unresolved source materialization') compiles and is exact
against numpy at real sizes, on cpu and vulkan."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.passes.pipeline import run_pipeline

NUMPY = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16,
         "f64": np.float64, "bf16": ml_dtypes.bfloat16}


def _converted_twice(element: str, m: int, k: int, n: int) -> str:
    """(convert(broadcast(a @ b)), convert(a @ b)) to f32, the broadcast adding a dim of 2."""
    a, b, r = (f"tensor<{m}x{k}x{element}>", f"tensor<{k}x{n}x{element}>",
               f"tensor<{m}x{n}x{element}>")
    wide, wide_f32, r_f32 = (f"tensor<{m}x{n}x2x{element}>", f"tensor<{m}x{n}x2xf32>",
                             f"tensor<{m}x{n}xf32>")
    return f'''func.func @main(%a: {a}, %b: {b}) -> ({wide_f32}, {r_f32}) {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({a}, {b}) -> {r}
  %w = stablehlo.broadcast_in_dim %d, dims = [0, 1] : ({r}) -> {wide}
  %0 = stablehlo.convert %w : ({wide}) -> {wide_f32}
  %1 = stablehlo.convert %d : ({r}) -> {r_f32}
  return %0, %1 : {wide_f32}, {r_f32}
}}'''


def test_the_converts_read_the_dot_through_a_barrier():
    module = shlo.parse_module(_converted_twice("i8", 1, 2, 8))
    run_pipeline(module, "builtin.module(shlo-fence-vector-dot-results)")
    text = str(module)
    assert text.index("stablehlo.dot_general") < text.index("compute_barrier.start") < \
        text.index("stablehlo.broadcast_in_dim")
    # a matrix product (two rows and columns) is left alone
    module = shlo.parse_module(_converted_twice("i8", 4, 2, 8))
    run_pipeline(module, "builtin.module(shlo-fence-vector-dot-results)")
    assert "compute_barrier" not in str(module)


CASES = [(element, m, k, n, target)
         for element, m, k, n in [("i8", 1, 256, 256), ("i32", 1, 64, 1024), ("f16", 256, 256, 1),
                                  ("i16", 1, 128, 512)]
         for target in ("cpu", "vulkan")]
# slow: i64 and f64 (cpu), bf16 (computed in f32 by shlo; cpu and vulkan)
SLOW = [("i64", 1, 256, 256, "cpu"), ("f64", 256, 256, 1, "cpu"), ("bf16", 1, 256, 256, "cpu"),
        ("bf16", 1, 256, 256, "vulkan")]


@pytest.mark.parametrize("element,m,k,n,target", [
    pytest.param(*case, marks=pytest.mark.slow) if case[0] in ("i32", "i16") and
    case[4] == "vulkan" else case for case in CASES] +
    [pytest.param(*case, marks=pytest.mark.slow) for case in SLOW])
def test_vector_dot_converted_twice(element, m, k, n, target):
    """Small integers: the products and sums are exact in f32 and in the integer types (which
    wrap as numpy's); the result is the exact sum wrapped or rounded once to its type."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(k)
    a = rng.integers(-3, 4, (m, k)).astype(NUMPY[element])
    b = rng.integers(-3, 4, (k, n)).astype(NUMPY[element])
    exact = a.astype(np.int64) @ b.astype(np.int64)
    want = exact.astype(NUMPY[element]).astype(np.float32)     # wrapped or rounded once
    wide, direct = shlo.compile(_converted_twice(element, m, k, n), target=target, cache=False)(a, b)
    np.testing.assert_array_equal(np.asarray(direct), want)
    np.testing.assert_array_equal(np.asarray(wide), np.repeat(want[:, :, None], 2, axis=2))
