"""shlo-hwio-convolution-kernels: a convolution whose kernel is not laid out as (spatial...,
input features, output features) reads a transposed copy of its kernel that is.

jax's gradient of a conv layer with respect to its input is a convolution of the output
gradient with the kernel's input and output features swapped ([0, 1, o, i] after the window
reversal). IREE matches only the HWIO layout to its fast NHWC convolution and computes
any other as a generic loop nest, far slower (docs/iree_gaps.md#shlo-hwio-convolution-kernels).
The kernel is small (3x3xIxO), so its transpose costs next to nothing. The transpose goes behind
a fence (`chlo_stablehlo_extras.fence`): IREE otherwise folds it back into the convolution.
Static shapes only; kernels already
in that order stay as they are.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS
from ..lib import builders as extras
from ..lib.expr import attributes
from ..op_rules import RulesPass


def _convolution(op: ir.Operation):
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    order = [*dims["kernel_spatial_dimensions"], dims["kernel_input_feature_dimension"],
             dims["kernel_output_feature_dimension"]]
    rhs = op.operands[1]
    if order == list(range(len(order))) or not ir.RankedTensorType(rhs.type).has_static_shape:
        return None
    kernel = extras.fence([stablehlo.transpose(rhs, permutation=order)])[0]
    n = len(order) - 2
    attrs["dimension_numbers"] = CONV_DIMS.encode({
        **dims, "kernel_spatial_dimensions": tuple(range(n)),
        "kernel_input_feature_dimension": n, "kernel_output_feature_dimension": n + 1})
    return [ir.Operation.create("stablehlo.convolution", results=[op.results[0].type],
                                operands=[op.operands[0], kernel], attributes=attrs).result]


@dataclasses.dataclass
class HwioConvolutionKernels(RulesPass):
    """Transpose a convolution's kernel to (spatial..., input features, output features)."""

    NAME = "shlo-hwio-convolution-kernels"
    RULES = {"stablehlo.convolution": _convolution}
