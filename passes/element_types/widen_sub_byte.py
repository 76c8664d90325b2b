"""shlo-widen-sub-byte: compute i2/i4/ui2/ui4 tensors in bytes, wrapping to the narrow range.

IREE cannot store a sub-byte tensor whose byte size is fractional (tensor<5xi4> is 2.5
bytes), so such a tensor cannot live between two dispatches
(docs/iree_gaps.md#shlo-widen-sub-byte). This pass gives every value of
those element types inside a function the byte type of the same signedness (i8, ui8), with
narrow values sign- or zero-extended, and re-narrows after each op that can leave the range
(add, multiply, shift_left, convert, ...: `(x << 8-N) >> 8-N` for signed, `x & (2^N - 1)` for
unsigned). Ops that look at the bits above the value see the N-bit pattern: shift_right_logical
and popcnt of signed values and count_leading_zeros (masked), shift_right_arithmetic of
unsigned ones (sign-extended from bit N). Function signatures keep the narrow types
(converts at entry, returns and calls); runtime.boundary carries them across IREE's boundary
as bytes. A bitcast_convert to or from a sub-byte type is first spelt out in integer ops on
the N-bit fields, little-endian as the spec's bits and the interpreter order them (element 0
holds the lowest bits): the wide side's bits in an unsigned container, shifted and masked
into fields (or fields shifted and summed into the bits), then converted, which wraps.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, nested_ops
from ..lib.expr import Num, bit_width, shift_left, shift_right_logical, sum_over

# narrow element type -> (byte type, bits, signed)
NARROW = {"i2": ("i8", 2, True), "i4": ("i8", 4, True), "si2": ("si8", 2, True),
          "si4": ("si8", 4, True), "ui2": ("ui8", 2, False), "ui4": ("ui8", 4, False)}
# ops whose integer result can leave the narrow range
WRAPPED = frozenset({"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply",
                     "stablehlo.negate", "stablehlo.abs", "stablehlo.divide",
                     "stablehlo.power", "stablehlo.shift_left", "stablehlo.shift_right_logical",
                     "stablehlo.not", "stablehlo.convert", "stablehlo.count_leading_zeros",
                     "stablehlo.shift_right_arithmetic"})     # (clz: recounted in i32)
# ops that must see the N-bit pattern of their operands (not the extended byte)
MASKED_OPERANDS = frozenset({"stablehlo.shift_right_logical", "stablehlo.popcnt",
                             "stablehlo.count_leading_zeros"})


def _narrow(t: ir.Type):
    """(byte type, bits, signed) when `t` is a tensor of a sub-byte integer, else None."""
    shaped = t.maybe_downcast()
    if not isinstance(shaped, ir.RankedTensorType):
        return None
    return NARROW.get(str(shaped.element_type))


def _wide(t: ir.Type) -> ir.Type:
    shaped = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(shaped.shape, ir.Type.parse(NARROW[str(shaped.element_type)][0]),
                                   shaped.encoding)


def _create(name: str, result: ir.Type, operands, attributes=None) -> ir.Operation:
    return ir.Operation.create(name, results=[result], operands=list(operands),
                               attributes=attributes or {})


def _splat(value: int, t: ir.Type) -> ir.Value:
    shaped = ir.RankedTensorType(t)
    attr = ir.Attribute.parse(f"dense<{value}> : {shaped}")
    return _create("stablehlo.constant", t, [], {"value": attr}).result


def _wrap_ops(x: ir.Value, bits: int, signed: bool) -> list[ir.Operation]:
    """Ops computing x brought back to `bits` bits (sign- or zero-extended), x first used by
    the first op."""
    if signed:
        shift = _splat(8 - bits, x.type)
        up = _create("stablehlo.shift_left", x.type, [x, shift])
        down = _create("stablehlo.shift_right_arithmetic", x.type, [up.result, shift])
        return [up, down]
    return [_create("stablehlo.and", x.type, [x, _splat((1 << bits) - 1, x.type)])]


def _mask(x: ir.Value, bits: int) -> ir.Value:
    return _create("stablehlo.and", x.type, [x, _splat((1 << bits) - 1, x.type)]).result


def _widen_value(value: ir.Value) -> None:
    if _narrow(value.type):
        value.set_type(_wide(value.type))


def _rewrite_constant(op: ir.Operation) -> None:
    result = op.results[0]
    text = str(op.attributes["value"])
    head, _, _ = text.rpartition(":")
    wide = _wide(result.type)
    op.attributes["value"] = ir.Attribute.parse(f"{head}: {wide}")
    result.set_type(wide)


def _widen_op(op: ir.Operation, narrow_operands: list, narrow_results: list) -> None:
    """Widen one op; `narrow_*` describe its operand and result types before the pass."""
    name = op.name
    if name == "stablehlo.constant" and narrow_results[0]:
        _rewrite_constant(op)
        return
    if name == "stablehlo.shift_right_arithmetic" and narrow_operands[0] \
            and not narrow_operands[0][2]:               # unsigned: shift the N-bit pattern
        with ir.InsertionPoint(op), op.location:
            op.operands[0] = _wrap_ops(op.operands[0], narrow_operands[0][1], True)[-1].result
    if name in MASKED_OPERANDS:
        for i, info in enumerate(narrow_operands):
            if info and (info[2] or name == "stablehlo.count_leading_zeros"):
                with ir.InsertionPoint(op), op.location:
                    op.operands[i] = _mask(op.operands[i], info[1])
    for region in op.regions:
        for block in region.blocks:
            for arg in block.arguments:
                _widen_value(arg)
    for r in op.results:
        _widen_value(r)
    for r, info in zip(op.results, narrow_results):
        if info is None or name not in WRAPPED:
            continue
        if name == "stablehlo.count_leading_zeros":
            _count_in_i32(op, info[1])
            continue
        with ir.InsertionPoint.after(op), op.location:
            ops = _wrap_ops(r, info[1], info[2])
        r.replace_all_uses_except(ops[-1].result, ops[0])


def _count_in_i32(op: ir.Operation, bits: int) -> None:
    """count_leading_zeros of the (masked) N-bit pattern, counted in i32 (IREE's SPIR-V
    backend has no 8-bit ctlz) and less 32 - N."""
    r = op.results[0]
    wide = ir.RankedTensorType(r.type)
    i32 = ir.RankedTensorType.get(wide.shape, ir.IntegerType.get_signless(32))
    with ir.InsertionPoint.after(op), op.location:
        ext = _convert(op.operands[0], i32)
        count = _create("stablehlo.count_leading_zeros", i32, [ext.result])
        fix = _create("stablehlo.subtract", i32, [count.result, _splat(32 - bits, i32)])
        out = _convert(fix.result, r.type)
    r.replace_all_uses_with(out.result)
    op.erase()


def _convert(value: ir.Value, to: ir.Type) -> ir.Operation:
    return _create("stablehlo.convert", to, [value])


def _expand_bitcast(op: ir.Operation) -> None:
    """A bitcast_convert with a sub-byte side as shifts, masks and converts on its fields."""
    x, out = Num(op.operands[0]), ir.RankedTensorType(op.results[0].type)
    win, wout = bit_width(x.element), bit_width(out.element_type)
    if win == wout:                               # same width: i4 <-> ui4, a wrapping convert
        op.results[0].replace_all_uses_with(x.to(out.element_type).value)
        return
    narrow, wide = (win, wout) if win < wout else (wout, win)
    container = ir.IntegerType.get_unsigned(max(8, wide))
    shape = list((x.type if win < wout else out).shape)             # [..., count]
    shifts = Num(stablehlo.iota(iota_dimension=len(shape) - 1, result_type=(
        ir.RankedTensorType.get(shape, container)))) * narrow
    if win < wout:                                # join fields into the wide bits
        fields = x.to(container) & ((1 << narrow) - 1)
        bits = sum_over(shift_left(fields, shifts), [len(shape) - 1])
        same = bit_width(container) == wout and not _narrow(out)
        result = bits.bitcast(out.element_type) if same else bits.to(out.element_type)
    else:                                         # split the wide bits into fields
        bits = x.bitcast(container) if bit_width(container) == win and not _narrow(x.type) \
            else x.to(container) & ((1 << win) - 1)
        spread = Num(stablehlo.broadcast_in_dim(bits.value, broadcast_dimensions=list(
            range(len(shape) - 1)), result_type=ir.RankedTensorType.get(shape, container)))
        result = (shift_right_logical(spread, shifts) & ((1 << narrow) - 1)).to(
            out.element_type)
    op.results[0].replace_all_uses_with(result.value)


def _expand_bitcasts(func: ir.Operation) -> None:
    for op in [o for o in nested_ops(func) if o.name == "stablehlo.bitcast_convert"]:
        if _narrow(op.operands[0].type) or _narrow(op.results[0].type):
            with ir.InsertionPoint(op), op.location:
                _expand_bitcast(op)
            op.erase()


def _widen_function(func: ir.Operation) -> None:
    _expand_bitcasts(func)
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    entry = func.regions[0].blocks[0]
    body_ops = [(o, [_narrow(v.type) for v in o.operands], [_narrow(r.type) for r in o.results])
                for o in nested_ops(func) if o.name not in ("func.func", "func.return")]
    calls = [(o, [v.type for v in o.operands]) for o, _, _ in body_ops if o.name == "func.call"]
    first = entry.operations[0]
    for arg in entry.arguments:                      # narrow arguments: widened at the entry
        if _narrow(arg.type):
            with ir.InsertionPoint(first), func.location:
                convert = _convert(arg, _wide(arg.type))
            arg.replace_all_uses_except(convert.result, convert)
    for op, narrow_operands, narrow_results in body_ops:
        if op.name != "func.call":
            _widen_op(op, narrow_operands, narrow_results)
    for call, operand_types in calls:        # calls keep the callee's signature
        for i, t in enumerate(operand_types):
            if _narrow(t):
                with ir.InsertionPoint(call), call.location:
                    call.operands[i] = _convert(call.operands[i], t).result
        for r in call.results:
            if _narrow(r.type):
                with ir.InsertionPoint.after(call), call.location:
                    convert = _convert(r, _wide(r.type))
                r.replace_all_uses_except(convert.result, convert)
    for block in func.regions[0].blocks:              # and so do the returns
        terminator = block.operations[len(block.operations) - 1]
        if terminator.name != "func.return":
            continue
        for i, want in enumerate(function_type.results):
            if _narrow(want) and terminator.operands[i].type != want:
                with ir.InsertionPoint(terminator), terminator.location:
                    terminator.operands[i] = _convert(terminator.operands[i], want).result


@dataclasses.dataclass
class WidenSubByte(Pass):
    """Compute sub-byte integer tensors (i2, i4, ui2, ui4) in bytes, wrapped to their range."""

    NAME = "shlo-widen-sub-byte"

    def run(self, op: ir.Operation) -> None:
        funcs = [f for f in nested_ops(op, "func.func") if len(f.regions[0].blocks)]
        with op.context, ir.Location.unknown():
            for f in funcs:
                if any(_narrow(v.type) for o in nested_ops(f) for v in [*o.operands, *o.results]):
                    _widen_function(f)
