"""Small helpers over the MLIR Python bindings for the conformance tools (functions, walks)."""
from __future__ import annotations

import re

from iree.compiler import ir


def functions(module: ir.Module) -> list:
    return [op for op in module.body.operations if kind(op) == "func.func"]


def lookup(module: ir.Module, name: str):
    for f in functions(module):
        if name_of(f) == name:
            return f
    return None


def name_of(f) -> str:
    return ir.StringAttr(f.attributes["sym_name"]).value


def is_public(f) -> bool:
    return "sym_visibility" not in f.attributes or \
        ir.StringAttr(f.attributes["sym_visibility"]).value == "public"


def function_type(f) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)


def arguments(f) -> list:
    return list(function_type(f).inputs)


def kind(op) -> str:
    """The op's name (`func.func`); an OpView's `.name` may be an attribute of the op."""
    return op.operation.name


def walk(op):
    """Every op nested in `op` (not `op` itself), parents before children."""
    for region in op.regions:
        for block in region.blocks:
            for child in list(block.operations):
                yield child
                yield from walk(child)


def walk_all(module: ir.Module):
    for op in list(module.body.operations):
        yield op
        yield from list(walk(op))


def line_of(op) -> int:
    m = re.search(r":(\d+):\d+", str(op.location))
    return int(m.group(1)) if m else 0


def run_passes(module: ir.Module, pipeline: str) -> None:
    from shlo.passes.pipeline import run_pipeline
    run_pipeline(module.operation, pipeline)
