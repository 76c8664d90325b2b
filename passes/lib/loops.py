"""The counter of a stablehlo.while loop: the carried integer scalar `i` of a condition
`i < N` and of a body that returns `i + k` in its place, with its start, bound and step when
they are constants (shared by shlo-unroll-scan-loops, shlo-barrier-loop-results,
shlo-read-condition-values and the Vulkan loop rewrites); whether an op is inside a loop."""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect.elementwise import compare_kind, compare_scalars
from shlo.dialect import types as T
from shlo.dialect.types import constant_values
from ..base import defined_by


CONDITIONALS = ("stablehlo.if", "stablehlo.case")


def inside_loop(op: ir.Operation) -> bool:
    """Whether `op` is nested, at any depth, in a stablehlo.while."""
    parent = op.operation.parent
    while parent is not None:
        if parent.name == "stablehlo.while":
            return True
        parent = parent.operation.parent
    return False


def constant_int(value: ir.Value) -> int | None:
    """The value of a constant integer scalar (or splat), else None."""
    values = constant_values(value)
    return None if values is None or values.size == 0 or (values != values.flat[0]).any() \
        else int(values.flat[0])


@dataclasses.dataclass(frozen=True)
class Counter:
    """A while loop's counter: carried in place `index`; `start` (the loop's operand), `bound`
    (N of `i < N`) and `step` (k of the body's `i + k`) when constant, else None."""

    index: int
    start: int | None
    bound: int | None
    step: int | None
    width: int
    signed: bool            # a signless integer compared as signed
    alone: bool             # the condition is the comparison alone, N defined outside it

    @property
    def trips(self) -> int | None:
        """N - start for a counter stepped by 1 from a constant to a constant (negative when
        the loop starts past N), else None."""
        if self.step != 1 or self.start is None or self.bound is None:
            return None
        return self.bound - self.start

    @property
    def range(self) -> tuple[int, int] | None:
        """[low, high] of the counter inside the body: it counts up by a constant k >= 0 with
        no wrap-around (N + k fits its type) from a constant start to a constant N, signed."""
        if not self.signed or self.start is None or self.bound is None or self.step is None \
                or self.step < 0 or self.bound + self.step >= 1 << (self.width - 1):
            return None
        return self.start, max(self.start, self.bound - 1)


def counter(loop: ir.Operation) -> Counter | None:
    """The counter of `loop` (a stablehlo.while): the condition returns `i < N` of a carried
    rank-0 integer `i` that the body returns as `i + k`; None when it has none."""
    cond = loop.regions[0].blocks[0]
    ops = list(cond.operations)
    compare = defined_by(ops[-1].operands[0], "stablehlo.compare")
    if compare is None or \
            str(compare.attributes["comparison_direction"]).split()[-1].rstrip(">") != "LT":
        return None
    i, bound = compare.operands
    if not isinstance(i.owner, ir.Block) or i.owner != cond:
        return None
    t = ir.RankedTensorType(i.type)
    element = t.element_type.maybe_downcast()
    if t.rank != 0 or not isinstance(element, ir.IntegerType):
        return None
    index = i.arg_number
    body = loop.regions[1].blocks[0]
    argument = body.arguments[index]
    add = defined_by(list(body.operations)[-1].operands[index], "stablehlo.add")
    if add is None or argument not in list(add.operands):
        return None
    step = add.operands[1] if add.operands[0] == argument else add.operands[0]
    kind = str(compare.attributes["compare_type"]) if "compare_type" in compare.attributes \
        else ""
    return Counter(index=index, start=constant_int(loop.operands[index]),
                   bound=constant_int(bound), step=constant_int(step), width=element.width,
                   signed=element.is_signless and "UNSIGNED" not in kind,
                   alone=len(ops) == 2 and ops[0] == compare)


_LOGICAL = {"stablehlo.and": all, "stablehlo.or": any}


def _fold(op: ir.Operation, values: list[int]) -> int | bool | None:
    """The value of a signed integer comparison (compare_type SIGNED, or left out on signed
    integers: `compare_kind`) or a boolean and/or/not of known values."""
    if op.name == "stablehlo.compare":
        return compare_scalars(op, *values) if compare_kind(op) == "SIGNED" else None
    if T.kind(ir.RankedTensorType(op.results[0].type).element_type) != T.BOOL:
        return None
    if op.name in _LOGICAL:
        return _LOGICAL[op.name](bool(v) for v in values)
    return not values[0] if op.name == "stablehlo.not" else None


def first_trip_runs(loop: ir.Operation) -> bool:
    """Whether the loop's condition is certainly true on its operands: it folds to true from
    the operands that are constants through signed comparisons of integer scalars and
    and/or/not of booleans (`i < N` from a constant start below N; `i < N and go` with `go`
    carried from true: a convergence loop's first sweep)."""
    cond = loop.regions[0].blocks[0]
    known: dict = {}
    for argument, operand in zip(cond.arguments, loop.operands):
        value = constant_int(operand)
        if value is not None and ir.RankedTensorType(argument.type).rank == 0:
            known[argument] = value
    ops = list(cond.operations)
    for op in ops[:-1]:
        found = [known[v] if v in known else constant_int(v) for v in op.operands]
        values = [v for v in found if v is not None]
        value = _fold(op, values) if len(values) == len(found) else None
        if value is not None:
            known[op.results[0]] = value
    return bool(known.get(ops[-1].operands[0], False))


def trip_count(loop: ir.Operation) -> int | None:
    """N - start of a loop `while (i < N) { ...; i = i + 1 }` whose condition is that
    comparison alone, with constant start and N (negative: no trip)."""
    found = counter(loop)
    return found.trips if found is not None and found.alone else None
