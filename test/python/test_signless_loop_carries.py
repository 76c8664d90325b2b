"""shlo-signless-loop-carries: while loops that scatter into a carried unsigned tensor (IREE
3.13 alone fails to compile them) compile and are exact against numpy on cpu and vulkan."""
import numpy as np
import pytest

import shlo
from shlo.errors import CompileError

NUMPY = {"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}


def _target(target: str) -> str:
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    return target


def _scatter_loop(element: str, rows: int, columns: int, chunk: int, out_rows: int) -> str:
    """A loop of rows // chunk trips, each scattering-adding `chunk` rows of the argument into
    the carried [out_rows, columns] accumulator at the rows `idx` gives."""
    trips = rows // chunk
    t, u = f"tensor<{out_rows}x{columns}x{element}>", f"tensor<{chunk}x{columns}x{element}>"
    return f'''func.func @main(%x: tensor<{rows}x{columns}x{element}>, %idx: tensor<{rows}x1xi32>) -> {t} {{
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %cn = stablehlo.constant dense<{trips}> : tensor<i32>
  %cc = stablehlo.constant dense<{chunk}> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<{element}>
  %zeros = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<{element}>) -> {t}
  %r:2 = stablehlo.while(%i = %c0, %a = %zeros) : tensor<i32>, {t}
  cond {{
    %b = stablehlo.compare LT, %i, %cn, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %b : tensor<i1>
  }} do {{
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %at = stablehlo.multiply %i, %cc : tensor<i32>
    %ix = stablehlo.dynamic_slice %idx, %at, %c0, sizes = [{chunk}, 1] : (tensor<{rows}x1xi32>, tensor<i32>, tensor<i32>) -> tensor<{chunk}x1xi32>
    %u = stablehlo.dynamic_slice %x, %at, %c0, sizes = [{chunk}, {columns}] : (tensor<{rows}x{columns}x{element}>, tensor<i32>, tensor<i32>) -> {u}
    %s = "stablehlo.scatter"(%a, %ix, %u) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}}> ({{
      ^bb0(%p: tensor<{element}>, %q: tensor<{element}>):
        %sum = stablehlo.add %p, %q : tensor<{element}>
        stablehlo.return %sum : tensor<{element}>
      }}) : ({t}, tensor<{chunk}x1xi32>, {u}) -> {t}
    stablehlo.return %n, %s : tensor<i32>, {t}
  }}
  return %r#1 : {t}
}}'''


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("element", ["ui8", "ui32"])
def test_loop_scattering_into_a_carried_unsigned_tensor(target, element):
    """48 trips of 6 rows of 603 into 152 rows, with the pass alone: IREE alone fails ('failed
    to legalize unresolved materialization from tensor<152x603xi8> to tensor<152x603xui8>')."""
    dtype = NUMPY[element]
    rng = np.random.default_rng(0)
    x = rng.integers(0, np.iinfo(dtype).max, (288, 603), dtype=np.uint64).astype(dtype)
    idx = (np.arange(288, dtype=np.int32) // 2).reshape(288, 1)
    text = _scatter_loop(element, 288, 603, 6, 152)
    with pytest.raises(CompileError, match="unresolved materialization"):
        shlo.compile(text, target=_target(target), pipeline="none", cache=False)
    got = shlo.compile(text, target=target, cache=False,
                       pipeline="builtin.module(shlo-signless-loop-carries)")(x, idx)
    want = np.zeros((152, 603), dtype)
    np.add.at(want, idx[:, 0], x)                         # wraps around like the ui8 sum
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32"])
def test_scatter_add_of_unsigned_rows(target, dtype):
    """`zeros.at[i // 2].add(x)` of uint[301, 603] (a probe at real sizes): on vulkan
    shlo-split-long-reduce cut the scatter into a loop of chunks, which IREE failed to compile."""
    jax = pytest.importorskip("jax")

    def program(x):
        rows = np.arange(x.shape[0]) // 2
        return jax.numpy.zeros((x.shape[0] // 2 + 1, x.shape[1]), x.dtype).at[rows].add(x)
    x = np.random.default_rng(1).integers(0, 200, (301, 603)).astype(dtype)
    text = jax.jit(program).lower(x).as_text()
    got = shlo.compile(text, target=_target(target), cache=False)(x)
    want = np.zeros((151, 603), dtype)
    np.add.at(want, np.arange(301) // 2, x)
    np.testing.assert_array_equal(np.asarray(got), want)
