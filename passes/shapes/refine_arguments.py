"""shlo-refine-arguments{types=...}: give the entry function's arguments more static types
(StableHLO's refine-arguments).

`types` lists one tensor type per argument (`types=tensor<2x3xf32>,tensor<3xf32>`); each must
refine the declared one (same rank and element type; static sizes kept). The signature
changes and each refined argument reaches the body through a
`custom_call @stablehlo.shape_refinement_operand_wrapper` that still has the old type, so
the module stays valid; shlo-refine-shapes then removes the wrappers and propagates the new
shapes (`shlo-opt --shlo-refine-arguments='types=...' --shlo-refine-shapes`).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import DYN, split_top_level
from shlo.errors import PassError
from ..base import Pass
from .refine_rules import WRAPPER


def parse_types(text: str, context: ir.Context) -> list[ir.Type]:
    """`tensor<2xf32>, tensor<?x3xi32>` -> types (commas inside <...> do not split)."""
    types = []
    for part in split_top_level(text):
        part = part.strip()
        if not part:
            continue
        try:
            types.append(ir.Type.parse(part, context))
        except (ir.MLIRError, ValueError) as e:
            raise PassError(f"shlo-refine-arguments: cannot parse type '{part}': "
                            f"{str(e).splitlines()[0]}") from None
    return types


def entry_function(module: ir.Operation, name: str) -> ir.Operation:
    """The function `name`, or the only public function when `name` is empty."""
    funcs = [op.operation for op in module.regions[0].blocks[0].operations
             if op.operation.name == "func.func"]
    names = [ir.StringAttr(f.attributes["sym_name"]).value for f in funcs]
    if name:
        if name not in names:
            raise PassError(f"shlo-refine-arguments: no function @{name} (functions: "
                            f"{', '.join('@' + n for n in names) or 'none'})", at=module)
        return funcs[names.index(name)]
    if "main" in names:
        return funcs[names.index("main")]
    public = [f for f in funcs if "sym_visibility" not in f.attributes
              or ir.StringAttr(f.attributes["sym_visibility"]).value == "public"]
    if len(public) != 1:
        raise PassError("shlo-refine-arguments: no @main and not exactly one public function: "
                        "name one with function=", at=module)
    return public[0]


def check_refines(old: ir.Type, new: ir.Type, index: int, func: ir.Operation) -> None:
    o, n = old.maybe_downcast(), new.maybe_downcast()
    ok = (isinstance(n, ir.RankedTensorType) and isinstance(o, ir.RankedTensorType)
          and o.rank == n.rank and o.element_type == n.element_type
          and all(a in (DYN, b) for a, b in zip(o.shape, n.shape)))
    if not ok and old != new:
        raise PassError(f"shlo-refine-arguments: argument {index} has type {old}, which "
                        f"{new} does not refine (need the same rank and element type, and "
                        f"the same static sizes)", at=func)


@dataclasses.dataclass
class RefineArguments(Pass):
    """Refine the argument types of the entry function (types=... one per argument)."""

    NAME = "shlo-refine-arguments"
    ANCHOR = "builtin.module"
    types: str = ""
    function: str = ""

    def run(self, op: ir.Operation) -> None:
        with op.context:
            self._refine(op)

    def _refine(self, op: ir.Operation) -> None:
        func = entry_function(op, self.function)
        types = parse_types(self.types, op.context)
        entry = func.regions[0].blocks[0]
        if len(types) != len(entry.arguments):
            raise PassError(f"shlo-refine-arguments: @{ir.StringAttr(func.attributes['sym_name']).value} "
                            f"has {len(entry.arguments)} arguments but types= gives "
                            f"{len(types)}", at=func)
        first = entry.operations[0]
        for i, (arg, new) in enumerate(zip(entry.arguments, types)):
            old = arg.type
            check_refines(old, new, i, func)
            if old == new:
                continue
            arg.set_type(new)
            with ir.InsertionPoint(first), arg.location:
                shape = stablehlo.constant(np.array(ir.RankedTensorType(new).shape, np.int64))
                wrapper = stablehlo.custom_call(
                    [arg, shape], call_target_name=WRAPPER, result_type=[old])
                wrapper = wrapper if isinstance(wrapper, ir.Value) else wrapper[0]
                wrapper.owner.attributes["indices_of_shape_operands"] = ir.DenseElementsAttr.get(
                    np.array([1], np.int64))
            arg.replace_all_uses_except(wrapper, wrapper.owner.operation)
        function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        func.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(types, list(function_type.results)))
