"""`interpreter.run_parallel` on a device that runs one process: call each program in turn.

The interpreter runs the programs of a replica x partition grid as concurrent processes.
When no program communicates, running them one after the other computes the same results;
each program's replica_id/partition_id become its own indices (a specialized copy).
Programs that communicate (collectives, send/recv, in/outfeed) cannot be emulated so.
"""
from __future__ import annotations

from iree.compiler import ir

from .conformance_ir import function_type, functions, kind, lookup, name_of, walk

# Ops that exchange data between the processes of `interpreter.run_parallel`.
COMMUNICATING_OPS = frozenset({
    "stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all",
    "stablehlo.collective_broadcast", "stablehlo.collective_permute",
    "stablehlo.reduce_scatter", "stablehlo.collective_reduce", "stablehlo.send",
    "stablehlo.recv", "stablehlo.infeed", "stablehlo.outfeed",
})
PROCESS_ID_OPS = {"stablehlo.replica_id": 0, "stablehlo.partition_id": 1}


def emulate_parallel(module: ir.Module, func) -> str:
    """Replace `interpreter.run_parallel` in `func` by calls; '' or why it cannot be done."""
    funcs = {name_of(f): f for f in functions(module)}
    for op in [o for o in walk(func) if kind(o) == "interpreter.run_parallel"]:
        if "infeed" in op.attributes:
            return "unsupported: run_parallel with an infeed queue needs the interpreter"
        grid = program_grid(op)
        for row in grid:
            for name in row:
                talks = _communication(funcs, name, set())
                if talks:
                    return (f"collective: '{talks}' needs {sum(map(len, grid))} processes; "
                            "a local IREE device runs one")
        operands, results = list(op.operands), []
        ip = ir.InsertionPoint(op)
        for replica, row in enumerate(grid):
            for partition, name in enumerate(row):
                callee = _specialize(module, funcs, name, replica, partition)
                ftype = function_type(funcs[callee] if callee in funcs else
                                       lookup(module, callee))
                args, operands = operands[:len(ftype.inputs)], operands[len(ftype.inputs):]
                call = ir.Operation.create("func.call", results=list(ftype.results),
                                           operands=args, attributes={
                                               "callee": ir.FlatSymbolRefAttr.get(callee)},
                                           ip=ip, loc=op.location)
                results.extend(call.results)
        for old, new in zip(op.results, results):
            old.replace_all_uses_with(new)
        op.erase()
    return ""


def program_grid(op) -> list[list[str]]:
    """run_parallel's programs: one row of function names per replica, one per partition."""
    return [[ir.FlatSymbolRefAttr(p).value for p in ir.ArrayAttr(row)]
            for row in ir.ArrayAttr(op.attributes["programs"])]


def program_names(op) -> list[str]:
    return [name for row in program_grid(op) for name in row]


def _communication(funcs, name: str, seen: set) -> str:
    """The first communicating op that function `name` (or what it calls) runs, or ''."""
    if name in seen or name not in funcs:
        return ""
    seen.add(name)
    for op in walk(funcs[name]):
        if kind(op) in COMMUNICATING_OPS:
            return kind(op)
        if kind(op) == "func.call":
            found = _communication(funcs, ir.FlatSymbolRefAttr(op.attributes["callee"]).value,
                                   seen)
            if found:
                return found
    return ""


def _specialize(module, funcs, name: str, replica: int, partition: int) -> str:
    """`name`, or a copy of it whose replica_id/partition_id are this process's constants."""
    f = funcs[name]
    if not any(kind(op) in PROCESS_ID_OPS for op in walk(f)):
        return name
    clone_name = f"{name}__r{replica}p{partition}"
    if lookup(module, clone_name) is None:
        clone = f.clone(ip=ir.InsertionPoint(module.body))
        ir.SymbolTable.set_symbol_name(clone, clone_name)
        clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
        for op in [o for o in walk(clone) if kind(o) in PROCESS_ID_OPS]:
            index = (replica, partition)[PROCESS_ID_OPS[kind(op)]]
            t = op.results[0].type
            const = ir.Operation.create("stablehlo.constant", results=[t], attributes={
                "value": ir.Attribute.parse(f"dense<{index}> : {t}")},
                ip=ir.InsertionPoint(op), loc=op.location)
            op.results[0].replace_all_uses_with(const.results[0])
            op.erase()
    return clone_name
