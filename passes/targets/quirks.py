"""Target quirks as data: each workaround of an IREE backend is a `Quirk` entry.

An entry names the ops it matches, the target kinds that apply it, the capabilities it needs
(e.g. "f64"), and its rewrite: a `rule` on MLIR's greedy driver (op_rules: the values that
replace the op, or None to decline) and/or a `fence` run once per matching op after the rules
(it edits the op's operands or uses in place). Its `id` is a section of docs/iree_gaps.md: what
IREE does wrong, the evidence, the IREE version measured. `QuirksPass` applies a target's table;
its `disable` option switches entries off by id (`shlo-legalize-vulkan-ops{disable=a,b}`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from iree.compiler import ir

from ...errors import PipelineError
from ..base import Pass, nested_ops
from ..op_rules import Rule, apply_rules


@dataclasses.dataclass(frozen=True)
class Quirk:
    """One workaround: `id` (docs/iree_gaps.md), `what` it does, the `ops` it matches."""

    id: str
    what: str
    ops: tuple[str, ...]
    targets: tuple[str, ...]
    rule: Rule | None = None
    fence: Callable[[ir.Operation], None] | None = None
    needs: frozenset[str] = frozenset()


def enabled(quirks: tuple[Quirk, ...], disable=(), capabilities=frozenset()) -> list[Quirk]:
    """The entries not disabled whose needed capabilities the target has, in table order."""
    return [q for q in quirks if q.id not in disable and q.needs <= capabilities]


def _first_of(rules: list[Rule]) -> Rule:
    """A rule trying `rules` in order: the first that does not decline."""
    if len(rules) == 1:
        return rules[0]

    def rule(op: ir.Operation):
        for each in rules:
            values = each(op)
            if values is not None:
                return values
        return None
    return rule


def apply_quirks(root: ir.Operation, quirks: list[Quirk], pass_name: str) -> None:
    """The quirks' rules to a fixed point (entries of one op in table order), then their
    fences on each op present after the rules (again in table order)."""
    rules: dict[str, list[Rule]] = {}
    fences: dict[str, list[Callable]] = {}
    for quirk in quirks:
        for name in quirk.ops:
            if quirk.rule is not None:
                rules.setdefault(name, []).append(quirk.rule)
            if quirk.fence is not None:
                fences.setdefault(name, []).append(quirk.fence)
    if rules:
        apply_rules(root, {name: _first_of(each) for name, each in rules.items()}, pass_name)
    if fences:
        for found in nested_ops(root, "stablehlo."):
            for fence in fences.get(found.name, ()):
                fence(found)


@dataclasses.dataclass
class QuirksPass(Pass):
    """A pass that applies the enabled entries of its QUIRKS table."""

    QUIRKS: ClassVar[tuple[Quirk, ...]] = ()
    disable: tuple[str, ...] = ()       # quirk ids switched off (docs/iree_gaps.md)

    def __post_init__(self):
        if isinstance(self.disable, str):
            self.disable = tuple(i.strip() for i in self.disable.split(",") if i.strip())
        known = [q.id for q in self.QUIRKS]
        unknown = [i for i in self.disable if i not in known]
        if unknown:
            raise PipelineError(f"{self.NAME}: unknown quirk id '{unknown[0]}' in disable= "
                                f"(ids: {', '.join(known)})")

    def capabilities(self) -> frozenset[str]:
        """What the target offers that some entries need (none by default)."""
        return frozenset()

    def run(self, op: ir.Operation) -> None:
        apply_quirks(op, enabled(self.QUIRKS, self.disable, self.capabilities()), self.NAME)
