"""Run a table of op rewrite rules (op name -> rule) through MLIR's greedy pattern driver.

A rule takes the matched `ir.Operation` and returns the values that replace its results, built
at the op (the insertion point is set before it, the location is the op's), or None when the
op is already in the form the rule wants: the driver then leaves it alone, which is also what
stops a rule from matching its own output again. A rule reports an unsupported op by raising
`PassError`; the first one is raised after the driver finishes, at that op's location.

`RulesPass` is a pass that is exactly its table: subclasses set NAME, RULES and a docstring.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import ClassVar

from iree.compiler import ir, rewrite

from ..errors import PassError
from .base import Pass
from .lib.expr import scope

Rule = Callable[[ir.Operation], "list[ir.Value] | None"]

# a discardable attribute on ops a rule has already rewritten into their final form
CANONICAL = "shlo.canonical"


def merge_rules(*tables: Mapping[str, Rule]) -> dict[str, Rule]:
    """One table of several; an op name ruled twice is an error, not a silent override."""
    merged: dict[str, Rule] = {}
    for table in tables:
        twice = sorted(merged.keys() & table.keys())
        if twice:
            raise ValueError(f"rule tables both rule {', '.join(twice)}")
        merged.update(table)
    return merged


def apply_rules(root: ir.Operation, rules: Mapping[str, Rule], pass_name: str) -> None:
    """Rewrite every op under `root` that a rule in `rules` matches, to a fixed point."""
    errors: list[PassError] = []
    patterns = rewrite.RewritePatternSet(root.context)
    for name, rule in rules.items():
        patterns.add(name, _pattern(rule, pass_name, errors))
    config = rewrite.GreedyRewriteConfig()
    config.enable_folding = False
    rewrite.apply_patterns_and_fold_greedily(root, patterns.freeze(), config)
    if errors:
        raise errors[0]


def _pattern(rule: Rule, pass_name: str, errors: list):
    def match_and_rewrite(op, rewriter):
        if errors:           # the pass fails anyway; a failed rule's leftovers must not loop
            return True
        op = op.operation
        try:
            with rewriter.ip, op.location, scope():
                values = rule(op)
        except PassError as e:
            errors.append(e if e.at is not None else PassError(e.message, at=op))
            return True
        except Exception as e:      # a bug in a rule must not cross the C++ driver
            errors.append(PassError(f"{pass_name}: internal error rewriting {op.name}: "
                                    f"{type(e).__name__}: {e}", at=op))
            return True
        if values is None:
            return True
        rewriter.replace_op(op, list(values))
    return match_and_rewrite


@dataclasses.dataclass
class RulesPass(Pass):
    """A pass that applies its RULES table (op name -> rule) to a fixed point."""

    RULES: ClassVar[Mapping[str, Rule]] = {}

    def run(self, op: ir.Operation) -> None:
        apply_rules(op, self.RULES, self.NAME)
