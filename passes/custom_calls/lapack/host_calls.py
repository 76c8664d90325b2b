"""jax's LAPACK custom calls as calls of shlo's runtime, which runs LAPACK itself
(shlo-expand-custom-calls{lapack=host}, the cpu target's default; core/lapack_abi is the
contract, shlo.runtime.lapack_host the other side).

A call `lapack_<p><routine>_ffi` of static shapes becomes a `func.call` of
`shlo_lapack.<routine>_<p>`: its operands with the batch dimensions flattened into one and
cast to dynamic sizes, the character arguments of its backend_config as i32 codes; the
results are cast and reshaped back. A syevd whose eigenvectors nothing reads (jax's eigvalsh
and `eigh(a)[0]` ask LAPACK for them) is made with mode N: LAPACK's eigenvalues-only path,
about half the time (the eigenvalues then differ from XLA's in the last bits). The module's public functions get the reflection entry
that tells shlo's runtime to provide the `shlo_lapack` module. Such a .vmfb runs only through
shlo's runtime (shlo.load, shlo-run), not in iree-run-module: `lapack=stablehlo` keeps the
StableHLO decompositions instead (shlo.passes.custom_calls.lapack.ffi_calls and siblings).
"""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo import lapack_abi
from shlo.dialect import stablehlo
from shlo.passes.base import declare_host_imports
from .ffi_calls import lapack_chars

DEFAULTS = {"uplo": "L", "side": "L", "trans_x": "N", "diag": "N", "mode": "V"}


def _routine(target: str) -> tuple[str, str] | None:
    """(routine, prefix) of a jax LAPACK target served on the host, else None."""
    if not (target.startswith("lapack_") and target.endswith("_ffi")):
        return None
    name = target[len("lapack_"):-len("_ffi")]
    prefix, routine = name[:1], name[1:]
    routine = lapack_abi.ALIASES.get(routine, routine)
    if prefix not in "sdcz" or routine not in lapack_abi.ROUTINES:
        return None
    return routine, prefix


def _tensor(shape, element) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def _dynamic(t: ir.RankedTensorType) -> ir.RankedTensorType:
    return _tensor([ir.ShapedType.get_dynamic_size()] * t.rank, t.element_type)


def _cast(value: ir.Value, to: ir.Type) -> ir.Value:
    return ir.Operation.create("tensor.cast", results=[to], operands=[value]).results[0]


def _flat(t: ir.RankedTensorType, trailing: int) -> ir.RankedTensorType:
    """t with its dimensions before the last `trailing` ones made one."""
    shape = list(t.shape)
    return _tensor([math.prod(shape[:len(shape) - trailing])] + shape[len(shape) - trailing:],
                   t.element_type)


def _i32(value: int) -> ir.Value:
    t = ir.IntegerType.get_signless(32)
    return ir.Operation.create("arith.constant", results=[t], attributes={
        "value": ir.IntegerAttr.get(t, int(value))}).results[0]


_PURE = frozenset(("tensor.cast",))


def _dead(value: ir.Value, depth: int = 12) -> bool:
    """Whether nothing but side-effect-free StableHLO ops whose results are all dead reads
    `value` (the pass runs before canonicalize: jax's select of the unread result stays). An
    op without results (a region's `stablehlo.return`: the value leaves a cond branch or a
    loop body) is a reader."""
    for use in value.uses:
        owner = use.owner
        name = owner.name
        if depth == 0 or not (name in _PURE or name.startswith("stablehlo.")) or owner.regions \
                or not owner.results \
                or name in ("stablehlo.custom_call", "stablehlo.optimization_barrier"):
            return False
        if not all(_dead(r, depth - 1) for r in owner.results):
            return False
    return True


def serves(op: ir.Operation, operands: list[ir.Value]) -> bool:
    """Whether `emit` makes a host call of jax's LAPACK call `op`."""
    return _routine(ir.StringAttr(op.attributes["call_target_name"]).value) is not None and all(
        ir.RankedTensorType(v.type).has_static_shape for v in [*operands, *op.results])


def emit(op: ir.Operation, operands: list[ir.Value]) -> list[ir.Value] | None:
    """The host call replacing jax's LAPACK call `op` (None when it is not one served here or
    has dynamic shapes)."""
    if not serves(op, operands):
        return None
    routine, prefix = _routine(  # type: ignore[misc]  # served
        ir.StringAttr(op.attributes["call_target_name"]).value)
    batch = ir.RankedTensorType(operands[0].type).rank - 2
    chars = {**DEFAULTS, **lapack_chars(op)}
    if routine == "syevd" and chars["mode"] == "V" and _dead(op.results[0]):
        chars["mode"] = "N"
    ints = []
    for name in lapack_abi.ROUTINES[routine][1]:
        if name in chars:
            ints.append(ord(chars[name]))
        else:                                         # gesdd: the shapes of u and vt
            t = ir.RankedTensorType(op.results[2 if name.startswith("u_") else 3].type)
            ints.append(t.shape[-2] if name.endswith("rows") else t.shape[-1])
    args = []
    for v in operands:
        t = ir.RankedTensorType(v.type)
        flat = _flat(t, t.rank - batch)
        args.append(_cast(stablehlo.reshape(v, result_type=flat), _dynamic(flat)))
    result_types = [ir.RankedTensorType(r.type) for r in op.results]
    flats = [_flat(t, t.rank - batch) for t in result_types]
    call = ir.Operation.create(
        "func.call", results=[_dynamic(t) for t in flats],
        operands=args + [_i32(i) for i in ints],
        attributes={"callee": ir.FlatSymbolRefAttr.get(
            f"{lapack_abi.MODULE}.{lapack_abi.function_name(routine, prefix)}")})
    return [stablehlo.reshape(_cast(r, flat), result_type=t)
            for r, flat, t in zip(call.results, flats, result_types)]


def declare(module: ir.Operation) -> None:
    """The imports the module's host calls use, and the reflection entry on its public
    functions (none when it makes no host call)."""
    calls = {}

    def visit(o):
        if o.name == "func.call":
            callee = ir.FlatSymbolRefAttr(o.attributes["callee"]).value
            if callee.startswith(lapack_abi.MODULE + ".") and callee not in calls:
                calls[callee] = o
        return ir.WalkResult.ADVANCE
    module.walk(visit)
    if not calls:
        return
    with module.context:
        imports = {callee: ir.FunctionType.get([v.type for v in call.operands],
                                               [r.type for r in call.results])
                   for callee, call in calls.items()}
    declare_host_imports(module, imports, lapack_abi.REFLECTION_KEY)
