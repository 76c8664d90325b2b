"""shlo-legalize-e8m0: conversions to and from f8E8M0FNU and arithmetic on it, against the
reference interpreter (APFloat's rounding) on CPU and Vulkan. Values cross as their bytes
(ui8 bitcasts), so the interpreter, which cannot return f8E8M0FNU arrays, sees them too."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import compile_functions, evaluate, function_name

F32_EDGES = np.array([1.0, 1.5, 3.0, 1.4999, 1.50001, 2.9999, 6.0, 0.75, 0.0, -0.0, -1.0,
                      np.inf, -np.inf, np.nan, 1e-39, 5.877e-39, 8.9e-39, 8.7e-39, 1e-38,
                      1.2e-38, 1e-45, 3e38, 1.7e38, 2.5e38, 2.6e38, 1e38, 2.0**-126,
                      2.0**127, 1.5 * 2.0**-127, 1.5 * 2.0**-126, 7.0], np.float32)


def _to_e8m0(source: str, n: int) -> str:
    return f"""func.func @from_{source}(%x: tensor<{n}x{source}>) -> tensor<{n}xui8> {{
      %q = stablehlo.convert %x : (tensor<{n}x{source}>) -> tensor<{n}xf8E8M0FNU>
      %r = stablehlo.bitcast_convert %q : (tensor<{n}xf8E8M0FNU>) -> tensor<{n}xui8>
      return %r : tensor<{n}xui8>
    }}"""


def _from_e8m0(target: str) -> str:
    return f"""func.func @to_{target}(%b: tensor<256xui8>) -> tensor<256x{target}> {{
      %x = stablehlo.bitcast_convert %b : (tensor<256xui8>) -> tensor<256xf8E8M0FNU>
      %r = stablehlo.convert %x : (tensor<256xf8E8M0FNU>) -> tensor<256x{target}>
      return %r : tensor<256x{target}>
    }}"""


def _binary(op: str) -> str:
    return f"""func.func @{op}(%a: tensor<256xui8>, %b: tensor<256xui8>) -> tensor<256xui8> {{
      %x = stablehlo.bitcast_convert %a : (tensor<256xui8>) -> tensor<256xf8E8M0FNU>
      %y = stablehlo.bitcast_convert %b : (tensor<256xui8>) -> tensor<256xf8E8M0FNU>
      %q = stablehlo.{op} %x, %y : tensor<256xf8E8M0FNU>
      %r = stablehlo.bitcast_convert %q : (tensor<256xf8E8M0FNU>) -> tensor<256xui8>
      return %r : tensor<256xui8>
    }}"""


COMPARE = """func.func @compare(%a: tensor<256xui8>, %b: tensor<256xui8>) -> tensor<256xi1> {
  %x = stablehlo.bitcast_convert %a : (tensor<256xui8>) -> tensor<256xf8E8M0FNU>
  %y = stablehlo.bitcast_convert %b : (tensor<256xui8>) -> tensor<256xf8E8M0FNU>
  %r = stablehlo.compare LT, %x, %y : (tensor<256xf8E8M0FNU>, tensor<256xf8E8M0FNU>) -> tensor<256xi1>
  return %r : tensor<256xi1>
}"""

REDUCE_MAX = """func.func @reduce_max(%a: tensor<16x16xui8>) -> tensor<16xui8> {
  %x = stablehlo.bitcast_convert %a : (tensor<16x16xui8>) -> tensor<16x16xf8E8M0FNU>
  %init = stablehlo.constant dense<0x00> : tensor<f8E8M0FNU>
  %m = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1]
       : (tensor<16x16xf8E8M0FNU>, tensor<f8E8M0FNU>) -> tensor<16xf8E8M0FNU>
  %r = stablehlo.bitcast_convert %m : (tensor<16xf8E8M0FNU>) -> tensor<16xui8>
  return %r : tensor<16xui8>
}"""


def _cases():
    rng = np.random.default_rng(3)
    # negative values other than -1 are left out: e8M0FNU has no sign, numpy (ml_dtypes) and
    # shlo give NaN, the interpreter (APFloat) an unrelated power of two (-0.5 -> 2^127)
    f32 = np.concatenate([F32_EDGES, np.abs(rng.standard_normal(96) * 10.0 ** rng.integers(
        -40, 39, 96)).astype(np.float32)])
    f64 = np.concatenate([F32_EDGES.astype(np.float64), [2.0**-127 * 1.4999999999,
                                                          2.0**-127 * 1.5, 1e-300, 1e300]])
    ints = np.array([0, 1, 2, 3, 5, 6, 7, 12, -1, 2**31 - 1, 2**24 + 1, 96], np.int32)
    f16 = np.array([1.0, 1.5, 3.0, 6e-8, 0.0, -1.0, np.inf, 65504.0], np.float16)
    every = np.arange(256, dtype=np.uint8)
    # no results in f32's subnormal range: IREE's CPU code flushes those (ledger reason)
    a = rng.integers(60, 200, 256).astype(np.uint8)
    b = rng.integers(60, 200, 256).astype(np.uint8)
    a[:4], b[:4] = [255, 127, 254, 128], [127, 255, 1, 128]          # NaN, overflow, ties
    return [(_to_e8m0("f32", len(f32)), [f32]), (_to_e8m0("f64", len(f64)), [f64]),
            (_to_e8m0("i32", len(ints)), [ints]), (_to_e8m0("f16", len(f16)), [f16]),
            (_from_e8m0("f32"), [every]), (_from_e8m0("f64"), [every]),
            (_from_e8m0("f16"), [every]),
            *[(_binary(op), [a, b]) for op in ("multiply", "add", "maximum", "divide")],
            (_binary("subtract"), [np.maximum(a, b), np.minimum(a, b)]),   # no negative results
            (COMPARE, [a, b]), (REDUCE_MAX, [a.reshape(16, 16)])]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_e8m0_matches_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    cases = _cases()
    exe = compile_functions(ctx, cases, target)
    for text, args in cases:
        name = function_name(text)
        got = np.asarray(exe.function(name)(*args))
        want = evaluate(text, args)[0]
        if name.startswith("to_"):
            # NaN (255) stays NaN, as in numpy (ml_dtypes); the interpreter gives +inf
            assert np.isnan(got[255].astype(np.float32)), name
            got, want = got[:255], want[:255]
            if target == "cpu" and name != "to_f64":       # 2^-127 is a subnormal f32/bf16:
                got, want = got[1:], want[1:]              # IREE's CPU code flushes it
            got, want = got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")
        np.testing.assert_array_equal(got, want, err_msg=name)
