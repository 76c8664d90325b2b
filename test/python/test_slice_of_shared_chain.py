"""shlo-slice-before-elementwise: a slice of a few elements crosses elementwise ops that other
ops also read whole (seed 66 program 140: one element of `convert(convert(x, i32), i1)` as an
`if`'s predicate, the i32 value also read whole by both branches: IREE's Vulkan dispatch kept
the whole i32 tensor in shared memory, 62528 bytes of lavapipe's 32768, and failed to compile),
and a slice crosses the diamonds of its chain (seed 67 program 1144: `convert(f16 -> bf16)[:8]`,
whose bf16 rounding reads values twice, kept f16[16384] whole: 65536 bytes). Against numpy at
1M elements, cpu and vulkan."""
import numpy as np
import pytest

import shlo

N = 1 << 20
TEXT = f"""func.func @main(%x: tensor<16x{N // 16}xf16>) -> tensor<16x{N // 16}xi32> {{
  %lo = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
  %hi = stablehlo.constant dense<6.550400e+04> : tensor<f16>
  %c = stablehlo.clamp %lo, %x, %hi : (tensor<f16>, tensor<16x{N // 16}xf16>, tensor<f16>) -> tensor<16x{N // 16}xf16>
  %i = stablehlo.convert %c : (tensor<16x{N // 16}xf16>) -> tensor<16x{N // 16}xi32>
  %b = stablehlo.convert %i : (tensor<16x{N // 16}xi32>) -> tensor<16x{N // 16}xi1>
  %r = stablehlo.reshape %b : (tensor<16x{N // 16}xi1>) -> tensor<{N}xi1>
  %s = stablehlo.slice %r [0:1] : (tensor<{N}xi1>) -> tensor<1xi1>
  %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
  %y = "stablehlo.if"(%p) ({{
    %one = stablehlo.constant dense<1> : tensor<16x{N // 16}xi32>
    %d = stablehlo.subtract %i, %one : tensor<16x{N // 16}xi32>
    stablehlo.return %d : tensor<16x{N // 16}xi32>
  }}, {{
    %five = stablehlo.constant dense<5> : tensor<16x{N // 16}xi32>
    %e = stablehlo.xor %i, %five : tensor<16x{N // 16}xi32>
    stablehlo.return %e : tensor<16x{N // 16}xi32>
  }}) : (tensor<i1>) -> tensor<16x{N // 16}xi32>
  return %y : tensor<16x{N // 16}xi32>
}}"""


ROUNDED = f"""func.func @main(%x: tensor<{N}xf16>, %y: tensor<8xbf16>) -> tensor<2xbf16> {{
  %0 = stablehlo.convert %x : (tensor<{N}xf16>) -> tensor<{N}xbf16>
  %1 = stablehlo.slice %0 [0:8] : (tensor<{N}xbf16>) -> tensor<8xbf16>
  %2 = stablehlo.clamp %1, %y, %y : tensor<8xbf16>
  %3 = stablehlo.slice %2 [3:8:3] : (tensor<8xbf16>) -> tensor<2xbf16>
  return %3 : tensor<2xbf16>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_a_slice_of_a_rounded_convert(target):
    import ml_dtypes
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(ROUNDED, target=target, cache=False)
    rng = np.random.default_rng(1144)
    x = (rng.standard_normal(N) * 100).astype(np.float16)
    y = (rng.standard_normal(8) * 100).astype(ml_dtypes.bfloat16)
    low = x[:8].astype(ml_dtypes.bfloat16).astype(np.float32)
    want = np.minimum(np.maximum(low, y.astype(np.float32)), y.astype(np.float32))[3:8:3]
    np.testing.assert_array_equal(np.asarray(exe(x, y)).astype(np.float32), want)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_one_element_of_a_shared_convert_as_a_predicate(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(TEXT, target=target, cache=False)
    rng = np.random.default_rng(140)
    x = (rng.standard_normal((16, N // 16)) * 1000).astype(np.float16)
    for first in (0.0, 3.0):                    # both branches
        x[0, 0] = first
        i = x.astype(np.int32)
        want = i - 1 if first else i ^ 5
        np.testing.assert_array_equal(np.asarray(exe(x)), want)
