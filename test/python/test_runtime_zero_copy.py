"""Zero-copy inputs on CPU: aligned arrays are read in place, results stay right, inputs unchanged.

Modules IREE only reads (zero-copy), and modules with ops that IREE updates in place
(dynamic_update_slice, scatter, loops), whose updated inputs must be copied while the
inputs they only read need not be; `identity` tempts IREE into handing an input back.
numpy is the oracle.
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


IN_PLACE_UPDATES = """
func.func @scatter_add(%a: tensor<4096xf32>, %i: tensor<512xi32>, %u: tensor<512xf32>)
    -> tensor<4096xf32> {
  %i2 = stablehlo.reshape %i : (tensor<512xi32>) -> tensor<512x1xi32>
  %0 = "stablehlo.scatter"(%a, %i2, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<4096xf32>, tensor<512x1xi32>, tensor<512xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func @scatter_at_constant_indices(%a: tensor<4096xf32>, %u: tensor<4xf32>)
    -> tensor<4096xf32> {
  %i = stablehlo.constant dense<[[3], [7], [3], [4095]]> : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<4096xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func @reshaped_update(%a: tensor<64x64xf32>, %u: tensor<16xf32>, %i: tensor<i32>)
    -> tensor<4096xf32> {
  %r = stablehlo.reshape %a : (tensor<64x64xf32>) -> tensor<4096xf32>
  %0 = stablehlo.dynamic_update_slice %r, %u, %i
       : (tensor<4096xf32>, tensor<16xf32>, tensor<i32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func @loop_updates_a_capture(%a: tensor<4096xf32>, %u: tensor<16xf32>) -> tensor<4096xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c12 = stablehlo.constant dense<12> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<4096xf32>
  %0:2 = stablehlo.while(%k = %c0, %acc = %z) : tensor<i32>, tensor<4096xf32>
    cond {
      %p = stablehlo.compare LT, %k, %c12 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i = stablehlo.multiply %k, %c3 : tensor<i32>
      %w = stablehlo.dynamic_update_slice %a, %u, %i
           : (tensor<4096xf32>, tensor<16xf32>, tensor<i32>) -> tensor<4096xf32>
      %s = stablehlo.add %acc, %w : tensor<4096xf32>
      %n = stablehlo.add %k, %c1 : tensor<i32>
      stablehlo.return %n, %s : tensor<i32>, tensor<4096xf32>
    }
  return %0#1 : tensor<4096xf32>
}
func.func @branch_hands_back_an_input(%p: tensor<i1>, %a: tensor<4096xf32>, %b: tensor<4096xf32>,
                                      %u: tensor<16xf32>) -> tensor<4096xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<4096xf32>
  }, {
    stablehlo.return %b : tensor<4096xf32>
  }) : (tensor<i1>) -> tensor<4096xf32>
  %c = stablehlo.constant dense<5> : tensor<i32>
  %1 = stablehlo.dynamic_update_slice %0, %u, %c
       : (tensor<4096xf32>, tensor<16xf32>, tensor<i32>) -> tensor<4096xf32>
  return %1 : tensor<4096xf32>
}
"""


def test_inputs_read_in_place_are_marked_per_input(exe, ctx):
    assert exe.function("add").inputs_in_place == (True, True)
    assert exe.function("identity").inputs_in_place == (True,)     # `public` spelled out
    update = shlo.compile(shlo.parse_module(UPDATE, context=ctx), target="cpu")
    assert update.function("update").inputs_in_place == (False, True, True)
    updates = shlo.compile(shlo.parse_module(IN_PLACE_UPDATES, context=ctx), target="cpu")
    # a scatter with run-time indices updates a padded copy of its operand (out-of-bounds
    # updates go to the extra row): no input is updated; with constant indices in bounds,
    # it updates its operand
    assert updates.function("scatter_add").inputs_in_place == (True, True, True)
    assert updates.function("scatter_at_constant_indices").inputs_in_place == (False, True)
    assert updates.function("reshaped_update").inputs_in_place == (False, True, True)
    assert not updates.function("loop_updates_a_capture").inputs_in_place[0]
    assert updates.function("branch_hands_back_an_input").inputs_in_place == (
        True, False, False, True)


def test_updated_inputs_are_copied_and_read_inputs_are_not_written(ctx):
    exe = shlo.compile(shlo.parse_module(IN_PLACE_UPDATES, context=ctx), target="cpu")
    rng = np.random.default_rng(20)
    a = aligned(rng.standard_normal(4096).astype(np.float32))
    b = aligned(rng.standard_normal(4096).astype(np.float32))
    i = aligned(rng.integers(0, 4096, 512).astype(np.int32))
    u = aligned(rng.standard_normal(512).astype(np.float32))
    originals = [x.copy() for x in (a, b, i, u)]

    want = a.copy()
    np.add.at(want, i, u)
    np.testing.assert_allclose(exe.function("scatter_add")(a, i, u), want, rtol=1e-6)
    want = a.copy()
    np.add.at(want, [3, 7, 3, 4095], u[:4])
    np.testing.assert_allclose(exe.function("scatter_at_constant_indices")(a, u[:4].copy()),
                               want, rtol=1e-6)
    want = a.copy()
    want[9:25] = u[:16]
    np.testing.assert_array_equal(
        exe.function("reshaped_update")(a.reshape(64, 64), u[:16].copy(), np.int32(9)), want)
    want = np.zeros(4096, np.float32)
    for k in range(12):
        w = a.copy()
        w[3 * k:3 * k + 16] = u[:16]
        want += w
    np.testing.assert_allclose(exe.function("loop_updates_a_capture")(a, u[:16].copy()), want,
                               rtol=1e-6)
    for p, src in ((True, a), (False, b)):
        want = src.copy()
        want[5:21] = u[:16]
        np.testing.assert_array_equal(exe.function("branch_hands_back_an_input")(
            np.bool_(p), a, b, u[:16].copy()), want)
    for x, x0 in zip((a, b, i, u), originals):
        np.testing.assert_array_equal(x, x0)


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
@pytest.mark.every_case
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


def test_private_copies_are_reused_from_call_to_call(ctx, monkeypatch):
    """One aligned copy per unaligned input, kept across calls (a fresh one per call cost
    page faults), without a result ever seeing the next call's data."""
    from shlo.runtime import devices
    exe = shlo.compile(shlo.parse_module(MODULE, context=ctx), target="cpu")
    made = []

    def counting(shape, dtype=np.float32):
        made.append(tuple(shape))
        return empty_aligned(shape, dtype)
    monkeypatch.setattr(devices, "empty_aligned", counting)
    identity, add = exe.function("identity"), exe.function("add")
    inputs = [unaligned(4096, 20 + i) for i in range(5)]
    returned = [identity(x)[0] for x in inputs]     # each hands its (copied) input back
    for x, same in zip(inputs, returned):
        np.testing.assert_array_equal(same, x)
    for i in range(5):
        a, b = unaligned(4096, 30 + i), unaligned(4096, 40 + i)
        np.testing.assert_array_equal(add(a, b), a + b)
    assert made == [(4096,)] * 3        # identity's input, add's two inputs
    update = shlo.compile(shlo.parse_module(UPDATE, context=ctx), target="cpu")
    results = []
    for i in range(3):
        a, u = unaligned(4096, 50 + i), unaligned(16, 60 + i)
        want = a.copy()
        want[10 * i:10 * i + 16] = u
        results.append((update(a, u, np.int32(10 * i)), want))
    for got, want in results:           # IREE updated the kept copy in place: results copied
        np.testing.assert_array_equal(got, want)


def test_private_copies_from_threads_at_once(exe):
    from concurrent.futures import ThreadPoolExecutor
    add = exe.function("add")

    def work(seed):
        for i in range(40):
            a, b = unaligned(4096, seed * 100 + i), unaligned(4096, seed * 100 + 50 + i)
            np.testing.assert_array_equal(add(a, b), a + b)
    with ThreadPoolExecutor(3) as pool:
        list(pool.map(work, range(3)))
