"""CHLO op builders: one function per op, named by its mnemonic (`chlo.erf`,
`chlo.broadcast_add`), derived from the OpDefs in chlo_ops.py."""
from __future__ import annotations

from . import chlo_ops
from .registry import builders

OPS = list(chlo_ops.OPS)
_BUILDERS = builders(OPS)
globals().update(_BUILDERS)
__all__ = sorted(_BUILDERS)
