"""shlo.dialect: typed builders for StableHLO and CHLO ops, and the type layer.

    from shlo.dialect import stablehlo, chlo
    with ctx, ir.Location.unknown(), ir.InsertionPoint(block):
        y = stablehlo.dot_general(a, b, lhs_contracting_dimensions=[1],
                                  rhs_contracting_dimensions=[0])

Ops are declared once as data (`opdef.OpDef`, one table per spec chapter: elementwise.py,
data_movement.py, gather_scatter.py, reduction.py, windows.py, convolution.py,
control_flow.py, distribution.py, dynamism.py, quantization.py, extensibility.py,
miscellaneous.py; CHLO: chlo_ops.py, chlo_misc.py); the builders (stablehlo.py, chlo.py), their
checks (tagged with the spec's constraint ids; shared factories in checks.py and
quant_checks.py), result inference and docstrings derive from it. To add an op, append an OpDef
to its chapter's OPS list: its inputs in the spec's order (Operand / Attr / Region), a
`Check(id, fn)` per constraint, and an `infer` function.

rebuild.py rebuilds a parsed op through its builder (attributes decoded back to keywords);
spec.py records the spec's constraint counts; `python -m shlo.dialect.coverage` writes
docs/dialect_coverage.md from all of it.
"""
from . import chlo, stablehlo, types
from .errors import ArgumentError, ConstraintError, VerifierError
from .opdef import OpDef
from .types import dense_attr, element_dtype, element_type, tensor_type

__all__ = ["stablehlo", "chlo", "types", "OpDef", "tensor_type", "dense_attr", "element_type",
           "element_dtype", "ArgumentError", "ConstraintError", "VerifierError"]
