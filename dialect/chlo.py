"""CHLO op builders: one function per op, named by its mnemonic (`chlo.erf`,
`chlo.broadcast_add`, `chlo.top_k`; `chlo._asin_acos_kernel` is `asin_acos_kernel`), derived
from the OpDefs in chlo_ops.py and chlo_misc.py."""
from __future__ import annotations

from . import chlo_misc, chlo_ops
from .registry import builders

OPS = [*chlo_ops.OPS, *chlo_misc.OPS]
_BUILDERS = builders(OPS)
globals().update(_BUILDERS)
__all__ = sorted(_BUILDERS)
