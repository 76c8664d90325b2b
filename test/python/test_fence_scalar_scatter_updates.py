"""shlo-fence-scalar-scatter-updates: a scatter whose one-element updates are a slice of a
lower-rank tensor (IREE 3.13 alone fails to compile it: 'expected rank to be smaller or equal
to the other rank') compiles and is exact against numpy at real sizes, on cpu and vulkan."""
import re

import numpy as np
import pytest

import shlo
from shlo.passes.pipeline import run_pipeline


def _scatter(operand: str, updates: str, body: str, dims: str, combine: str = "add") -> str:
    """A scatter of one `updates` element into %op at index %i, the updates computed by
    `body` from %x (and %j)."""
    element = re.fullmatch(r"tensor<(?:\d+x)*(.+)>", operand).group(1)
    idx = f"tensor<1x{len(dims.split(','))}xi32>"
    return f'''func.func @main(%op: {operand}, %x: tensor<65536x{element}>, %i: {idx}, %j: tensor<i32>) -> {operand} {{
{body}
  %r = "stablehlo.scatter"(%op, %i, %u) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [{dims}], scatter_dims_to_operand_dims = [{dims}], index_vector_dim = 1>, unique_indices = false}}> ({{
  ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
    %c = stablehlo.{combine} %a, %b : tensor<{element}>
    stablehlo.return %c : tensor<{element}>
  }}) : ({operand}, {idx}, {updates}) -> {operand}
  return %r : {operand}
}}'''


# x[5:6] reshaped to 1x1 (the fuzzer's case at 64K elements): a scatter-add into column i
SLICE_ADD = _scatter("tensor<1x65536xf32>", "tensor<1x1xf32>", '''
  %s = stablehlo.slice %x [5:6] : (tensor<65536xf32>) -> tensor<1xf32>
  %u = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<1x1xf32>''', "1")
# x[j] broadcast to 1x1: a scatter-max into element (0, i0, i1) of a 3-D i32 operand
DYNAMIC_MAX = _scatter("tensor<1x256x256xi32>", "tensor<1x1xi32>", '''
  %s = stablehlo.dynamic_slice %x, %j, sizes = [1] : (tensor<65536xi32>, tensor<i32>) -> tensor<1xi32>
  %u = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>''',
                       "1, 2", "maximum")


def test_the_scatter_reads_a_fenced_scalar():
    module = shlo.parse_module(SLICE_ADD)
    run_pipeline(module, "builtin.module(shlo-fence-scalar-scatter-updates)")
    text = str(module)
    assert text.index("stablehlo.slice") < text.index("stablehlo.optimization_barrier") < \
        text.index('"stablehlo.scatter"')
    assert "optimization_barrier %" in text and ": tensor<f32>\n" in text


def _slice_add(rng):
    op = rng.standard_normal((1, 65536)).astype(np.float32)
    x = rng.standard_normal(65536).astype(np.float32)
    i = np.array([[40000]], np.int32)
    want = op.copy()
    want[0, 40000] += x[5]
    return (op, x, i, np.int32(0)), want


def _dynamic_max(rng):
    op = rng.integers(-1000, 1000, (1, 256, 256)).astype(np.int32)
    x = rng.integers(-5000, 5000, 65536).astype(np.int32)
    x[40000] = 4321
    i = np.array([[200, 13]], np.int32)
    want = op.copy()
    want[0, 200, 13] = max(op[0, 200, 13], 4321)
    return (op, x, i, np.int32(40000)), want


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("text,case", [(SLICE_ADD, _slice_add), (DYNAMIC_MAX, _dynamic_max)],
                         ids=["slice_add_f32", "dynamic_slice_max_i32"])
def test_scatter_of_a_sliced_element(text, case, target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    args, want = case(np.random.default_rng(0))
    got = shlo.compile(text, target=target, cache=False)(*args)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_scatter_of_a_sliced_element_in_a_loop(target):
    """Four trips of a while loop, each adding x[t] at column 10 * t of an f32[1, 4096] carry
    (the barrier inside the loop body)."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    op_t = "tensor<1x4096xf32>"
    text = f'''func.func @main(%x: tensor<4096xf32>) -> {op_t} {{
  %zero = stablehlo.constant dense<0.0> : {op_t}
  %t0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%t = %t0, %acc = %zero) : tensor<i32>, {op_t}
   cond {{
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %t, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{
    %s = stablehlo.dynamic_slice %x, %t, sizes = [1] : (tensor<4096xf32>, tensor<i32>) -> tensor<1xf32>
    %u = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<1x1xf32>
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %col = stablehlo.multiply %t, %ten : tensor<i32>
    %i = stablehlo.reshape %col : (tensor<i32>) -> tensor<1x1xi32>
    %y = "stablehlo.scatter"(%acc, %i, %u) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}}> ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }}) : ({op_t}, tensor<1x1xi32>, tensor<1x1xf32>) -> {op_t}
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %t, %one : tensor<i32>
    stablehlo.return %next, %y : tensor<i32>, {op_t}
  }}
  return %r#1 : {op_t}
}}'''
    x = np.random.default_rng(1).standard_normal(4096).astype(np.float32)
    want = np.zeros((1, 4096), np.float32)
    want[0, [0, 10, 20, 30]] = x[:4]
    got = shlo.compile(text, target=target, cache=False)(x)
    np.testing.assert_array_equal(np.asarray(got), want)


COMBINE = {"add": np.add, "maximum": np.maximum, "or": np.logical_or}


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("element,dtype,combine", [
    ("f16", np.float16, "add"), ("i8", np.int8, "add"), ("ui8", np.uint8, "add"),
    ("ui32", np.uint32, "maximum"), ("i1", np.bool_, "or"), ("f64", np.float64, "add"),
    ("complex<f32>", np.complex64, "add")])
def test_scatter_of_a_sliced_element_types(element, dtype, combine, target):
    """x[5] reshaped to 1x1 scattered into element 40000 of a 1x65536 operand, per type."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = _scatter(f"tensor<1x65536x{element}>", f"tensor<1x1x{element}>", f'''
  %s = stablehlo.slice %x [5:6] : (tensor<65536x{element}>) -> tensor<1x{element}>
  %u = stablehlo.reshape %s : (tensor<1x{element}>) -> tensor<1x1x{element}>''', "1", combine)
    rng = np.random.default_rng(0)
    op = rng.integers(0, 2 if element == "i1" else 50, (1, 65536)).astype(dtype)
    x = rng.integers(0, 2 if element == "i1" else 50, 65536).astype(dtype)
    i = np.array([[40000]], np.int32)
    want = op.copy()
    want[0, 40000] = COMBINE[combine](op[0, 40000], x[5])
    got = shlo.compile(text, target=target, cache=False)(op, x, i, np.int32(0))
    np.testing.assert_array_equal(np.asarray(got), want)
