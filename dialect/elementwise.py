"""StableHLO elementwise ops (spec chapter "Ops", elementwise part), declared as data.

Most ops are one row of a table: name and the element classes the spec allows for operands
(e.g. ``("sine", FP_C)``); their only constraint is (C1) on equal types. Ops with other
result types or extra attributes (abs, compare, complex, convert, bitcast_convert, clamp,
select, is_finite, real, imag, reduce_precision) are declared one by one below.
"""
from __future__ import annotations

import struct

from iree.compiler import ir

from . import attributes as A
from . import types as T
from .opdef import Attr, Check, Derived, OpDef, Operand

# --- shared constraint and inference helpers -------------------------------------------------


def merged_type(types) -> ir.Type:
    """The type of same-typed operands, with each dynamic dim replaced by a static one if known."""
    first = types[0]
    dims = list(T.shape(first))
    for t in types[1:]:
        for i, d in enumerate(T.shape(t)):
            if dims[i] == T.DYN:
                dims[i] = d
    return first if dims == T.shape(first) else T.with_shape(first, dims)


def compatible(a: ir.Type, b: ir.Type) -> bool:
    """Same element type and same shape, up to dynamic dimensions."""
    return a == b or (T.elem(a) == T.elem(b) and T.same_shape(T.shape(a), T.shape(b)))


def same_types(*names: str):
    """(C1)-style check: the named operands have one type."""
    def check(b):
        types = [b.types[n] for n in names]
        if not all(compatible(types[0], t) for t in types[1:]):
            what = "operands" if names == ("lhs", "rhs") else " and ".join(names)
            return f"{what} must have the same type, got {' and '.join(map(str, types))}"
    return check


def same_shapes(*names: str):
    def check(b):
        types = [b.types[n] for n in names]
        if not all(T.same_shape(T.shape(types[0]), T.shape(t)) for t in types[1:]):
            return (f"{' and '.join(names)} must have the same shape, got "
                    f"{' and '.join(map(str, types))}")
    return check


def same_element_types(*names: str):
    def check(b):
        types = [b.types[n] for n in names]
        if len({str(T.elem(t)) for t in types}) > 1:
            return (f"{' and '.join(names)} must have the same element type, got "
                    f"{' and '.join(map(str, types))}")
    return check


def like(name: str, element=None):
    """Inference: the type of operand `name` (optionally with another element type)."""
    def infer(b):
        t = b.types[name]
        return t if element is None else T.with_shape(t, T.shape(t), element(T.elem(t)))
    return infer


def i1(_et) -> ir.Type:
    return ir.IntegerType.get_signless(1)


# --- table-driven families -------------------------------------------------------------------

# Ops with a `result_accuracy` attribute (the transcendental ones).
WITH_ACCURACY = {"cbrt", "cosine", "exponential", "exponential_minus_one", "log",
                 "log_plus_one", "logistic", "rsqrt", "sine", "sqrt", "tan", "tanh"}


def unary(name: str, classes, summary: str = "") -> OpDef:
    """operand -> result of the same type (C1: baseline_type(operand) = baseline_type(result))."""
    accuracy = ([Attr("result_accuracy", A.RESULT_ACCURACY, default=None)]
                if name in WITH_ACCURACY else [])
    return OpDef(f"stablehlo.{name}", [Operand("operand", classes), *accuracy],
                 infer=like("operand"), summary=summary)


def binary(name: str, classes, summary: str = "") -> OpDef:
    """lhs, rhs -> result; (C1) type(lhs) = type(rhs) = type(result)."""
    return OpDef(f"stablehlo.{name}", [Operand("lhs", classes), Operand("rhs", classes)],
                 checks=[Check("C1", same_types("lhs", "rhs"))],
                 infer=lambda b: merged_type([b.lhs, b.rhs]), summary=summary)


UNARY = [
    ("cbrt", T.FP_C), ("ceil", T.FP), ("cosine", T.FP_C), ("count_leading_zeros", T.INT),
    ("exponential", T.FP_C), ("exponential_minus_one", T.FP_C), ("floor", T.FP),
    ("log", T.FP_C), ("log_plus_one", T.FP_C), ("logistic", T.FP_C), ("negate", T.INT_FP_C),
    ("not", T.BOOL_INT), ("popcnt", T.INT), ("round_nearest_afz", T.FP),
    ("round_nearest_even", T.FP), ("rsqrt", T.FP_C), ("sign", T.SINT_FP_C), ("sine", T.FP_C),
    ("sqrt", T.FP_C), ("tan", T.FP_C), ("tanh", T.FP_C),
]

BINARY = [
    ("add", T.ANY), ("and", T.BOOL_INT), ("atan2", T.FP_C), ("divide", T.INT_FP_C),
    ("maximum", T.ANY), ("minimum", T.ANY), ("multiply", T.ANY), ("or", T.BOOL_INT),
    ("power", T.INT_FP_C), ("remainder", T.INT_FP_C), ("shift_left", T.INT),
    ("shift_right_arithmetic", T.INT), ("shift_right_logical", T.INT),
    ("subtract", T.INT_FP_C), ("xor", T.BOOL_INT),
]

# --- ops with their own result rules ---------------------------------------------------------


def compare_types(et) -> tuple[str, ...]:
    """(C3): the compare_types allowed for an element type; the first is the default."""
    return {T.SINT: ("SIGNED",), T.UINT: ("UNSIGNED",), T.BOOL: ("UNSIGNED",),
            T.FLOAT: ("FLOAT", "TOTALORDER"), T.COMPLEX: ("FLOAT",)}[T.kind(et)]


def total_order_key(x: float) -> int:
    """An integer whose order is IEEE totalOrder's (-NaN < -inf < ... < -0 < 0 < ... < NaN)."""
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    return bits ^ (2 ** 64 - 1) if bits >> 63 else bits | (1 << 63)


def compare_kind(op: ir.Operation) -> str:
    """A stablehlo.compare's compare_type, the element type's default where absent."""
    if "compare_type" in op.attributes:
        return A.enum_name(op.attributes["compare_type"])
    return compare_types(ir.RankedTensorType(op.operands[0].type).element_type)[0]


def compare_scalars(op: ir.Operation, a, b) -> bool:
    """What a stablehlo.compare gives for the Python scalars `a` and `b` (floats compare as
    IEEE values or, for TOTALORDER, by totalOrder; UNSIGNED integers modulo their width)."""
    kind = compare_kind(op)
    element = ir.RankedTensorType(op.operands[0].type).element_type.maybe_downcast()
    if kind == "TOTALORDER":
        a, b = total_order_key(a), total_order_key(b)
    elif kind == "UNSIGNED" and isinstance(element, ir.IntegerType):
        a, b = a % (1 << element.width), b % (1 << element.width)
    direction = A.enum_name(op.attributes["comparison_direction"])
    return {"EQ": a == b, "NE": a != b, "LT": a < b, "LE": a <= b, "GT": a > b,
            "GE": a >= b}[direction]


def _compare_type(b):
    allowed = compare_types(T.elem(b.lhs))
    if b.compare_type not in allowed:
        return (f"compare_type {b.compare_type} is not valid for element type {T.elem(b.lhs)}, "
                f"expected {' or '.join(allowed)}")


def _complex_operand(b):
    if str(T.elem(b.lhs)) not in ("f32", "f64"):
        return f"lhs must be a tensor of f32 or f64, got {b.lhs}"


def _complex_operand_rhs(b):
    if str(T.elem(b.rhs)) not in ("f32", "f64"):
        return f"rhs must be a tensor of f32 or f64, got {b.rhs}"


def _scalar_or_same_shape(name: str):
    def check(b):
        t = b.types[name]
        if T.rank(t) != 0 and not T.same_shape(T.shape(t), T.shape(b.operand)):
            return f"{name} must be a scalar or have the shape of operand {b.operand}, got {t}"
    return check


def _pred_shape(b):
    if T.rank(b.pred) != 0 and not T.same_shape(T.shape(b.pred), T.shape(b.on_true)):
        return f"pred must be a scalar or have the shape of on_true {b.on_true}, got {b.pred}"


def _bitcast_shape(b):
    """(C1): shapes follow the element bit widths."""
    src, dst = b.operand, b.result_type
    e, e2 = T.num_bits(T.elem(src)), T.num_bits(T.elem(dst))
    s, s2 = T.shape(src), T.shape(dst)
    head = f"cannot bitcast {src} ({e}-bit elements) to {dst} ({e2}-bit elements)"
    if e == e2 and not T.same_shape(s, s2):
        return f"{head}: equal widths need equal shapes"
    if e2 < e and (len(s2) != len(s) + 1 or not T.same_shape(s, s2[:-1])
                   or (s2[-1] != T.DYN and s2[-1] * e2 != e)):
        extra = e // e2 if e % e2 == 0 else "?"
        return f"{head}: the result must be the operand's shape + [{extra}]"
    if e2 > e and (len(s) == 0 or len(s2) != len(s) - 1 or not T.same_shape(s[:-1], s2)
                   or (s[-1] != T.DYN and s[-1] * e != e2)):
        return f"{head}: the operand's last dimension must be {e2 // e if e2 % e == 0 else '?'}"


def _bitcast_complex(b):
    """(C2): complex only to/from complex."""
    a, r = T.kind(T.elem(b.operand)) == T.COMPLEX, T.kind(T.elem(b.result_type)) == T.COMPLEX
    if a != r:
        return (f"cannot bitcast between complex and non-complex types, {b.operand} to "
                f"{b.result_type}")


def _same_shape_as_result(b):
    if not T.same_shape(T.shape(b.operand), T.shape(b.result_type)):
        return f"result_type {b.result_type} must have the shape of operand {b.operand}"


def _at_least(name: str, low: int):
    def check(b):
        if b.attrs[name] < low:
            return f"{name} must be >= {low}, got {b.attrs[name]}"
    return check


SPECIAL = [
    *[OpDef(f"stablehlo.{name}", [Operand("operand", classes)], result_id="C1",
            result_element_id="C2", infer=like("operand", T.complex_element_type))
      for name, classes in (("abs", T.SINT_FP_C), ("real", T.FP_C), ("imag", T.FP_C))],
    OpDef("stablehlo.is_finite", [Operand("x", T.FP)], infer=like("x", i1)),
    OpDef("stablehlo.compare",
          [Operand("lhs"), Operand("rhs"),
           Attr("comparison_direction", A.comparison_direction("stablehlo")),
           Attr("compare_type", A.comparison_type("stablehlo"),
                default=Derived(lambda b: compare_types(T.elem(b.lhs))[0]))],
          checks=[Check("C1", same_element_types("lhs", "rhs")),
                  Check("C2", same_shapes("lhs", "rhs")), Check("C3", _compare_type)],
          result_id="C2", infer=lambda b: T.with_shape(
              b.lhs, T.shape(merged_type([b.lhs, b.rhs])), i1(None))),
    OpDef("stablehlo.complex", [Operand("lhs", T.FP), Operand("rhs", T.FP)],
          checks=[Check("I1", _complex_operand), Check("I2", _complex_operand_rhs),
                  Check("C1", same_types("lhs", "rhs"))],
          result_id="C2", result_element_id="C3",
          infer=lambda b: T.with_shape(merged_type([b.lhs, b.rhs]), T.shape(b.lhs),
                                       ir.ComplexType.get(T.elem(b.lhs)))),
    OpDef("stablehlo.clamp", [Operand("min"), Operand("operand"), Operand("max")],
          checks=[Check("C1", _scalar_or_same_shape("min")),
                  Check("C2", _scalar_or_same_shape("max")),
                  Check("C3", same_element_types("min", "operand", "max"))],
          result_id="C4", infer=like("operand")),
    OpDef("stablehlo.select",
          [Operand("pred", frozenset({T.BOOL})), Operand("on_true"), Operand("on_false")],
          checks=[Check("C1", _pred_shape), Check("C2", same_types("on_true", "on_false"))],
          result_id="C2", infer=lambda b: merged_type([b.on_true, b.on_false])),
    OpDef("stablehlo.convert", [Operand("operand")], result_type="required",
          result_classes=T.ANY, checks=[Check("C1", _same_shape_as_result)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.bitcast_convert", [Operand("operand", T.ANY | {T.QUANT})],
          result_type="required", result_classes=T.ANY | {T.QUANT},
          checks=[Check("C1", _bitcast_shape), Check("C2", _bitcast_complex)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.reduce_precision",
          [Operand("operand", T.FP), Attr("exponent_bits", A.I32),
           Attr("mantissa_bits", A.I32)],
          checks=[Check("C2", _at_least("exponent_bits", 1)),
                  Check("C3", _at_least("mantissa_bits", 0))],
          infer=like("operand")),
]

# --- add: the one binary op taking quantized tensors (spec C2-C7) -----------------------------


def _quantized(b) -> bool:
    return T.is_quantized(T.elem(b.lhs)) or T.is_quantized(T.elem(b.rhs))


def _params(t):
    return T.quant_params(T.elem(t))


def _unquantized_types(b):
    """(C1) type(lhs) = type(rhs) = type(result); quantized operands: their shapes."""
    return same_shapes("lhs", "rhs")(b) if _quantized(b) else same_types("lhs", "rhs")(b)


def _add_infer(b):
    """The operands' type; a quantized result's parameters are result_type's."""
    if not _quantized(b):
        return merged_type([b.lhs, b.rhs])
    dims = [x if x != T.DYN else y for x, y in zip(T.shape(b.lhs), T.shape(b.rhs))]
    return T.with_shape(b.result_type, dims)


def _all_quantized(b):
    """(C2) is_quantized(lhs) and is_quantized(rhs) and is_quantized(result)."""
    if not _quantized(b):
        return None
    if not (T.is_quantized(T.elem(b.lhs)) and T.is_quantized(T.elem(b.rhs))):
        return f"lhs {b.lhs} and rhs {b.rhs} must both be quantized"
    if b.result_type is None or not T.is_quantized(T.elem(b.result_type)):
        return ("a quantized add needs a quantized result_type= (its scale and zero point are "
                f"not inferable), got {b.result_type}")


def _same_param(what: str, cid: str):
    def check(b):
        if not _quantized(b):
            return None
        got = [str(getattr(_params(t), what)) for t in (b.lhs, b.rhs, b.result_type)]
        if len(set(got)) > 1:
            return f"{what} of lhs, rhs and result must agree, got {', '.join(got)}"
    return check


def _per_axis_result(b):
    """(C5) (is_per_axis_quantized(lhs) or is_per_axis_quantized(rhs)) =
    is_per_axis_quantized(result)."""
    if _quantized(b) and (_params(b.lhs).per_axis or _params(b.rhs).per_axis) \
            != _params(b.result_type).per_axis:
        return f"result_type {b.result_type} must be per-axis quantized iff an operand is"


def _same_axis(name: str):
    """(C6/C7) quantization_dimension(name) = quantization_dimension(result)."""
    def check(b):
        if not _quantized(b) or not _params(b.types[name]).per_axis:
            return None
        mine, res = (_params(t).quantization_dimension for t in (b.types[name], b.result_type))
        if mine != res:
            return (f"{name}'s quantization_dimension {mine} must equal the result's {res}")
    return check


ADD = OpDef("stablehlo.add", [Operand("lhs", T.ANY | {T.QUANT}),
                              Operand("rhs", T.ANY | {T.QUANT})],
            checks=[Check("C1", _unquantized_types), Check("C2", _all_quantized),
                    Check("C3", _same_param("storage_type", "C3")),
                    Check("C4", _same_param("expressed_type", "C4")),
                    Check("C5", _per_axis_result), Check("C6", _same_axis("lhs")),
                    Check("C7", _same_axis("rhs"))],
            infer=_add_infer)

OPS: list[OpDef] = ([unary(n, c) for n, c in UNARY]
                    + [ADD if n == "add" else binary(n, c) for n, c in BINARY] + SPECIAL)
