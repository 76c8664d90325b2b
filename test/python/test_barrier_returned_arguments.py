"""shlo-barrier-returned-arguments: a function that returns its argument x (or a view of it)
and also updates or sorts x gets x back unchanged, on cpu and vulkan, at 64K elements, against
numpy. IREE 3.13 returned x's own buffer after updating it in place (1024 of 65536 wrong for
a dynamic_update_slice, silently; shlo-fuzz seed 30 programs 35 and 484)."""
import numpy as np
import pytest

import shlo

SORT_BODY = """({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare LT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    })"""
UPDATE = """func.func @main(%x: tensor<65536xf32>, %u: tensor<1024xf32>, %i: tensor<i32>)
    -> (tensor<65536xf32>, tensor<65536xf32>, tensor<256x256xf32>) {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<65536xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<65536xf32>
  %r = stablehlo.reshape %x : (tensor<65536xf32>) -> tensor<256x256xf32>
  return %x, %0, %r : tensor<65536xf32>, tensor<65536xf32>, tensor<256x256xf32>
}"""
# a view alone returned: the rows of x sorted (IREE's own sort), and x itself as [256, 64]
SORT = f"""func.func @main(%x: tensor<64x256xf32>) -> (tensor<256x64xf32>, tensor<64x256xf32>) {{
  %0 = "stablehlo.sort"(%x) <{{dimension = 1 : i64, is_stable = false}}> {SORT_BODY} : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = stablehlo.reshape %x : (tensor<64x256xf32>) -> tensor<256x64xf32>
  return %r, %0 : tensor<256x64xf32>, tensor<64x256xf32>
}}"""


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_updated_argument_comes_back_unchanged(target):
    _target(target)
    x = np.random.default_rng(0).standard_normal(65536).astype(np.float32)
    u = np.full(1024, -7.0, np.float32)
    exe = shlo.compile(UPDATE, target=target)
    for i in (100, 65000, -5):
        same, updated, reshaped = (np.asarray(r) for r in exe(x, u, np.int32(i)))
        start = min(max(i, 0), 65536 - 1024)
        want = x.copy()
        want[start:start + 1024] = u
        np.testing.assert_array_equal(same, x, err_msg=f"start {i}")
        np.testing.assert_array_equal(reshaped, x.reshape(256, 256), err_msg=f"start {i}")
        np.testing.assert_array_equal(updated, want, err_msg=f"start {i}")


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sorted_argument_comes_back_unchanged_as_a_view(target):
    _target(target)
    x = np.random.default_rng(1).standard_normal((64, 256)).astype(np.float32)
    view, ordered = (np.asarray(r) for r in shlo.compile(SORT, target=target)(x))
    np.testing.assert_array_equal(view, x.reshape(256, 64))
    np.testing.assert_array_equal(ordered, np.sort(x, axis=1))


# x returned through ops IREE folds to x, next to a sort of x: IREE sorted x's own buffer in
# place and returned it for each (seed 72 program 163: the reduce over no dimensions).
# shlo-fold-identity-ops folds them first, so this pass sees x.
T = "tensor<256x256xf32>"
IDENTITIES = f"""func.func @main(%x: {T}, %k: tensor<i32>) -> ({T}, {T}, {T}, {T}, {T}, {T}, {T}, {T}) {{
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %lo = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %hi = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> {T}
  %n = stablehlo.negate %x : {T}
  %0 = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [] : ({T}, tensor<f32>) -> {T}
  %1 = stablehlo.pad %x, %zero, low = [0, 0], high = [0, 0], interior = [0, 0] : ({T}, tensor<f32>) -> {T}
  %2 = stablehlo.select %true, %x, %n : (tensor<i1>, {T}, {T}) -> {T}
  %3 = stablehlo.multiply %x, %ones : {T}
  %4 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, {T}, tensor<f32>) -> {T}
  %5 = "stablehlo.case"(%k) ({{
    stablehlo.return %x : {T}
  }}) : (tensor<i32>) -> {T}
  %6 = stablehlo.concatenate %x, dim = 0 : ({T}) -> {T}
  %s = "stablehlo.sort"(%x) <{{dimension = 1 : i64, is_stable = false}}> {SORT_BODY} : ({T}) -> {T}
  return %0, %1, %2, %3, %4, %5, %6, %s : {T}, {T}, {T}, {T}, {T}, {T}, {T}, {T}
}}"""


@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_argument_returned_through_identities_comes_back_unchanged(target):
    _target(target)
    x = np.random.default_rng(2).standard_normal((256, 256)).astype(np.float32)
    *same, ordered = (np.asarray(r) for r in shlo.compile(IDENTITIES, target=target)(x, np.int32(3)))
    for i, r in enumerate(same):
        np.testing.assert_array_equal(r, x, err_msg=f"result {i}")
    np.testing.assert_array_equal(ordered, np.sort(x, axis=1))
