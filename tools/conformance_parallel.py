"""`interpreter.run_parallel` on IREE: call each program in turn, or run them as processes.

The interpreter runs the programs of a replica x partition grid as concurrent processes.
When no program communicates, running them one after the other computes the same results;
each program's replica_id/partition_id become its own indices (a specialized copy).
Programs that communicate (collectives, send/recv, in/outfeed) run as processes of
`shlo.run_parallel` instead (`host_parallel`): the test's main does not run on the device;
the host passes run_parallel's constant operands to the programs and checks their results.
"""
from __future__ import annotations

import dataclasses

import numpy as np
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
    """run_parallel's programs: one row of function names per replica, one per partition.
    Older files name them as strings (`[["f"], ["f"]]`), or give one row of them for
    `num_replicas` replicas (`programs = ["f"], num_replicas = 2`)."""
    programs = list(ir.ArrayAttr(op.attributes["programs"]))
    if programs and all(_is_array(p) for p in programs):
        return [[_function_name(p) for p in ir.ArrayAttr(row)] for row in programs]
    replicas = ir.IntegerAttr(op.attributes["num_replicas"]).value \
        if "num_replicas" in op.attributes else 1
    return [[_function_name(p) for p in programs] for _ in range(replicas)]


def _is_array(attr) -> bool:
    return isinstance(attr.maybe_downcast(), ir.ArrayAttr)


def _function_name(attr) -> str:
    """A program's function name: a symbol reference (`@f`) or, in older files, a string."""
    attr = attr.maybe_downcast()
    return attr.value if isinstance(attr, (ir.FlatSymbolRefAttr, ir.StringAttr)) else str(attr)


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


@dataclasses.dataclass
class ParallelRun:
    """What the host runs for a test whose run_parallel programs communicate."""
    replicas: int
    partitions: int
    programs: list[str]                  # one function per process (flattened id order)
    inputs: list[list[np.ndarray]]       # each process's arguments
    results: list[tuple[int, int] | None]   # run_parallel result -> (process, result index)
    infeed: list[list]                   # each process's infeed queue


def communicates(module: ir.Module, func) -> str:
    """The first communicating op a run_parallel program of `func` runs, or ''."""
    funcs = {name_of(f): f for f in functions(module)}
    for op in [o for o in walk(func) if kind(o) == "interpreter.run_parallel"]:
        for name in program_names(op):
            talks = _communication(funcs, name, set())
            if talks:
                return talks
    return ""


def host_parallel(module: ir.Module, func, host_value) -> tuple[ParallelRun | None, str]:
    """The run of `func`'s one run_parallel on the host (`host_value`: a value's host array,
    or None when it is not a constant), or (None, why it cannot be run so)."""
    ops = [o for o in walk(func) if kind(o) == "interpreter.run_parallel"]
    if len(ops) != 1:
        return None, f"unsupported: {len(ops)} communicating run_parallel ops in one test"
    op = ops[0]
    funcs = {name_of(f): f for f in functions(module)}
    grid = program_grid(op)
    if len({len(row) for row in grid}) != 1:
        return None, "unsupported: run_parallel's rows have different numbers of partitions"
    names = [name for row in grid for name in row]
    operands = list(op.operands)
    inputs: list[list[np.ndarray]] = []
    results: list[tuple[int, int] | None] = []
    for process, name in enumerate(names):
        f = funcs[name]
        ftype = function_type(f)
        args, operands = operands[:len(ftype.inputs)], operands[len(ftype.inputs):]
        values = []
        for arg in args:
            if _is_token(arg.type):
                continue
            value = host_value(arg)
            if value is None:
                return None, "unsupported: a run_parallel operand that is not a constant"
            values.append(value)
        inputs.append(values)
        kept = [t for t in ftype.results if not _is_token(t)]
        index = iter(range(len(kept)))
        results.extend(None if _is_token(t) else (process, next(index)) for t in ftype.results)
    queue = []
    if "infeed" in op.attributes:
        for ref in ir.ArrayAttr(op.attributes["infeed"]):
            feeder = funcs[_function_name(ref)]
            returned = list(feeder.regions[0].blocks[0].operations)[-1].operands
            items = [host_value(v) for v in returned]
            if any(v is None for v in items):
                return None, "unsupported: an infeed function that does not return constants"
            queue.append(tuple(items))
    for name in set(names):
        _strip_tokens(funcs[name])
    module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(
        ir.IntegerType.get_signless(32), len(grid))
    module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(
        ir.IntegerType.get_signless(32), len(grid[0]))
    infeed = [queue] + [[] for _ in names[1:]]
    return ParallelRun(len(grid), len(grid[0]), names, inputs, results, infeed), ""


def _is_token(t: ir.Type) -> bool:
    return str(t) == "!stablehlo.token"


def _strip_tokens(f) -> None:
    """Make a program exportable: token arguments become after_all inside, token results go;
    the function is public (the host calls it)."""
    block = f.regions[0].blocks[0]
    for i in reversed(range(len(block.arguments))):
        arg = block.arguments[i]
        if _is_token(arg.type):
            token = ir.Operation.create("stablehlo.after_all", results=[arg.type], operands=[],
                                        ip=ir.InsertionPoint.at_block_begin(block))
            arg.replace_all_uses_with(token.results[0])
            block.erase_argument(i)
    for op in list(walk(f)):
        if kind(op) in ("func.return", "stablehlo.return") and kind(op.parent) == "func.func":
            kept = [v for v in op.operands if not _is_token(v.type)]
            ir.Operation.create("func.return", operands=kept, ip=ir.InsertionPoint(op),
                                loc=op.location)
            op.erase()
    ftype = function_type(f)
    f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [a.type for a in block.arguments], [t for t in ftype.results if not _is_token(t)]))
    for name in ("arg_attrs", "res_attrs"):
        if name in f.attributes:
            del f.attributes[name]
    if "sym_visibility" in f.attributes:
        del f.attributes["sym_visibility"]
