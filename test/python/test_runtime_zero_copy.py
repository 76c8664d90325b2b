"""Zero-copy inputs on CPU: aligned arrays are read in place, results stay right, inputs unchanged.

Two modules: one IREE only reads (zero-copy), one that IREE updates in place
(dynamic_update_slice), whose inputs must therefore be copied; `identity` tempts IREE
into handing an input back. numpy is the oracle.
"""
import numpy as np
import pytest

import shlo
from shlo.runtime.devices import ALIGNMENT, aligned, can_import, empty_aligned

MODULE = """
func.func @add(%a: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = stablehlo.add %a, %b : tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func public @identity(%a: tensor<4096xf32>) -> (tensor<4096xf32>, tensor<4096xf32>) {
  %0 = stablehlo.negate %a : tensor<4096xf32>
  return %a, %0 : tensor<4096xf32>, tensor<4096xf32>
}
func.func @wide(%a: tensor<64x64xf64>, %b: tensor<64x64xi8>) -> tensor<64x64xf64> {
  %0 = stablehlo.convert %b : (tensor<64x64xi8>) -> tensor<64x64xf64>
  %1 = stablehlo.multiply %a, %0 : tensor<64x64xf64>
  return %1 : tensor<64x64xf64>
}
"""


UPDATE = """
func.func @update(%a: tensor<4096xf32>, %u: tensor<16xf32>, %i: tensor<i32>) -> tensor<4096xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i
       : (tensor<4096xf32>, tensor<16xf32>, tensor<i32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
"""


@pytest.fixture(scope="module")
def exe(ctx):
    return shlo.compile(shlo.parse_module(MODULE, context=ctx), target="cpu")


def test_read_only_modules_are_marked(exe, ctx):
    assert exe.function("add").inputs_in_place
    assert exe.function("identity").inputs_in_place     # `public` spelled out
    update = shlo.compile(shlo.parse_module(UPDATE, context=ctx), target="cpu")
    assert not update.function("update").inputs_in_place


def floats(n, seed, make=np.empty):
    out = make(n, np.float32)
    out[...] = np.random.default_rng(seed).standard_normal(n)
    return out


def unaligned(n, seed):
    raw = np.empty(n + 16, np.float32)
    offset = (-raw.ctypes.data % ALIGNMENT) // 4 + 1           # 4 bytes past a 64-byte boundary
    out = raw[offset:offset + n]
    out[...] = np.random.default_rng(seed).standard_normal(n)
    return out


def test_aligned_helpers():
    a = empty_aligned((3, 5), np.float64)
    assert a.shape == (3, 5) and a.dtype == np.float64 and a.ctypes.data % ALIGNMENT == 0
    assert empty_aligned((0,)).size == 0
    b = unaligned(100, 0)
    c = aligned(b)
    assert c.ctypes.data % ALIGNMENT == 0 and np.array_equal(b, c)
    assert aligned(c) is c
    assert can_import("local-task", c) and not can_import("local-task", b)
    assert not can_import(None, c)
    assert not can_import("vulkan", c) and not can_import("local-task", c[::2])
    assert can_import("local-task", aligned(b[::2]))


@pytest.mark.parametrize("layout", ["aligned", "unaligned", "strided", "readonly"])
@pytest.mark.parametrize("device", ["local-task", "local-sync"])
def test_add_matches_numpy_and_leaves_inputs_alone(exe, layout, device):
    exe.device = device
    if layout == "aligned":
        a, b = floats(4096, 1, empty_aligned), floats(4096, 2, empty_aligned)
    elif layout == "unaligned":
        a, b = unaligned(4096, 1), unaligned(4096, 2)
    elif layout == "strided":
        a, b = floats(8192, 1)[::2], floats(8192, 2)[1::2]
    else:
        a, b = floats(4096, 1, empty_aligned), floats(4096, 2, empty_aligned)
        a.flags.writeable = b.flags.writeable = False
    a0, b0 = a.copy(), b.copy()
    got = exe.function("add")(a, b)
    np.testing.assert_array_equal(got, a0 + b0)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    assert not np.may_share_memory(got, a) and not np.may_share_memory(got, b)
    exe.device = "local-task"


def test_private_copies_outlive_the_callers_temporaries(exe, ctx):
    """Unaligned inputs reach IREE as aligned copies that only IREE's buffers hold."""
    import gc
    want = unaligned(4096, 11) + unaligned(4096, 12)
    got = exe.function("add")(unaligned(4096, 11), unaligned(4096, 12))
    gc.collect()
    junk = [np.full(4096, 7.0, np.float32) for _ in range(64)]
    np.testing.assert_array_equal(got, want)
    update = shlo.compile(shlo.parse_module(UPDATE, context=ctx), target="cpu")
    a, u = unaligned(4096, 13), unaligned(16, 14)
    a0 = a.copy()
    got = update(a, u, np.int32(7))
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(got[7:23], u)
    del junk


def test_results_are_aligned_so_chained_calls_read_them_in_place(exe):
    a, b = floats(4096, 3, empty_aligned), floats(4096, 4, empty_aligned)
    first = exe.function("add")(a, b)
    assert can_import("local-task", first)
    np.testing.assert_array_equal(exe.function("add")(first, b), (a + b) + b)


def test_an_input_returned_unchanged_is_a_copy(exe):
    a = floats(4096, 5, empty_aligned)
    same, negated = exe.function("identity")(a)
    np.testing.assert_array_equal(same, a)
    np.testing.assert_array_equal(negated, -a)
    assert not np.may_share_memory(same, a)
    same[0] += 1.0
    assert a[0] != same[0]


def test_in_place_update_does_not_write_the_callers_array(ctx):
    exe = shlo.compile(shlo.parse_module(UPDATE, context=ctx), target="cpu")
    a, u = floats(4096, 6, empty_aligned), floats(16, 7, empty_aligned)
    a0 = a.copy()
    got = exe(a, u, np.int32(100))
    want = a0.copy()
    want[100:116] = u
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(a, a0)


def test_other_dtypes_in_place(exe):
    rng = np.random.default_rng(8)
    a = aligned(rng.standard_normal((64, 64)))
    b = aligned(rng.integers(-100, 100, (64, 64)).astype(np.int8))
    np.testing.assert_array_equal(exe.function("wide")(a, b), a * b.astype(np.float64))
