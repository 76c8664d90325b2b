"""Element-wise ops: unary, binary (XLA's implicit broadcasting with broadcast_dimensions
lowered to chlo.broadcast_*), comparisons (incl. the TotalOrder forms), Select, Clamp,
ReducePrecision, ConvertElementType and BitcastConvertType."""
from __future__ import annotations

from shlo.dialect import chlo, stablehlo
from shlo.dialect import types as T
from shlo.dialect.attributes import KindError

from .builder import XlaOp
from .errors import fail
from .operands import array, builder_of, ints
from .shapes import dtype

# XLA name -> (builder module, builder name, takes result_accuracy)
UNARY = {
    "Abs": (stablehlo, "abs", False), "Ceil": (stablehlo, "ceil", False),
    "Floor": (stablehlo, "floor", False), "Neg": (stablehlo, "negate", False),
    "Not": (stablehlo, "not_", False), "Sign": (stablehlo, "sign", False),
    "Clz": (stablehlo, "count_leading_zeros", False), "Real": (stablehlo, "real", False),
    "PopulationCount": (stablehlo, "popcnt", False), "Imag": (stablehlo, "imag", False),
    "IsFinite": (stablehlo, "is_finite", False),
    "Round": (stablehlo, "round_nearest_afz", False),
    "RoundNearestAfz": (stablehlo, "round_nearest_afz", False),
    "RoundNearestEven": (stablehlo, "round_nearest_even", False),
    "Cos": (stablehlo, "cosine", True), "Sin": (stablehlo, "sine", True),
    "Tan": (stablehlo, "tan", True), "Tanh": (stablehlo, "tanh", True),
    "Exp": (stablehlo, "exponential", True), "Expm1": (stablehlo, "exponential_minus_one", True),
    "Log": (stablehlo, "log", True), "Log1p": (stablehlo, "log_plus_one", True),
    "Logistic": (stablehlo, "logistic", True), "Sqrt": (stablehlo, "sqrt", True),
    "Rsqrt": (stablehlo, "rsqrt", True), "Cbrt": (stablehlo, "cbrt", True),
    # CHLO ops carry no result_accuracy attribute: the argument is checked, and its request
    # is met by CHLO's own expansion (documented in docs/xla.md).
    "Erf": (chlo, "erf", "chlo"), "Cosh": (chlo, "cosh", "chlo"), "Sinh": (chlo, "sinh", "chlo"),
    "Acos": (chlo, "acos", False), "Asin": (chlo, "asin", False), "Atan": (chlo, "atan", False),
    "Acosh": (chlo, "acosh", False), "Asinh": (chlo, "asinh", False),
    "Atanh": (chlo, "atanh", False), "Conj": (chlo, "conj", False),
    "Square": (chlo, "square", False), "Lgamma": (chlo, "lgamma", False),
    "Digamma": (chlo, "digamma", False), "Erfc": (chlo, "erfc", False),
    "ErfInv": (chlo, "erf_inv", False),
}

# XLA name -> stablehlo builder name; chlo's is broadcast_<name> (minus a trailing _).
BINARY = {
    "Add": "add", "Sub": "subtract", "Mul": "multiply", "Div": "divide", "Rem": "remainder",
    "Max": "maximum", "Min": "minimum", "Pow": "power", "And": "and_", "Or": "or_",
    "Xor": "xor", "ShiftLeft": "shift_left", "ShiftRightArithmetic": "shift_right_arithmetic",
    "ShiftRightLogical": "shift_right_logical", "Atan2": "atan2", "Complex": "complex",
}

COMPARE = {"Eq": "EQ", "Ne": "NE", "Ge": "GE", "Gt": "GT", "Le": "LE", "Lt": "LT"}

BROADCAST_RULE = ("operands of different ranks broadcast only with broadcast_dimensions or "
                  "when one is a scalar")


def _unary(name: str, module, fn_name: str, accuracy):
    builder_fn = getattr(module, fn_name)

    if accuracy:
        def op(operand: XlaOp, result_accuracy=None) -> XlaOp:
            b = builder_of(name, operand)
            x = array(name, operand)
            with b.emit(name):
                if accuracy == "chlo":
                    _check_accuracy(name, result_accuracy)
                    return b.wrap(builder_fn(x))
                return b.wrap(builder_fn(x, result_accuracy=result_accuracy))
    else:
        def op(operand: XlaOp) -> XlaOp:  # type: ignore[misc]  # no result_accuracy here
            b = builder_of(name, operand)
            x = array(name, operand)
            with b.emit(name):
                return b.wrap(builder_fn(x))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"XLA {name}: element-wise, built as {module.__name__.split('.')[-1]}.{fn_name}."
    return op


_ACCURACY = next(a for a in stablehlo.exponential.opdef.attrs  # type: ignore[attr-defined]
                 if a.name == "result_accuracy")                # (a builder carries its OpDef)


def _check_accuracy(name: str, result_accuracy):
    """Validate a result_accuracy for a CHLO op (which has no such attribute) as StableHLO does."""
    if result_accuracy is None:
        return
    try:
        _ACCURACY.kind.normalize(result_accuracy)
    except KindError as e:
        fail(name, f"result_accuracy must be {e}")


def broadcast_binary(name: str, lhs: XlaOp, rhs: XlaOp, broadcast_dimensions, plain, broadcasting,
                     **attrs) -> XlaOp:
    """An element-wise binary op with XLA's implicit broadcasting: equal shapes build `plain`
    (a stablehlo builder), anything else `broadcasting` (a chlo.broadcast_* builder)."""
    b = builder_of(name, lhs, rhs)
    x, y = array(name, lhs, "lhs"), array(name, rhs, "rhs")
    bd = ints(name, "broadcast_dimensions", broadcast_dimensions, optional=True) or []
    xs, ys = T.shape(x.type), T.shape(y.type)
    with b.emit(name):
        if not bd and xs == ys:
            return b.wrap(plain(x, y, **attrs))
        if not bd and len(xs) != len(ys) and xs and ys:
            fail(name, f"lhs {lhs.shape()} and rhs {rhs.shape()} have different ranks",
                 BROADCAST_RULE)
        if bd:
            low = min(len(xs), len(ys))
            if len(bd) != low:
                fail(name, f"broadcast_dimensions {bd} must have one entry per dimension of the "
                     f"lower-rank operand (rank {low})", "broadcast_dimensions maps the "
                     "lower-rank operand's dimensions into the higher-rank shape")
        return b.wrap(broadcasting(x, y, broadcast_dimensions=bd or None, **attrs))


def _binary(name: str, fn_name: str):
    plain = getattr(stablehlo, fn_name)
    broadcasting = getattr(chlo, "broadcast_" + fn_name.rstrip("_"))

    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions=()) -> XlaOp:
        return broadcast_binary(name, lhs, rhs, broadcast_dimensions, plain, broadcasting)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"XLA {name}(lhs, rhs, broadcast_dimensions=()): stablehlo.{fn_name} on equal "
                  f"shapes, else chlo.broadcast_{fn_name.rstrip('_')}.")
    return op


def Compare(lhs: XlaOp, rhs: XlaOp, direction, broadcast_dimensions=(),
            compare_type=None) -> XlaOp:
    """XLA Compare(lhs, rhs, direction) or, as in C++, Compare(lhs, rhs, broadcast_dimensions,
    direction); compare_type is FLOAT, TOTALORDER, SIGNED or UNSIGNED (default: from the type)."""
    if isinstance(direction, (list, tuple)) and isinstance(broadcast_dimensions, str):
        direction, broadcast_dimensions = broadcast_dimensions, direction
    if not isinstance(direction, str) or direction.upper() not in COMPARE.values():
        fail("Compare", f"direction must be one of {', '.join(COMPARE.values())}, "
             f"got {direction!r}")
    return broadcast_binary("Compare", lhs, rhs, broadcast_dimensions, stablehlo.compare,
                            chlo.broadcast_compare, comparison_direction=direction.upper(),
                            compare_type=compare_type)


def _compare(name: str, direction: str, total_order: bool):
    def op(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions=()) -> XlaOp:
        if total_order:
            for x, what in ((lhs, "lhs"), (rhs, "rhs")):
                if isinstance(x, XlaOp) and x.shape().is_array() and \
                        T.kind(T.elem(x.value.type)) != T.FLOAT:
                    fail(name, f"{what} {x.shape()} is not floating-point",
                         "TotalOrder comparisons take floating-point operands")
        return broadcast_binary(name, lhs, rhs, broadcast_dimensions, stablehlo.compare,
                                chlo.broadcast_compare, comparison_direction=direction,
                                compare_type="TOTALORDER" if total_order else None)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"XLA {name}(lhs, rhs, broadcast_dimensions=()): compare {direction}"
                  + (" in IEEE total order." if total_order else "."))
    return op


def Select(pred: XlaOp, on_true: XlaOp, on_false: XlaOp) -> XlaOp:
    """XLA Select: pred is PRED, of the operands' shape or a scalar."""
    b = builder_of("Select", pred, on_true, on_false)
    if on_true.shape().is_tuple() or on_false.shape().is_tuple():
        if on_true.shape() != on_false.shape():
            fail("Select", f"on_true {on_true.shape()} and on_false {on_false.shape()} differ",
                 "on_true and on_false have the same shape")
        p = array("Select", pred, "pred")
        if T.rank(p.type):
            fail("Select", "a tuple select needs a scalar pred", "tuple Select takes PRED[]")
        with b.emit("Select"):
            return b.unflatten([stablehlo.select(p, t, f) for t, f in
                                zip(on_true.leaves(), on_false.leaves())], [on_true.shape()])[0]
    with b.emit("Select"):
        return b.wrap(stablehlo.select(array("Select", pred, "pred"),
                                       array("Select", on_true, "on_true"),
                                       array("Select", on_false, "on_false")))


def Clamp(min: XlaOp, operand: XlaOp, max: XlaOp) -> XlaOp:  # noqa: A002 (the seed's names)
    """XLA Clamp(min, operand, max): min and max are of operand's shape or scalars."""
    b = builder_of("Clamp", min, operand, max)
    with b.emit("Clamp"):
        return b.wrap(stablehlo.clamp(array("Clamp", min, "min"), array("Clamp", operand),
                                      array("Clamp", max, "max")))


def ReducePrecision(operand: XlaOp, exponent_bits: int, mantissa_bits: int) -> XlaOp:
    b = builder_of("ReducePrecision", operand)
    with b.emit("ReducePrecision"):
        return b.wrap(stablehlo.reduce_precision(array("ReducePrecision", operand),
                                                 exponent_bits=exponent_bits,
                                                 mantissa_bits=mantissa_bits))


def ConvertElementType(operand: XlaOp, new_element_type) -> XlaOp:
    """XLA ConvertElementType: element-wise conversion to `new_element_type` (C++ static_cast)."""
    b = builder_of("ConvertElementType", operand)
    x = array("ConvertElementType", operand)
    with b.emit("ConvertElementType"):
        t = T.tensor_type(T.shape(x.type), dtype(new_element_type))
        if t == x.type:
            return b.wrap(x)
        return b.wrap(stablehlo.convert(x, result_type=t))


def BitcastConvertType(operand: XlaOp, new_element_type) -> XlaOp:
    """XLA BitcastConvertType: same bits, new type; a narrower type adds a minor dimension of
    the width ratio, a wider one removes the minor dimension (which must equal the ratio)."""
    name = "BitcastConvertType"
    b = builder_of(name, operand)
    x = array(name, operand)
    with b.emit(name):
        et = T.element_type(dtype(new_element_type))
        src, dst = T.num_bits(T.elem(x.type)), T.num_bits(et)
        dims = T.shape(x.type)
        if dst < src:
            dims = dims + [src // dst]
        elif dst > src:
            if not dims or dims[-1] != dst // src:
                fail(name, f"converting {operand.shape()} to a {dst}-bit type needs a minor "
                     f"dimension of {dst // src}", "B' > B: the last dimension equals B'/B and "
                     "is removed")
            dims = dims[:-1]
        return b.wrap(stablehlo.bitcast_convert(x, result_type=T.with_shape(x.type, dims, et)))


OPS = {}
OPS.update({n: _unary(n, *spec) for n, spec in UNARY.items()})
OPS.update({n: _binary(n, fn) for n, fn in BINARY.items()})
OPS.update({n: _compare(n, d, False) for n, d in COMPARE.items()})
OPS.update({n + "TotalOrder": _compare(n + "TotalOrder", d, True) for n, d in COMPARE.items()})
OPS.update(Compare=Compare, Select=Select, Clamp=Clamp, ReducePrecision=ReducePrecision,
           ConvertElementType=ConvertElementType, BitcastConvertType=BitcastConvertType)
