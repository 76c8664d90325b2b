"""Rebuild an existing op through its shlo builder: its operands, attributes (decoded back to
the builder's plain Python keywords) and regions (callables that clone the original bodies).

    values = rebuild(op)            # a new op before `op`, built and checked by shlo

Used to cross-check shlo's shape inference against real programs, and by passes that rebuild
an op with one argument changed (`arguments(op)` gives what `rebuild` passes).
"""
from __future__ import annotations

import ast
import re

import numpy as np
from iree.compiler import ir

from . import attributes as A
from . import chlo, stablehlo
from . import types as T
from .errors import ArgumentError
from .opdef import OpDef
from .registry import pyname

OPDEFS: dict[str, OpDef] = {op.name: op for op in (*stablehlo.OPS, *chlo.OPS)}

# A multi-result op whose single required result_type is one particular result.
_REQUIRED_RESULT_INDEX = {"stablehlo.rng_bit_generator": 1}


def builder_of(name: str):
    """The builder function of the op named `name` (``stablehlo.add`` -> stablehlo.add)."""
    ns = stablehlo if name.startswith("stablehlo.") else chlo
    return getattr(ns, pyname(name.split(".", 1)[1]))


def arguments(op, *, with_result_type: bool | None = None) -> tuple[list, dict]:
    """(positional operands, keyword arguments) that rebuild `op` through its builder.
    `with_result_type`: pass the op's result types (default: only where the builder requires
    them)."""
    op = op.operation
    opdef = OPDEFS.get(op.name)
    if opdef is None:
        raise ArgumentError(f"{op.name} has no shlo builder")
    operands = _operands(op, opdef)
    args = [v for o, v in zip(opdef.operands, operands) if not o.optional]
    kwargs = {o.name: v for o, v in zip(opdef.operands, operands) if o.optional and v is not None}
    for a in opdef.attrs:
        value = _attribute(op, a)
        if value is not None:
            kwargs[a.name] = value
    for r, blocks in zip(opdef.regions, _region_blocks(op, opdef)):
        kwargs[r.name] = [_cloner(b) for b in blocks] if r.variadic else _cloner(blocks[0])
    required = opdef.result_type in ("required", "required_many")
    if with_result_type or (with_result_type is None and required):
        types = [r.type for r in op.results]
        if opdef.result_type == "required_many":
            kwargs["result_type"] = types
        elif opdef.result_type == "required" or len(types) == 1:
            kwargs["result_type"] = types[_REQUIRED_RESULT_INDEX.get(op.name, 0)]
        else:
            kwargs["result_type"] = types
    return args, kwargs


def rebuild(op, *, ip: ir.InsertionPoint | None = None, **overrides):
    """Build `op` again through its builder, before `op` unless `ip` says otherwise; keyword
    `overrides` replace decoded arguments. Returns what the builder returns."""
    args, kwargs = arguments(op)
    kwargs.update(overrides)
    with op.location:
        return builder_of(op.operation.name)(*args, **kwargs,
                                             ip=ip or ir.InsertionPoint(op.operation))


def _operands(op, opdef: OpDef) -> list:
    if opdef.decode_operands is not None:
        return opdef.decode_operands(op)
    values = list(op.operands)
    ods = opdef.operands
    if "operandSegmentSizes" in op.attributes:
        sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    else:     # SameVariadicOperandSize: the variadic operands share what is left
        n_var = sum(o.variadic for o in ods)
        rest = len(values) - (len(ods) - n_var)
        sizes = [rest // n_var if o.variadic else 1 for o in ods] if n_var else [1] * len(ods)
    out, i = [], 0
    for o, n in zip(ods, sizes):
        out.append(values[i:i + n] if o.variadic else values[i])
        i += n
    return out


def _attribute(op, a):
    attrs = op.attributes
    if a.mlir_name not in attrs:
        return None
    try:
        attr = attrs[a.mlir_name]
    except TypeError:     # the bindings cannot hold a complex dense attribute: read its text
        if a.kind is not A.ELEMENTS:
            raise
        return _elements_from_asm(op, a.mlir_name)
    if a.struct is not None:
        return a.struct.decode(attr).get(a.field or a.name)
    return a.kind.decode(attr)


def _elements_from_asm(op, name: str) -> np.ndarray:
    """A complex ``dense<...>`` attribute of `op`, as a numpy array read from its text."""
    text = op.get_asm(print_generic_op_form=True, use_local_scope=True)
    m = re.search(rf"{name} = dense<(.*?)> : (tensor<[^>]*>+)", text, re.S)
    if m is None or m.group(1).startswith('"'):
        raise ArgumentError(f"{op.name}: cannot read the complex constant {name} back")
    t = ir.RankedTensorType(ir.Type.parse(m.group(2), op.context))
    raw = np.array(ast.literal_eval(m.group(1).replace("\n", " ")), dtype=np.float64)
    values = raw[..., 0] + 1j * raw[..., 1]
    return np.broadcast_to(values, list(t.shape)).astype(T.element_dtype(t))


def _region_blocks(op, opdef: OpDef) -> list[list]:
    """The source blocks per declared Region (a variadic region takes all that are left)."""
    regions = list(op.regions)
    out, i = [], 0
    for r in opdef.regions:
        n = len(regions) - (len(opdef.regions) - 1) if r.variadic else 1
        out.append([regions[j].blocks[0] for j in range(i, i + n)])
        i += n
    return out


def _cloner(src: ir.Block):
    """A region callable that clones `src`'s ops and returns what its terminator yields."""
    def body(*args):
        pairs = list(zip(src.arguments, args))
        ops = list(src.operations)
        for old in ops[:-1]:
            new = old.operation.clone()
            _remap(new, pairs)
            pairs += list(zip(old.results, new.results))
        return [_lookup(v, pairs) for v in ops[-1].operands]
    return body


def _lookup(v, pairs):
    for old, new in pairs:
        if old == v:
            return new
    return v


def _remap(op: ir.Operation, pairs):
    def visit(o):
        for old, new in pairs:
            o.replace_uses_of_with(old, new)
        return ir.WalkResult.ADVANCE
    op.walk(visit)
