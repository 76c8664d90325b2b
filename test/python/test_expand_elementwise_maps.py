"""shlo-expand-elementwise-maps: maps of elementwise bodies computed as whole-tensor ops, so
later passes see them. map(sin(a - b)) of one operand read twice, f16 and f32, 65536 values
with infinities and NaNs, against numpy on cpu and vulkan: on Vulkan the body's x - x was
folded to 0 (sin(inf - inf) = 0, not NaN; fuzz seed 114 program 374) while shlo-accurate-math's
sine kept the map a map."""
import numpy as np
import pytest

import shlo

N = 65536


def _map(t: str) -> str:
    return f"""func.func @main(%x: tensor<{N}x{t}>) -> tensor<{N}x{t}> {{
  %0 = "stablehlo.map"(%x, %x) <{{dimensions = array<i64: 0>}}> ({{
  ^bb0(%a: tensor<{t}>, %b: tensor<{t}>):
    %d = stablehlo.subtract %a, %b : tensor<{t}>
    %s = stablehlo.sine %d : tensor<{t}>
    %r = stablehlo.add %s, %a : tensor<{t}>
    stablehlo.return %r : tensor<{t}>
  }}) : (tensor<{N}x{t}>, tensor<{N}x{t}>) -> tensor<{N}x{t}>
  return %0 : tensor<{N}x{t}>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_map_of_a_self_difference(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    for t, dtype in (("f16", np.float16), ("f32", np.float32)):
        x = np.random.default_rng(374).uniform(-4, 4, N).astype(dtype)
        x[::97], x[1::97], x[2::97] = np.inf, -np.inf, np.nan
        got = np.asarray(shlo.compile(_map(t), target=target)(x))
        with np.errstate(invalid="ignore"):
            want = np.sin(x - x) + x
        np.testing.assert_array_equal(got, want, err_msg=t)
