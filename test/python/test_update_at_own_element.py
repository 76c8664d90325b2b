"""dynamic_update_slice(x, x[:32, :600], i, j) with i and j computed from x's own elements, then
compared with x and selected (the shape of fuzz seed 75 program 237, whose cpu compile hung on
shlo-copy-overlapping-updates' filler), at i8[64, 1000] against numpy."""
import numpy as np
import pytest

import shlo

PROGRAM = """func.func @main(%x: tensor<64x1000xi8>) -> tensor<64x1000xi8> {
  %u = stablehlo.slice %x [0:32, 0:600] : (tensor<64x1000xi8>) -> tensor<32x600xi8>
  %w = stablehlo.convert %x : (tensor<64x1000xi8>) -> tensor<64x1000xi32>
  %a = stablehlo.slice %w [0:1, 0:1] : (tensor<64x1000xi32>) -> tensor<1x1xi32>
  %b = stablehlo.slice %w [0:1, 1:2] : (tensor<64x1000xi32>) -> tensor<1x1xi32>
  %a0 = stablehlo.reshape %a : (tensor<1x1xi32>) -> tensor<i32>
  %b0 = stablehlo.reshape %b : (tensor<1x1xi32>) -> tensor<i32>
  %m = stablehlo.constant dense<40> : tensor<i32>
  %n = stablehlo.constant dense<450> : tensor<i32>
  %i = stablehlo.remainder %a0, %m : tensor<i32>
  %j = stablehlo.multiply %b0, %n : tensor<i32>
  %d = stablehlo.dynamic_update_slice %x, %u, %i, %j
    : (tensor<64x1000xi8>, tensor<32x600xi8>, tensor<i32>, tensor<i32>) -> tensor<64x1000xi8>
  %c = stablehlo.compare LE, %x, %d, SIGNED : (tensor<64x1000xi8>, tensor<64x1000xi8>) -> tensor<64x1000xi1>
  %s = stablehlo.select %c, %d, %x : tensor<64x1000xi1>, tensor<64x1000xi8>
  return %s : tensor<64x1000xi8>
}"""


def _expected(x: np.ndarray) -> np.ndarray:
    a, b = int(x[0, 0]), int(x[0, 1])
    i = min(max(int(np.fmod(a, 40)), 0), 64 - 32)          # remainder truncates; starts clamp
    j = min(max(b * 450, 0), 1000 - 600)
    d = x.copy()
    d[i:i + 32, j:j + 600] = x[:32, :600]
    return np.where(x <= d, d, x)


@pytest.mark.parametrize("corner", [(13, 0), (-7, 1), (127, -128), (30, 2)])
def test_update_at_own_element(corner):
    rng = np.random.default_rng(abs(corner[0]))
    x = rng.integers(-128, 128, (64, 1000), dtype=np.int8)
    x[0, 0], x[0, 1] = corner
    exe = shlo.compile(PROGRAM, target="cpu", cache=False)
    got = np.asarray(exe(x))
    assert np.array_equal(got, _expected(x))
