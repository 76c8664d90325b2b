"""shlo-widen-f6: 6-bit floats (which IREE cannot store) computed in f32 on their grid.
Conversions to f6 (ties, subnormals, saturation), constants and arithmetic match ml_dtypes'
f6 types (an independent implementation) on CPU and Vulkan; f6 at a function's boundary and
bitcasts of f6 are one-line errors. One module per target."""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

TYPES = {"f6E2M3FN": ml_dtypes.float6_e2m3fn, "f6E3M2FN": ml_dtypes.float6_e3m2fn}
N = 64


def _text():
    out = []
    for name in TYPES:
        t, s = f"tensor<{N}x{name}>", f"tensor<{N}xf32>"
        out.append(f"""func.func @round_{name}(%x: {s}) -> {s} {{
  %0 = stablehlo.convert %x : ({s}) -> {t}
  %1 = stablehlo.convert %0 : ({t}) -> {s}
  return %1 : {s}
}}
func.func @arith_{name}(%x: {s}, %y: {s}) -> {s} {{
  %a = stablehlo.convert %x : ({s}) -> {t}
  %b = stablehlo.convert %y : ({s}) -> {t}
  %c = stablehlo.constant dense<1.5> : {t}
  %p = stablehlo.multiply %a, %b : {t}
  %q = stablehlo.add %p, %c : {t}
  %r = stablehlo.reverse %q, dims = [0] : {t}
  %o = stablehlo.convert %r : ({t}) -> {s}
  return %o : {s}
}}""")
    return "\n".join(out)


def _inputs():
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(-40, 40, N // 2), rng.uniform(-0.3, 0.3, N // 4),
                        [0.0625 * 1.5, 0.0625 * 2.5, 7.75, 28.5, 100.0, -100.0, 0.03125, -0.0,
                         1.0625, 1.1875, 5.5, 6.5, 0.01, -3.14, 0.1875, 0.3125]])
    y = rng.uniform(-3, 3, N)
    return x.astype(np.float32), y.astype(np.float32)


def _via(dtype, v):
    return np.asarray(v, np.float32).astype(dtype).astype(np.float32)


def _check(exe):
    x, y = _inputs()
    for name, dtype in TYPES.items():
        np.testing.assert_array_equal(exe.function(f"round_{name}")(x), _via(dtype, x),
                                      err_msg=name)
        a, b = _via(dtype, x), _via(dtype, y)
        want = _via(dtype, _via(dtype, a * b) + np.float32(1.5))[::-1]
        np.testing.assert_array_equal(exe.function(f"arith_{name}")(x, y), want, err_msg=name)


def test_cpu(ctx):
    _check(shlo.compile(shlo.parse_module(_text(), context=ctx), target="cpu"))


def test_vulkan(ctx):
    vulkan_or_skip()
    _check(shlo.compile(shlo.parse_module(_text(), context=ctx), target="vulkan"))


@pytest.mark.parametrize("text, message", [
    ("func.func @f(%x: tensor<4xf6E2M3FN>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.convert %x : (tensor<4xf6E2M3FN>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}",
     r"function @f takes or returns tensor<4xf6E2M3FN>: IREE 3.13 cannot store 6-bit floats"),
    ("func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf6E3M2FN>\n"
     "  %1 = stablehlo.bitcast_convert %0 : (tensor<4xf6E3M2FN>) -> tensor<4xf6E2M3FN>\n"
     "  %2 = stablehlo.convert %1 : (tensor<4xf6E2M3FN>) -> tensor<4xf32>\n"
     "  return %2 : tensor<4xf32>\n}",
     r"stablehlo.bitcast_convert between tensor<4xf6E3M2FN> and tensor<4xf6E2M3FN> is not "
     r"supported"),
])
@pytest.mark.every_case
def test_f6_at_the_boundary_and_bitcasts_are_clear_errors(ctx, text, message):
    with pytest.raises(shlo.PassError, match=message) as info:
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)
    assert len(str(info.value).splitlines()) == 1


F4 = """func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %a = stablehlo.convert %x : (tensor<64xf32>) -> tensor<64xf4E2M1FN>
  %b = stablehlo.convert %y : (tensor<64xf32>) -> tensor<64xf4E2M1FN>
  %c = stablehlo.constant dense<1.5> : tensor<64xf4E2M1FN>
  %p = stablehlo.multiply %a, %b : tensor<64xf4E2M1FN>
  %q = stablehlo.add %p, %c : tensor<64xf4E2M1FN>
  %r = stablehlo.reverse %q, dims = [0] : tensor<64xf4E2M1FN>
  %o = stablehlo.convert %r : (tensor<64xf4E2M1FN>) -> tensor<64xf32>
  %round = stablehlo.convert %a : (tensor<64xf4E2M1FN>) -> tensor<64xf32>
  return %round, %o : tensor<64xf32>, tensor<64xf32>
}"""


def test_f4_in_f32_on_gpu_targets(ctx):
    """f4=true (the cuda and hip targets' setting: IREE's LLVMGPU backends cannot truncate to
    f4E2M1FN) computes f4E2M1FN in f32 on its grid: ml_dtypes' values on the CPU, and the
    program compiles for CUDA (without it: 'missing LLVMTranslationDialectInterface
    registration ... arith.truncf')."""
    from shlo.pipelines import default_pipeline, with_pass_options
    from shlo.pipelines.targets import get_target
    assert ("shlo-widen-f6", "f4=true") in get_target("cuda").pass_options
    assert ("shlo-widen-f6", "f4=true") in get_target("hip").pass_options
    widened = shlo.parse_module(F4, context=ctx)
    from shlo.passes.element_types.widen_f6 import WidenF6
    WidenF6(f4=True).apply(widened)
    assert "f4E2M1FN" not in str(widened)
    exe = shlo.compile(shlo.parse_module(F4, context=ctx), target="cpu",
                       pipeline=with_pass_options(default_pipeline(), [("shlo-widen-f6", "f4=true")]))
    x, y = _inputs()
    f4 = ml_dtypes.float4_e2m1fn
    a, b = _via(f4, x), _via(f4, y)
    round_trip, arith = exe(x, y)
    np.testing.assert_array_equal(round_trip, a)
    np.testing.assert_array_equal(arith, _via(f4, _via(f4, a * b) + np.float32(1.5))[::-1])
    shlo.compile(shlo.parse_module(F4, context=ctx), target="cuda:sm_90a", cache=False)
