"""Cumulative reductions along a run-time sized dimension: jax's `custom_call
@stablehlo.dynamic_reduce_window` for jnp.cumsum, cumprod, cummax and cummin (and their
`reverse=True` forms) under shape polymorphism, which IREE cannot compile
(docs/iree_gaps.md#passescustom_callscumulative_window).

jax writes a cumulative reduction over a dimension of size n as a reduce_window whose window
there is n long, padded by n - 1 init values before the data (after it when reversed), with
window 1 and no padding elsewhere and every stride and dilation 1. When the size operands say
exactly that (read back from the shape computations to `get_dimension_size` of the input or
of a value known to have its size), the body is one associative, commutative op and the init
is its identity, the call becomes an inclusive scan: a `stablehlo.while` that doubles a shift
s = 1, 2, 4, ... while s < n and combines the running values with themselves shifted by s
(the shifted-in places hold the identity): ceil(log2 n) passes, each a concatenate, a
`real_dynamic_slice` and the op. Sums are therefore added in a different order than the
window's left-to-right order (as XLA's own scans do), narrow floats in f32 and rounded once;
integer, max and min results are exact.
"""
from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import constant_values
from ..element_types.split_complex_constants import complex_values
from ..lib import builders as extras
from ..lib.expr import Num, element_of, is_float, is_narrow_float
from ..shapes.expand_dynamic_ops import size_origins
from ..shapes.refine_rules import called_function

# The body's op -> its identity, by element kind ("f" float, "s" signed, "u" unsigned,
# "b" i1), as a function of the bit width.
IDENTITIES = {
    "stablehlo.add": lambda kind, width: 0,
    "stablehlo.or": lambda kind, width: 0,
    "stablehlo.multiply": lambda kind, width: 1,
    "stablehlo.and": lambda kind, width: -1 if kind in "su" else 1,
    "stablehlo.maximum": lambda kind, width: {
        "f": -math.inf, "s": -2 ** (width - 1), "u": 0, "b": 0}[kind],
    "stablehlo.minimum": lambda kind, width: {
        "f": math.inf, "s": 2 ** (width - 1) - 1, "u": -1, "b": 1}[kind],
}


def decompose(op: ir.Operation) -> list[ir.Value] | None:
    """The scan replacing a cumulative `dynamic_reduce_window` call, or None when the call is
    not one (other windows with run-time sizes stay an error)."""
    if len(op.operands) != 7:
        return None                                  # one input, one init
    x, init = op.operands[0], op.operands[1]
    combine = _body_op(op)
    if combine is None or not is_identity(init, combine):
        return None
    scanned = _scanned_dimension(op)
    if scanned is None:
        return None
    axis, reverse = scanned
    if not is_narrow_float(element_of(x)):
        return [_scan(x, init, axis, reverse, combine)]
    # narrow floats are combined in f32 and rounded once, as shlo-accumulate-in-f32 does
    # for static windows (bf16 rounded at each of the log2(n) steps drifts twice as far)
    wide = [Num(v).to("f32").value for v in (x, init)]
    return [Num(_scan(wide[0], wide[1], axis, reverse, combine)).to(element_of(x)).value]


# ---- recognising the window ---------------------------------------------------------------

def _entry(value: ir.Value, index: int):
    """Entry `index` (row-major) of an integer shape tensor as (origin, offset): the value is
    size(origin) + offset, origin a (value, dimension) read by get_dimension_size, or None for
    a constant. None when the computation is not of that form."""
    if not isinstance(value, ir.OpResult):
        return None
    owner = value.owner
    name = owner.name
    if name in ("stablehlo.constant", "chlo.constant", "arith.constant"):
        known = constant_values(value)
        return None if known is None else (None, int(known.reshape(-1)[index]))
    if name in ("stablehlo.reshape", "stablehlo.convert"):
        return _entry(owner.operands[0], index)
    if name == "stablehlo.broadcast_in_dim" and _rank(owner.operands[0]) == 0:
        return _entry(owner.operands[0], 0)
    if name == "stablehlo.get_dimension_size":
        return ((owner.operands[0], ir.IntegerAttr(owner.attributes["dimension"]).value), 0)
    if name == "stablehlo.concatenate" and ir.IntegerAttr(owner.attributes["dimension"]).value == 0:
        for piece in owner.operands:
            size = math.prod(ir.RankedTensorType(piece.type).shape)
            if index < size:
                return _entry(piece, index)
            index -= size
        return None
    if name in ("stablehlo.add", "stablehlo.subtract"):
        a, b = (_entry(v, index) for v in owner.operands)
        if a is None or b is None or b[0] is not None and (a[0] is not None or
                                                           name == "stablehlo.subtract"):
            return None
        if name == "stablehlo.subtract":
            return (a[0], a[1] - b[1])
        return (a[0] or b[0], a[1] + b[1])
    return None


def _scanned_dimension(op: ir.Operation) -> tuple[int, bool] | None:
    """(dimension, reversed) when the window covers one run-time sized dimension whole, padded
    by its size - 1 on one side, and leaves every other dimension alone."""
    x = op.operands[0]
    rank = _rank(x)
    window, strides, base, dilation, padding = op.operands[2:]
    if any(_entry(v, k) != (None, 1) for v in (strides, base, dilation) for k in range(rank)):
        return None
    found = None
    for d in range(rank):
        w, lo, hi = _entry(window, d), _entry(padding, 2 * d), _entry(padding, 2 * d + 1)
        if (w, lo, hi) == ((None, 1), (None, 0), (None, 0)):
            continue
        if found is not None or None in (w, lo, hi) or w[0] is None or w[1] != 0:
            return None
        sizes = size_origins(x, d)
        if w[0] not in sizes:
            return None
        if lo[0] in sizes and lo[1] == -1 and hi == (None, 0):
            found = (d, False)
        elif hi[0] in sizes and hi[1] == -1 and lo == (None, 0):
            found = (d, True)
        else:
            return None
    return found


def _body_op(op: ir.Operation) -> str | None:
    """The name of the one op the called reducer applies to its two arguments."""
    block = called_function(op).regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    if (len(ops) != 2 or ops[0].name not in IDENTITIES or len(block.arguments) != 2
            or set(ops[0].operands) != set(block.arguments)
            or list(ops[1].operands) != [ops[0].results[0]]):
        return None
    return ops[0].name


_PARTS = {"stablehlo.real": 0, "stablehlo.imag": 1}     # part -> its operand of stablehlo.complex


def is_identity(init: ir.Value, combine: str) -> bool:
    """Whether `init` is a constant equal to the identity of `combine` (an op name), also read
    as the real or imaginary part of a complex constant or of stablehlo.complex (the parts of
    a complex cumulative sum)."""
    while isinstance(init, ir.OpResult) and (
            init.owner.name in ("stablehlo.broadcast_in_dim", "stablehlo.reshape")
            or init.owner.name == "stablehlo.convert" and is_float(element_of(init))
            and is_float(element_of(init.owner.operands[0]))   # (0, 1, ±inf stay so)
            or init.owner.name in _PARTS and isinstance(init.owner.operands[0], ir.OpResult)
            and init.owner.operands[0].owner.name == "stablehlo.complex"):
        source = init.owner
        init = source.operands[0] if source.name not in _PARTS else \
            source.operands[0].owner.operands[_PARTS[source.name]]
    if isinstance(init, ir.OpResult) and init.owner.name in _PARTS:
        return _complex_part_is(init, IDENTITIES[combine]("f", 64))
    if not (isinstance(init, ir.OpResult) and init.owner.name == "stablehlo.constant"):
        return False
    attr = ir.DenseElementsAttr(init.owner.attributes["value"])
    element = ir.RankedTensorType(init.type).element_type.maybe_downcast()
    if not attr.is_splat:
        return False
    value = attr.get_splat_value()
    if isinstance(element, ir.FloatType):
        return float(ir.FloatAttr(value).value) == IDENTITIES[combine]("f", element.width)
    if isinstance(element, ir.IntegerType):
        width = element.width
        kind = "b" if width == 1 else "u" if element.is_unsigned else "s"
        want = IDENTITIES[combine](kind, width)
        got = int(ir.BoolAttr(value).value) if width == 1 else int(ir.IntegerAttr(value).value)
        return (got - want) % (1 << width) == 0
    return False                                     # complex: left to the error


def _complex_part_is(part: ir.Value, want: float) -> bool:
    """Whether `part`, real or imag of a complex splat constant, is `want`."""
    source = part.owner.operands[0]
    if not (isinstance(source, ir.OpResult) and source.owner.name == "stablehlo.constant"):
        return False
    values = complex_values(source.owner.operation)
    if values is None or values.size == 0 or not np.all(values == values.flat[0]):
        return False
    value = values.flat[0]
    return float(value.real if part.owner.name == "stablehlo.real" else value.imag) == want


# ---- the scan -----------------------------------------------------------------------------

def _scan(x: ir.Value, init: ir.Value, axis: int, reverse: bool, combine: str) -> ir.Value:
    t = ir.RankedTensorType(x.type)
    rank = t.rank
    n = extras.size_scalar(x, axis)

    def corner(at_axis: ir.Value, other) -> ir.Value:
        """A start or limit vector: the 0-d `at_axis` along the scanned dimension, `other(d)`
        (an int or a (value, dimension) size) elsewhere."""
        return extras.size_vector([
            stablehlo.reshape(at_axis, result_type=ir.RankedTensorType.get(
                [1], ir.IntegerType.get_signless(64))) if d == axis else other(d)
            for d in range(rank)])

    def cond(s, y):
        return stablehlo.compare(s, n, comparison_direction="LT")

    def body(s, y):
        # y shifted by s along the axis, the identity shifted in (sizes read from y: IREE
        # fails on a loop whose body reads run-time sized tensors from outside)
        identity = extras.dynamic_broadcast_in_dim(init, extras.shape_of(y), [], t)
        parts = [y, identity] if reverse else [identity, y]
        joined = stablehlo.concatenate(parts, dimension=axis)
        start = s if reverse else stablehlo.subtract(n, s)
        shifted = extras.real_dynamic_slice(
            joined, corner(start, lambda d: 0), corner(stablehlo.add(start, n), lambda d: (y, d)),
            extras.size_vector([1] * rank), t)
        operands = [y, shifted] if reverse else [shifted, y]
        combined = ir.Operation.create(combine, results=[t], operands=operands).result
        return [stablehlo.add(s, s), combined]

    one = stablehlo.constant(np.array(1, np.int64))
    return extras.while_([one, x], cond, body)[1]


def _rank(value: ir.Value) -> int:
    return ir.RankedTensorType(value.type).rank

