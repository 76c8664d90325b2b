"""StableHLO gather, scatter and dynamic_gather, declared as data with the spec's constraints.

Their dimension numbers are separate builder keywords (`offset_dims=`, `start_index_map=`, ...)
that become one ``#stablehlo.gather<...>`` / ``#stablehlo.scatter<...>`` attribute. The
constraint functions are shared: dynamic_gather (whose slice_sizes is an operand) reuses
gather's under its own spec ids, reading the slice sizes when a constant defines them.
"""
from __future__ import annotations

from . import attributes as A
from . import checks as K
from . import types as T
from .opdef import Attr, Check, OpDef, Operand, Region

_INDEX = frozenset({T.SINT, T.UINT})


def _batch_dims(indices, ivd: int) -> list[int]:
    """shape(indices) without the index vector dimension."""
    s = T.shape(indices)
    return [n for d, n in enumerate(s) if d != ivd]


def _index_vector_size(indices, ivd: int) -> int:
    return T.shape(indices)[ivd] if ivd < T.rank(indices) else 1


# --- gather ----------------------------------------------------------------------------------


def _slice_sizes(b):
    """gather: the attribute; dynamic_gather: the constant operand's values, or None."""
    if "slice_sizes" in b.attrs:
        return list(b.slice_sizes)
    values = T.constant_values(b.values["slice_sizes"])
    return None if values is None else [int(x) for x in values.reshape(-1)]


def _g_rank(b):
    dims = len(b.offset_dims) + len(b.collapsed_slice_dims) + len(_obd(b))
    if dims != T.rank(b.operand):
        return (f"rank of operand {b.operand} must equal size(offset_dims) + "
                f"size(collapsed_slice_dims) + size(operand_batching_dims) = {dims}")


def _obd(b) -> tuple:
    return b.attrs.get("operand_batching_dims") or ()


def _ivd_range(indices: str):
    def check(b):
        r = T.rank(b.types[indices])
        if not 0 <= b.index_vector_dim <= r:
            return (f"index_vector_dim {b.index_vector_dim} must be in [0, {r}] for "
                    f"{indices} {b.types[indices]}")
    return check


def _index_map_size(name: str, indices: str):
    def check(b):
        want = _index_vector_size(b.types[indices], b.index_vector_dim)
        if len(b.attrs[name]) != want:
            return (f"{name} {list(b.attrs[name])} must have {want} entries (the size of "
                    f"{indices}'s index vector dimension {b.index_vector_dim})")
    return check


def _g_result_rank(b) -> int:
    return len(_batch_dims(b.start_indices, b.index_vector_dim)) + len(b.offset_dims)


def _g_offset_range(b):
    r = _g_result_rank(b)
    bad = [d for d in b.offset_dims if not 0 <= d < r]
    if bad:
        return f"offset_dims {list(b.offset_dims)} has {bad[0]} out of range for rank-{r} result"


def _at_most_one(dims: str):
    def check(b):
        sizes = _slice_sizes(b)
        if sizes is None or len(sizes) != T.rank(b.operand):
            return None
        for d in b.attrs.get(dims) or ():
            if 0 <= d < len(sizes) and sizes[d] > 1:
                return f"slice_sizes[{d}] = {sizes[d]} must be <= 1 ({d} is in {dims})"
    return check


def _ivd_not_batching(indices_batching: str):
    def check(b):
        if b.index_vector_dim in (b.attrs.get(indices_batching) or ()):
            return (f"index_vector_dim {b.index_vector_dim} must not be in {indices_batching} "
                    f"{list(b.attrs[indices_batching])}")
    return check


def _same_size(x: str, y: str):
    def check(b):
        if len(b.attrs[x]) != len(b.attrs[y]):
            return f"{x} {list(b.attrs[x])} and {y} {list(b.attrs[y])} must have the same size"
    return check


def _batching_sizes(operand: str, obd: str, indices: str, ibd: str):
    def check(b):
        so, si = T.shape(K.first(b.types[operand])), T.shape(b.types[indices])
        for d, e in zip(b.attrs[obd], b.attrs[ibd]):
            if not T.same_dim(so[d], si[e]):
                return (f"{operand} batching dimension {d} has size {so[d]} but {indices} "
                        f"batching dimension {e} has size {si[e]}")
    return check


def _slice_sizes_size(b):
    sizes = _slice_sizes(b)
    n = len(sizes) if sizes is not None else (
        T.shape(b.types["slice_sizes"])[0] if "slice_sizes" in b.types else None)
    if n is not None and n != T.DYN and n != T.rank(b.operand):
        return (f"slice_sizes has {n} entries but operand {b.operand} has rank "
                f"{T.rank(b.operand)}")


def _slice_sizes_bounds(b):
    sizes = _slice_sizes(b)
    if sizes is None or len(sizes) != T.rank(b.operand):
        return None
    for d, (size, n) in enumerate(zip(sizes, T.shape(b.operand))):
        if size < 0 or (n != T.DYN and size > n):
            return f"slice_sizes[{d}] = {size} must be in [0, {n}] for operand {b.operand}"


def _gather_infer(b):
    """(C22) batch dims of start_indices at the non-offset axes, the kept slice sizes at
    offset_dims; a dynamic_gather slice size that is not a constant is dynamic."""
    batch = _batch_dims(b.start_indices, b.index_vector_dim)
    sizes = _slice_sizes(b)
    dropped = set(b.collapsed_slice_dims) | set(_obd(b))
    kept = [T.DYN if sizes is None else sizes[d]
            for d in range(T.rank(b.operand)) if d not in dropped]
    rank = len(batch) + len(b.offset_dims)
    out, bi, oi = [], iter(batch), iter(kept)
    for d in range(rank):
        out.append(next(oi) if d in b.offset_dims else next(bi))
    return T.with_shape(b.operand, out)


_GATHER_DIMS = [
    Attr("offset_dims", A.I64_ARRAY, struct=A.GATHER_DIMS, mlir="dimension_numbers"),
    Attr("collapsed_slice_dims", A.I64_ARRAY, default=(), struct=A.GATHER_DIMS,
         mlir="dimension_numbers"),
    Attr("operand_batching_dims", A.I64_ARRAY, default=(), struct=A.GATHER_DIMS,
         mlir="dimension_numbers"),
    Attr("start_indices_batching_dims", A.I64_ARRAY, default=(), struct=A.GATHER_DIMS,
         mlir="dimension_numbers"),
    Attr("start_index_map", A.I64_ARRAY, struct=A.GATHER_DIMS, mlir="dimension_numbers"),
    Attr("index_vector_dim", A.I64, struct=A.GATHER_DIMS, mlir="dimension_numbers"),
]

GATHER = OpDef(
    "stablehlo.gather",
    [Operand("operand"), Operand("start_indices", _INDEX), *_GATHER_DIMS,
     Attr("slice_sizes", A.I64_ARRAY),
     Attr("indices_are_sorted", A.BOOL, default=False)],
    checks=[
        Check("C2", _ivd_range("start_indices")),
        Check("C1", _g_rank),
        Check("C3", _index_map_size("start_index_map", "start_indices")),
        Check("C4", K.unique("offset_dims")), Check("C4", K.ascending("offset_dims")),
        Check("C5", _g_offset_range),
        Check("C6", K.unique("collapsed_slice_dims", "operand_batching_dims")),
        Check("C7", K.ascending("collapsed_slice_dims")),
        Check("C8", K.in_range("collapsed_slice_dims", "operand")),
        Check("C10", K.ascending("operand_batching_dims")),
        Check("C11", K.in_range("operand_batching_dims", "operand")),
        Check("C13", K.unique("start_indices_batching_dims")),
        Check("C14", K.in_range("start_indices_batching_dims", "start_indices")),
        Check("C15", _ivd_not_batching("start_indices_batching_dims")),
        Check("C16", _same_size("operand_batching_dims", "start_indices_batching_dims")),
        Check("C17", _batching_sizes("operand", "operand_batching_dims", "start_indices",
                                     "start_indices_batching_dims")),
        Check("C18", K.unique("start_index_map", "operand_batching_dims")),
        Check("C19", K.in_range("start_index_map", "operand")),
        Check("C20", _slice_sizes_size),
        Check("C21", _slice_sizes_bounds),
        Check("C9", _at_most_one("collapsed_slice_dims")),
        Check("C12", _at_most_one("operand_batching_dims")),
    ],
    result_id="C22", result_element_id="C23", infer=_gather_infer)

DYNAMIC_GATHER = OpDef(
    "stablehlo.dynamic_gather",
    [Operand("operand"), Operand("start_indices", _INDEX), Operand("slice_sizes", _INDEX),
     _GATHER_DIMS[0], _GATHER_DIMS[1], _GATHER_DIMS[4], _GATHER_DIMS[5],
     Attr("indices_are_sorted", A.BOOL, default=False)],
    checks=[
        Check("C2", _ivd_range("start_indices")),
        Check("C1", _g_rank),
        Check("C3", _index_map_size("start_index_map", "start_indices")),
        Check("C4", K.unique("offset_dims")), Check("C4", K.ascending("offset_dims")),
        Check("C5", _g_offset_range),
        Check("C6", K.unique("collapsed_slice_dims")),
        Check("C6", K.ascending("collapsed_slice_dims")),
        Check("C7", K.in_range("collapsed_slice_dims", "operand")),
        Check("C9", K.unique("start_index_map")),
        Check("C10", K.in_range("start_index_map", "operand")),
        Check("C11", _slice_sizes_size),
        Check("C12", _slice_sizes_bounds),
        Check("C8", _at_most_one("collapsed_slice_dims")),
    ],
    result_id="C13", result_element_id="C14", infer=_gather_infer)

# --- scatter -----------------------------------------------------------------------------------


def _s_rank(b):
    dims = (len(b.update_window_dims) + len(b.inserted_window_dims)
            + len(b.input_batching_dims))
    if dims != T.rank(b.inputs[0]):
        return (f"rank of inputs[0] {b.inputs[0]} must equal size(update_window_dims) + "
                f"size(inserted_window_dims) + size(input_batching_dims) = {dims}")


def _s_updates_shape(b):
    """(C4) shape(updates[0]) = combine(update_scatter_dim_sizes, update_window_dim_sizes)."""
    upd = b.updates[0]
    scatter_sizes = _batch_dims(b.scatter_indices, b.index_vector_dim)
    dropped = set(b.inserted_window_dims) | set(b.input_batching_dims)
    window_bounds = [n for d, n in enumerate(T.shape(b.inputs[0])) if d not in dropped]
    rank = len(scatter_sizes) + len(b.update_window_dims)
    if T.rank(upd) != rank:
        return (f"updates[0] {upd} must have rank {rank} (scatter dimensions "
                f"{T.fmt_shape(scatter_sizes)} + {len(b.update_window_dims)} window dimensions)")
    si, wi = iter(scatter_sizes), iter(window_bounds)
    for d, n in enumerate(T.shape(upd)):
        if d in b.update_window_dims:
            bound = next(wi)
            if n != T.DYN and bound != T.DYN and n > bound:
                return (f"updates[0] {upd} window dimension {d} has size {n} but the inputs' "
                        f"window allows at most {bound}")
        else:
            want = next(si)
            if not T.same_dim(n, want):
                return (f"updates[0] {upd} scatter dimension {d} has size {n} but "
                        f"scatter_indices {b.scatter_indices} gives {want}")


def _s_uwd_range(b):
    r = T.rank(b.updates[0])
    bad = [d for d in b.update_window_dims if not 0 <= d < r]
    if bad:
        return (f"update_window_dims {list(b.update_window_dims)} has {bad[0]} out of range "
                f"for updates[0] {b.updates[0]}")


def _s_region_args(b, name):
    scalars = [T.with_shape(t, [], T.elem(t)) for t in b.inputs]
    return scalars * 2


def _s_region(b, types):
    """(C23) update_computation: (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...)."""
    want = [str(T.with_shape(t, [], T.elem(t))) for t in b.inputs]
    got = [str(t) for t in types]
    if got != want:
        return f"update_computation must return ({', '.join(want)}), got ({', '.join(got)})"


def _scatter_dims(name, default=None):
    kw = {} if default is None else {"default": default}
    return Attr(name, A.I64_ARRAY if name != "index_vector_dim" else A.I64,
                struct=A.SCATTER_DIMS, mlir="scatter_dimension_numbers", **kw)


SCATTER = OpDef(
    "stablehlo.scatter",
    [Operand("inputs", variadic=True), Operand("scatter_indices", _INDEX),
     Operand("updates", variadic=True), _scatter_dims("update_window_dims"),
     _scatter_dims("inserted_window_dims", ()), _scatter_dims("input_batching_dims", ()),
     _scatter_dims("scatter_indices_batching_dims", ()),
     _scatter_dims("scatter_dims_to_operand_dims"), _scatter_dims("index_vector_dim"),
     Attr("indices_are_sorted", A.BOOL, default=False),
     Attr("unique_indices", A.BOOL, default=False),
     Region("update_computation", check=Check("C23", _s_region))],
    checks=[
        Check("C5", K.counts_match("inputs", "updates")), Check("C1", K.same_shape("inputs")),
        Check("C3", K.same_shape("updates")),
        Check("C6", K.pairwise_element_type("inputs", "updates")),
        Check("C22", _ivd_range("scatter_indices")),
        Check("C2", _s_rank),
        Check("C7", K.unique("update_window_dims")),
        Check("C7", K.ascending("update_window_dims")),
        Check("C8", _s_uwd_range),
        Check("C9", K.unique("inserted_window_dims", "input_batching_dims")),
        Check("C10", K.ascending("inserted_window_dims")),
        Check("C11", K.in_range("inserted_window_dims", "inputs")),
        Check("C12", K.ascending("input_batching_dims")),
        Check("C13", K.in_range("input_batching_dims", "inputs")),
        Check("C14", K.unique("scatter_indices_batching_dims")),
        Check("C15", K.in_range("scatter_indices_batching_dims", "scatter_indices")),
        Check("C16", _ivd_not_batching("scatter_indices_batching_dims")),
        Check("C17", _same_size("input_batching_dims", "scatter_indices_batching_dims")),
        Check("C18", _batching_sizes("inputs", "input_batching_dims", "scatter_indices",
                                     "scatter_indices_batching_dims")),
        Check("C19", _index_map_size("scatter_dims_to_operand_dims", "scatter_indices")),
        Check("C20", K.unique("scatter_dims_to_operand_dims", "input_batching_dims")),
        Check("C21", K.in_range("scatter_dims_to_operand_dims", "inputs")),
        Check("C4", _s_updates_shape),
    ],
    region_args=_s_region_args, result_id="C24", result_element_id="C25",
    infer=lambda b: list(b.inputs))

CHAPTER = "data movement"
OPS: list[OpDef] = [GATHER, SCATTER, DYNAMIC_GATHER]
