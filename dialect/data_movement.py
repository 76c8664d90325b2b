"""StableHLO data-movement ops: constant, iota, broadcast_in_dim, reshape, transpose,
concatenate, slice, pad, dynamic_slice, dynamic_update_slice, reverse, sort, tuple,
get_tuple_element and the deprecated broadcast and torch_index_select, declared as data with
the spec's constraints and shape rules (gather and scatter: gather_scatter.py).

broadcast and torch_index_select are not in the spec; their checks carry these ids:
  broadcast (C1): broadcast_sizes >= 0.
  torch_index_select (C1) 0 <= dim < rank(operand); (C2) 0 <= batch_dims <= rank(index) and
  batch_dims <= dim; (C3) the first batch_dims dimensions of operand and index agree.
"""
from __future__ import annotations

from . import attributes as A
from . import checks as K
from . import quant_checks as Q
from . import types as T
from .errors import ArgumentError
from .opdef import Attr, Check, Derived, OpDef, Operand, Region

# --- constant ----------------------------------------------------------------------------------


def constant_value(b):
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
    """Dims permuted; a per-axis quantized element follows its axis (C4)."""
    s = T.shape(b.operand)
    et = T.elem(b.operand)
    if Q.per_axis(b.operand):
        et = T.with_quant_axis(et, list(b.permutation).index(
            T.quant_params(et).quantization_dimension))
    return T.with_shape(b.operand, [s[p] for p in b.permutation], et)


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

# --- dynamic_slice / dynamic_update_slice --------------------------------------------------------

_INDEX = frozenset({T.SINT, T.UINT})


def _indices_count(b):
    if len(b.start_indices) != T.rank(b.operand):
        return (f"start_indices has {len(b.start_indices)} values but operand {b.operand} has "
                f"rank {T.rank(b.operand)}")


def _slice_sizes_count(b):
    if len(b.slice_sizes) != T.rank(b.operand):
        return (f"slice_sizes {list(b.slice_sizes)} must have one entry per dimension of "
                f"operand {b.operand}")


def _same_index_types(b):
    types = {str(t) for t in b.start_indices}
    if len(types) > 1:
        return f"start_indices must have one type, got {', '.join(sorted(types))}"


def _slice_sizes_fit(b):
    for d, (n, size) in enumerate(zip(T.shape(b.operand), b.slice_sizes)):
        if size < 0 or (n != T.DYN and size > n):
            return (f"slice_sizes[{d}] = {size} must be in [0, {n}] for operand {b.operand}")


def _update_rank(b):
    if T.rank(b.update) != T.rank(b.operand):
        return f"update {b.update} must have the rank of operand {b.operand}"


def _update_fits(b):
    for d, (u, n) in enumerate(zip(T.shape(b.update), T.shape(b.operand))):
        if u != T.DYN and n != T.DYN and u > n:
            return (f"update dimension {d} has size {u} but operand {b.operand} has only {n}")


# --- reverse / sort / tuples ---------------------------------------------------------------------


def _sort_dimension(b):
    r = T.rank(b.inputs[0])
    if not -r <= b.dimension < r:
        return f"dimension {b.dimension} is out of range [-{r}, {r}) for inputs[0] {b.inputs[0]}"


def _comparator_args(b, name):
    return [T.with_shape(t, [], T.elem(t)) for t in b.inputs for _ in range(2)]


def _i1_scalar(region: str):
    """A region check: the region yields one tensor<i1>."""
    def check(b, types):
        if [str(t) for t in types] != ["tensor<i1>"]:
            return (f"{region} must return (tensor<i1>), got "
                    f"({', '.join(map(str, types))})")
    return check


def _tuple_index(b):
    n = len(T.tuple_elements(b.operand))
    if not 0 <= b.index < n:
        return f"index {b.index} is out of range for {b.operand} with {n} elements"


# --- deprecated: broadcast, torch_index_select ---------------------------------------------------


def _sizes_non_negative(b):
    bad = [d for d in b.broadcast_sizes if d < 0]
    if bad:
        return f"broadcast_sizes {list(b.broadcast_sizes)} must be >= 0, got {bad[0]}"


def _tis_dim(b):
    if not 0 <= b.dim < T.rank(b.operand):
        return f"dim {b.dim} is out of range for operand {b.operand}"


def _tis_batch_dims(b):
    if not 0 <= b.batch_dims <= min(T.rank(b.index), b.dim):
        return (f"batch_dims {b.batch_dims} must be in [0, min(rank(index) "
                f"{T.rank(b.index)}, dim {b.dim})]")


def _tis_batch_sizes(b):
    so, si = T.shape(b.operand), T.shape(b.index)
    for d in range(b.batch_dims):
        if not T.same_dim(so[d], si[d]):
            return (f"batch dimension {d} has size {so[d]} in operand {b.operand} but "
                    f"{si[d]} in index {b.index}")


def _tis_infer(b):
    so, si = T.shape(b.operand), T.shape(b.index)
    return T.with_shape(b.operand, so[:b.dim] + si[b.batch_dims:] + so[b.dim + 1:])

OPS: list[OpDef] = [
    OpDef("stablehlo.constant", [Attr("value", A.ELEMENTS, positional=True)],
          checks=[Check("C1", constant_value)], infer=lambda b: b.value.type,
          encode=lambda b: {"value": b.value}),
    OpDef("stablehlo.iota", [Attr("iota_dimension", A.I64)], result_type="required",
          result_classes=T.INT_FP_C, checks=[Check("C1", _iota_dimension)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.broadcast_in_dim",
          [Operand("operand", Q.QUANTIZABLE), Attr("broadcast_dimensions", A.I64_ARRAY)],
          result_type="required",
          checks=[Check("C1", Q.element_carried), Check("C2", _bdims_size),
                  Check("C3", _bdims_range), Check("C4", K.unique("broadcast_dimensions")),
                  Check("C5", _bdims_sizes), Check("C6", Q.broadcast_axis)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.reshape", [Operand("operand", Q.QUANTIZABLE)], result_type="required",
          checks=[Check("C1", Q.element_carried), Check("C2", _reshape_size),
                  Check("C3", Q.reshape_axis)],
          infer=lambda b: b.result_type),
    OpDef("stablehlo.transpose",
          [Operand("operand", Q.QUANTIZABLE), Attr("permutation", A.I64_ARRAY)],
          checks=[Check("C2", _permutation), Check("C4", Q.transpose_axis)],
          result_id="C3", result_element_id="C1",
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
    OpDef("stablehlo.dynamic_slice",
          [Operand("operand"), Operand("start_indices", _INDEX, variadic=True, rank0=True),
           Attr("slice_sizes", A.I64_ARRAY)],
          checks=[Check("C2", _indices_count), Check("C2", _slice_sizes_count),
                  Check("C3", _same_index_types), Check("C4", _slice_sizes_fit)],
          result_id="C5", result_element_id="C1",
          infer=lambda b: T.with_shape(b.operand, list(b.slice_sizes))),
    OpDef("stablehlo.dynamic_update_slice",
          [Operand("operand"), Operand("update"),
           Operand("start_indices", _INDEX, variadic=True, rank0=True)],
          checks=[Check("C2", K.same_element_type("operand", "update")),
                  Check("C3", _update_rank), Check("C4", _indices_count),
                  Check("C5", _same_index_types), Check("C6", _update_fits)],
          infer=lambda b: b.operand),
    OpDef("stablehlo.reverse", [Operand("operand"), Attr("dimensions", A.I64_ARRAY)],
          checks=[Check("C2", K.unique("dimensions")),
                  Check("C3", K.in_range("dimensions", "operand"))],
          infer=lambda b: b.operand),
    OpDef("stablehlo.sort",
          [Operand("inputs", variadic=True), Attr("dimension", A.I64, default=-1),
           Attr("is_stable", A.BOOL, default=False), Region("comparator",
                                                            check=Check("C5", _i1_scalar(
                                                                "comparator")))],
          checks=[Check("C1", K.nonempty("inputs")), Check("C3", K.same_shape("inputs")),
                  Check("C4", _sort_dimension)],
          region_args=_comparator_args, result_id="C2", infer=lambda b: list(b.inputs)),
    OpDef("stablehlo.tuple", [Operand("val", variadic=True, what="value")],
          result_type="none", result_what="value",
          infer=lambda b: T.tuple_type(b.val)),
    OpDef("stablehlo.get_tuple_element", [Operand("operand", what="tuple"),
                                          Attr("index", A.I32)],
          checks=[Check("C1", _tuple_index)], result_id="C2", result_what="value",
          infer=lambda b: T.tuple_elements(b.operand)[b.index]),
    OpDef("stablehlo.broadcast", [Operand("operand"), Attr("broadcast_sizes", A.I64_ARRAY)],
          checks=[Check("C1", _sizes_non_negative)], result_id="C1",
          infer=lambda b: T.with_shape(b.operand, list(b.broadcast_sizes)
                                       + T.shape(b.operand)),
          summary="Deprecated: use broadcast_in_dim."),
    OpDef("stablehlo.torch_index_select",
          [Operand("operand"), Operand("index", _INDEX), Attr("dim", A.I64),
           Attr("batch_dims", A.I64)],
          checks=[Check("C1", _tis_dim), Check("C2", _tis_batch_dims),
                  Check("C3", _tis_batch_sizes)],
          result_id="C3", infer=_tis_infer, summary="Deprecated: use gather."),
]
