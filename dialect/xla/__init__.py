"""shlo.xla: XLA's XlaBuilder client API, building StableHLO/CHLO modules.

    from shlo import xla
    b = xla.XlaBuilder("axpy")
    x = xla.Parameter(b, 0, xla.Shape.array_shape("F32", [4]), "x")
    y = xla.Add(xla.Mul(xla.Constant(b, 2.0), x), x)
    computation = b.build()            # .module, .as_text(), .program_shape()
    shlo.compile(computation.module, target="cpu")(np.ones(4, np.float32))

Ops are module-level functions named as in XLA's Operation Semantics (docs/xla.md lists the
differences from the seed documents). Modules: builder.py (XlaBuilder, XlaOp,
XlaComputation), shapes.py (Shape, element types), numbers.py (dimension numbers, Padding,
enums), computations.py (sub-computations), and the op families: values.py, elementwise.py,
shape_ops.py, indexing.py, reductions.py, linalg.py, control_flow.py, effects.py,
collectives.py.
"""
from __future__ import annotations

from . import (collectives, control_flow, effects, elementwise, indexing, linalg, reductions,
               shape_ops, values)
from .builder import XlaBuilder, XlaComputation, XlaOp
from .errors import XlaError
from .numbers import (ChannelHandle, ConvolutionDimensionNumbers, DotDimensionNumbers,
                      GatherDimensionNumbers, Padding, RaggedDotDimensionNumbers,
                      ScatterDimensionNumbers)
from .shapes import XLA_TYPES, ProgramShape, Shape

OPS: dict = {}
for _module in (values, elementwise, shape_ops, indexing, reductions, linalg, control_flow,
                effects, collectives):
    OPS.update(_module.OPS)
globals().update(OPS)

__all__ = ["XlaBuilder", "XlaOp", "XlaComputation", "XlaError", "Shape", "ProgramShape",
           "XLA_TYPES", "DotDimensionNumbers", "GatherDimensionNumbers",
           "ScatterDimensionNumbers", "ConvolutionDimensionNumbers", "RaggedDotDimensionNumbers",
           "Padding", "ChannelHandle", "OPS", *sorted(OPS)]
