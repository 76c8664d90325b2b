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

import json
import re
from typing import Any

import numpy as np
from iree.compiler import ir

from .errors import ParseError

SHARDY = "sdy"

_MESH = re.compile(r"^(\s*)sdy\.mesh @[\w.$-]+ = <.*>(\s+\{.*\})?(\s+loc\(.*\))?\s*$", re.M)
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

    def collect(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE
    module.operation.walk(collect)
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


# ---- sharded programs: the per-device program, made by Shardy's passes in jaxlib --------------

REFLECTION_KEY = "shlo.sharding"     # iree.reflection entry: a function's shardings as JSON
_PARTITIONS = re.compile(r"mhlo\.num_partitions\s*=\s*(\d+)")
_PROPAGATE = ("inline, sdy-propagation-pipeline, "
              "sdy-export-pipeline{enable-insert-explicit-collectives=true}")
_TO_LOCAL = "sdy-convert-global-to-local, sdy-drop-sharding-and-mesh"


def is_sharded_program(text: str) -> bool:
    """Whether `text` is a program for several partitions with Shardy meshes or GSPMD
    shardings (`mhlo.sharding` strings)."""
    match = _PARTITIONS.search(text)
    return match is not None and int(match.group(1)) > 1 and (
        "sdy.mesh" in text or 'mhlo.sharding = "' in text)


def per_device_program(text: str, source_name: str = "-") -> str:
    """The program one device runs (`mhlo.num_partitions` of them), from a sharded program
    (GSPMD shardings first written as Shardy's, import_gspmd): private calls inlined,
    shardings propagated, explicit collectives inserted, shapes made local (Shardy's passes,
    run in jaxlib's MLIR); each public function keeps its global shardings as JSON in its iree.reflection (`shlo.sharding`, read by shlo.distributed)."""
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jaxlib.mlir import ir as jir, passmanager
        from jaxlib.mlir.dialects import sdy
    except ImportError as e:
        raise ParseError(f"{source_name}: a sharded program (Shardy meshes, mhlo.num_partitions "
                         f"> 1) is split into per-device programs by Shardy's passes in jax's "
                         f"jaxlib, which cannot be imported here: {e} (pip install jax jaxlib)"
                         ) from None
    with jax_mlir.make_ir_context():
        try:
            module = jir.Module.parse(text)
            if not any(op.operation.name == "sdy.mesh" for op in module.body.operations):
                import_gspmd(module, jir, source_name)
            passmanager.PassManager.parse(f"builtin.module({_PROPAGATE})").run(module.operation)
            plans = {f.name.value: _plan(f, sdy, jir) for f in _public_functions(module)}
            passmanager.PassManager.parse(f"builtin.module({_TO_LOCAL})").run(module.operation)
        except jir.MLIRError as e:
            raise ParseError(f"{source_name}: Shardy could not partition the program: "
                             f"{' '.join(str(e).split())[:400]}") from None
        for f in _public_functions(module):
            entries = {}
            if "iree.reflection" in f.attributes:
                old = jir.DictAttr(f.attributes["iree.reflection"])
                entries = {old[i].name: old[i].attr for i in range(len(old))}
            entries[REFLECTION_KEY] = jir.StringAttr.get(json.dumps(plans[f.name.value]))
            f.attributes["iree.reflection"] = jir.DictAttr.get(entries)
        return str(module)


def _public_functions(module) -> list:
    return [op for op in module.body.operations if op.operation.name == "func.func" and (
        "sym_visibility" not in op.attributes or
        str(op.attributes["sym_visibility"]) == '"public"')]


def _plan(func, sdy, jir) -> dict:
    """{"mesh": [[axis, size]...], "device_ids": [...] or None, "args"/"results": one
    {"shape", "dims": [[axis...] per dimension]} per value} of a propagated function."""
    name = func.name.value
    module = func.operation.parent
    meshes = {}
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "sdy.mesh":
            meshes[op.attributes["sym_name"].value] = sdy.MeshAttr(op.attributes["mesh"])
    ftype = jir.FunctionType(func.attributes["function_type"].value)
    mesh_used = [None]

    def value(t, attrs) -> dict:
        shape = list(jir.RankedTensorType(t).shape)
        if attrs is None or "sdy.sharding" not in attrs:
            return {"shape": shape, "dims": [[] for _ in shape]}
        sharding = sdy.TensorShardingAttr(attrs["sdy.sharding"])
        if list(sharding.unreduced_axes):
            raise ParseError(f"@{name}: a value with unreduced axes ({sharding}) cannot be "
                             f"gathered")
        ref = sharding.mesh_or_ref
        mesh = meshes.get(str(ref).lstrip("@")) if str(ref).startswith("@") else \
            sdy.MeshAttr(ref)
        mesh_used[0] = mesh_used[0] or mesh
        dims = []
        for d in sharding.dimension_shardings:
            axes = []
            for axis in sdy.DimensionShardingAttr(d).axes:
                axis = sdy.AxisRefAttr(axis)
                if axis.sub_axis_info is not None:
                    raise ParseError(f"@{name}: sub-axis shardings ({sharding}) are not "
                                     f"supported by shlo.distributed.shard / gather")
                axes.append(axis.name)
            dims.append(axes)
        return {"shape": shape, "dims": dims}

    def attrs_of(entry: str, k: int):
        if entry not in func.attributes:
            return None
        return jir.DictAttr(jir.ArrayAttr(func.attributes[entry])[k])

    plan: dict[str, Any] = {"args": [value(t, attrs_of("arg_attrs", k)) for k, t in enumerate(ftype.inputs)],
            "results": [value(t, attrs_of("res_attrs", k))
                        for k, t in enumerate(ftype.results)]}
    mesh = mesh_used[0] or next(iter(meshes.values()), None)
    plan["mesh"] = [] if mesh is None else [
        [sdy.MeshAxisAttr(a).name, sdy.MeshAxisAttr(a).size] for a in mesh.axes]
    plan["device_ids"] = None if mesh is None or not list(mesh.device_ids) else \
        list(mesh.device_ids)
    return plan


# ---- GSPMD shardings (mhlo.sharding strings) as Shardy meshes and shardings -------------------

GSPMD_MESH = "gspmd"                 # the mesh a GSPMD program's shardings are written on
_TILED = re.compile(r"devices=\[([\d,]+)\](?:<=\[([\d,]+)\](?:T\(([\d,]+)\))?|([\d,]+))"
                    r"(\s+last_tile_dim_replicate)?(?:\s+last_tile_dims=\{([^}]*)\})?")


def _factors(n: int) -> list[int]:
    out: list[int] = []
    p = 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def gspmd_axes(sharding: str, rank: int, what: str) -> tuple[list, list[list[int]]]:
    """(mesh axis sizes, per dimension the indices of its axes, major first) of one GSPMD
    sharding string of a rank-`rank` value; the mesh is the prime factors of the device count
    in the order of the device assignment's iota (`<=[...]`), so every iota sharding of a
    module names axes of one mesh."""
    text = sharding.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1].strip()
    if text.startswith("replicated") or text == "unknown":
        return [], [[] for _ in range(rank)]
    if text.startswith("manual"):
        raise ParseError(f"{what}: a manual GSPMD sharding (shard_map lowered without "
                         f"Shardy); lower it with jax_use_shardy_partitioner=True")
    match = _TILED.match(text)
    if match is None or text.startswith("{"):
        kind = text.split()[0] if text else "empty"
        raise ParseError(f"{what}: GSPMD sharding {sharding!r} ({kind}) has no Shardy form "
                         f"shlo reads (tiled, replicated); lower the program with Shardy "
                         f"(jax's default, jax_use_shardy_partitioner=True)")
    tiles = [int(d) for d in match.group(1).split(",")]
    last = [s.strip() for s in (match.group(6) or "").split(",") if s.strip()]
    if "manual" in last:
        raise ParseError(f"{what}: GSPMD sharding {sharding!r} is partly manual (shard_map "
                         f"lowered without Shardy); lower it with jax_use_shardy_partitioner"
                         f"=True")
    extra = 1 if match.group(5) else len(last)
    count = int(np.prod(tiles))
    if match.group(2):
        reshape = [int(d) for d in match.group(2).split(",")]
        order = [int(d) for d in match.group(3).split(",")] if match.group(3) else \
            list(range(len(reshape)))
    else:
        devices = [int(d) for d in match.group(4).split(",")]
        reshape, order = _as_iota(devices, count, sharding, what)
    groups: list[list[int]] = []
    sizes: list[int] = []
    for r in reshape:
        groups.append(list(range(len(sizes), len(sizes) + len(_factors(r)))))
        sizes.extend(_factors(r))
    sequence = [a for k in order for a in groups[k]]
    dims, position = [], 0
    for d in tiles:
        axes, product = [], 1
        while product < d and position < len(sequence):
            axes.append(sequence[position])
            product *= sizes[sequence[position]]
            position += 1
        if product != d:
            raise ParseError(f"{what}: GSPMD sharding {sharding!r} splits a dimension "
                             f"{d} ways across mesh axes of sizes {sizes} (a sub-axis); "
                             f"lower the program with Shardy")
        dims.append(axes)
    if len(tiles) - extra != rank:
        raise ParseError(f"{what}: GSPMD sharding {sharding!r} tiles {len(tiles) - extra} "
                         f"dimension(s) of a rank-{rank} value")
    return sizes, dims[:rank]


def _as_iota(devices: list[int], count: int, sharding: str, what: str):
    """(reshape dims, transpose) of an explicit device list that is a transposed iota over
    the prime factors of the device count (every list jax writes is)."""
    import itertools
    sizes = _factors(count)
    if len(devices) == count and len(sizes) <= 7:
        for order in itertools.permutations(range(len(sizes))):
            ids = np.arange(count).reshape(sizes or [1]).transpose(order or (0,)).reshape(-1)
            if ids.tolist() == devices:
                return sizes or [1], list(order) or [0]
    raise ParseError(f"{what}: GSPMD sharding {sharding!r}: its device order is not a mesh "
                     f"of the {count} devices shlo can name; lower the program with Shardy")


def _target(op) -> str:
    """A custom call's target name ('' for other ops)."""
    if op.name != "stablehlo.custom_call":
        return ""
    return str(op.attributes["call_target_name"]).strip('"')


def _single_user(value):
    """The one op that uses `value` (None when there are more or none)."""
    users = list(value.uses)
    return users[0].owner.operation if len(users) == 1 else None


def _sharding_text(op) -> str:
    """An op's `mhlo.sharding`, without its braces."""
    text = str(op.attributes["mhlo.sharding"]).strip('"').strip()
    return text[1:-1].strip() if text.startswith("{") and text.endswith("}") else text


def _shard_maps(calls: list, source_name: str) -> list:
    """The shard_maps of a GSPMD program: (body call, its @SPMDFullToShardShape calls, per
    result the manual @Sharding and @SPMDShardToFullShape calls), as jax lowers them."""
    maps: list[tuple[Any, list, list]] = []
    for op in calls:
        if _target(op) != "SPMDFullToShardShape":
            continue
        if _sharding_text(op) != "manual":
            raise ParseError(f"{source_name}: a shard_map over part of the mesh (GSPMD "
                             f"sharding {_sharding_text(op)!r}); lower it with Shardy "
                             f"(jax_use_shardy_partitioner=True)")
        body = _single_user(op.results[0])
        if body is None or body.name != "func.call":
            raise ParseError(f"{source_name}: a GSPMD shard_map whose @SPMDFullToShardShape "
                             f"does not feed one call of its body; lower it with Shardy")
        if any(b == body for b, _, _ in maps):
            continue
        fulls, outs = [], []
        for operand in body.operands:
            full = getattr(operand.owner, "operation", None)
            if full is None or _target(full) != "SPMDFullToShardShape":
                raise ParseError(f"{source_name}: a GSPMD shard_map body call takes a value "
                                 f"that is not per device; lower it with Shardy")
            fulls.append(full)
        for result in body.results:
            manual = _single_user(result)
            back = _single_user(manual.results[0]) if manual is not None else None
            if manual is None or _target(manual) != "Sharding" or back is None or \
                    _target(back) != "SPMDShardToFullShape":
                raise ParseError(f"{source_name}: a GSPMD shard_map result does not go "
                                 f"through @Sharding and @SPMDShardToFullShape; lower it "
                                 f"with Shardy")
            outs.append((manual, back))
        maps.append((body, fulls, outs))
    return maps


def import_gspmd(module, jir, source_name: str = "-") -> bool:
    """Turn a GSPMD program's `mhlo.sharding` strings (function arguments and results, the
    `@Sharding` custom calls of with_sharding_constraint, shard_map's @SPMDFullToShardShape /
    @SPMDShardToFullShape around a call of its body) into Shardy's mesh, shardings, sharding
    constraints and manual computations, in place, in jaxlib's MLIR; False when there are
    none."""
    funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
    calls: list = []

    def visit(op):
        if op.operation.name != "func.func" and "mhlo.sharding" in op.operation.attributes:
            calls.append(op.operation)
        return jir.WalkResult.ADVANCE
    for f in funcs:
        f.operation.walk(visit)
    maps = _shard_maps(calls, source_name)
    inside = [o for _, fulls, outs in maps for o in fulls + [m for pair in outs for m in pair]]
    # (owner, entry name or None, index, type or None, sharding text)
    entries: list[tuple[Any, str | None, int, Any, str]] = []
    entry: str | None
    for f in funcs:
        ftype = jir.FunctionType(f.attributes["function_type"].value)
        for entry, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
            if entry in f.attributes:
                for k, d in enumerate(jir.ArrayAttr(f.attributes[entry])):
                    d = jir.DictAttr(d)
                    if "mhlo.sharding" in d:
                        entries.append((f, entry, k, types[k],
                                        jir.StringAttr(d["mhlo.sharding"]).value))
    for op in calls:
        if not any(op == o for o in inside):
            entries.append((op, None, 0, op.results[0].type if len(op.results) == 1 else None,
                            jir.StringAttr(op.attributes["mhlo.sharding"]).value))
    if not entries and not maps:
        return False
    # a shard_map's global shardings: what enters each @SPMDFullToShardShape, what each
    # @SPMDShardToFullShape says
    ends = [(getattr(full.operands[0].owner, "operation", full), full.operands[0].type)
            for _, fulls, _ in maps for full in fulls] + \
        [(back, back.results[0].type) for _, _, outs in maps for _, back in outs]
    texts = [jir.StringAttr(o.attributes["mhlo.sharding"]).value
             if "mhlo.sharding" in o.attributes else "{replicated}" for o, _ in ends]
    shardings, mesh = [], None
    for (owner, entry, k, t, text) in entries + [(o, None, 0, t, x) for (o, t), x in
                                                 zip(ends, texts)]:
        name = owner.name.value if entry else owner.name
        what = f"{source_name}: {name} {'argument' if entry == 'arg_attrs' else 'result'} {k}"
        if t is None:
            raise ParseError(f"{what}: a GSPMD tuple sharding {text!r} (several results); "
                             f"lower the program with Shardy")
        sizes, dims = gspmd_axes(text, jir.RankedTensorType(t).rank, what)
        if sizes and mesh is not None and sizes != mesh:
            raise ParseError(f"{what}: GSPMD sharding {text!r} orders the devices as a mesh "
                             f"of sizes {sizes}, others as {mesh}; lower it with Shardy")
        mesh = mesh or sizes or None
        shardings.append(dims)
    mesh = mesh or []
    names = [f"g{i}" for i in range(len(mesh))]

    def sharding(dims) -> str:
        return f"<@{GSPMD_MESH}, [" + ", ".join(
            "{" + ", ".join(f'"{names[a]}"' for a in axes) + "}" for axes in dims) + "]>"
    with module.context, jir.Location.unknown():
        ip = jir.InsertionPoint.at_block_begin(module.body)
        ip.insert(jir.Operation.parse(f"sdy.mesh @{GSPMD_MESH} = <[" + ", ".join(
            f'"{n}"={s}' for n, s in zip(names, mesh)) + "]>"))
        for (owner, entry, k, t, _), dims in zip(entries, shardings):
            attr = jir.Attribute.parse(f"#sdy.sharding{sharding(dims)}")
            if entry is not None:
                dicts = list(jir.ArrayAttr(owner.attributes[entry]))
                d = jir.DictAttr(dicts[k])
                kept = {d[i].name: d[i].attr for i in range(len(d))
                        if d[i].name != "mhlo.sharding"}
                dicts[k] = jir.DictAttr.get({**kept, "sdy.sharding": attr})
                owner.attributes[entry] = jir.ArrayAttr.get(dicts)
            elif _target(owner) == "Sharding":
                constraint = jir.Operation.create(
                    "sdy.sharding_constraint", results=[t], operands=[owner.operands[0]],
                    attributes={"sharding": attr}, loc=owner.location,
                    ip=jir.InsertionPoint(owner))
                owner.results[0].replace_all_uses_with(constraint.results[0])
                owner.erase()
            else:
                raise ParseError(f"{source_name}: {owner.name} carries a GSPMD sharding "
                                 f"(mhlo.sharding); shlo reads them on function arguments, "
                                 f"results, @Sharding calls and shard_maps: lower the program "
                                 f"with Shardy")
        ends_dims = iter(shardings[len(entries):])
        for body, fulls, outs in maps:
            ins = [sharding(next(ends_dims)) for _ in fulls]
            outs_text = [sharding(next(ends_dims)) for _ in outs]
            manual = jir.Operation.create(
                "sdy.manual_computation", results=[b.results[0].type for _, b in outs],
                operands=[f.operands[0] for f in fulls], regions=1, loc=body.location,
                ip=jir.InsertionPoint(body), attributes={
                    "in_shardings": jir.Attribute.parse(
                        f"#sdy.sharding_per_value<[{', '.join(ins)}]>"),
                    "out_shardings": jir.Attribute.parse(
                        f"#sdy.sharding_per_value<[{', '.join(outs_text)}]>"),
                    "manual_axes": jir.Attribute.parse(
                        "#sdy<manual_axes{" + ", ".join(f'"{n}"' for n in names) + "}>")})
            block = manual.regions[0].blocks.append(*[f.results[0].type for f in fulls])
            with jir.InsertionPoint(block):
                call = jir.Operation.create(
                    "func.call", results=[r.type for r in body.results],
                    operands=list(block.arguments),
                    attributes={"callee": body.attributes["callee"]})
                jir.Operation.create("sdy.return", operands=list(call.results))
            for k, (sharded, back) in enumerate(outs):
                back.results[0].replace_all_uses_with(manual.results[k])
                back.erase()
                sharded.erase()
            body.erase()
            for full in fulls:
                full.erase()
    return True
