"""shlo-refine-shapes: propagate static shapes through a module (StableHLO's refine-shapes).

Starting from the public functions' argument types, every op whose results are dynamic gets
the types its operands imply (`refine_types`: MLIR's inference, then shlo's op tables), in
program order, through nested regions: while (a loop-carried value is refined only when the
body keeps its type), if and case (what all branches agree on), the reduce family, and
func.call (the callee is refined in place when it has one caller, otherwise a refined copy
is made per argument signature). Shape computations are evaluated (`refine_fold`) and
dynamic ops whose shape operands become known turn into their static forms
(`refine_rules`). Function signatures follow their arguments and returns.

A program whose types already are static is left as it is. A refined shape that contradicts
the program (a static mismatch, a reshape that changes the element count, a failing
shape_assertion) is an error at the op.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.errors import PassError
from ..base import Pass
from .refine_fold import evaluate
from .refine_rules import RULES, known_result_type
from .refine_types import inferred_types, is_dynamic, join, merge

_LOOPS = {"stablehlo.while"}
_BRANCHES = {"stablehlo.if", "stablehlo.case"}


def _public(func: ir.Operation) -> bool:
    return ("sym_visibility" not in func.attributes
            or ir.StringAttr(func.attributes["sym_visibility"]).value == "public")


def _scalar_constants(call: ir.Operation, callee: ir.Operation) -> dict:
    """The known values of the call's operands for the callee's `jax.global_constant`
    arguments (jax passes its symbolic sizes to helper functions as 0-d integers), index ->
    value, so the callee's shape computations see them."""
    if "arg_attrs" not in callee.attributes:
        return {}
    out = {}
    for i, attrs in enumerate(ir.ArrayAttr(callee.attributes["arg_attrs"])):
        if "jax.global_constant" not in ir.DictAttr(attrs) or i >= len(call.operands):
            continue
        known = evaluate(call.operands[i])
        if known is not None and known.size == 1:
            out[i] = int(known.reshape(-1)[0])
    return out


def _name(func: ir.Operation) -> str:
    return ir.StringAttr(func.attributes["sym_name"]).value


def needs_refinement(module: ir.Operation) -> bool:
    """Whether any value of the module has a dynamic type or any op has a rule."""
    found = []

    def visit(op):
        if op.name in RULES or any(is_dynamic(r.type) for r in op.results) or any(
                is_dynamic(a.type) for region in op.regions for block in region.blocks
                for a in block.arguments):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE
    module.walk(visit)
    return bool(found)


class Refiner:
    """Refines the functions of one module; see the module docstring."""

    def __init__(self, module: ir.Operation):
        self.module = module
        self.body = module.regions[0].blocks[0]
        self.functions = {_name(op.operation): op.operation for op in self.body.operations
                          if op.operation.name == "func.func"}
        self.in_progress: set[str] = set()
        self.done: set[str] = set()
        self.copies: dict[tuple, str] = {}

    def run(self) -> None:
        for func in list(self.functions.values()):
            if _public(func) or not self._call_count(_name(func)):
                self.refine_function(func)

    # --- functions and calls -------------------------------------------------------------------

    def refine_function(self, func: ir.Operation) -> None:
        name = _name(func)
        if name in self.in_progress or not func.regions[0].blocks:
            return
        self.in_progress.add(name)
        try:
            for block in func.regions[0].blocks:
                self.refine_block(block)
            entry = func.regions[0].blocks[0]
            returns = [b.operations[len(b.operations) - 1] for b in func.regions[0].blocks]
            returns = [r for r in returns if r.operation.name == "func.return"]
            old = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
            results = list(old.results)
            if returns:
                results = [merge(t, join([r.operands[i].type for r in returns]), func, i)
                           for i, t in enumerate(results)]
                for r in returns:
                    _yield_as(r.operation, results)
            inputs = [a.type for a in entry.arguments]
            if inputs != list(old.inputs) or results != list(old.results):
                func.attributes["function_type"] = ir.TypeAttr.get(
                    ir.FunctionType.get(inputs, results))
        finally:
            self.in_progress.discard(name)
        self.done.add(name)

    def refine_call(self, call: ir.Operation) -> bool:
        name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
        callee = self.functions.get(name)
        if callee is None or not callee.regions[0].blocks or name in self.in_progress:
            return False
        entry = callee.regions[0].blocks[0]
        wanted = [merge(a.type, v.type, call, i)
                  for i, (a, v) in enumerate(zip(entry.arguments, call.operands))]
        constants = _scalar_constants(call, callee)
        if wanted != [a.type for a in entry.arguments] or constants:
            callee = self._specialized(callee, wanted, call, constants)
            name = _name(callee)
            call.attributes["callee"] = ir.FlatSymbolRefAttr.get(name)
        if name not in self.done:
            self.refine_function(callee)
        results = ir.FunctionType(ir.TypeAttr(callee.attributes["function_type"]).value).results
        return self._set_types(call, list(results))

    def _specialized(self, callee: ir.Operation, types: list, call: ir.Operation,
                     constants: dict):
        """The callee with argument types `types` and the known scalar arguments `constants`
        (index -> value) folded in: itself when `call` is its only user and it is private,
        else a (cached) private copy."""
        key = (_name(callee), tuple(str(t) for t in types), tuple(sorted(constants.items())))
        if key in self.copies:
            return self.functions[self.copies[key]]
        if not _public(callee) and self._call_count(_name(callee)) == 1:
            target = callee
        else:
            target = callee.clone(ir.InsertionPoint.after(callee))
            base = f"{_name(callee)}_refined"
            n = 0
            while f"{base}_{n}" in self.functions:
                n += 1
            target.attributes["sym_name"] = ir.StringAttr.get(f"{base}_{n}")
            target.attributes["sym_visibility"] = ir.StringAttr.get("private")
            self.functions[f"{base}_{n}"] = target
        entry = target.regions[0].blocks[0]
        for arg, t in zip(entry.arguments, types):
            arg.set_type(t)
        for index, value in constants.items():
            arg = entry.arguments[index]
            if not list(arg.uses):
                continue
            splat = ir.DenseElementsAttr.get_splat(arg.type, ir.IntegerAttr.get(
                ir.RankedTensorType(arg.type).element_type, value))
            with ir.InsertionPoint.at_block_begin(entry), target.location:
                constant = ir.Operation.create("stablehlo.constant", results=[arg.type],
                                               attributes={"value": splat}).result
            arg.replace_all_uses_with(constant)
        self.done.discard(_name(target))
        self.copies[key] = _name(target)
        return target

    def _call_count(self, name: str) -> int:
        count = []

        def visit(op):
            if op.name == "func.call" and ir.FlatSymbolRefAttr(
                    op.attributes["callee"]).value == name:
                count.append(op)
            return ir.WalkResult.ADVANCE
        self.module.walk(visit)
        return len(count)

    # --- blocks and ops ------------------------------------------------------------------------

    def refine_block(self, block: ir.Block) -> None:
        for op in list(block.operations):
            self.refine_op(op.operation)

    def refine_op(self, op: ir.Operation) -> None:
        rule = RULES.get(op.name)
        if rule is not None:
            with ir.InsertionPoint(op), op.location:
                values = rule(op)
            if values is not None:
                for old, new in zip(op.results, values):
                    old.replace_all_uses_with(new)
                op.erase()
                return
        if op.name == "func.call":
            self.refine_call(op)
            return
        if op.name in _LOOPS:
            self.refine_loop(op)
            return
        for region in op.regions:
            for block in region.blocks:
                self.refine_block(block)
        if op.name in _BRANCHES:
            types = [join(list(t)) for t in zip(*[_yielded(region) for region in op.regions])]
            for region in op.regions:
                _yield_as(_terminator(region.blocks[0]), types)
            self._set_types(op, types)
            return
        if not any(is_dynamic(r.type) for r in op.results):
            return
        known = known_result_type(op)
        if known is not None:
            self._set_types(op, [known])
            return
        inferred = inferred_types(op)
        if inferred is not None:
            self._set_types(op, inferred)

    def refine_loop(self, op: ir.Operation) -> None:
        """A while: refine the loop-carried values whose type the body keeps."""
        candidates = [merge(a.type, v.type, op, i) for i, (a, v) in
                      enumerate(zip(op.regions[0].blocks[0].arguments, op.operands))]
        original = [a.type for a in op.regions[0].blocks[0].arguments]
        for _ in range(len(candidates) + 1):
            trial = op.clone(ir.InsertionPoint(op))
            try:
                self._set_loop_types(trial, candidates)
                for region in trial.regions:
                    for block in region.blocks:
                        self.refine_block(block)
                kept = _yielded(trial.regions[1])
            except PassError:
                kept = original
            finally:
                trial.erase()
            stable = [c if k == c else o for c, k, o in zip(candidates, kept, original)]
            if stable == candidates:
                break
            candidates = stable
        self._set_loop_types(op, candidates)
        for region in op.regions:
            for block in region.blocks:
                self.refine_block(block)
        self._set_types(op, candidates)

    @staticmethod
    def _set_loop_types(op: ir.Operation, types: list) -> None:
        for region in op.regions:
            for arg, t in zip(region.blocks[0].arguments, types):
                arg.set_type(t)

    @staticmethod
    def _set_types(op: ir.Operation, types: list) -> bool:
        changed = False
        for i, (result, t) in enumerate(zip(op.results, types)):
            refined = merge(result.type, t, op, i)
            if refined != result.type:
                result.set_type(refined)
                changed = True
        return changed


def _terminator(block: ir.Block) -> ir.Operation:
    return block.operations[len(block.operations) - 1].operation


def _yielded(region: ir.Region) -> list:
    return [v.type for v in _terminator(region.blocks[0]).operands]


def _yield_as(terminator: ir.Operation, types: list) -> None:
    """Make a terminator yield exactly `types` (a value more refined than its slot's type
    passes through an identity stablehlo.convert, as branches and returns must agree)."""
    for i, t in enumerate(types):
        value = terminator.operands[i]
        if value.type != t:
            with ir.InsertionPoint(terminator), terminator.location:
                terminator.operands[i] = ir.Operation.create(
                    "stablehlo.convert", results=[t], operands=[value]).result


@dataclasses.dataclass
class RefineShapes(Pass):
    """Propagate static shapes through a module and turn dynamic ops into static ones."""

    NAME = "shlo-refine-shapes"
    ANCHOR = "builtin.module"

    def run(self, op: ir.Operation) -> None:
        if not needs_refinement(op):
            return
        with op.context, ir.Location.unknown():
            Refiner(op).run()
        try:
            op.verify()
        except ir.MLIRError as e:
            diagnostic = e.error_diagnostics[0] if e.error_diagnostics else None
            message = diagnostic.message if diagnostic else str(e)
            raise PassError(f"shlo-refine-shapes: the refined module does not verify: "
                            f"{message}") from None
