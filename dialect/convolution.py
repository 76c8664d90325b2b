"""StableHLO convolution and dynamic_conv, declared as data with the spec's constraints.

The dimension numbers are nine builder keywords (`input_batch_dimension=`, ...,
`output_spatial_dimensions=`) that become one ``#stablehlo.conv<...>`` attribute. dynamic_conv
takes `padding` as an operand; its values shape the result when a constant defines them, and
the spatial result dimensions are dynamic otherwise. As with dot_general, the result element
type is lhs's unless `result_type` names another (the MLIR verifier allows e.g. i8 x i8 -> i32);
quantized operands follow quant_checks.py (C28-C34).
"""
from __future__ import annotations

from . import attributes as A
from . import checks as K
from . import quant_checks as Q
from . import types as T
from .opdef import Attr, Check, OpDef, Operand
from .windows import num_windows

_DIMS = [("input_batch_dimension", A.I64), ("input_feature_dimension", A.I64),
         ("input_spatial_dimensions", A.I64_ARRAY),
         ("kernel_input_feature_dimension", A.I64), ("kernel_output_feature_dimension", A.I64),
         ("kernel_spatial_dimensions", A.I64_ARRAY),
         ("output_batch_dimension", A.I64), ("output_feature_dimension", A.I64),
         ("output_spatial_dimensions", A.I64_ARRAY)]


def _n(b) -> int:
    return T.rank(b.lhs)


def _ranks(b):
    if T.rank(b.lhs) != T.rank(b.rhs):
        return f"lhs {b.lhs} and rhs {b.rhs} must have the same rank"
    if T.rank(b.lhs) < 2:
        return f"lhs {b.lhs} must have rank >= 2"


def _spatial_size(name: str):
    def check(b):
        v = b.attrs[name]
        if v is not None and len(v) != _n(b) - 2:
            return (f"{name} {list(v)} must have {_n(b) - 2} entries (one per spatial "
                    f"dimension of lhs {b.lhs})")
    return check


def _layout(prefix: str, first: str, last: str):
    """(C13/C20) [first] + spatial + [last], (C18) spatial + [first] + [last]: unique and in
    [0, N)."""
    def check(b):
        ends = [b.attrs[f"{prefix}_{first}"], b.attrs[f"{prefix}_{last}"]]
        spatial = list(b.attrs[f"{prefix}_spatial_dimensions"])
        dims = spatial + ends if prefix == "kernel" else [ends[0], *spatial, ends[1]]
        n = _n(b)
        bad = [d for d in dims if not 0 <= d < n]
        if bad:
            return f"{prefix} dimensions {dims} have {bad[0]} out of range for rank {n}"
        dup = [d for d in dims if dims.count(d) > 1]
        if dup:
            return f"{prefix} dimensions {dims} repeat dimension {dup[0]}"
    return check


def _divisible(operand: str, dim: str, count: str):
    def check(b):
        size = T.shape(b.types[operand])[b.attrs[dim]]
        if size != T.DYN and size % b.attrs[count]:
            return (f"{operand} dimension {b.attrs[dim]} ({dim}) has size {size}, not a "
                    f"multiple of {count} {b.attrs[count]}")
    return check


def _kernel_input_features(b):
    lhs_f = T.shape(b.lhs)[b.input_feature_dimension]
    rhs_f = T.shape(b.rhs)[b.kernel_input_feature_dimension]
    if lhs_f == T.DYN or rhs_f == T.DYN:
        return None
    if rhs_f * b.feature_group_count != lhs_f:
        return (f"rhs kernel input feature dimension {b.kernel_input_feature_dimension} has size "
                f"{rhs_f} but lhs input feature size {lhs_f} / feature_group_count "
                f"{b.feature_group_count} is {lhs_f / b.feature_group_count:g}")


def _one_group_count(b):
    if b.feature_group_count != 1 and b.batch_group_count != 1:
        return (f"feature_group_count {b.feature_group_count} and batch_group_count "
                f"{b.batch_group_count} cannot both be > 1")


def _padding_values(b):
    """The [N-2, 2] padding: the attribute, a constant operand's values, or None."""
    if "padding" in b.types:
        v = T.constant_values(b.values["padding"])
        return None if v is None else v.tolist()
    v = b.padding
    return [[0, 0]] * (_n(b) - 2) if v is None else v.tolist()


def _padding_shape(b):
    want = [_n(b) - 2, 2]
    got = T.shape(b.types["padding"]) if "padding" in b.types else (
        None if b.padding is None else list(b.padding.shape))
    if got is not None and not T.same_shape(got, want):
        return f"padding must have shape {want}, got {T.fmt_shape(got)}"


def _conv_infer(b):
    """(C25) batch / feature / window-count dimensions; element type as documented above."""
    n = _n(b)
    ls, rs = T.shape(b.lhs), T.shape(b.rhs)
    strides = list(b.window_strides or [1] * (n - 2))
    lhs_dil = list(b.lhs_dilation or [1] * (n - 2))
    rhs_dil = list(b.rhs_dilation or [1] * (n - 2))
    pad = _padding_values(b)
    out = [0] * n
    batch = ls[b.input_batch_dimension]
    out[b.output_batch_dimension] = batch if batch == T.DYN else batch // b.batch_group_count
    out[b.output_feature_dimension] = rs[b.kernel_output_feature_dimension]
    for i, (od, ld, kd) in enumerate(zip(b.output_spatial_dimensions,
                                         b.input_spatial_dimensions,
                                         b.kernel_spatial_dimensions)):
        if pad is None or rs[kd] == T.DYN:
            out[od] = T.DYN
        else:
            out[od] = num_windows(ls[ld], rs[kd], strides[i], lhs_dil[i], rhs_dil[i], *pad[i])
    element = T.elem(b.result_type) if b.result_type is not None else T.elem(b.lhs)
    return T.with_shape(b.lhs, out, element)


def _conv(name: str, padding_operand: bool) -> OpDef:
    padding = ([Operand("padding", frozenset({T.SINT, T.UINT}))] if padding_operand else [])
    attrs = [Attr("window_strides", A.I64_ARRAY, default=None)]
    if not padding_operand:
        attrs.append(Attr("padding", A.I64_MATRIX, default=None))
    attrs += [Attr("lhs_dilation", A.I64_ARRAY, default=None),
              Attr("rhs_dilation", A.I64_ARRAY, default=None),
              Attr("window_reversal", A.BOOL_ARRAY, default=None),
              *[Attr(d, kind, struct=A.CONV_DIMS, mlir="dimension_numbers")
                for d, kind in _DIMS],
              Attr("feature_group_count", A.I64, default=1),
              Attr("batch_group_count", A.I64, default=1),
              Attr("precision_config", A.PRECISION_CONFIG, default=None)]
    return OpDef(
        f"stablehlo.{name}",
        [Operand("lhs", Q.QUANTIZABLE), Operand("rhs", Q.QUANTIZABLE), *padding, *attrs],
        checks=[
            Check("C1", _ranks),
            Check("C21", K.positive("feature_group_count")),
            Check("C22", K.positive("batch_group_count")),
            Check("C23", _one_group_count),
            Check("C12", _spatial_size("input_spatial_dimensions")),
            Check("C17", _spatial_size("kernel_spatial_dimensions")),
            Check("C19", _spatial_size("output_spatial_dimensions")),
            Check("C13", _layout("input", "batch_dimension", "feature_dimension")),
            Check("C18", _layout("kernel", "input_feature_dimension",
                                 "output_feature_dimension")),
            Check("C20", _layout("output", "batch_dimension", "feature_dimension")),
            Check("C2", _spatial_size("window_strides")),
            Check("C3", K.positive("window_strides")),
            Check("C4", _padding_shape),
            Check("C5", _spatial_size("lhs_dilation")),
            Check("C6", K.positive("lhs_dilation")),
            Check("C7", _spatial_size("rhs_dilation")),
            Check("C8", K.positive("rhs_dilation")),
            Check("C9", _spatial_size("window_reversal")),
            Check("C10", _divisible("lhs", "input_batch_dimension", "batch_group_count")),
            Check("C11", _divisible("lhs", "input_feature_dimension", "feature_group_count")),
            Check("C14", _kernel_input_features),
            Check("C15", _divisible("rhs", "kernel_output_feature_dimension",
                                    "batch_group_count")),
            Check("C16", _divisible("rhs", "kernel_output_feature_dimension",
                                    "feature_group_count")),
            Check("C24", K.precision_pair),
            Check("C27", Q.unquantized_same_element),
            Check("C28", Q.quantized_together),
            Check("C29", Q.axis_is("rhs", "kernel_output_feature_dimension")),
            Check("C30", Q.axis_is("result", "output_feature_dimension")),
            Check("C31", Q.same_storage), Check("C32", Q.same_expressed),
            Check("C33", Q.per_tensor_result), Check("C34", Q.hybrid),
        ],
        result_id="C25", infer=_conv_infer)


CHAPTER = "reduction"
OPS: list[OpDef] = [_conv("convolution", False), _conv("dynamic_conv", True)]
