"""Shardy (`sdy`) sharding annotations, dropped from single-device programs at parse time.

JAX (0.10) annotates the custom calls it emits with `sdy.sharding_rule` attributes, and
sharded programs carry `sdy.sharding` argument attributes, `sdy.mesh` symbols and
`sdy.sharding_constraint` ops. IREE's context has no Shardy dialect, so such a module does not
parse. They say how to split a program over devices and change nothing in what it computes
on one: shlo parses the module once more with unregistered dialects allowed, drops the
attributes, erases meshes and forwards the operand of each sharding constraint and reshard.
Those three ops in their custom form (`sdy.mesh @m = <...>`, `%1 = sdy.sharding_constraint
%0 <@m, ...> : T`, the same for `sdy.reshard`, one per line as MLIR prints them) are first
rewritten into the generic form, which parses without the dialect. Any other `sdy` op (a
`manual_computation` is code written per device) is a ParseError that names it.
"""
from __future__ import annotations

import re

from iree.compiler import ir

from .errors import ParseError

SHARDY = "sdy"

_MESH = re.compile(r"^(\s*)sdy\.mesh @[\w.$-]+ = <.*>(\s+loc\(.*\))?\s*$", re.M)
_FORWARDED = re.compile(r"^(\s*%[\w#.$-]+ = )sdy\.(sharding_constraint|reshard) (%[\w#.$-]+) "
                        r"<.*> : (.+?)(\s+loc\(.*\))?\s*$", re.M)


def generic_form(text: str) -> str:
    """`text` with Shardy's meshes dropped and its constraints and reshards in generic form
    (the shardings they name change nothing on one device)."""
    text = _MESH.sub(lambda m: m.group(1), text)
    return _FORWARDED.sub(lambda m: f'{m.group(1)}"sdy.{m.group(2)}"({m.group(3)}) : '
                                    f'({m.group(4)}) -> {m.group(4)}{m.group(5) or ""}', text)


def mentions_shardy(messages: list[str], source: str | bytes = b"") -> bool:
    """Whether a failed parse met Shardy (in its diagnostics, or text that uses `sdy.`)."""
    text = source.encode() if isinstance(source, str) else bytes(source)
    return (any(f'"{SHARDY}"' in m or f"'{SHARDY}'" in m or f"{SHARDY}." in m
                for m in messages)
            or f"{SHARDY}.".encode() in text and not text.startswith(b"ML\xefR"))


def drop_shardy(module: ir.Module, source_name: str = "-") -> None:
    """Remove Shardy attributes and meshes, forward sharding constraints (in place)."""
    ops: list[ir.Operation] = []
    module.operation.walk(lambda op: ops.append(op.operation) or ir.WalkResult.ADVANCE)
    with module.context:
        for op in ops:
            _drop_from(op, source_name)


def _drop_from(op: ir.Operation, source_name: str) -> None:
    if op.name == "sdy.mesh":
        op.erase()
    elif op.name in ("sdy.sharding_constraint", "sdy.reshard"):
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()
    elif op.name.startswith(SHARDY + "."):
        raise ParseError(f"{source_name}: '{op.name}' (Shardy) describes code per device; "
                         f"shlo compiles single-device programs")
    else:
        for name in [a if isinstance(a, str) else a.name for a in op.attributes]:
            if name.startswith(SHARDY + "."):
                del op.attributes[name]
        for entry in ("arg_attrs", "res_attrs"):
            if entry in op.attributes:
                op.attributes[entry] = _without_shardy(ir.ArrayAttr(op.attributes[entry]))


def _without_shardy(dicts: ir.ArrayAttr) -> ir.ArrayAttr:
    out = []
    for d in dicts:
        d = ir.DictAttr(d)
        out.append(ir.DictAttr.get({d[i].name: d[i].attr for i in range(len(d))
                                    if not d[i].name.startswith(SHARDY + ".")}))
    return ir.ArrayAttr.get(out)
