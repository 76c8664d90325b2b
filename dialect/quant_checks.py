"""The spec's constraints on quantized tensors, as check factories shared by the op tables.

Contractions (dot_general C14-C20, convolution/dynamic_conv C28-C34) take a quantized rhs with a
quantized lhs (then the result is quantized too, and its scale and zero point come from
`result_type=`) or a float lhs ("hybrid": the result is float). Data-movement ops (reshape,
transpose, broadcast_in_dim and their dynamic forms) carry an element type through, except that a
per-axis quantized result may name another quantization dimension (and broadcast_in_dim other
scales) as the spec's C1 allows, under the op's own per-axis rule.
"""
from __future__ import annotations

from . import types as T

QUANTIZABLE = T.ANY | {T.QUANT}     # "tensor or quantized tensor" in the spec's tables


def q(t) -> bool:
    return t is not None and T.is_quantized(T.elem(t))


def params(t) -> T.QuantParams:
    return T.quant_params(T.elem(t))


def per_axis(t) -> bool:
    return q(t) and params(t).per_axis


def any_quantized(b) -> bool:
    return q(b.lhs) or q(b.rhs) or q(b.result_type)


def same_but_axis(a, b) -> bool:
    """Element types equal up to a per-axis quantization's dimension, scales and zero points."""
    if a == b:
        return True
    if not (T.is_quantized(a) and T.is_quantized(b)):
        return False
    pa, pb = T.quant_params(a), T.quant_params(b)
    return (pa.per_axis and pb.per_axis and str(pa.storage_type) == str(pb.storage_type)
            and (pa.storage_min, pa.storage_max) == (pb.storage_min, pb.storage_max)
            and pa.expressed_type == pb.expressed_type)


# --- contractions -------------------------------------------------------------------------------


def unquantized_same_element(b):
    """(dot_general C13 / convolution C27) element_type(lhs) = element_type(rhs) when neither
    is quantized."""
    if q(b.lhs) or q(b.rhs):
        return None
    if T.elem(b.lhs) != T.elem(b.rhs):
        return f"lhs and rhs must have the same element type, got {b.lhs} and {b.rhs}"


def quantized_together(b):
    """(C14 / C28) is_quantized(lhs) = is_quantized(result) and is_quantized(rhs)."""
    if not any_quantized(b):
        return None
    if not q(b.rhs):
        return f"rhs {b.rhs} must be quantized when lhs or the result is"
    if q(b.lhs) and not q(b.result_type):
        return (f"a quantized lhs needs a quantized result_type= (its scale and zero point are "
                f"not inferable), got {b.result_type}")
    if not q(b.lhs) and q(b.result_type):
        return f"result_type {b.result_type} must not be quantized when lhs {b.lhs} is not"


def rhs_zero_points(b):
    """(C15) zero_points(rhs) = 0."""
    if q(b.rhs) and any(params(b.rhs).zero_points):
        return f"rhs {b.rhs} must have zero points 0, got {params(b.rhs).zero_points}"


def rhs_axis_not_contracting(b):
    """(C16) a per-axis rhs is not quantized along a contracting dimension."""
    if per_axis(b.rhs) and params(b.rhs).quantization_dimension in b.rhs_contracting_dimensions:
        return (f"rhs quantization_dimension {params(b.rhs).quantization_dimension} must not be in "
                f"rhs_contracting_dimensions {list(b.rhs_contracting_dimensions)}")


def axis_is(operand: str, attr: str):
    """(C29 / C30) a per-axis operand (or result) is quantized along dimension `attr`."""
    def check(b):
        t = b.result_type if operand == "result" else b.types[operand]
        if per_axis(t) and params(t).quantization_dimension != b.attrs[attr]:
            return (f"{operand} quantization_dimension {params(t).quantization_dimension} must "
                    f"be {attr} {b.attrs[attr]}")
    return check


def same_storage(b):
    """(C17 / C31) storage_type(lhs) = storage_type(rhs)."""
    if q(b.lhs) and q(b.rhs) and str(params(b.lhs).storage_type) != str(params(b.rhs).storage_type):
        return (f"lhs and rhs must have one storage type, got {params(b.lhs).storage_type} and "
                f"{params(b.rhs).storage_type}")


def same_expressed(b):
    """(C18 / C32) expressed_type(lhs) = expressed_type(rhs) = expressed_type(result)."""
    if q(b.lhs) and q(b.rhs) and q(b.result_type):
        got = {str(params(t).expressed_type) for t in (b.lhs, b.rhs, b.result_type)}
        if len(got) > 1:
            return f"lhs, rhs and result must express one type, got {', '.join(sorted(got))}"


def per_tensor_result(b):
    """(C19 / C33) a per-tensor rhs gives a per-tensor result."""
    if q(b.lhs) and q(b.rhs) and not per_axis(b.rhs) and per_axis(b.result_type):
        return f"result_type {b.result_type} must be per-tensor quantized as rhs is"


def hybrid(b):
    """(C20 / C34) a float lhs: element_type(lhs) = expressed_type(rhs) = element_type(result)."""
    if q(b.lhs) or not q(b.rhs):
        return None
    want = T.elem(b.lhs)
    result = T.elem(b.result_type) if b.result_type is not None else want
    if params(b.rhs).expressed_type != want or result != want:
        return (f"with a float lhs, rhs must express {want} and the result be {want}, got "
                f"{params(b.rhs).expressed_type} and {result}")


# --- data movement ------------------------------------------------------------------------------


def element_carried(b):
    """(C1) element_type(result) = element_type(operand), up to a per-axis quantization."""
    if not same_but_axis(T.elem(b.operand), T.elem(b.result_type)):
        return (f"result_type {b.result_type} must have the element type of operand "
                f"{b.operand}")


def broadcast_axis(b):
    """(C6) a per-axis result: quantization_dimension(result) =
    broadcast_dimensions[quantization_dimension(operand)], and a size-1 operand axis repeats
    its scale and zero point."""
    if not per_axis(b.result_type) or not per_axis(b.operand):
        return None
    po, pr = params(b.operand), params(b.result_type)
    want = b.broadcast_dimensions[po.quantization_dimension]
    if pr.quantization_dimension != want:
        return (f"result quantization_dimension {pr.quantization_dimension} must be "
                f"broadcast_dimensions[{po.quantization_dimension}] = {want}")
    if T.shape(b.operand)[po.quantization_dimension] == 1 and (
            set(pr.scales) != {po.scales[0]} or set(pr.zero_points) != {po.zero_points[0]}):
        return (f"result scales/zero points {pr.scales}/{pr.zero_points} must repeat the "
                f"operand's {po.scales[0]}/{po.zero_points[0]}")


def reshape_axis(b):
    """(C3) a per-axis operand: the dims before, at and after the quantization dimension keep
    their element counts."""
    if not per_axis(b.operand):
        return None
    so, sr = T.shape(b.operand), T.shape(b.result_type)
    d = params(b.operand).quantization_dimension
    dr = params(b.result_type).quantization_dimension     # per-axis too: C1 checked it
    parts = [(so[:d], sr[:dr]), ([so[d]], [sr[dr]]), (so[d + 1:], sr[dr + 1:])]
    for what, (x, y) in zip(("before", "at", "after"), parts):
        nx, ny = T.num_elements(x), T.num_elements(y)
        if nx is not None and ny is not None and nx != ny:
            return (f"operand {b.operand} and result {b.result_type} must keep {nx} elements "
                    f"{what} the quantization dimension, got {ny}")


def transpose_axis(b):
    """(C4) a per-axis result: quantization_dimension(operand) =
    permutation[quantization_dimension(result)]."""
    if per_axis(b.result_type) and per_axis(b.operand):
        dr = params(b.result_type).quantization_dimension
        if b.permutation[dr] != params(b.operand).quantization_dimension:
            return (f"result quantization_dimension {dr} must map to the operand's "
                    f"{params(b.operand).quantization_dimension} through permutation "
                    f"{list(b.permutation)}")
