"""CHLO ops beyond the elementwise families: constant, constant_like, broadcast_select, top_k,
ragged_dot and scan (with its `body` region), declared as data.

CHLO has no spec; the checks carry these ids (mirroring the verifiers in ChloOps.cpp):
  constant (C1) type(value) = type(output), as stablehlo.constant.
  constant_like (C1) value converts to the element type (operand's, or the attribute's own).
  broadcast_select (C1) element_type(on_true) = element_type(on_false); (C2) pred, on_true and
    on_false broadcast (numpy rules).
  top_k (C1) rank(operand) >= 1; (C2) 0 <= k <= the operand's last dimension.
  ragged_dot (C1)-(C10) as stablehlo.dot_general's; (C11) exactly one lhs ragged dimension;
    (C12) it is in range; (C13) group_sizes has shape [g] or [b..., x..., g] (ChloOps.cpp);
    (C14) rhs_group_dimensions are in range; (C15) and are not batching or contracting
    dimensions; (C16) one of them when the ragged dimension is non-contracting, none otherwise;
    (C17) the rhs group dimension has g entries; (C18) precision_config has 2 entries;
    (C19) element_type(lhs) = element_type(rhs).
  scan (C1) 0 <= dimension < rank(inputs...); (C2) the inputs agree in that dimension;
    (C3) the body returns the per-position outputs then one carry per init, of the inits'
    types; (C4) results: each output with the scanned dimension put back, then the carries.
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import checks as K
from . import types as T
from .chlo_ops import broadcast_dim
from .data_movement import constant_value
from .errors import ArgumentError
from .opdef import REQUIRED, Attr, Check, OpDef, Operand, Region
from .reduction import DOT_DIMENSION_CHECKS

# --- constant / constant_like --------------------------------------------------------------------

CONSTANT = OpDef("chlo.constant", [Attr("value", A.ELEMENTS, positional=True)],
                 checks=[Check("C1", constant_value)], infer=lambda b: b.value.type,
                 encode=lambda b: {"value": b.value})


def _typed_value(b):
    """(C1) make `value` an attribute of the result element type."""
    v = b.value
    if isinstance(v, ir.Attribute):
        if not hasattr(v.maybe_downcast(), "type"):
            return f"value {v} must be a typed attribute"
        if T.kind(v.maybe_downcast().type) not in T.ANY:
            return f"value {v} has type {v.maybe_downcast().type}, which CHLO does not allow"
        return None
    et = T.elem(b.operand)
    try:
        dense = T.dense_attr(v, T.with_shape(b.operand, []))
    except ArgumentError as e:
        return f"value: {e}"
    if T.kind(et) == T.COMPLEX:
        c = complex(v)
        inner = T.complex_element_type(et)
        b.attrs["value"] = ir.Attribute.parse(
            f"#complex.number<:{inner} {c.real!r}, {c.imag!r}> : {et}")
    else:
        b.attrs["value"] = dense.get_splat_value()


def _value_type(b) -> ir.Type:
    return b.value.maybe_downcast().type


CONSTANT_LIKE = OpDef(
    "chlo.constant_like", [Operand("operand"), Attr("value", A.SCALAR)],
    checks=[Check("C1", _typed_value)],
    infer=lambda b: T.with_shape(b.operand, T.shape(b.operand), _value_type(b)))

# --- broadcast_select ----------------------------------------------------------------------------


def _select_shape(b) -> list[int] | None:
    shapes = [T.shape(t) for t in (b.pred, b.on_true, b.on_false)]
    n = max(len(s) for s in shapes)
    out = [1] * n
    for s in shapes:
        for i, d in enumerate([1] * (n - len(s)) + s):
            dim = broadcast_dim(out[i], d)
            if dim is None:
                return None
            out[i] = dim
    return out


def _select_broadcasts(b):
    if _select_shape(b) is None:
        return f"shapes do not broadcast: {b.pred}, {b.on_true} and {b.on_false}"


BROADCAST_SELECT = OpDef(
    "chlo.broadcast_select",
    [Operand("pred", frozenset({T.BOOL})), Operand("on_true"), Operand("on_false")],
    checks=[Check("C1", K.same_element_type("on_true", "on_false")),
            Check("C2", _select_broadcasts)],
    result_id="C2",
    infer=lambda b: T.with_shape(b.on_true, _select_shape(b)))  # type: ignore[arg-type]  # C2

# --- top_k -------------------------------------------------------------------------------------


def _top_k_rank(b):
    if T.rank(b.operand) < 1:
        return f"operand {b.operand} must have rank >= 1"


def _top_k_k(b):
    last = T.shape(b.operand)[-1]
    if b.k < 0 or (last != T.DYN and last < b.k):
        return f"k {b.k} must be in [0, {last}] (the last dimension of operand {b.operand})"


def _top_k_infer(b):
    dims = T.shape(b.operand)[:-1] + [b.k]
    i32 = ir.IntegerType.get_signless(32)
    return [T.with_shape(b.operand, dims), T.with_shape(b.operand, dims, i32)]


TOP_K = OpDef("chlo.top_k", [Operand("operand"), Attr("k", A.I64)],
              checks=[Check("C1", _top_k_rank), Check("C2", _top_k_k)],
              result_id="C2", infer=_top_k_infer)

# --- ragged_dot ----------------------------------------------------------------------------------


def _mode(b) -> str:
    r = b.lhs_ragged_dimensions[0]
    if r in b.lhs_batching_dimensions:
        return "batch"
    return "contracting" if r in b.lhs_contracting_dimensions else "non-contracting"


def _one_ragged(b):
    if len(b.lhs_ragged_dimensions) != 1:
        return (f"lhs_ragged_dimensions {list(b.lhs_ragged_dimensions)} must have exactly one "
                f"entry")


def _group_prefix(b) -> list[int]:
    """The lhs dims before the ragged one that group_sizes spans: [b..., x...]."""
    r, lb, lc = b.lhs_ragged_dimensions[0], b.lhs_batching_dimensions, b.lhs_contracting_dimensions
    mode = _mode(b)
    if mode == "batch":
        return list(lb[:lb.index(r)])
    if mode == "contracting":
        return list(lb) + list(lc[:lc.index(r)])
    return list(lb) + [d for d in range(r) if d not in lb and d not in lc]


def _group_sizes_shape(b):
    gs = T.shape(b.group_sizes)
    if len(gs) == 1:
        return None
    want = [T.shape(b.lhs)[d] for d in _group_prefix(b)]
    if len(gs) != len(want) + 1 or not T.same_shape(gs[:-1], want):
        return (f"group_sizes {b.group_sizes} must have shape [g] or "
                f"{T.fmt_shape(want + [gs[-1]])}")


def _group_dims_distinct(b):
    for other in ("rhs_batching_dimensions", "rhs_contracting_dimensions"):
        both = set(b.rhs_group_dimensions) & set(b.attrs[other])
        if both:
            return f"rhs_group_dimensions and {other} share dimension {min(both)}"


def _group_dims_count(b):
    want = 1 if _mode(b) == "non-contracting" else 0
    if len(b.rhs_group_dimensions) != want:
        return (f"rhs_group_dimensions {list(b.rhs_group_dimensions)} must have {want} entries "
                f"when the ragged dimension is {_mode(b)}")


def _group_count(b):
    if not b.rhs_group_dimensions:
        return None
    g, d = T.shape(b.group_sizes)[-1], b.rhs_group_dimensions[0]
    if not T.same_dim(g, T.shape(b.rhs)[d]):
        return (f"rhs group dimension {d} has size {T.shape(b.rhs)[d]} but group_sizes has "
                f"{g} groups")


def _ragged_infer(b):
    ls, rs = T.shape(b.lhs), T.shape(b.rhs)
    lb, lc = b.lhs_batching_dimensions, b.lhs_contracting_dimensions
    rb, rc, rg = b.rhs_batching_dimensions, b.rhs_contracting_dimensions, b.rhs_group_dimensions
    dims = [T.shape(b.group_sizes)[-1]] if _mode(b) == "contracting" else []
    dims += [ls[d] for d in lb]
    dims += [n for d, n in enumerate(ls) if d not in lb and d not in lc]
    dims += [n for d, n in enumerate(rs) if d not in rb and d not in rc and d not in rg]
    element = T.elem(b.result_type) if b.result_type is not None else T.elem(b.lhs)
    return T.with_shape(b.lhs, dims, element)


_RAGGED = [Attr(f"{s}_{w}_dimensions", A.I64_ARRAY, default=REQUIRED if w == "ragged" else (),
                struct=A.RAGGED_DOT_DIMS, mlir="ragged_dot_dimension_numbers")
           for s, w in (("lhs", "batching"), ("rhs", "batching"), ("lhs", "contracting"),
                        ("rhs", "contracting"), ("lhs", "ragged"), ("rhs", "group"))]

RAGGED_DOT = OpDef(
    "chlo.ragged_dot",
    [Operand("lhs"), Operand("rhs"), Operand("group_sizes", T.INT), *_RAGGED,
     Attr("precision_config", A.CHLO_PRECISION_CONFIG, default=None)],
    checks=[*DOT_DIMENSION_CHECKS, Check("C18", K.precision_pair),
            Check("C19", K.same_element_type("lhs", "rhs")),
            Check("C11", _one_ragged),
            Check("C12", K.in_range("lhs_ragged_dimensions", "lhs")),
            Check("C14", K.in_range("rhs_group_dimensions", "rhs")),
            Check("C15", _group_dims_distinct), Check("C16", _group_dims_count),
            Check("C13", _group_sizes_shape), Check("C17", _group_count)],
    result_id="C10", infer=_ragged_infer)

# --- scan --------------------------------------------------------------------------------------


def _scan_dimension(b):
    for i, t in enumerate(b.inputs):
        if not 0 <= b.dimension < T.rank(t):
            return f"dimension {b.dimension} is out of range for inputs[{i}] {t}"


def _scan_lengths(b):
    sizes = [T.shape(t)[b.dimension] for t in b.inputs]
    known = {n for n in sizes if n != T.DYN}
    if len(known) > 1:
        return f"inputs have different sizes {sizes} in dimension {b.dimension}"


def _scan_args(b, name):
    slices = [T.with_shape(t, [n for d, n in enumerate(T.shape(t)) if d != b.dimension])
              for t in b.inputs]
    return slices + list(b.inits)


def _scan_body(b, types):
    n = len(b.inits)
    carries = [str(t) for t in types[len(types) - n:]] if n else []
    if len(types) < n or carries != [str(t) for t in b.inits]:
        return (f"body must return the outputs, then carries of types "
                f"({', '.join(map(str, b.inits))}); got ({', '.join(map(str, types))})")


def _scan_length(b) -> int:
    sizes = [T.shape(t)[b.dimension] for t in b.inputs]
    return next((n for n in sizes if n != T.DYN), T.DYN)


def _scan_infer(b):
    yielded = b.yielded["body"]
    outputs = yielded[:len(yielded) - len(b.inits)]
    out = []
    for t in outputs:
        dims = T.shape(t)
        dims.insert(b.dimension, _scan_length(b))
        out.append(T.with_shape(t, dims))
    return out + list(b.inits)


def _scan_encode(b) -> dict:
    """dimension, and the segment sizes of the two variadic operands and results (the output
    count is known once the body is built; the provisional op gets 0)."""
    n_out = max(len(b.yielded["body"]) - len(b.inits), 0) if "body" in b.yielded else 0
    return {"dimension": A.I64.encode(b.dimension),
            "operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(b.inputs), len(b.inits)]),
            "resultSegmentSizes": ir.DenseI32ArrayAttr.get([n_out, len(b.inits)])}


SCAN = OpDef(
    "chlo.scan",
    [Operand("inputs", variadic=True), Operand("inits", variadic=True),
     Attr("dimension", A.I64), Region("body", check=Check("C3", _scan_body))],
    checks=[Check("C1", _scan_dimension), Check("C2", _scan_lengths)],
    region_args=_scan_args, infer_from_regions=True, result_id="C4", infer=_scan_infer,
    encode=_scan_encode)

OPS: list[OpDef] = [CONSTANT, CONSTANT_LIKE, BROADCAST_SELECT, TOP_K, RAGGED_DOT, SCAN]
