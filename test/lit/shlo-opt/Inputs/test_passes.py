"""Test passes for shlo-opt's lit tests, loaded with --load-pass-plugin."""
import dataclasses

from iree.compiler import ir

import shlo
from shlo.passes.base import Pass, nested_ops


@dataclasses.dataclass
class Refuse(Pass):
    """Fail at the first op whose name is `op` (a test pass)."""

    NAME = "test-refuse"
    op: str = dataclasses.field(default="stablehlo.add", metadata={"help": "The op to refuse"})

    def run(self, op):
        for target in nested_ops(op, self.op):
            if target.name == self.op:
                raise shlo.PassError(f"{self.NAME}: refusing '{self.op}'", at=target)


@dataclasses.dataclass
class Crash(Pass):
    """Raise a Python exception, as a buggy pass would (a test pass)."""

    NAME = "test-crash"

    def run(self, op):
        raise ZeroDivisionError("a bug in the pass")


@dataclasses.dataclass
class Mark(Pass):
    """Set a unit attribute on every func.func (a test pass)."""

    NAME = "test-mark"
    ANCHOR = "func.func"
    attr: str = "test.marked"

    def run(self, op):
        op.attributes[self.attr] = ir.UnitAttr.get(op.context)
