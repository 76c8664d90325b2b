"""shlo-simplify against the StableHLO reference interpreter (an independent oracle).

Folds: one function per (op, element type) whose operands are constants of edge values (INT_MIN,
-1, 0, NaN, +-inf, -0.0, subnormals, shift amounts >= the width, ...). The pass runs once on
a module of all of them; each function must be folded to constants, and the interpreter must
compute the same bits from the folded function as from the original one (floats are returned
through bitcast_convert, so every bit is compared; two NaNs count as equal).
Identities: functions of arguments, evaluated before and after on random and edge values.
"""
import itertools
import math
import os
import re
import subprocess

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.passes.folding.simplify import Simplify

from reference_oracle import evaluate

DTYPES = {"i1": np.bool_, "i8": np.int8, "i32": np.int32, "ui32": np.uint32,
          "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
FLOATS = ("f16", "bf16", "f32", "f64")
INTS = ("i8", "i32", "ui32")
BITS = {"f16": "i16", "bf16": "i16", "f32": "i32", "f64": "i64"}


def _finfo(t):
    return ml_dtypes.finfo(DTYPES[t])


def edges(t: str) -> np.ndarray:
    if t == "i1":
        return np.array([False, True])
    if t in FLOATS:
        fi = _finfo(t)
        sub = float(fi.smallest_subnormal)
        values = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 0.1, math.nan, math.inf, -math.inf,
                  float(fi.max), -float(fi.tiny), sub, -sub, 7.0]
        return np.array(values).astype(DTYPES[t])
    info = np.iinfo(DTYPES[t])
    if info.min < 0:
        values = [info.min, info.min + 1, -100, -7, -1, 0, 1, 2, 3, 7, 8, 31, 32, 33, info.max]
    else:
        values = [0, 1, 2, 3, 7, 8, 31, 32, 33, 100, 1 << (info.bits - 1), info.max]
    return np.array(values, DTYPES[t])


def literal(values: np.ndarray, t: str, shape=None) -> str:
    """A dense constant of exactly these elements (floats as their bits in hex)."""
    values = np.asarray(values, DTYPES[t]).ravel()
    shape = (len(values),) if shape is None else tuple(shape)
    if t == "i1":
        tokens = ["true" if v else "false" for v in values]
    elif t in FLOATS:
        width = values.dtype.itemsize * 2
        tokens = [f"0x{int(b):0{width}X}" for b in values.view(f"u{values.dtype.itemsize}")]
    else:
        tokens = [str(int(v)) for v in values]

    def nest(flat, dims):
        if not dims:
            return flat[0]
        step = len(flat) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    body = tokens[0] if len(tokens) == 1 else nest(tokens, shape)
    return f"dense<{body}> : {tensor(shape, t)}"


def tensor(n, t: str) -> str:
    dims = n if isinstance(n, (tuple, list)) else (n,)
    return f"tensor<{''.join(f'{d}x' for d in dims)}{t}>"


def function(name: str, body: list[str], result: str, t: str, n) -> str:
    """A function of `body` lines that returns %{result} (of type t, shape n), floats as bits."""
    out = tensor(n, t)
    lines = list(body)
    if t in FLOATS:
        out = tensor(n, BITS[t])
        lines.append(f'%bits = "stablehlo.bitcast_convert"(%{result}) : '
                     f'({tensor(n, t)}) -> {out}')
        result = "bits"
    return (f"func.func @{name}() -> {out} {{\n  " + "\n  ".join(lines)
            + f"\n  return %{result} : {out}\n}}")


def _op(name, operands, types, result, attrs="", out="r"):
    args = ", ".join(f"%{o}" for o in operands)
    return f'%{out} = "stablehlo.{name}"({args}){attrs} : ({", ".join(types)}) -> {result}'


def _direction(d, ctype):
    return (f" {{comparison_direction = #stablehlo<comparison_direction {d}>, "
            f"compare_type = #stablehlo<comparison_type {ctype}>}}")


# ---- the fold cases -----------------------------------------------------------------------------

def _pairs(t, values=None):
    values = edges(t) if values is None else values
    a, b = zip(*itertools.product(values, values))
    return np.array(a, DTYPES[t]), np.array(b, DTYPES[t])


def _binary(op, t, attrs="", result_t=None, keep=None, values=None):
    a, b = _pairs(t, values)
    if keep is not None:
        mask = keep(a, b)
        a, b = a[mask], b[mask]
    n, tt, rt = len(a), tensor(len(a), t), result_t or t
    body = [f"%a = stablehlo.constant {literal(a, t)}", f"%b = stablehlo.constant {literal(b, t)}",
            _op(op, "ab", [tt, tt], tensor(n, rt), attrs)]
    return body, rt, n


def _unsigned_compare(d, t):
    """compare UNSIGNED of signless integers. The interpreter ignores compare_type (it compares
    i8 as signed); numpy on the unsigned bits is the oracle here."""
    body, rt, n = _binary("compare", t, _direction(d, "UNSIGNED"), "i1")
    a, b = (x.view(f"u{x.dtype.itemsize}") for x in _pairs(t))
    fn = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
          "GT": np.greater, "GE": np.greater_equal}[d]
    return body, rt, n, fn(a, b)


def _ordinary_floats(t):
    """Edge values where IEEE totalOrder and the float order agree: no NaN, no zero."""
    x = edges(t)
    return x[~np.isnan(x.astype(np.float64)) & (x != 0)]


def _divisible(a, b):
    info = np.iinfo(a.dtype)
    return (b != 0) & ~((a == info.min) & (b == -1) & (info.min < 0))


def _unary(op, t, result_t=None, values=None):
    x = edges(t) if values is None else values
    rt = result_t or t
    body = [f"%a = stablehlo.constant {literal(x, t)}",
            _op(op, "a", [tensor(len(x), t)], tensor(len(x), rt))]
    return body, rt, len(x)


def _converts(src, dst):
    x = edges(src)
    if dst != "i1" and dst not in FLOATS and src != "i1":
        info = np.iinfo(DTYPES[dst])
        ok = [math.isfinite(float(v)) and info.min <= math.trunc(float(v)) <= info.max
              for v in x]
        x = x[np.array(ok)]
    return _unary("convert", src, dst, x)


def _select(t):
    a, b = _pairs(t)
    p = np.arange(len(a)) % 3 == 0
    body = [f"%p = stablehlo.constant {literal(p, 'i1')}",
            f"%a = stablehlo.constant {literal(a, t)}",
            f"%b = stablehlo.constant {literal(b, t)}",
            _op("select", "pab", [tensor(len(a), "i1"), tensor(len(a), t), tensor(len(a), t)],
                tensor(len(a), t))]
    return body, t, len(a)


def _clamp(t):
    lo, hi = _pairs(t)
    x = np.resize(edges(t), len(lo))
    n = tensor(len(lo), t)
    body = [f"%l = stablehlo.constant {literal(lo, t)}", f"%x = stablehlo.constant {literal(x, t)}",
            f"%h = stablehlo.constant {literal(hi, t)}", _op("clamp", "lxh", [n, n, n], n)]
    return body, t, len(lo)


def _const(name, values, t, shape):
    return f"%{name} = stablehlo.constant {literal(values, t, shape)}"


SHAPE_OPS = {   # op: (operands, attributes, result shape), on %a: 2x3 and %p: a scalar
    "reshape": ("a", "", (3, 2)),
    "broadcast_in_dim": ("a", "broadcast_dimensions = array<i64: 0, 2>", (2, 2, 3)),
    "transpose": ("a", "permutation = array<i64: 1, 0>", (3, 2)),
    "slice": ("a", "start_indices = array<i64: 1, 0>, limit_indices = array<i64: 2, 3>, "
              "strides = array<i64: 1, 2>", (1, 2)),
    "concatenate": ("aa", "dimension = 1 : i64", (2, 6)),
    "reverse": ("a", "dimensions = array<i64: 0, 1>", (2, 3)),
    "pad": ("ap", "edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 0, 2>, "
            "interior_padding = array<i64: 1, 1>", (4, 6)),
}


def _shape_case(t, kind):
    operands, attrs, shape = SHAPE_OPS[kind]
    types = [tensor((2, 3), t) if o == "a" else tensor((), t) for o in operands]
    body = [_const("a", np.resize(edges(t), 6), t, (2, 3)), _const("p", edges(t)[-1:], t, ()),
            _op(kind, operands, types, tensor(shape, t), f" {{{attrs}}}" if attrs else "")]
    return body, t, shape


def fold_cases() -> dict:
    cases = {}
    arith = ["add", "subtract", "multiply", "maximum", "minimum"]
    for t in INTS:
        for op in arith + ["and", "or", "xor", "shift_left", "shift_right_logical",
                           "shift_right_arithmetic"]:
            cases[f"{op}_{t}"] = _binary(op, t)
        for op in ("divide", "remainder"):
            cases[f"{op}_{t}"] = _binary(op, t, keep=_divisible)
        for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            ctype = "SIGNED" if t[0] == "i" else "UNSIGNED"
            cases[f"compare_{d}_{ctype}_{t}"] = _binary("compare", t, _direction(d, ctype), "i1")
            if t[0] == "i":
                cases[f"compare_{d}_UNSIGNED_{t}"] = _unsigned_compare(d, t)
        cases[f"not_{t}"] = _unary("not", t)
        cases[f"negate_{t}"] = _unary("negate", t)
        if t[0] == "i":
            cases[f"abs_{t}"], cases[f"sign_{t}"] = _unary("abs", t), _unary("sign", t)
    for t in FLOATS:
        for op in arith + ["divide", "remainder"]:
            cases[f"{op}_{t}"] = _binary(op, t)
        for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            cases[f"compare_{d}_FLOAT_{t}"] = _binary("compare", t, _direction(d, "FLOAT"), "i1")
            cases[f"compare_{d}_TOTALORDER_{t}"] = _binary(
                "compare", t, _direction(d, "TOTALORDER"), "i1", values=_ordinary_floats(t))
        for op in ("negate", "abs", "sign"):
            cases[f"{op}_{t}"] = _unary(op, t)
    for op in ("add", "multiply", "and", "or", "xor", "maximum", "minimum"):
        cases[f"{op}_i1"] = _binary(op, "i1")
    cases["not_i1"] = _unary("not", "i1")
    cases["compare_LT_UNSIGNED_i1"] = _binary("compare", "i1", _direction("LT", "UNSIGNED"), "i1")
    for src, dst in itertools.product(DTYPES, DTYPES):
        cases[f"convert_{src}_{dst}"] = _converts(src, dst)
    # values that round twice through f32 (ml_dtypes' own casts): to bf16 in one rounding
    tricky = np.array([1 + 2**-8 + 2**-30, -(1 + 2**-8 + 2**-30), 1 + 2**-8, 3 * 2**-134 + 2**-160])
    cases["convert_f64_bf16_once"] = _unary("convert", "f64", "bf16", tricky)
    ints = np.array([2**24 + 2**16 + 1, 2**24 + 2**16, 2**24 + 3 * 2**16, -(2**25 + 2**17 + 1),
                     2**31 - 1, -2**31], np.int32)
    cases["convert_i32_bf16_once"] = _unary("convert", "i32", "bf16", ints)
    for t in DTYPES:
        x = edges(t)[-2:]
        cases[f"scalars_{t}"] = ([_const("a", x[:1], t, ()), _const("b", x[1:], t, ()),
                                  _const("p", [True], "i1", ()),
                                  _op("maximum", "ab", [tensor((), t)] * 2, tensor((), t),
                                      out="m"),
                                  _op("select", "pmb", [tensor((), "i1")] + [tensor((), t)] * 2,
                                      tensor((), t))], t, ())
        cases[f"select_{t}"] = _select(t)
        if t != "i1":
            cases[f"clamp_{t}"] = _clamp(t)
        for kind in ("reshape", "broadcast_in_dim", "transpose", "slice", "concatenate",
                     "reverse", "pad"):
            cases[f"{kind}_{t}"] = _shape_case(t, kind)
    return {name: (function(name, case[0], "r", case[1], case[2]),) + tuple(case[1:2] + case[3:])
            for name, case in cases.items()}


FOLDS = fold_cases()


def simplified_functions(ctx, texts, **options) -> dict:
    """{function name: its text after shlo-simplify}, the pass run once on all of `texts`."""
    module = shlo.parse_module("\n".join(texts), context=ctx)
    Simplify(**options).apply(module)
    return {str(op).split("@", 1)[1].split("(", 1)[0]: str(op) for op in module.body.operations}


@pytest.fixture(scope="module")
def folded(ctx):
    return simplified_functions(ctx, [case[0] for case in FOLDS.values()])


def ops_in(text: str) -> set:
    return set(re.findall(r"\bstablehlo\.(\w+)", text))


def assert_same_bits(got, want, t, what):
    """Equal bits; for a float type `t` (returned as bits) any NaN equals any NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape, what
    if t in FLOATS:
        nan = np.isnan(want.view(DTYPES[t]).astype(np.float64))
        np.testing.assert_array_equal(np.isnan(got.view(DTYPES[t]).astype(np.float64)), nan,
                                      err_msg=what)
        got, want = got[~nan], want[~nan]
    np.testing.assert_array_equal(got, want, err_msg=what)


def same_results(original, simplified, args=(), types=()):
    want, got = evaluate(original, list(args)), evaluate(simplified, list(args))
    what = f"--- original\n{original}\n--- simplified\n{simplified}"
    for g, w, t in itertools.zip_longest(got, want, types):
        assert_same_bits(g, w, t, what)


@pytest.mark.parametrize("name", sorted(FOLDS))
@pytest.mark.every_case
def test_fold_matches_interpreter(folded, name):
    original, t, *expected = FOLDS[name]
    assert ops_in(folded[name]) <= {"constant", "bitcast_convert"}, \
        f"not folded:\n{folded[name]}"
    if expected:
        np.testing.assert_array_equal(evaluate(folded[name], [])[0], expected[0])
    else:
        same_results(original, folded[name], types=[t])


# ---- identities: functions of arguments, before and after ---------------------------------------

def _f(name, args, results, body):
    """A function of `args` ("x: tensor<8xf32>") returning `results` (("%r", "tensor<8xf32>"))."""
    sig = ", ".join(f"%{a}" for a in args)
    values = ", ".join(v for v, _ in results)
    types = ", ".join(t for _, t in results)
    return (f"func.func @{name}({sig}) -> ({types}) {{\n  " + "\n  ".join(body)
            + f"\n  return {values} : {types}\n}}")


F8, I8, B8 = "tensor<8xf32>", "tensor<8xi32>", "tensor<8xi1>"
# name: (arguments, results, body, ops that must be gone, ops that must stay)
IDENTITIES = {
    "add_int_zero": (["x: " + I8], [("%r", I8)], [
        "%z = stablehlo.constant dense<0> : tensor<8xi32>",
        "%r = stablehlo.add %z, %x : tensor<8xi32>"], {"add"}, set()),
    "add_minus_zero": (["x: " + F8], [("%r", F8)], [
        "%z = stablehlo.constant dense<-0.0> : tensor<8xf32>",
        "%r = stablehlo.add %x, %z : tensor<8xf32>"], {"add"}, set()),
    "subtract_zero": (["x: " + F8], [("%r", F8)], [
        "%z = stablehlo.constant dense<0.0> : tensor<8xf32>",
        "%r = stablehlo.subtract %x, %z : tensor<8xf32>"], {"subtract"}, set()),
    "multiply_one": (["x: " + F8, "y: " + I8], [("%r", F8), ("%s", I8)], [
        "%o = stablehlo.constant dense<1.0> : tensor<8xf32>",
        "%i = stablehlo.constant dense<1> : tensor<8xi32>",
        "%r = stablehlo.multiply %o, %x : tensor<8xf32>",
        "%s = stablehlo.multiply %y, %i : tensor<8xi32>"], {"multiply"}, set()),
    "multiply_int_zero": (["y: " + I8], [("%s", I8)], [
        "%z = stablehlo.constant dense<0> : tensor<8xi32>",
        "%s = stablehlo.multiply %y, %z : tensor<8xi32>"], {"multiply"}, set()),
    "divide_one": (["x: " + F8, "y: " + I8], [("%r", F8), ("%s", I8)], [
        "%o = stablehlo.constant dense<1.0> : tensor<8xf32>",
        "%i = stablehlo.constant dense<1> : tensor<8xi32>",
        "%r = stablehlo.divide %x, %o : tensor<8xf32>",
        "%s = stablehlo.divide %y, %i : tensor<8xi32>"], {"divide"}, set()),
    "bitwise_constants": (["y: " + I8, "p: " + B8], [("%a", I8), ("%b", I8), ("%c", I8),
                                                     ("%d", I8), ("%e", B8), ("%f", B8)], [
        "%z = stablehlo.constant dense<0> : tensor<8xi32>",
        "%m = stablehlo.constant dense<-1> : tensor<8xi32>",
        "%t = stablehlo.constant dense<true> : tensor<8xi1>",
        "%a = stablehlo.and %y, %z : tensor<8xi32>", "%b = stablehlo.and %m, %y : tensor<8xi32>",
        "%c = stablehlo.or %y, %m : tensor<8xi32>", "%d = stablehlo.xor %z, %y : tensor<8xi32>",
        "%e = stablehlo.or %p, %t : tensor<8xi1>", "%f = stablehlo.and %p, %t : tensor<8xi1>"],
        {"and", "or", "xor"}, set()),
    "twice": (["x: " + F8, "y: " + I8], [("%r", F8), ("%s", I8)], [
        "%n = stablehlo.negate %x : tensor<8xf32>", "%r = stablehlo.negate %n : tensor<8xf32>",
        "%m = stablehlo.not %y : tensor<8xi32>", "%s = stablehlo.not %m : tensor<8xi32>"],
        {"negate", "not"}, set()),
    "select": (["x: " + F8, "y: " + F8, "p: " + B8], [("%a", F8), ("%b", F8), ("%c", F8)], [
        "%t = stablehlo.constant dense<true> : tensor<i1>",
        "%f = stablehlo.constant dense<false> : tensor<8xi1>",
        "%a = stablehlo.select %t, %x, %y : tensor<i1>, tensor<8xf32>",
        "%b = stablehlo.select %f, %x, %y : tensor<8xi1>, tensor<8xf32>",
        "%c = stablehlo.select %p, %y, %y : tensor<8xi1>, tensor<8xf32>"], {"select"}, set()),
    "compare_self": (["y: " + I8], [(f"%{d}", B8) for d in ("EQ", "NE", "LT", "LE", "GT", "GE")],
                     [f"%{d} = stablehlo.compare {d}, %y, %y : (tensor<8xi32>, tensor<8xi32>) "
                      "-> tensor<8xi1>" for d in ("EQ", "NE", "LT", "LE", "GT", "GE")],
                     {"compare"}, set()),
    "same_type": (["x: " + F8], [("%c", F8), ("%r", F8), ("%p", F8), ("%v", F8)], [
        "%c = stablehlo.convert %x : tensor<8xf32>",
        "%r = stablehlo.reshape %x : (tensor<8xf32>) -> tensor<8xf32>",
        "%z = stablehlo.constant dense<0.0> : tensor<f32>",
        "%p = stablehlo.pad %x, %z, low = [0], high = [0], interior = [0] : "
        "(tensor<8xf32>, tensor<f32>) -> tensor<8xf32>",
        "%v = stablehlo.reverse %x, dims = [] : tensor<8xf32>"],
        {"convert", "reshape", "pad", "reverse"}, set()),
    "reshapes": (["x: tensor<2x3x4xf32>"], [("%b", "tensor<4x6xf32>")], [
        "%a = stablehlo.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>",
        "%b = stablehlo.reshape %a : (tensor<6x4xf32>) -> tensor<4x6xf32>"], set(), set()),
    "transposes": (["x: tensor<2x3x4xf32>"], [("%b", "tensor<3x2x4xf32>"),
                                             ("%c", "tensor<2x3x4xf32>")], [
        "%a = stablehlo.transpose %x, dims = [2, 0, 1] : "
        "(tensor<2x3x4xf32>) -> tensor<4x2x3xf32>",
        "%b = stablehlo.transpose %a, dims = [2, 1, 0] : "
        "(tensor<4x2x3xf32>) -> tensor<3x2x4xf32>",
        "%c = stablehlo.transpose %x, dims = [0, 1, 2] : "
        "(tensor<2x3x4xf32>) -> tensor<2x3x4xf32>"], set(), set()),
    "broadcasts": (["x: tensor<3x1xf32>"], [("%b", "tensor<2x3x5x4xf32>"),
                                           ("%c", "tensor<3x1xf32>")], [
        "%a = stablehlo.broadcast_in_dim %x, dims = [2, 0] : "
        "(tensor<3x1xf32>) -> tensor<4x5x3xf32>",
        "%b = stablehlo.broadcast_in_dim %a, dims = [3, 2, 1] : "
        "(tensor<4x5x3xf32>) -> tensor<2x3x5x4xf32>",
        "%c = stablehlo.broadcast_in_dim %x, dims = [0, 1] : "
        "(tensor<3x1xf32>) -> tensor<3x1xf32>"], set(), set()),
    "slices": (["x: tensor<9x8xf32>"], [("%b", "tensor<2x2xf32>"), ("%c", "tensor<9x8xf32>")], [
        "%a = stablehlo.slice %x [1:9:2, 0:7:3] : (tensor<9x8xf32>) -> tensor<4x3xf32>",
        "%b = stablehlo.slice %a [1:4:2, 1:3] : (tensor<4x3xf32>) -> tensor<2x2xf32>",
        "%c = stablehlo.slice %x [0:9, 0:8] : (tensor<9x8xf32>) -> tensor<9x8xf32>"],
        set(), set()),
    "concatenates": (["x: tensor<2x3xf32>", "e: tensor<2x0xf32>", "y: tensor<2x1xf32>"],
                     [("%a", "tensor<2x3xf32>"), ("%b", "tensor<2x4xf32>")], [
        "%a = stablehlo.concatenate %e, %x, %e, dim = 1 : "
        "(tensor<2x0xf32>, tensor<2x3xf32>, tensor<2x0xf32>) -> tensor<2x3xf32>",
        "%b = stablehlo.concatenate %x, %e, %y, dim = 1 : "
        "(tensor<2x3xf32>, tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>"], set(), set()),
    "reverse_unit_dims": (["x: tensor<1x8x1xf32>"], [("%r", "tensor<1x8x1xf32>")], [
        "%r = stablehlo.reverse %x, dims = [0, 2] : tensor<1x8x1xf32>"], {"reverse"}, set()),
    "dynamic_slices": (["x: tensor<5x6xf32>"], [("%a", "tensor<2x3xf32>"),
                                               ("%b", "tensor<2x3xf32>")], [
        "%i = stablehlo.constant dense<1> : tensor<i32>",
        "%j = stablehlo.constant dense<7> : tensor<i32>",
        "%k = stablehlo.constant dense<-3> : tensor<i32>",
        "%a = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : "
        "(tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>",
        "%b = stablehlo.dynamic_slice %x, %k, %i, sizes = [2, 3] : "
        "(tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>"],
        {"dynamic_slice"}, {"slice"}),
    "dynamic_update_slice_whole": (["x: tensor<2x3xf32>", "u: tensor<2x3xf32>", "i: tensor<i32>"],
                                   [("%r", "tensor<2x3xf32>")], [
        "%r = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<2x3xf32>, "
        "tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>"],
        {"dynamic_update_slice"}, set()),
    "tuples_and_parts": (["x: " + F8, "y: " + F8], [("%g", F8), ("%re", F8), ("%im", F8)], [
        "%t = stablehlo.tuple %x, %y : tuple<tensor<8xf32>, tensor<8xf32>>",
        "%g = stablehlo.get_tuple_element %t[1] : (tuple<tensor<8xf32>, tensor<8xf32>>) "
        "-> tensor<8xf32>",
        "%c = stablehlo.complex %x, %y : tensor<8xcomplex<f32>>",
        "%re = stablehlo.real %c : (tensor<8xcomplex<f32>>) -> tensor<8xf32>",
        "%im = stablehlo.imag %c : (tensor<8xcomplex<f32>>) -> tensor<8xf32>"],
        {"get_tuple_element", "real", "imag"}, set()),
    # exact-only: these must stay
    "float_add_plus_zero": (["x: " + F8], [("%r", F8)], [
        "%z = stablehlo.constant dense<0.0> : tensor<8xf32>",
        "%r = stablehlo.add %x, %z : tensor<8xf32>"], set(), {"add"}),
    "float_multiply_zero": (["x: " + F8], [("%r", F8)], [
        "%z = stablehlo.constant dense<0.0> : tensor<8xf32>",
        "%r = stablehlo.multiply %x, %z : tensor<8xf32>"], set(), {"multiply"}),
    "float_compare_self": (["x: " + F8], [("%r", B8)], [
        "%r = stablehlo.compare EQ, %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>"],
        set(), {"compare"}),
    "float_subtract_minus_zero": (["x: " + F8], [("%r", F8)], [
        "%z = stablehlo.constant dense<-0.0> : tensor<8xf32>",
        "%r = stablehlo.subtract %x, %z : tensor<8xf32>"], set(), {"subtract"}),
}


def _arguments(text: str, rng) -> list:
    """Values for the function's arguments: edge values and random ones."""
    sig = text.split("(", 1)[1].split(")", 1)[0]
    out = []
    for shape, t in re.findall(r"tensor<((?:\d+x)*)(\w+)>", sig):
        dims = [int(d) for d in shape.split("x") if d]
        n = int(np.prod(dims, dtype=np.int64))
        if t == "f32":
            pool = np.concatenate([edges("f32"), rng.standard_normal(8).astype(np.float32)])
        elif t == "i1":
            pool = np.array([False, True])
        else:
            pool = np.concatenate([edges(t), rng.integers(-1000, 1000, 8).astype(DTYPES[t])])
        out.append(rng.choice(pool, n).astype(DTYPES[t]).reshape(dims))
    return out


@pytest.fixture(scope="module")
def identities(ctx):
    texts = [_f(name, *case[:3]) for name, case in IDENTITIES.items()]
    return dict(zip(IDENTITIES, texts)), simplified_functions(ctx, texts)


@pytest.mark.parametrize("name", sorted(IDENTITIES))
@pytest.mark.every_case
def test_identity_keeps_every_bit(identities, name):
    originals, simplified = identities
    gone, kept = IDENTITIES[name][3:]
    ops = ops_in(simplified[name])
    assert not ops & gone and kept <= ops, simplified[name]
    if name in ("reshapes", "transposes", "broadcasts", "slices"):
        assert len(re.findall(r" = stablehlo\.", simplified[name])) == 1, simplified[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(3):
        args = _arguments(originals[name], rng)
        want = evaluate(originals[name], args)
        got = evaluate(simplified[name], args)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.view(f"u{g.dtype.itemsize}") if g.dtype.kind == "f"
                                          else g, w.view(f"u{w.dtype.itemsize}")
                                          if w.dtype.kind == "f" else w, err_msg=name)


# ---- what must stay ---------------------------------------------------------------------------

def _kept(name, op_line, operands, result):
    return f"func.func @{name}() -> {result} {{\n  " + "\n  ".join(operands + [op_line]) \
        + f"\n  return %r : {result}\n}}"


I4 = "tensor<4xi32>"
KEPT = {   # name: (function text, the op that must stay)
    "divide_by_zero": (_kept("divide_by_zero", "%r = stablehlo.divide %a, %b : tensor<4xi32>", [
        "%a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>",
        "%b = stablehlo.constant dense<[1, 0, 1, 1]> : tensor<4xi32>"], I4), "divide"),
    "remainder_by_zero": (_kept("remainder_by_zero", "%r = stablehlo.remainder %a, %b : "
                                "tensor<4xi32>", [
        "%a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>",
        "%b = stablehlo.constant dense<0> : tensor<4xi32>"], I4), "remainder"),
    "divide_int_min_by_minus_one": (_kept("divide_int_min_by_minus_one",
                                          "%r = stablehlo.divide %a, %b : tensor<4xi32>", [
        "%a = stablehlo.constant dense<[-2147483648, 2, 3, 4]> : tensor<4xi32>",
        "%b = stablehlo.constant dense<-1> : tensor<4xi32>"], I4), "divide"),
    "convert_nan_to_int": (_kept("convert_nan_to_int", "%r = stablehlo.convert %a : "
                                 "(tensor<2xf32>) -> tensor<2xi32>", [
        "%a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>"], "tensor<2xi32>"),
     "convert"),
    "convert_float_out_of_range": (_kept("convert_float_out_of_range", "%r = stablehlo.convert "
                                         "%a : (tensor<2xf32>) -> tensor<2xi8>", [
        "%a = stablehlo.constant dense<[1.0, 128.5]> : tensor<2xf32>"], "tensor<2xi8>"),
     "convert"),
    "convert_int_does_not_fit": (_kept("convert_int_does_not_fit", "%r = stablehlo.convert %a "
                                       ": (tensor<2xi32>) -> tensor<2xui8>", [
        "%a = stablehlo.constant dense<[1, -1]> : tensor<2xi32>"], "tensor<2xui8>"), "convert"),
    "compare_totalorder_nan": (_kept("compare_totalorder_nan", "%r = stablehlo.compare EQ, %a, "
                                     "%a, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> "
                                     "tensor<2xi1>", [
        "%a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>"], "tensor<2xi1>"),
     "compare"),
    "f8_add": (_kept("f8_add", "%r = stablehlo.add %a, %a : tensor<2xf8E4M3FN>", [
        "%a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf8E4M3FN>"], "tensor<2xf8E4M3FN>"),
     "add"),
    "complex_add": (_kept("complex_add", "%r = stablehlo.add %a, %a : tensor<2xcomplex<f32>>", [
        "%a = stablehlo.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>"],
        "tensor<2xcomplex<f32>>"), "add"),
    "iota": (_kept("iota", "%r = stablehlo.iota dim = 0 : tensor<4xi32>", [], I4), "iota"),
    "dynamic_result": (_kept("dynamic_result", '%r = "stablehlo.add"(%a, %a) : (tensor<2xf32>, '
                             "tensor<2xf32>) -> tensor<?xf32>", [
        "%a = stablehlo.constant dense<1.0> : tensor<2xf32>"], "tensor<?xf32>"), "add"),
    "optimization_barrier": (_kept("optimization_barrier", "%r = stablehlo.add %b, %b : "
                                   "tensor<4xi32>", [
        "%a = stablehlo.constant dense<1> : tensor<4xi32>",
        "%b = stablehlo.optimization_barrier %a : tensor<4xi32>"], I4), "optimization_barrier"),
}


@pytest.fixture(scope="module")
def kept(ctx):
    return simplified_functions(ctx, [text for text, _ in KEPT.values()])


@pytest.mark.parametrize("name", sorted(KEPT))
@pytest.mark.every_case
def test_left_alone(kept, name):
    text, op = KEPT[name]
    assert op in ops_in(kept[name]), kept[name]
    assert re.search(r"-> (tensor<[^>]*>+)", text).group(1) in kept[name]      # same type


def test_regions_are_simplified(ctx):
    """Ops in a reduce body and a while body are folded and simplified too."""
    text = """func.func @regions(%x: tensor<4xi32>) -> (tensor<i32>, tensor<i32>) {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%x init: %init) across dimensions = [0]
      : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %t = stablehlo.add %a, %b : tensor<i32>
    %u = stablehlo.add %t, %z : tensor<i32>
    stablehlo.return %u : tensor<i32>
  }
  %w = stablehlo.while(%i = %init) : tensor<i32>
   cond {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %three = stablehlo.constant dense<3> : tensor<i32>
    %n = stablehlo.multiply %two, %three : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.multiply %i, %one : tensor<i32>
    %k = stablehlo.add %j, %one : tensor<i32>
    stablehlo.return %k : tensor<i32>
  }
  return %s, %w : tensor<i32>, tensor<i32>
}"""
    out = simplified_functions(ctx, [text])["regions"]
    assert out.count("stablehlo.add") == 2 and "multiply" not in out, out
    x = np.array([5, -7, 11, 2**31 - 1], np.int32)
    for g, w in zip(evaluate(out, [x]), evaluate(text, [x])):
        np.testing.assert_array_equal(g, w)


# ---- the option -------------------------------------------------------------------------------

LIMIT = """func.func @limit() -> (tensor<4xi32>, tensor<8xi32>) {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %c = stablehlo.add %a, %a : tensor<4xi32>
  %d = stablehlo.add %b, %b : tensor<8xi32>
  return %c, %d : tensor<4xi32>, tensor<8xi32>
}"""


def test_element_limit_stops_large_folds(ctx):
    small = simplified_functions(ctx, [LIMIT], fold_op_element_limit=4)["limit"]
    assert small.count("stablehlo.add") == 1 and "tensor<8xi32>\n" in small.split("add")[1]
    assert "stablehlo.add" not in simplified_functions(ctx, [LIMIT])["limit"]


@pytest.mark.parametrize("flag", ["--shlo-simplify=fold-op-element-limit=4",
                                  "--pass-pipeline=builtin.module(func.func("
                                  "shlo-simplify{fold-op-element-limit=4}))"])
@pytest.mark.every_case
def test_shlo_opt_takes_the_option(tmp_path, flag):
    from conftest import BIN
    path = tmp_path / "limit.mlir"
    path.write_text(LIMIT)
    out = subprocess.run([os.path.join(BIN, "shlo-opt"), flag, str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.count("stablehlo.add") == 1 and "dense<[2, 4, 6, 8]>" in out, out
