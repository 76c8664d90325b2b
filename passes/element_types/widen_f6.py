"""shlo-widen-f6: compute f6E2M3FN and f6E3M2FN tensors in f32, on the f6 grid.

IREE cannot store a 6-bit float: any f6 tensor, even a constant that is only converted
to f32, fails to compile (docs/iree_gaps.md#shlo-widen-f6).
Inside each function this pass gives every f6 value the type f32 and keeps it on the f6
grid: an f6 constant becomes the f32 constant of the same values (each exact in f32); a
conversion to f6 rounds to the nearest f6 value (ties to even; the subnormal quantum below
the smallest normal, shlo-round-narrow-float-converts' grid) and saturates at +-max (6-bit
floats have no infinity, as ml_dtypes converts); any other op that makes f6 values computes
in f32 and rounds its result the same way; a conversion from f6 reads the f32 value. Ops that
only move values keep them on the grid. Regions are rewritten like the rest.

A function whose arguments or results are f6, and bitcast_convert to or from f6 (its bits
would be an f32's), are errors that say so.

With `f4=true` (the cuda and hip targets set it: IREE's LLVMGPU backends cannot truncate to
f4E2M1FN, "missing LLVMTranslationDialectInterface ... arith.truncf", found without a GPU)
f4E2M1FN values are computed the same way.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.errors import PassError
from ..base import Pass, nested_ops
from ..lib.expr import Num, float_info
from .round_narrow_float_converts import on_grid

SIX_BIT = ("f6E2M3FN", "f6E3M2FN")
FOUR_BIT = ("f4E2M1FN",)
# ops whose f6 results are f6 operands moved, picked or negated: already on the grid
_ON_GRID = frozenset(f"stablehlo.{n}" for n in (
    "reshape", "broadcast_in_dim", "transpose", "slice", "dynamic_slice", "concatenate",
    "pad", "reverse", "select", "gather", "dynamic_update_slice", "scatter", "sort",
    "maximum", "minimum", "abs", "negate", "sign", "clamp", "while", "if", "case", "reduce",
    "reduce_window", "select_and_scatter", "optimization_barrier", "constant", "iota",
    "map", "return", "after_all"))


def _six(t: ir.Type, kinds: tuple = SIX_BIT) -> str | None:
    """The element type name of a tensor type when it is one of `kinds`, else None."""
    shaped = t.maybe_downcast()
    if isinstance(shaped, ir.RankedTensorType) and str(shaped.element_type) in kinds:
        return str(shaped.element_type)
    return None


def _f32(t: ir.Type) -> ir.RankedTensorType:
    shaped = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(shaped.shape, ir.F32Type.get(), shaped.encoding)


def _widen_op(op: ir.Operation, six_operands: list, six_results: list,
              kinds: tuple) -> None:
    name = op.name
    if name == "stablehlo.constant":
        text = str(op.attributes["value"])
        head, _, _ = text.rpartition(":")
        wide = _f32(op.results[0].type)
        op.attributes["value"] = ir.Attribute.parse(f"{head}: {wide}")
        op.results[0].set_type(wide)
        return
    if name == "stablehlo.convert" and six_results[0]:        # to f6: round to its grid
        x = Num(op.operands[0])
        with ir.InsertionPoint(op), op.location:
            if six_operands[0] != six_results[0]:
                wide = x if str(x.element) in ("f32", "f64") else x.to("f32")
                x = on_grid(wide, ir.Type.parse(six_results[0]))
                x = x if str(x.element) == "f32" else x.to("f32")
        op.results[0].replace_all_uses_with(x.value)
        op.erase()
        return
    for region in op.regions:
        for block in region.blocks:
            for arg in block.arguments:
                if _six(arg.type, kinds):
                    arg.set_type(_f32(arg.type))
    for r, six in zip(op.results, six_results):
        if not six:
            continue
        r.set_type(_f32(r.type))
        if name in _ON_GRID:
            continue
        users = [(use.owner, use.operand_number) for use in r.uses]
        with ir.InsertionPoint.after(op), op.location:
            rounded = on_grid(Num(r), ir.Type.parse(six))   # computed in f32: back on the grid
        for owner, index in users:
            owner.operands[index] = rounded.value


def _widen_function(func: ir.Operation, kinds: tuple) -> None:
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    for t in [*ftype.inputs, *ftype.results]:
        if _six(t, kinds):
            bits = float_info(ir.RankedTensorType(t).element_type).bits
            raise PassError(f"function @{ir.StringAttr(func.attributes['sym_name']).value} "
                            f"takes or returns {t}: IREE 3.13 cannot store {bits}-bit floats"
                            f"{' on this target' if bits == 4 else ''}; pass f32 values and "
                            f"convert inside the function", at=func)
    ops = [(o, [_six(v.type, kinds) for v in o.operands],
            [_six(r.type, kinds) for r in o.results])
           for o in nested_ops(func) if o.name not in ("func.func", "func.return")]
    for op, six_operands, six_results in ops:
        if op.name == "stablehlo.bitcast_convert" and any(six_operands + six_results):
            raise PassError(f"stablehlo.bitcast_convert between {op.operands[0].type} and "
                            f"{op.results[0].type} is not supported: IREE cannot store these "
                            f"floats on this target, so shlo computes them in f32 and has no "
                            f"bits for them", at=op)
    for op, six_operands, six_results in ops:
        if any(six_operands + six_results):
            _widen_op(op, six_operands, six_results, kinds)


@dataclasses.dataclass
class WidenF6(Pass):
    """Compute 6-bit float tensors in f32, rounded to their grid (IREE cannot store f6); with
    f4=true 4-bit floats too."""

    NAME = "shlo-widen-f6"
    f4: bool = False            # also f4E2M1FN (IREE's GPU backends cannot store it)

    def run(self, op: ir.Operation) -> None:
        kinds = SIX_BIT + (FOUR_BIT if self.f4 else ())
        funcs = [f for f in nested_ops(op, "func.func") if len(f.regions[0].blocks)]
        with op.context, ir.Location.unknown():
            for f in funcs:
                if any(_six(v.type, kinds) for o in nested_ops(f)
                       for v in [*o.operands, *o.results]):
                    _widen_function(f, kinds)
