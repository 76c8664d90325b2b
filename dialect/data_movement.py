"""StableHLO data-movement ops: constant, iota, broadcast_in_dim, reshape, transpose,
concatenate, slice and pad, declared as data with the spec's constraints and shape rules."""
from __future__ import annotations

from . import attributes as A
from . import types as T
from .errors import ArgumentError
from .opdef import Attr, Check, Derived, OpDef, Operand

# --- constant ----------------------------------------------------------------------------------


def _constant_value(b):
    """(C1) type(value) = type(output): make the DenseElementsAttr (shaped by result_type)."""
    try:
        b.attrs["value"] = T.dense_attr(b.value, b.result_type)
    except ArgumentError as e:
        return f"value: {e}"
    if T.kind(T.elem(b.value.type)) not in T.ANY:
        return f"value has element type {T.elem(b.value.type)}, which StableHLO does not allow"


# --- iota / broadcast_in_dim / reshape ---------------------------------------------------------


def _iota_dimension(b):
    r = T.rank(b.result_type)
    if not 0 <= b.iota_dimension < r:
        return (f"iota_dimension {b.iota_dimension} is out of range for rank-{r} result "
                f"{b.result_type}")


def _element_of_result(b):
    if T.elem(b.operand) != T.elem(b.result_type):
        return (f"result_type {b.result_type} must have the element type of operand "
                f"{b.operand}")


def _bdims_size(b):
    if len(b.broadcast_dimensions) != T.rank(b.operand):
        return (f"broadcast_dimensions {list(b.broadcast_dimensions)} must have one entry per "
                f"dimension of operand {b.operand}")


def _bdims_range(b):
    r = T.rank(b.result_type)
    bad = [d for d in b.broadcast_dimensions if not 0 <= d < r]
    if bad:
        return (f"broadcast_dimensions {list(b.broadcast_dimensions)} has {bad[0]} out of range "
                f"for rank-{r} result {b.result_type}")


def _unique(name: str):
    def check(b):
        dims = list(b.attrs[name])
        dup = [d for d in dims if dims.count(d) > 1]
        if dup:
            return f"{name} {dims} repeats dimension {dup[0]}"
    return check


def _bdims_sizes(b):
    src, dst = T.shape(b.operand), T.shape(b.result_type)
    for d, bd in enumerate(b.broadcast_dimensions):
        if src[d] != 1 and not T.same_dim(src[d], dst[bd]):
            return (f"operand dimension {d} has size {src[d]} but result dimension {bd} has size "
                    f"{dst[bd]} (must be equal, or the operand's be 1)")


def _reshape_size(b):
    n, m = T.num_elements(T.shape(b.operand)), T.num_elements(T.shape(b.result_type))
    if n is not None and m is not None and n != m:
        return (f"operand {b.operand} has {n} elements but result_type {b.result_type} has {m}")


# --- transpose ---------------------------------------------------------------------------------


def _permutation(b):
    r = T.rank(b.operand)
    if sorted(b.permutation) != list(range(r)):
        return (f"permutation {list(b.permutation)} is not a permutation of range({r}) for "
                f"operand {b.operand}")


def _transpose_infer(b):
    s = T.shape(b.operand)
    return T.with_shape(b.operand, [s[p] for p in b.permutation])


# --- concatenate -------------------------------------------------------------------------------


def _nonempty(b):
    if not b.inputs:
        return "inputs must not be empty"


def _concat_dimension(b):
    r = T.rank(b.inputs[0])
    if not 0 <= b.dimension < r:
        return f"dimension {b.dimension} is out of range for rank-{r} inputs[0] {b.inputs[0]}"


def _concat_elements(b):
    for i, t in enumerate(b.inputs[1:], 1):
        if T.elem(t) != T.elem(b.inputs[0]):
            return (f"inputs must have the same element type, got inputs[0] {b.inputs[0]} and "
                    f"inputs[{i}] {t}")


def _concat_shapes(b):
    s0 = T.shape(b.inputs[0])
    for i, t in enumerate(b.inputs[1:], 1):
        s = T.shape(t)
        if len(s) != len(s0) or not all(T.same_dim(x, y) for d, (x, y) in enumerate(zip(s0, s))
                                        if d != b.dimension):
            return (f"inputs must have the same shape except in dimension {b.dimension}, got "
                    f"inputs[0] {b.inputs[0]} and inputs[{i}] {t}")


def _concat_infer(b):
    dims = list(T.shape(b.inputs[0]))
    for t in b.inputs[1:]:
        for d, x in enumerate(T.shape(t)):
            if d != b.dimension and dims[d] == T.DYN:
                dims[d] = x
    sizes = [T.shape(t)[b.dimension] for t in b.inputs]
    dims[b.dimension] = T.DYN if T.DYN in sizes else sum(sizes)
    return T.with_shape(b.inputs[0], dims)


# --- slice -------------------------------------------------------------------------------------


def _one_entry_per_dim(*names):
    """A check: each of the attributes `names` has one entry per dimension of `operand`."""
    def check(b):
        for name in names:
            if len(b.attrs[name]) != T.rank(b.operand):
                return (f"{name} {list(b.attrs[name])} must have one entry per dimension of "
                        f"operand {b.operand}")
    return check


_slice_sizes = _one_entry_per_dim("start_indices", "limit_indices", "strides")


def _slice_bounds(b):
    for d, (lo, hi, n) in enumerate(zip(b.start_indices, b.limit_indices, T.shape(b.operand))):
        if not (0 <= lo <= hi and (n == T.DYN or hi <= n)):
            return (f"dimension {d}: need 0 <= start {lo} <= limit {hi} <= size "
                    f"{'?' if n == T.DYN else n} of operand {b.operand}")


def _slice_strides(b):
    bad = [s for s in b.strides if s <= 0]
    if bad:
        return f"strides {list(b.strides)} must be positive, got {bad[0]}"


def _slice_infer(b):
    return T.with_shape(b.operand, [-(-(hi - lo) // s) for lo, hi, s in
                                    zip(b.start_indices, b.limit_indices, b.strides)])


# --- pad ---------------------------------------------------------------------------------------


def _pad_elements(b):
    if T.elem(b.operand) != T.elem(b.padding_value):
        return (f"padding_value {b.padding_value} must have the element type of operand "
                f"{b.operand}")


_pad_sizes = _one_entry_per_dim("edge_padding_low", "edge_padding_high", "interior_padding")


def _pad_interior(b):
    bad = [p for p in b.interior_padding if p < 0]
    if bad:
        return f"interior_padding {list(b.interior_padding)} must be >= 0, got {bad[0]}"


def _pad_dims(b):
    out = []
    for n, lo, hi, it in zip(T.shape(b.operand), b.edge_padding_low, b.edge_padding_high,
                             b.interior_padding):
        out.append(T.DYN if n == T.DYN else n + lo + max(n - 1, 0) * it + hi)
    return out


def _pad_result(b):
    dims = _pad_dims(b)
    bad = [d for d, n in enumerate(dims) if n != T.DYN and n < 0]
    if bad:
        return (f"padding gives dimension {bad[0]} a negative size {dims[bad[0]]} for operand "
                f"{b.operand}")


_ones = Derived(lambda b: (1,) * T.rank(b.operand))
_zeros = Derived(lambda b: (0,) * T.rank(b.operand))

OPS: list[OpDef] = [
    OpDef("stablehlo.constant", [Attr("value", A.ELEMENTS, positional=True)],
          checks=[Check("C1", _constant_value)], infer=lambda b: b.value.type,
          encode=lambda b: {"value": b.value}),
    OpDef("stablehlo.iota", [Attr("iota_dimension", A.I64)], result_type="required",
          result_classes=T.INT_FP_C, checks=[Check("C1", _iota_dimension)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.broadcast_in_dim",
          [Operand("operand"), Attr("broadcast_dimensions", A.I64_ARRAY)],
          result_type="required",
          checks=[Check("C1", _element_of_result), Check("C2", _bdims_size),
                  Check("C3", _bdims_range), Check("C4", _unique("broadcast_dimensions")),
                  Check("C5", _bdims_sizes)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.reshape", [Operand("operand")], result_type="required",
          checks=[Check("C1", _element_of_result), Check("C2", _reshape_size)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.transpose", [Operand("operand"), Attr("permutation", A.I64_ARRAY)],
          checks=[Check("C2", _permutation)], result_id="C3", result_element_id="C1",
          infer=_transpose_infer),
    OpDef("stablehlo.concatenate", [Operand("inputs", variadic=True), Attr("dimension", A.I64)],
          checks=[Check("C3", _nonempty), Check("C4", _concat_dimension),
                  Check("C1", _concat_elements), Check("C2", _concat_shapes)],
          result_id="C6", result_element_id="C5", infer=_concat_infer),
    OpDef("stablehlo.slice",
          [Operand("operand"), Attr("start_indices", A.I64_ARRAY),
           Attr("limit_indices", A.I64_ARRAY), Attr("strides", A.I64_ARRAY, default=_ones)],
          checks=[Check("C2", _slice_sizes), Check("C3", _slice_bounds),
                  Check("C4", _slice_strides)],
          result_id="C5", result_element_id="C1", infer=_slice_infer),
    OpDef("stablehlo.pad",
          [Operand("operand"), Operand("padding_value", rank0=True),
           Attr("edge_padding_low", A.I64_ARRAY), Attr("edge_padding_high", A.I64_ARRAY),
           Attr("interior_padding", A.I64_ARRAY, default=_zeros)],
          checks=[Check("C1", _pad_elements), Check("C2", _pad_sizes),
                  Check("C3", _pad_interior), Check("C4", _pad_result)],
          result_id="C4", result_element_id="C1",
          infer=lambda b: T.with_shape(b.operand, _pad_dims(b))),
]
