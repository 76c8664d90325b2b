"""shlo-split-arg-reduce: arg-max/arg-min reduces split into two reduces that give numpy's
answer (the first index of the largest/smallest value; NaN counts as the extreme).

One module holds every case; numpy is the oracle. Inputs have ties, NaNs, infinities and
signed zeros. Bodies come from jax (jnp.argmax/argmin), XLA's ArgMax builder (on integers)
and a hand-written "last index" body; a body the pass cannot prove to be an arg-reduce stays.
"""
import os

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.passes.expand.split_arg_reduce import SplitArgReduce


def jax_body(direction, v="f32", i="i32", index_compare="SIGNED"):
    """jnp.argmax (GT) / jnp.argmin (LT): NaN wins, ties go to the smaller index."""
    vt, it = f"tensor<{v}>", f"tensor<{i}>"
    return f"""
     reducer(%a: {vt}, %b: {vt}) (%ia: {it}, %ib: {it})  {{
      %2 = stablehlo.compare {direction}, %a, %b, FLOAT : ({vt}, {vt}) -> tensor<i1>
      %3 = stablehlo.compare NE, %a, %a, FLOAT : ({vt}, {vt}) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %a, %b, FLOAT : ({vt}, {vt}) -> tensor<i1>
      %6 = stablehlo.compare LT, %ia, %ib, {index_compare} : ({it}, {it}) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %a, %b : tensor<i1>, {vt}
      %10 = stablehlo.select %8, %ia, %ib : tensor<i1>, {it}
      stablehlo.return %9, %10 : {vt}, {it}
    }}"""


def xla_body(v, i, compare_type, tie_index="minimum"):
    """XLA's ArgMax: the larger value wins, equal values take the min (or max) index."""
    vt, it = f"tensor<{v}>", f"tensor<{i}>"
    return f"""
     reducer(%a: {vt}, %b: {vt}) (%ia: {it}, %ib: {it})  {{
      %gt = stablehlo.compare GT, %a, %b, {compare_type} : ({vt}, {vt}) -> tensor<i1>
      %m = stablehlo.select %gt, %a, %b : tensor<i1>, {vt}
      %i = stablehlo.select %gt, %ia, %ib : tensor<i1>, {it}
      %eq = stablehlo.compare EQ, %a, %b, {compare_type} : ({vt}, {vt}) -> tensor<i1>
      %t = stablehlo.{tie_index} %ia, %ib : {it}
      %r = stablehlo.select %eq, %t, %i : tensor<i1>, {it}
      stablehlo.return %m, %r : {vt}, {it}
    }}"""


def arg_reduce(name, shape, dim, body, v="f32", i="i32", init_v="0xFF800000", init_i="0"):
    xt = f"tensor<{'x'.join(map(str, shape))}x{v}>"
    it = f"tensor<{'x'.join(map(str, shape))}x{i}>"
    out_shape = [d for k, d in enumerate(shape) if k != dim]
    ov, oi = (f"tensor<{''.join(f'{d}x' for d in out_shape)}{e}>" for e in (v, i))
    return f"""
func.func @{name}(%x: {xt}) -> ({ov}, {oi}) {{
  %iota = stablehlo.iota dim = {dim} : {it}
  %v0 = stablehlo.constant dense<{init_v}> : tensor<{v}>
  %i0 = stablehlo.constant dense<{init_i}> : tensor<{i}>
  %r:2 = stablehlo.reduce(%x init: %v0), (%iota init: %i0) across dimensions = [{dim}]
    : ({xt}, {it}, tensor<{v}>, tensor<{i}>) -> ({ov}, {oi}){body}
  return %r#0, %r#1 : {ov}, {oi}
}}"""


# Rows of 64 or more that are a multiple of 8 long are reduced in lanes first (304, 200, 104
# here); the others (300, 500, 9) in one step.
CASES = {
    "jax_argmax": ((64, 300), 1, jax_body("GT"), {}),
    "jax_argmin": ((64, 300), 1, jax_body("LT"), {"init_v": "0x7F800000"}),
    "jax_argmax_laned": ((64, 304), 1, jax_body("GT"), {}),
    "jax_argmin_laned": ((64, 304), 1, jax_body("LT"), {"init_v": "0x7F800000"}),
    "jax_argmax_dim0_bf16": ((300, 5, 3), 0, jax_body("GT", "bf16"),
                             {"v": "bf16", "init_v": "0xFF80"}),
    "jax_argmax_i64_indices": ((7, 500), 1, jax_body("GT", "f64", "i64"),
                               {"v": "f64", "i": "i64", "init_v": "0xFFF0000000000000"}),
    "xla_argmax_i32": ((40, 200), 1, xla_body("i32", "i32", "SIGNED"),
                       {"v": "i32", "init_v": "-2147483648"}),
    "xla_argmax_last_ui8": ((200, 9), 0, xla_body("ui8", "i32", "UNSIGNED", "maximum"),
                            {"v": "ui8", "init_v": "0"}),
    "xla_argmax_last_rows_ui8": ((9, 200), 1, xla_body("ui8", "i32", "UNSIGNED", "maximum"),
                                 {"v": "ui8", "init_v": "0"}),
    # the init pair wins outright: value +inf beats every finite element, index -1
    "init_wins": ((8, 100), 1, jax_body("GT"), {"init_v": "0x7F800000", "init_i": "-1"}),
    "init_wins_laned": ((8, 104), 1, jax_body("GT"), {"init_v": "0x7F800000", "init_i": "-1"}),
}

MODULE = "\n".join(arg_reduce(name, shape, dim, body, **kw)
                   for name, (shape, dim, body, kw) in CASES.items())


@pytest.fixture(scope="module")
def exe(ctx):
    return shlo.compile(shlo.parse_module(MODULE, context=ctx), target="cpu")


def variadic_reduces(module) -> int:
    return str(module).count(") across dimensions")     # `(%v init: ..), (%i init: ..) across`


def test_every_case_is_split(ctx):
    module = shlo.parse_module(MODULE, context=ctx)
    before = variadic_reduces(module)
    SplitArgReduce().apply(module)
    assert before == len(CASES)
    assert variadic_reduces(module) == 0


def with_specials(x, rng):
    flat = x.reshape(-1)
    for value, count in ((np.inf, 7), (-np.inf, 7), (0.0, 9), (-0.0, 9)):
        flat[rng.integers(0, flat.size, count)] = value
    return x


@pytest.mark.parametrize("width, suffix", [(300, ""), (304, "_laned")])
@pytest.mark.every_case
def test_jax_argmax_rows_with_ties_and_infinities(exe, width, suffix):
    rng = np.random.default_rng(0)
    x = with_specials(rng.integers(-3, 4, (64, width)).astype(np.float32), rng)
    values, indices = exe.function("jax_argmax" + suffix)(x)
    np.testing.assert_array_equal(indices, np.argmax(x, axis=1))
    np.testing.assert_array_equal(values, np.max(x, axis=1))


@pytest.mark.parametrize("width, suffix", [(300, ""), (304, "_laned")])
@pytest.mark.every_case
def test_nan_is_the_largest_and_the_smallest_and_the_first_wins(exe, width, suffix):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, width)).astype(np.float32)
    rows = rng.choice(64, 20, replace=False)
    for r in rows:
        x[r, rng.integers(0, width, 3)] = np.nan
    for name, oracle in (("jax_argmax", np.argmax), ("jax_argmin", np.argmin)):
        values, indices = exe.function(name + suffix)(x)
        np.testing.assert_array_equal(indices, oracle(x, axis=1))   # numpy: first NaN
        assert np.isnan(values[rows]).all()


def test_argmax_over_the_outer_dimension_of_bf16(exe):
    x = np.random.default_rng(2).integers(-5, 5, (300, 5, 3)).astype(ml_dtypes.bfloat16)
    values, indices = exe.function("jax_argmax_dim0_bf16")(x)
    np.testing.assert_array_equal(indices, np.argmax(x.astype(np.float32), axis=0))
    np.testing.assert_array_equal(values, np.max(x, axis=0))


def test_f64_values_with_i64_indices(exe):
    x = np.random.default_rng(3).integers(0, 30, (7, 500)).astype(np.float64)
    values, indices = exe.function("jax_argmax_i64_indices")(x)
    assert indices.dtype == np.int64
    np.testing.assert_array_equal(indices, np.argmax(x, axis=1))


def test_xla_argmax_of_integers(exe):
    x = np.random.default_rng(4).integers(-2**31, 2**31, (40, 200)).astype(np.int32)
    x[:, 150] = x.max(axis=1)                               # ties with an earlier maximum
    values, indices = exe.function("xla_argmax_i32")(x)
    np.testing.assert_array_equal(indices, np.argmax(x, axis=1))
    np.testing.assert_array_equal(values, np.max(x, axis=1))


def test_ties_to_the_last_index(exe):
    x = np.random.default_rng(5).integers(0, 4, (200, 9)).astype(np.uint8)
    values, indices = exe.function("xla_argmax_last_ui8")(x)
    last = 199 - np.argmax(x[::-1], axis=0)
    np.testing.assert_array_equal(indices, last)
    np.testing.assert_array_equal(values, np.max(x, axis=0))
    values, indices = exe.function("xla_argmax_last_rows_ui8")(x.T.copy())
    np.testing.assert_array_equal(indices, last)
    np.testing.assert_array_equal(values, np.max(x, axis=0))


@pytest.mark.parametrize("width, suffix", [(100, ""), (104, "_laned")])
@pytest.mark.every_case
def test_the_init_pair_takes_part(exe, width, suffix):
    x = np.random.default_rng(6).standard_normal((8, width)).astype(np.float32)
    x[3, 40] = np.inf                                        # ties with the init value
    x[5, 10] = np.nan                                        # beats it
    values, indices = exe.function("init_wins" + suffix)(x)
    np.testing.assert_array_equal(indices, [-1, -1, -1, -1, -1, 10, -1, -1])
    assert np.isnan(values[5]) and np.isinf(values[[0, 1, 2, 3, 4, 6, 7]]).all()


@pytest.mark.parametrize("body,element", [
    # XLA's ArgMax on floats: NaN loses on the left and wins on the right (order-dependent)
    (xla_body("f32", "i32", "FLOAT"), "f32"),
    # an op the pass does not know
    (jax_body("GT").replace("%10 = stablehlo.select %8, %ia, %ib : tensor<i1>, tensor<i32>",
                            "%10 = stablehlo.add %ia, %ib : tensor<i32>"), "f32"),
    # TOTALORDER compares
    (jax_body("GT").replace("%2 = stablehlo.compare GT, %a, %b, FLOAT",
                            "%2 = stablehlo.compare GT, %a, %b, TOTALORDER"), "f32"),
    # indices compared as unsigned while the oracle's order (i32) is signed
    (jax_body("GT", index_compare="UNSIGNED"), "f32"),
    # a value compared with an index (both i32): not an order relation the probes cover
    (xla_body("i32", "i32", "SIGNED").replace("compare GT, %a, %b", "compare GT, %a, %ib"),
     "i32"),
    # a number constant in the body
    (xla_body("i32", "i32", "SIGNED").replace(
        "%gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        "%k = stablehlo.constant dense<3> : tensor<i32>\n"
        "      %gt = stablehlo.compare GT, %a, %k, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>"),
     "i32"),
], ids=["xla-float", "add", "totalorder", "unsigned-index", "value-vs-index", "constant"])
@pytest.mark.every_case
def test_bodies_that_are_not_arg_reduces_stay(ctx, body, element):
    module = shlo.parse_module(arg_reduce("f", (4, 6), 1, body, v=element,
                                          init_v="0" if element == "i32" else "0xFF800000"),
                               context=ctx)
    SplitArgReduce().apply(module)
    assert variadic_reduces(module) == 1


def test_vulkan_argmax_and_argmin(ctx):
    text = arg_reduce("argmax", (16, 300), 1, jax_body("GT")) + arg_reduce(
        "argmin", (16, 300), 1, jax_body("LT"), init_v="0x7F800000")
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="vulkan")
    x = np.random.default_rng(7).integers(-3, 4, (16, 300)).astype(np.float32)
    x[2, [7, 90]] = np.nan
    np.testing.assert_array_equal(exe.function("argmax")(x)[1], np.argmax(x, axis=1))
    np.testing.assert_array_equal(exe.function("argmin")(x)[1], np.argmin(x, axis=1))



def test_a_reduce_over_no_dimensions_stays(ctx):
    """An arg reduce of a rank-0 operand (dimensions = [], found by shlo-fuzz) is left alone;
    it was an internal IndexError."""
    path = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions",
                        "argmax_rank0_split_arg_reduce_cpu", "program.mlir")
    with open(path) as f:
        module = shlo.parse_module(f.read(), context=ctx)
    SplitArgReduce().apply(module)
    assert variadic_reduces(module) == 1
