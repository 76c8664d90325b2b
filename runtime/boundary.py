"""Make a module's public functions callable from numpy, and remember the user's signature.

IREE passes tensors in byte-addressed buffers: a tensor of i4/ui4 with an odd
number of elements (or a 0-d one) cannot cross the boundary at all, and numpy
has no packed nibbles either. So sub-byte integers travel widened to bytes:
each public function gets a `stablehlo.convert` after its entry and before its
returns, and nothing inside changes. The 8-bit floats that IREE's runtime has no
element type for (f8E4M3, f8E3M4, f8E4M3B11FNUZ) travel as their bytes, through
a `stablehlo.bitcast_convert`. Buffer donation hints (jax's `tf.aliasing_output`,
`jax.buffer_donor`) are dropped: shlo returns new arrays, and IREE's aliasing of a donated
argument miscomputed results and overwrote the caller's array (docs/iree_gaps.md). When the boundary the user sees differs
from the one IREE compiles (widened types, or f64 demoted on request), the
user's function type is recorded in `iree.reflection` as `shlo.signature`; the
runtime reads it back from the .vmfb to validate and convert values.
"""
from __future__ import annotations

from iree.compiler import ir

from ..errors import CompileError, location_text

# Element types that cannot cross IREE's boundary, and the type they travel as.
WIDENED = {"i4": "i8", "ui4": "ui8", "si4": "si8", "i2": "i8", "ui2": "ui8", "si2": "si8",
           "f8E4M3": "i8", "f8E3M4": "i8", "f8E4M3B11FNUZ": "i8"}
F64_ELEMENTS = ("f64", "complex<f64>")


def prepare_boundary(module_op: ir.Operation, *, demote_f64: bool = False) -> None:
    """Widen sub-byte boundary types of public functions; record user signatures (in place).
    A module of func.func ops only, none public with a body, has nothing to export:
    CompileError (IREE would say "outer module does not contain a vm.module op")."""
    exported, others = 0, 0
    with module_op.context, ir.Location.unknown():
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name != "func.func":
                others += 1             # VHLO's functions, IREE's own: IREE judges those
            elif _is_public(op) and op.regions[0].blocks:
                _prepare_function(op.operation, demote_f64=demote_f64)
                exported += 1
    if not exported and not others:
        raise CompileError("nothing to compile: the module has no public func.func with a body "
                           "(a .vmfb exports the public functions; private ones are only "
                           "reachable from them)", location=location_text(module_op.location))


# Element types that cannot cross IREE's boundary at all (its runtime has no element type for
# them, and they have no byte-wide transport here): an argument or result of one is an error.
UNSUPPORTED = {"f4E2M1FN": "IREE's runtime has no 4-bit float element type"}


# Argument attributes that ask IREE to reuse an argument's buffer for a result.
DONATION_ATTRS = ("tf.aliasing_output", "jax.buffer_donor")


def _drop_donation(func: ir.Operation) -> None:
    """Remove the donation hints (DONATION_ATTRS) from `func`'s argument attributes."""
    if "arg_attrs" not in func.attributes:
        return
    dicts = [ir.DictAttr(a) for a in ir.ArrayAttr(func.attributes["arg_attrs"])]
    if not any(name in d for d in dicts for name in DONATION_ATTRS):
        return
    kept = [ir.DictAttr.get({n.name: n.attr for n in d if n.name not in DONATION_ATTRS})
            for d in dicts]
    func.attributes["arg_attrs"] = ir.ArrayAttr.get(kept)


def _prepare_function(func: ir.Operation, *, demote_f64: bool = False) -> None:
    _drop_donation(func)
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    inputs, results = list(function_type.inputs), list(function_type.results)
    for kind, types in (("argument", inputs), ("result", results)):
        for i, t in enumerate(types):
            why = UNSUPPORTED.get(element_name(t))
            if why:
                raise CompileError(
                    f"function @{ir.StringAttr(func.attributes['sym_name']).value}: {kind} {i} "
                    f"is {t}, which cannot cross the module's boundary ({why}); pass and return "
                    f"f32 (or the codes as ui8) and convert inside the function",
                    location=location_text(func.location))
    wide_inputs, wide_results = [_widened(t) for t in inputs], [_widened(t) for t in results]
    changed = wide_inputs != inputs or wide_results != results
    demoted = demote_f64 and any(element_name(t) in F64_ELEMENTS for t in inputs + results)
    if not changed and not demoted:
        return
    _record_signature(func, function_type)
    if not changed:
        return
    entry = func.regions[0].blocks[0]
    first = entry.operations[0]
    for arg, narrow, wide in zip(entry.arguments, inputs, wide_inputs):
        if narrow != wide and _round_trip_users(arg, wide):     # already widened inside
            arg.set_type(wide)
            for user in _round_trip_users(arg, wide):
                user.results[0].replace_all_uses_with(arg)
                user.erase()
        elif narrow != wide:
            arg.set_type(wide)
            with ir.InsertionPoint(first):
                convert = _convert(arg, narrow)
            arg.replace_all_uses_except(convert.result, convert)
    for block in func.regions[0].blocks:
        terminator = block.operations[len(block.operations) - 1]
        if terminator.operation.name != "func.return":
            continue
        for i, (narrow, wide) in enumerate(zip(results, wide_results)):
            if narrow != wide:
                producer = terminator.operands[i].owner
                if (getattr(producer, "name", "") == "stablehlo.convert"
                        and producer.operands[0].type == wide):     # narrowed from bytes
                    terminator.operands[i] = producer.operands[0]
                    continue
                with ir.InsertionPoint(terminator):
                    terminator.operands[i] = _convert(terminator.operands[i], wide).result
    func.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get(wide_inputs, wide_results))


def _round_trip_users(arg: ir.Value, wide: ir.Type) -> list:
    """The ops using `arg`, when every one converts it to `wide` (shlo-widen-sub-byte's
    entry converts): the widened argument can replace them."""
    users = [use.owner for use in arg.uses]
    if users and all(u.name == "stablehlo.convert" and u.results[0].type == wide for u in users):
        return users
    return []


def _record_signature(func: ir.Operation, function_type: ir.FunctionType) -> None:
    entries = {}
    if "iree.reflection" in func.attributes:
        existing = ir.DictAttr(func.attributes["iree.reflection"])
        entries = {existing[i].name: existing[i].attr for i in range(len(existing))}
    entries["shlo.signature"] = ir.StringAttr.get(str(function_type))
    func.attributes["iree.reflection"] = ir.DictAttr.get(entries)


def _convert(value: ir.Value, to: ir.Type) -> ir.Operation:
    """A widening or narrowing convert; a bitcast between types of one width (f8 <-> i8)."""
    same_width = _width(value.type) == _width(to)
    name = "stablehlo.bitcast_convert" if same_width else "stablehlo.convert"
    return ir.Operation.create(name, results=[to], operands=[value])


def _width(t: ir.Type) -> int:
    element = ir.ShapedType(t).element_type.maybe_downcast()
    return element.width if isinstance(element, (ir.IntegerType, ir.FloatType)) else 0


def _widened(t: ir.Type) -> ir.Type:
    tensor = t.maybe_downcast()
    if not isinstance(tensor, ir.RankedTensorType):
        return t
    wide = WIDENED.get(str(tensor.element_type))
    if wide is None:
        return t
    return ir.RankedTensorType.get(tensor.shape, ir.Type.parse(wide), tensor.encoding)


def element_name(t: ir.Type) -> str:
    """`f32` for tensor<2xf32> (and for f32 itself)."""
    shaped = t.maybe_downcast()
    return str(shaped.element_type) if isinstance(shaped, ir.ShapedType) else str(t)


def _is_public(op) -> bool:
    visibility = op.attributes["sym_visibility"] if "sym_visibility" in op.attributes else None
    return visibility is None or ir.StringAttr(visibility).value == "public"
