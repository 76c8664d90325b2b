"""CHLO ops: the elementwise unary ops, the non-broadcasting binary ops (mulhi, next_after,
polygamma, zeta) and the broadcasting binary ops, declared as data (the others: chlo_misc.py).

CHLO has no spec of its own, so its constraints carry these ids (documented here, mirroring the
StableHLO op each CHLO op lowers to):
  (I1), (I2)  operand element classes, as the StableHLO counterpart's inputs;
  (C1)        element_type(lhs) = element_type(rhs) (unary ops: result type = operand type;
              non-broadcasting binary ops: type(lhs) = type(rhs) = type(result));
  (C2)        broadcast_dimensions: one entry per dimension of the lower-rank operand, each in
              [0, rank of the higher-rank operand), no repeats;
  (C3)        the operand shapes broadcast (numpy rules: equal, or one of them 1), after
              broadcast_dimensions maps the lower-rank operand's dimensions;
  (C4)        broadcast_compare's compare_type matches the element type (as stablehlo.compare).
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import types as T
from .elementwise import compare_types, i1, like, merged_type, same_types
from .opdef import Attr, Check, OpDef, Operand

UNARY = [   # name, operand classes, result element rule
    ("acos", T.FP_C), ("acosh", T.FP_C), ("asin", T.FP_C), ("asinh", T.FP_C),
    ("atan", T.FP_C), ("atanh", T.FP_C), ("bessel_i1e", T.FP_C), ("conj", T.FP_C),
    ("cosh", T.FP_C), ("digamma", T.FP), ("erf", T.FP), ("erfc", T.FP), ("erf_inv", T.FP),
    ("lgamma", T.FP), ("sinh", T.FP_C), ("square", T.FP_C), ("tan", T.FP_C),
    ("_asin_acos_kernel", frozenset({T.COMPLEX})),
]
NON_BROADCASTING = [  # name, operand names, operand classes
    ("mulhi", ("lhs", "rhs"), T.INT), ("next_after", ("x", "y"), T.FP),
    ("polygamma", ("n", "x"), T.FP), ("zeta", ("x", "q"), T.FP),
]
PREDICATES = ["is_inf", "is_neg_inf", "is_pos_inf"]

BINARY = [  # name, operand classes (those of the StableHLO op it becomes)
    ("broadcast_add", T.ANY), ("broadcast_subtract", T.INT_FP_C),
    ("broadcast_multiply", T.ANY), ("broadcast_divide", T.INT_FP_C),
    ("broadcast_maximum", T.ANY), ("broadcast_minimum", T.ANY),
    ("broadcast_power", T.INT_FP_C), ("broadcast_remainder", T.INT_FP_C),
    ("broadcast_and", T.BOOL_INT), ("broadcast_or", T.BOOL_INT), ("broadcast_xor", T.BOOL_INT),
    ("broadcast_atan2", T.FP_C), ("broadcast_shift_left", T.INT),
    ("broadcast_shift_right_arithmetic", T.INT), ("broadcast_shift_right_logical", T.INT),
    ("broadcast_polygamma", T.FP), ("broadcast_zeta", T.FP), ("broadcast_next_after", T.FP),
    ("broadcast_compare", T.ANY), ("broadcast_complex", T.FP),
]


def _roles(b):
    """(small, large) operand types: broadcast_dimensions index into the higher-rank one."""
    return (b.lhs, b.rhs) if T.rank(b.lhs) <= T.rank(b.rhs) else (b.rhs, b.lhs)


def _bdims(b):
    if b.broadcast_dimensions is None:
        return None
    small, large = _roles(b)
    dims = list(b.broadcast_dimensions)
    if len(dims) != T.rank(small):
        return (f"broadcast_dimensions {dims} must have one entry per dimension of the "
                f"lower-rank operand {small}")
    bad = [d for d in dims if not 0 <= d < T.rank(large)]
    if bad:
        return f"broadcast_dimensions {dims} has {bad[0]} out of range for {large}"
    dup = [d for d in dims if dims.count(d) > 1]
    if dup:
        return f"broadcast_dimensions {dims} repeats dimension {dup[0]}"


def broadcast_dim(x: int, y: int) -> int | None:
    """One dimension of numpy broadcasting (None if they do not broadcast)."""
    if x == 1:
        return y
    if x == y or y == 1 or y == T.DYN:
        return x
    return y if x == T.DYN else None


def broadcast_shape(b) -> tuple[list[int] | None, str]:
    """The result shape (None if the operands do not broadcast) and a description of the pair."""
    if b.broadcast_dimensions is None:
        ls, rs = T.shape(b.lhs), T.shape(b.rhs)
        n = max(len(ls), len(rs))
        ls, rs = [1] * (n - len(ls)) + ls, [1] * (n - len(rs)) + rs
        out = [broadcast_dim(x, y) for x, y in zip(ls, rs)]
        return _known(out), f"{b.lhs} and {b.rhs}"
    small, large = _roles(b)
    out = list(T.shape(large))
    for d, bd in zip(T.shape(small), b.broadcast_dimensions):
        out[bd] = broadcast_dim(d, out[bd])
    pair = f"{b.lhs} and {b.rhs} with broadcast_dimensions {list(b.broadcast_dimensions)}"
    return _known(out), pair


def _known(dims: list[int | None]) -> list[int] | None:
    """`dims` if every one broadcast, else None."""
    known = [d for d in dims if d is not None]
    return known if len(known) == len(dims) else None


def _broadcasts(b):
    dims, pair = broadcast_shape(b)
    if dims is None:
        return f"shapes do not broadcast: {pair}"


def _same_elements(b):
    if T.elem(b.lhs) != T.elem(b.rhs):
        return f"lhs and rhs must have the same element type, got {b.lhs} and {b.rhs}"


def _f32_or_f64(b):
    if str(T.elem(b.lhs)) not in ("f32", "f64"):
        return f"lhs must be a tensor of f32 or f64, got {b.lhs}"


def _chlo_compare_type(b):
    if b.compare_type is not None and b.compare_type not in compare_types(T.elem(b.lhs)):
        allowed = " or ".join(compare_types(T.elem(b.lhs)))
        return (f"compare_type {b.compare_type} is not valid for element type {T.elem(b.lhs)}, "
                f"expected {allowed}")


def _binary_infer(element):
    def infer(b):
        dims, _ = broadcast_shape(b)
        larger = b.lhs if T.rank(b.lhs) >= T.rank(b.rhs) else b.rhs
        et = T.elem(b.lhs) if element is None else element(T.elem(b.lhs))
        return ir.RankedTensorType.get(dims, et, ir.RankedTensorType(larger).encoding)
    return infer


def binary(name: str, classes) -> OpDef:
    inputs = [Operand("lhs", classes), Operand("rhs", classes),
              Attr("broadcast_dimensions", A.I64_ARRAY, default=None)]
    checks = [Check("C1", _same_elements), Check("C2", _bdims), Check("C3", _broadcasts)]
    element = None
    if name == "broadcast_compare":
        inputs += [Attr("comparison_direction", A.comparison_direction("chlo")),
                   Attr("compare_type", A.comparison_type("chlo"), default=None)]
        checks.append(Check("C4", _chlo_compare_type))
        element = i1
    elif name == "broadcast_complex":
        checks.insert(0, Check("I1", _f32_or_f64))
        element = ir.ComplexType.get
    return OpDef(f"chlo.{name}", inputs, checks=checks, result_id="C3",
                 infer=_binary_infer(element))


def non_broadcasting(name: str, operands, classes) -> OpDef:
    x, y = operands
    return OpDef(f"chlo.{name}", [Operand(x, classes), Operand(y, classes)],
                 checks=[Check("C1", same_types(x, y))],
                 infer=lambda b: merged_type([b.types[x], b.types[y]]))


OPS: list[OpDef] = (
    [OpDef(f"chlo.{n}", [Operand("operand", c)], infer=like("operand")) for n, c in UNARY]
    + [non_broadcasting(*row) for row in NON_BROADCASTING]
    + [OpDef(f"chlo.{n}", [Operand("operand", T.FP)], infer=like("operand", i1))
       for n in PREDICATES]
    + [binary(n, c) for n, c in BINARY])
