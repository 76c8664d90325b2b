"""StableHLO dynamism ops: dynamic_broadcast_in_dim, dynamic_iota, dynamic_pad, dynamic_reshape,
get_dimension_size and the deprecated real_dynamic_slice and set_dimension_size, declared as
data with the spec's constraints (dynamic_gather: gather_scatter.py; dynamic_conv:
convolution.py).

Their shapes come from 1-D integer operands. When a constant op defines such an operand its
values give static result dimensions; otherwise those dimensions are dynamic (``?``), and a
`result_type` may refine them. dynamic_iota's element type cannot be inferred: `result_type`
is required there.

Ops outside this spec version carry these ids: real_dynamic_slice (C1) start_indices,
limit_indices and strides have one entry per dimension of operand; (C2) they have one type;
(C3) constant bounds satisfy 0 <= start <= limit <= dim(operand); (C4) constant strides are
> 0. set_dimension_size (C1) 0 <= dimension < rank(operand); the result is the operand's type
with that dimension dynamic, bounded by its former size (as MLIR infers it).
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import checks as K
from . import quant_checks as Q
from . import types as T
from .opdef import Attr, Check, OpDef, Operand

_INT = frozenset({T.SINT, T.UINT})


def _vector(name: str) -> Operand:
    return Operand(name, _INT)


def _values(b, name: str) -> list[int] | None:
    v = T.constant_values(b.values[name])
    return None if v is None else [int(x) for x in v.reshape(-1)]


def _length(b, name: str) -> int:
    """size of a 1-D shape operand (DYN if unknown)."""
    t = b.types[name]
    return T.shape(t)[0] if T.rank(t) == 1 else T.DYN


def _dims_from(b, name: str) -> list[int]:
    """The result dims a shape operand gives: its constant values, else all dynamic (its
    length is static: `_static_length` checks it first)."""
    values = _values(b, name)
    return values if values is not None else [T.DYN] * _length(b, name)


def _counts(*names: str):
    """Each 1-D operand `names` has one entry per dimension of operand."""
    def check(b):
        r = T.rank(b.operand)
        for n in names:
            if _length(b, n) not in (r, T.DYN):
                return (f"{n} {b.types[n]} must have one entry per dimension of operand "
                        f"{b.operand}")
    return check


def _static_length(name: str):
    def check(b):
        if _length(b, name) == T.DYN:
            return f"{name} {b.types[name]} must have a static length (the result's rank)"
    return check


# --- dynamic_broadcast_in_dim --------------------------------------------------------------------


def _if_given(check):
    """A result-type check that applies when result_type is given (else inference holds it)."""
    return lambda b: None if b.result_type is None else check(b)


_carried_if_given = _if_given(Q.element_carried)


def _element(b):
    """The operand's element type, or a given result_type's (C1 allows another per-axis
    quantization; `_carried_if_given` checked it)."""
    return T.elem(b.result_type) if b.result_type is not None else None


def _dbid_rank(b) -> int:
    return _length(b, "output_dimensions")


def _dbid_sizes(b):
    """(C5) dim(operand, d) = 1 or dim(result, broadcast_dimensions[d])."""
    out = _result_dims(b)
    for d, bd in enumerate(b.broadcast_dimensions):
        n = T.shape(b.operand)[d]
        if n != 1 and not T.same_dim(n, out[bd]):
            return (f"operand dimension {d} has size {n} but result dimension {bd} has size "
                    f"{out[bd]} (must be equal, or the operand's be 1)")


def _result_dims(b) -> list[int]:
    dims = _dims_from(b, "output_dimensions")
    if b.result_type is not None:
        dims = [g if d == T.DYN else d for d, g in zip(dims, T.shape(b.result_type))]
    return dims


def _result_rank(shape: str):
    """rank(result) = size(shape operand), for a given result_type."""
    def check(b):
        n = _length(b, shape)
        if b.result_type is not None and T.rank(b.result_type) != n:
            return f"result_type {b.result_type} must have rank size({shape}) = {n}"
    return check


DYNAMIC_BROADCAST_IN_DIM = OpDef(
    "stablehlo.dynamic_broadcast_in_dim",
    [Operand("operand", Q.QUANTIZABLE), _vector("output_dimensions"),
     Attr("broadcast_dimensions", A.I64_ARRAY),
     Attr("known_expanding_dimensions", A.I64_ARRAY, default=None),
     Attr("known_nonexpanding_dimensions", A.I64_ARRAY, default=None)],
    checks=[Check("C7", K.one_d("output_dimensions")),
            Check("C7", _static_length("output_dimensions")),
            Check("C7", _result_rank("output_dimensions")),
            Check("C2", K.size_is_rank("broadcast_dimensions", "operand")),
            Check("C3", K.in_range("broadcast_dimensions", rank=_dbid_rank)),
            Check("C4", K.unique("broadcast_dimensions")),
            Check("C8", K.unique("known_expanding_dimensions", "known_nonexpanding_dimensions")),
            Check("C9", K.in_range("known_expanding_dimensions", "operand")),
            Check("C10", K.in_range("known_nonexpanding_dimensions", "operand")),
            Check("C5", _dbid_sizes), Check("C1", _carried_if_given),
            Check("C6", _if_given(Q.broadcast_axis))],
    result_id="C7", result_element_id="C1",
    infer=lambda b: T.with_shape(b.operand, _dims_from(b, "output_dimensions"), _element(b)))

# --- dynamic_iota ------------------------------------------------------------------------------


def _iota_dimension(b):
    n = _length(b, "output_shape")
    if n != T.DYN and not 0 <= b.iota_dimension < n:
        return f"iota_dimension {b.iota_dimension} is out of range for {n} output dimensions"


def _iota_rank(b):
    n, r = _length(b, "output_shape"), T.rank(b.result_type)
    if n != T.DYN and n != r:
        return f"result_type {b.result_type} must have rank size(output_shape) = {n}"
    values = _values(b, "output_shape")
    if values is not None and not T.same_shape(values, T.shape(b.result_type)):
        return f"result_type {b.result_type} must have the shape {values} of output_shape"


DYNAMIC_IOTA = OpDef(
    "stablehlo.dynamic_iota", [_vector("output_shape"), Attr("iota_dimension", A.I64)],
    result_type="required", result_classes=T.INT_FP_C,
    checks=[Check("C2", K.one_d("output_shape")), Check("C1", _iota_dimension),
            Check("C2", _iota_rank)],
    infer=lambda b: b.result_type)

# --- dynamic_pad -------------------------------------------------------------------------------

_PADS = ("edge_padding_low", "edge_padding_high", "interior_padding")


def _pad_interior(b):
    values = _values(b, "interior_padding")
    bad = [v for v in values or () if v < 0]
    if bad:
        return f"interior_padding {values} must be >= 0, got {bad[0]}"


def _pad_dims(b) -> list[int]:
    lo, hi, it = (_values(b, n) for n in _PADS)
    out = []
    for d, n in enumerate(T.shape(b.operand)):
        if n == T.DYN or lo is None or hi is None or it is None:
            out.append(T.DYN)
        else:
            out.append(n + lo[d] + max(n - 1, 0) * it[d] + hi[d])
    return out


def _pad_infer(b):
    return T.with_shape(b.operand, _pad_dims(b))


def _pad_result(b):
    bad = [n for n in _pad_dims(b) if n != T.DYN and n < 0]
    if bad:
        return f"padding gives a negative dimension size {bad[0]} for operand {b.operand}"


DYNAMIC_PAD = OpDef(
    "stablehlo.dynamic_pad",
    [Operand("operand"), Operand("padding_value", rank0=True), *map(_vector, _PADS)],
    checks=[Check("C1", K.same_element_type("operand", "padding_value")),
            Check("C2", K.one_d(*_PADS)), Check("C2", _counts(*_PADS)),
            Check("C3", _pad_interior), Check("C4", _pad_result)],
    result_id="C4", result_element_id="C1", infer=_pad_infer)

# --- dynamic_reshape ---------------------------------------------------------------------------


def _reshape_size(b):
    values = _values(b, "output_shape")
    n = T.num_elements(T.shape(b.operand))
    m = None if values is None else T.num_elements(values)
    if n is not None and m is not None and n != m:
        return f"operand {b.operand} has {n} elements but output_shape {values} has {m}"


DYNAMIC_RESHAPE = OpDef(
    "stablehlo.dynamic_reshape", [Operand("operand", Q.QUANTIZABLE), _vector("output_shape")],
    checks=[Check("C4", K.one_d("output_shape")),
            Check("C4", _static_length("output_shape")),
            Check("C4", _result_rank("output_shape")), Check("C2", _reshape_size),
            Check("C1", _carried_if_given), Check("C3", _if_given(Q.reshape_axis))],
    result_id="C4", result_element_id="C1",
    infer=lambda b: T.with_shape(b.operand, _dims_from(b, "output_shape"), _element(b)))

# --- real_dynamic_slice --------------------------------------------------------------------------

_BOUNDS = ("start_indices", "limit_indices", "strides")


def _rds_types(b):
    types = {str(b.types[n]) for n in _BOUNDS}
    if len(types) > 1:
        return f"start_indices, limit_indices and strides must have one type, got {types}"


def _rds_bounds(b):
    start, limit = _values(b, "start_indices"), _values(b, "limit_indices")
    if start is None or limit is None:
        return None
    for d, (lo, hi, n) in enumerate(zip(start, limit, T.shape(b.operand))):
        if not (0 <= lo <= hi and (n == T.DYN or hi <= n)):
            return (f"dimension {d}: need 0 <= start {lo} <= limit {hi} <= size "
                    f"{'?' if n == T.DYN else n} of operand {b.operand}")


def _rds_strides(b):
    bad = [s for s in _values(b, "strides") or () if s <= 0]
    if bad:
        return f"strides must be > 0, got {bad[0]}"


def _rds_infer(b):
    start, limit, strides = (_values(b, n) for n in _BOUNDS)
    if start is None or limit is None or strides is None:
        return T.with_shape(b.operand, [T.DYN] * T.rank(b.operand))
    return T.with_shape(b.operand, [-(-(hi - lo) // s) for lo, hi, s in
                                    zip(start, limit, strides)])


REAL_DYNAMIC_SLICE = OpDef(
    "stablehlo.real_dynamic_slice", [Operand("operand"), *map(_vector, _BOUNDS)],
    checks=[Check("C1", K.one_d(*_BOUNDS)), Check("C1", _counts(*_BOUNDS)),
            Check("C2", _rds_types), Check("C3", _rds_bounds), Check("C4", _rds_strides)],
    result_id="C3", infer=_rds_infer, summary="Deprecated: use dynamic_slice.")

# --- get_dimension_size / set_dimension_size -----------------------------------------------------


def _i32_scalar(b):
    return ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))


def _sds_infer(b):
    """MLIR's rule: the dimension becomes dynamic, bounded by its former (static) size."""
    dims, bnds = T.shape(b.operand), T.bounds(b.operand)
    d = b.dimension
    if dims[d] != T.DYN:
        bnds[d] = dims[d]
    dims[d] = T.DYN
    encoding = T.bounds_attr(bnds) if any(x is not None for x in bnds) else None
    return ir.RankedTensorType.get(dims, T.elem(b.operand), encoding)


def _i32_size(b):
    if str(b.size) != "tensor<i32>":
        return f"size must be a tensor<i32>, got {b.size}"


GET_DIMENSION_SIZE = OpDef(
    "stablehlo.get_dimension_size", [Operand("operand"), Attr("dimension", A.I64)],
    checks=[Check("C1", K.in_range("dimension", "operand"))], result_type="none",
    infer=_i32_scalar)

SET_DIMENSION_SIZE = OpDef(
    "stablehlo.set_dimension_size",
    [Operand("operand"), Operand("size", _INT, rank0=True), Attr("dimension", A.I64)],
    checks=[Check("I2", _i32_size), Check("C1", K.in_range("dimension", "operand"))],
    infer=_sds_infer, summary="Deprecated.")

CHAPTER = "dynamism"
OPS: list[OpDef] = [DYNAMIC_BROADCAST_IN_DIM, DYNAMIC_IOTA, DYNAMIC_PAD, DYNAMIC_RESHAPE,
                    REAL_DYNAMIC_SLICE, GET_DIMENSION_SIZE, SET_DIMENSION_SIZE]
