"""StableHLO op builders: one function per op, named by its mnemonic (`stablehlo.add`,
`stablehlo.dot_general`; a Python keyword gets a trailing underscore: `and_`, `not_`, `return_`).

Each is derived from the op's OpDef in elementwise.py, data_movement.py or reduction.py.
"""
from __future__ import annotations

from . import data_movement, elementwise, reduction
from .registry import builders

OPS = [*elementwise.OPS, *data_movement.OPS, *reduction.OPS]
_BUILDERS = builders(OPS)
globals().update(_BUILDERS)
__all__ = sorted(_BUILDERS)
