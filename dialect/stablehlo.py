"""StableHLO op builders: one function per op, named by its mnemonic (`stablehlo.add`,
`stablehlo.dot_general`; a Python keyword gets a trailing underscore: `and_`, `not_`, `return_`).

Each is derived from the op's OpDef in its spec chapter's table (CHAPTERS below).
"""
from __future__ import annotations

from . import (control_flow, convolution, data_movement, distribution, dynamism, elementwise,
               extensibility, gather_scatter, miscellaneous, quantization, reduction, windows)
from .registry import builders

# spec chapter -> the modules whose OPS tables hold its ops, in the order of the docs.
CHAPTERS = {
    "elementwise": [elementwise], "data movement": [data_movement, gather_scatter],
    "reduction": [reduction, windows, convolution], "control flow": [control_flow],
    "distribution": [distribution], "dynamism": [dynamism], "quantization": [quantization],
    "extensibility": [extensibility], "miscellaneous": [miscellaneous],
}
OPS = [op for modules in CHAPTERS.values() for m in modules for op in m.OPS]
_BUILDERS = builders(OPS)
globals().update(_BUILDERS)
__all__ = sorted(_BUILDERS)
