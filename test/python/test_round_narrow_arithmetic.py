"""shlo-round-narrow-arithmetic: chains of bf16 ops give the reference interpreter's bits (it
rounds every op to bf16, as the spec says) on CPU and Vulkan. IREE alone kept the chains in
f32 and matched it in 35-83 % of the elements. The functions take and return the bf16 bits as
ui16 (the interpreter's Python entry takes no bf16 arrays). 8-bit float products near the
smallest normal match ml_dtypes' rounding."""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip
from reference_oracle import evaluate

BF16 = ml_dtypes.bfloat16
N = 512
B, U = f"tensor<{N}xbf16>", f"tensor<{N}xui16>"

# name -> (the chain on %x, %y (bf16), giving %r; extra arguments (name, type, numpy array))
CHAINS = {
    "mul_add": ("%p = stablehlo.multiply %x, %y : {B}\n  %r = stablehlo.add %p, %x : {B}", []),
    "sine_of_product": ("%c = stablehlo.constant dense<10.0> : {B}\n"
                        "  %p = stablehlo.multiply %x, %c : {B}\n"
                        "  %s = stablehlo.sine %p : {B}\n  %r = stablehlo.add %s, %y : {B}", []),
    "hypot": ("%a = stablehlo.multiply %x, %x : {B}\n  %b = stablehlo.multiply %y, %y : {B}\n"
              "  %s = stablehlo.add %a, %b : {B}\n  %r = stablehlo.sqrt %s : {B}", []),
    "quotient": ("%c = stablehlo.constant dense<1.0> : {B}\n  %s = stablehlo.add %x, %c : {B}\n"
                 "  %p = stablehlo.multiply %x, %s : {B}\n  %r = stablehlo.divide %p, %y : {B}", []),
    "from_f32": ("%t = stablehlo.multiply %w, %w : tensor<{N}xf32>\n"
                 "  %c = stablehlo.convert %t : (tensor<{N}xf32>) -> {B}\n"
                 "  %r = stablehlo.multiply %c, %y : {B}", [("w", "f32")]),
    "from_f64": ("%t = stablehlo.multiply %w, %w : tensor<{N}xf64>\n"
                 "  %c = stablehlo.convert %t : (tensor<{N}xf64>) -> {B}\n"
                 "  %r = stablehlo.add %c, %y : {B}", [("w", "f64")]),
}


def _function(name: str, chain: str, extra) -> str:
    args = "".join(f", %{n}: tensor<{N}x{t}>" for n, t in extra)
    return f"""func.func @{name}(%xb: {U}, %yb: {U}{args}) -> {U} {{
  %x = stablehlo.bitcast_convert %xb : ({U}) -> {B}
  %y = stablehlo.bitcast_convert %yb : ({U}) -> {B}
  {chain.format(B=B, N=N)}
  %rb = stablehlo.bitcast_convert %r : ({B}) -> {U}
  return %rb : {U}
}}"""


def _bits(values) -> np.ndarray:
    return np.asarray(values, np.float32).astype(BF16).view(np.uint16)


def _cases():
    rng = np.random.default_rng(9)
    cases = []
    for name, (chain, extra) in CHAINS.items():
        args = [_bits(rng.standard_normal(N)), _bits(rng.standard_normal(N) + 3.0)]
        args += [rng.standard_normal(N).astype(t.replace("f", "float")) for _, t in extra]
        cases.append((name, _function(name, chain, extra), args))
    return cases


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_bf16_chains_round_every_op(target):
    if target == "vulkan":
        vulkan_or_skip()
    cases = _cases()
    exe = shlo.compile("\n".join(text for _, text, _ in cases), target=target)
    for name, text, args in cases:
        got = np.asarray(exe.function(name)(*args))
        np.testing.assert_array_equal(got, evaluate(text, args)[0], err_msg=name)


def test_a_bf16_sum_is_rounded_before_it_is_divided():
    """mean = sum / n: the sum (exact in f32 here: multiples of 1/16 below 8) is rounded to
    bf16, then the quotient; IREE alone divided the f32 sum."""
    rows, n = 64, 48
    t, r = f"tensor<{rows}x{n}xbf16>", f"tensor<{rows}xbf16>"
    text = f"""func.func @mean(%x: {t}) -> {r} {{
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<bf16>) -> {r}
  %c = stablehlo.constant dense<{n}.0> : {r}
  %m = stablehlo.divide %s, %c : {r}
  return %m : {r}
}}"""
    x = (np.random.default_rng(4).integers(-128, 128, (rows, n)) / 16).astype(BF16)
    sums = x.astype(np.float64).sum(axis=1).astype(BF16).astype(np.float64)
    want = (sums / n).astype(BF16)
    got = np.asarray(shlo.compile(text, target="cpu")(x))
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


F8 = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
      "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz, "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_8_bit_float_products_near_the_smallest_normal_round_to_it(target):
    """x * y, and x * y * 0.01 (a chain), rounded per op by ml_dtypes: IREE alone gave 0 for
    products just below the smallest normal (e.g. f8E4M3FN 0.0146 -> 0, want 2^-6), in 1-3 %
    of the scaled products."""
    if target == "vulkan":
        vulkan_or_skip()
    functions = []
    for name in F8:
        t = f"tensor<{N}x{name}>"
        functions.append(f"""func.func @products_{name}(%x: {t}, %y: {t}) -> ({t}, {t}) {{
  %p = stablehlo.multiply %x, %y : {t}
  %c = stablehlo.constant dense<0.01> : {t}
  %s = stablehlo.multiply %p, %c : {t}
  return %p, %s : {t}, {t}
}}""")
    exe = shlo.compile("\n".join(functions), target=target)
    rng = np.random.default_rng(8)
    for name, dtype in F8.items():
        x, y = (rng.uniform(-2, 2, N).astype(dtype) for _ in range(2))
        product = (x.astype(np.float64) * y.astype(np.float64)).astype(dtype)
        scaled = (product.astype(np.float64) * float(dtype(0.01))).astype(dtype)
        got = exe.function(f"products_{name}")(x, y)
        for g, want in zip(got, (product, scaled)):
            np.testing.assert_array_equal(np.asarray(g).view(np.uint8), want.view(np.uint8),
                                          err_msg=name)
