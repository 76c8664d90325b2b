"""shlo-fold-constant-scalars: fold StableHLO ops on constants whose result is small.

With const-eval off (pipelines/targets.py NO_CONST_EVAL), IREE hoists every constant
expression into an initializer of its own and compiles each op of it as an executable of its
own: jax's Adam step, whose bias corrections are `beta ** step` with constant betas, left
shlo-accurate-math's f64 pow with some 100 scalar f64 ops on constants (the parts of fdlibm's
pow that depend on the base only), which IREE compiled as 46 one-element dispatches, 40-60 ms
of compile CPU each (docs/performance.md, "Cold compiles").

Folded here, when every operand is a `stablehlo.constant` and the result has at most
`max-elements` elements: the ops shlo-simplify folds (passes/folding/simplify_fold.py, in
numpy, exactly as the spec computes them), and also bitcast_convert between types of one bit
width, floor, ceil, round_nearest_even and is_finite (exact in numpy too). An elementwise op
of splat constants folds at any size, into a splat: IREE folds such chains itself, but after it
has formed dispatches, and a data-tiled matmul of a folded splat then failed to compile or
read the wrong results of its producer's dispatch (docs/iree_gaps.md#shlo-fold-constant-scalars).
So does `imag` of a real value converted to complex: zero whatever the value. Unlike
shlo-simplify it applies no algebraic identities: only values computed from constants change,
into the constants they are.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import element_dtype
from ..base import Pass, is_splat_constant, on_constants
from ..lib.elementwise import ELEMENTWISE_OPS
from .simplify_fold import FOLDABLE, FOLDERS, array_of, fold, plain_static

_NATIVE_FLOATS = frozenset(np.dtype(d) for d in (np.float16, np.float32, np.float64))


def _bitcast(x: np.ndarray, dtype: np.dtype) -> np.ndarray | None:
    if x.dtype.itemsize != dtype.itemsize or np.dtype(bool) in (x.dtype, dtype):
        return None
    return np.ascontiguousarray(x).view(dtype).reshape(x.shape)


def _rounding(fn):
    return lambda x, dtype: fn(x) if x.dtype in _NATIVE_FLOATS and x.dtype == dtype else None


# op name -> fn(operand array, result dtype) -> array or None (one operand each)
EXTRA_FOLDERS = {
    "stablehlo.bitcast_convert": _bitcast,
    "stablehlo.floor": _rounding(np.floor),
    "stablehlo.ceil": _rounding(np.ceil),
    "stablehlo.round_nearest_even": _rounding(np.rint),
    "stablehlo.is_finite": lambda x, dtype: np.isfinite(x) if x.dtype in _NATIVE_FLOATS
    else None,
}


def _fold_extra(op: ir.Operation, limit: int) -> np.ndarray | None:
    """The value of an EXTRA_FOLDERS op on a constant operand, or None."""
    t = plain_static(op.results[0].type)
    if t is None or str(t.element_type) not in FOLDABLE or len(op.operands) != 1:
        return None
    shape = list(t.shape)
    if int(np.prod(shape, dtype=np.int64)) > limit:
        return None
    x = array_of(op.operands[0])
    if x is None:
        return None
    dtype = element_dtype(t.element_type)
    with np.errstate(all="ignore"):
        out = EXTRA_FOLDERS[op.name](x, dtype)
    if out is None:
        return None
    out = np.asarray(out)
    if out.dtype != dtype or list(out.shape) != shape:
        return None
    return np.ascontiguousarray(out).reshape(shape)


def _fold_splat(op: ir.Operation) -> np.ndarray | None:
    """The element of an elementwise op of splat constants, as a 0-d array (its result is a
    splat of it), or None."""
    t = plain_static(op.results[0].type)
    if (op.name not in ELEMENTWISE_OPS or t is None or str(t.element_type) not in FOLDABLE
            or not all(is_splat_constant(v.owner.operation) for v in op.operands)):
        return None
    args = []
    for v in op.operands:
        a = array_of(v)
        if a is None:
            return None
        args.append(np.ascontiguousarray(a.reshape(-1)[:1]))      # one element each
    dtype = element_dtype(t.element_type)
    with np.errstate(all="ignore"):
        out = (EXTRA_FOLDERS[op.name](args[0], dtype) if op.name in EXTRA_FOLDERS
               else FOLDERS[op.name](op, args, dtype) if op.name in FOLDERS else None)
    if out is None:
        return None
    out = np.asarray(out)
    return out.reshape(()) if out.dtype == dtype and out.size == 1 else None


def _imag_of_real(op: ir.Operation) -> bool:
    """`imag(convert(x))` of a real x: zero, whatever x."""
    if op.name != "stablehlo.imag" or not isinstance(op.operands[0].owner,
                                                     (ir.Operation, ir.OpView)):
        return False
    source = op.operands[0].owner.operation
    return (source.name == "stablehlo.convert" and not isinstance(
        ir.RankedTensorType(source.operands[0].type).element_type, ir.ComplexType)
        and plain_static(op.results[0].type) is not None)


def _folded(op: ir.Operation, limit: int) -> np.ndarray | None:
    """The constant value of `op` (one result, operands all constants), or None."""
    try:
        if op.name in EXTRA_FOLDERS:
            small = _fold_extra(op, limit)
        else:
            small = fold(op, limit) if op.name in FOLDERS else None
        return small if small is not None else _fold_splat(op)
    except Exception:        # unexpected input: leave the op, as shlo-simplify does
        return None


def _add(pending: list[ir.Operation], users: list[ir.Operation]) -> None:
    """Append the `users` whose operands are now all constants, each once: an op folded and
    erased twice crashed the process (`multiply(imag(z), imag(z))` of a converted integer z,
    fuzz seed 143 program 250)."""
    for user in users:
        if on_constants(user) and not any(user == p for p in pending):
            pending.append(user)


@dataclasses.dataclass
class FoldConstantScalars(Pass):
    """Fold StableHLO ops on constants with small results (no identities)."""

    NAME = "shlo-fold-constant-scalars"
    # Most elements an op's result may have to be folded into a constant.
    max_elements: int = 16

    def run(self, op: ir.Operation) -> None:
        # one walk for the ops on constants, then their users as they become foldable (a
        # worklist: cheaper than the greedy driver's visit of every op of these names)
        pending: list[ir.Operation] = []
        zeros: list[ir.Operation] = []          # imag(convert(x)) of real x

        def visit(o):
            if on_constants(o):
                pending.append(o)
            elif _imag_of_real(o):
                zeros.append(o)
            return ir.WalkResult.ADVANCE
        op.walk(visit)
        for o in zeros:
            with ir.InsertionPoint(o), o.location:
                element = element_dtype(ir.RankedTensorType(o.results[0].type).element_type)
                zero = stablehlo.constant(np.zeros((), element), result_type=o.results[0].type)
            o.results[0].replace_all_uses_with(zero)
            _add(pending, [u.owner.operation for u in zero.uses])
            o.erase()
        while pending:
            o = pending.pop()
            with ir.InsertionPoint(o), o.location:
                array = _folded(o, self.max_elements)
                if array is None:
                    continue
                constant = stablehlo.constant(array, result_type=o.results[0].type)
            users = [use.owner.operation for use in o.results[0].uses]
            o.results[0].replace_all_uses_with(constant)
            o.erase()
            _add(pending, users)
