"""Results on the CPU drivers are numpy views of IREE's mapped result buffers; a view of a
result (result.reshape(-1), result[1]) must keep that buffer alive after the result itself is
gone. IREE 3.13's MappedMemory.asarray tied the mapping to the array it returned only (for
results of rank other than 1), so such views read freed memory: the next calls' buffers on
both local-sync and local-task, and Python's own allocations on local-sync, where issue 37's
convolution of an i8 max reduce read 14 of 4093 values nonzero on about half the calls
(docs/iree_gaps.md, rt-mapped-result-views). Oracle: numpy, after all calls are made."""
import numpy as np
import pytest

import shlo
from shlo.runtime import standalone_loader

OUT = ((4096 - 1) * 2 + 3 - 9) // 2 + 1      # the dilated, strided convolution
MODULE = f"""
func.func @twice(%x: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {{
  %r = stablehlo.add %x, %x : tensor<4x128x128xf32>
  return %r : tensor<4x128x128xf32>
}}
func.func @conv(%x: tensor<1x4x4096xi8>, %w: tensor<1x1x5xi8>) -> tensor<1x1x{OUT}xi8> {{
  %c = stablehlo.constant dense<-128> : tensor<i8>
  %m = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1]
      : (tensor<1x4x4096xi8>, tensor<i8>) -> tensor<1x4096xi8>
  %y = stablehlo.reshape %m : (tensor<1x4096xi8>) -> tensor<1x1x4096xi8>
  %r = stablehlo.convolution(%y, %w) dim_numbers = [f, b, 0]x[i, o, 0]->[b, f, 0],
      window = {{stride = [2], pad = [[1, 1]], lhs_dilate = [2], rhs_dilate = [2]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : (tensor<1x1x4096xi8>, tensor<1x1x5xi8>) -> tensor<1x1x{OUT}xi8>
  return %r : tensor<1x1x{OUT}xi8>
}}
"""
CALLS = 20


@pytest.fixture(scope="module")
def exe(ctx):
    return shlo.compile(shlo.parse_module(MODULE, context=ctx), target="cpu")


def _junk():
    """Allocations of the sizes just freed, as a program makes between calls."""
    return [np.full(n, 77, np.uint8) for n in (4093, 4096, 8193, 1 << 16, 1 << 18, 1 << 20)]


def _conv_want(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The issue's convolution in numpy: lhs dilated by 2 and padded by 1 on each side."""
    y = np.zeros(2 * 4096 - 1 + 2, np.int64)
    y[1:-1:2] = x.max(axis=1)[0]
    taps = w[0, 0].astype(np.int64)
    return sum(y[2 * k:2 * k + 2 * OUT:2] * taps[k] for k in range(5)).astype(np.int8)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
@pytest.mark.every_case
def test_views_of_results_outlive_the_results(exe, device):
    """64K-element results: views of 20 calls' results, each result dropped at once, all
    equal numpy after the last call (without the fix 19 of 20 had been overwritten)."""
    exe.device = device
    twice, conv = exe.function("twice"), exe.function("conv")
    rng = np.random.default_rng(37)
    w = rng.integers(-3, 4, (1, 1, 5)).astype(np.int8)
    held, junk = [], []
    for _ in range(CALLS):
        x = rng.standard_normal((4, 128, 128)).astype(np.float32)
        held.append((twice(x).reshape(-1), 2 * x.reshape(-1)))
        held.append((twice(x)[1], 2 * x[1]))
        q = rng.integers(-128, 128, (1, 4, 4096)).astype(np.int8)
        held.append((np.asarray(conv(q, w)).reshape(-1), _conv_want(q, w)))
        junk.append(_junk())
    changed = [i for i, (got, want) in enumerate(held) if not np.array_equal(got, want)]
    assert not changed, f"{len(changed)} of {len(held)} views changed on {device}: {changed[:9]}"


def test_standalone_loader_views_outlive_the_results(exe, tmp_path):
    """The deployed loader (no shlo) downloads results the same way."""
    path = tmp_path / "m.vmfb"
    exe.save(str(path))
    module = standalone_loader.load(str(path), device="local-sync")
    rng = np.random.default_rng(38)
    held = []
    for _ in range(CALLS):
        x = rng.standard_normal((4, 128, 128)).astype(np.float32)
        held.append((module.function("twice")(x)[2:].reshape(-1), 2 * x[2:].reshape(-1)))
        _junk()
    assert all(np.array_equal(got, want) for got, want in held)
