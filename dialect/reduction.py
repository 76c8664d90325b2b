"""StableHLO contraction and reduction ops: dot_general, reduce (with its `body` region) and
the region terminator `return`, declared as data with the spec's constraints."""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import types as T
from .opdef import Attr, Check, OpDef, Operand, Region

# --- dot_general -------------------------------------------------------------------------------

_ALGORITHM = ("lhs_precision_type", "rhs_precision_type", "accumulation_type",
              "lhs_component_count", "rhs_component_count", "num_primitive_operations",
              "allow_imprecise_accumulation")


def _same_size(x: str, y: str):
    def check(b):
        if len(b.attrs[x]) != len(b.attrs[y]):
            return f"{x} {list(b.attrs[x])} and {y} {list(b.attrs[y])} must have the same size"
    return check


def _unique_dims(side: str):
    def check(b):
        dims = list(b.attrs[f"{side}_batching_dimensions"]) + list(
            b.attrs[f"{side}_contracting_dimensions"])
        dup = [d for d in dims if dims.count(d) > 1]
        if dup:
            return (f"{side} dimension {dup[0]} appears more than once in "
                    f"{side}_batching_dimensions + {side}_contracting_dimensions")
    return check


def _in_range(side: str, what: str):
    def check(b):
        t = b.types[side]
        name = f"{side}_{what}_dimensions"
        bad = [d for d in b.attrs[name] if not 0 <= d < T.rank(t)]
        if bad:
            return f"{name} {list(b.attrs[name])} has {bad[0]} out of range for {side} {t}"
    return check


def _same_dims(what: str):
    def check(b):
        ls, rs = T.shape(b.lhs), T.shape(b.rhs)
        for ld, rd in zip(b.attrs[f"lhs_{what}_dimensions"], b.attrs[f"rhs_{what}_dimensions"]):
            if not T.same_dim(ls[ld], rs[rd]):
                return (f"lhs {what} dimension {ld} has size {ls[ld]} but rhs {what} dimension "
                        f"{rd} has size {rs[rd]}")
    return check


def _precision_size(b):
    if b.precision_config is not None and len(b.precision_config) != 2:
        return f"precision_config must have 2 entries, got {list(b.precision_config)}"


def _dot_elements(b):
    if T.elem(b.lhs) != T.elem(b.rhs):
        return f"lhs and rhs must have the same element type, got {b.lhs} and {b.rhs}"


def _algorithm_complete(b):
    given = [n for n in _ALGORITHM if b.attrs[n] is not None]
    if given and len(given) != len(_ALGORITHM):
        missing = [n for n in _ALGORITHM if b.attrs[n] is None]
        return f"a dot algorithm needs all of {', '.join(_ALGORITHM)}; missing {missing[0]}"


def _has_algorithm(b) -> bool:
    return b.lhs_precision_type is not None


def _algorithm_precision(b):
    if _has_algorithm(b) and b.precision_config and set(b.precision_config) != {"DEFAULT"}:
        return (f"precision_config must be DEFAULT when an algorithm is given, got "
                f"{list(b.precision_config)}")


def _algorithm_attr(b):
    vals = [f"{n} = {str(b.attrs[n]).lower()}" for n in _ALGORITHM]
    return ir.Attribute.parse(f"#stablehlo.dot_algorithm<{', '.join(vals)}>")


def _algorithm_known(b):
    """StableHLO accepts only algorithms known to run somewhere (spec: error, no fallback)."""
    if _has_algorithm(b) and all(b.attrs[n] is None or b.attrs[n] > 0 for n in _ALGORITHM[3:6]):
        try:
            _algorithm_attr(b)
        except ir.MLIRError as e:
            notes = "; ".join(d.message for d in e.error_diagnostics) or str(e)
            return f"algorithm rejected: {notes}"


def _positive(name: str):
    def check(b):
        if b.attrs[name] is not None and b.attrs[name] <= 0:
            return f"{name} must be > 0, got {b.attrs[name]}"
    return check


def _dot_shape(b) -> list[int]:
    """(C12) batching dims, then lhs's free dims, then rhs's free dims."""
    ls, rs = T.shape(b.lhs), T.shape(b.rhs)
    lfree = [d for d in range(len(ls)) if d not in b.lhs_batching_dimensions
             and d not in b.lhs_contracting_dimensions]
    rfree = [d for d in range(len(rs)) if d not in b.rhs_batching_dimensions
             and d not in b.rhs_contracting_dimensions]
    batch = [ls[d] if ls[d] != T.DYN else rs[e]
             for d, e in zip(b.lhs_batching_dimensions, b.rhs_batching_dimensions)]
    return batch + [ls[d] for d in lfree] + [rs[d] for d in rfree]


def _dot_infer(b):
    """The result element type is lhs's unless result_type names another (the spec fixes only
    the shape of a non-quantized result)."""
    element = T.elem(b.result_type) if b.result_type is not None else T.elem(b.lhs)
    return T.with_shape(b.lhs, _dot_shape(b), element)


def _dot_encode(b) -> dict:
    fields = [f"{n} = [{', '.join(map(str, b.attrs[n]))}]" for n in (
        "lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
        "rhs_contracting_dimensions") if b.attrs[n]]
    out = {"dot_dimension_numbers": ir.Attribute.parse(f"#stablehlo.dot<{', '.join(fields)}>")}
    if b.precision_config is not None:
        out["precision_config"] = A.PRECISION_CONFIG.encode(b.precision_config)
    if _has_algorithm(b):
        out["algorithm"] = _algorithm_attr(b)
    return out


_DIMS = [Attr(f"{side}_{what}_dimensions", A.I64_ARRAY, default=())
         for what in ("batching", "contracting") for side in ("lhs", "rhs")]

DOT_GENERAL = OpDef(
    "stablehlo.dot_general",
    [Operand("lhs"), Operand("rhs"), *_DIMS,
     Attr("precision_config", A.PRECISION_CONFIG, default=None),
     Attr("lhs_precision_type", A.TYPE, default=None),
     Attr("rhs_precision_type", A.TYPE, default=None),
     Attr("accumulation_type", A.TYPE, default=None),
     Attr("lhs_component_count", A.I32, default=None),
     Attr("rhs_component_count", A.I32, default=None),
     Attr("num_primitive_operations", A.I32, default=None),
     Attr("allow_imprecise_accumulation", A.BOOL, default=None)],
    checks=[
        Check("C1", _same_size("lhs_batching_dimensions", "rhs_batching_dimensions")),
        Check("C2", _same_size("lhs_contracting_dimensions", "rhs_contracting_dimensions")),
        Check("C3", _unique_dims("lhs")), Check("C4", _unique_dims("rhs")),
        Check("C5", _in_range("lhs", "batching")), Check("C6", _in_range("lhs", "contracting")),
        Check("C7", _in_range("rhs", "batching")), Check("C8", _in_range("rhs", "contracting")),
        Check("C9", _same_dims("batching")), Check("C10", _same_dims("contracting")),
        Check("C11", _precision_size), Check("C13", _dot_elements),
        Check("C21", _algorithm_complete), Check("C21", _algorithm_precision),
        Check("C22", _positive("lhs_component_count")),
        Check("C23", _positive("rhs_component_count")),
        Check("C24", _positive("num_primitive_operations")),
        Check("C21", _algorithm_known),
    ],
    result_id="C12", infer=_dot_infer, encode=_dot_encode)

# --- reduce --------------------------------------------------------------------------------------


def _reduce_counts(b):
    if not b.inputs or len(b.inputs) != len(b.init_values):
        return (f"need as many init_values as inputs, and at least one; got {len(b.inputs)} "
                f"inputs and {len(b.init_values)} init_values")


def _reduce_shapes(b):
    s0 = T.shape(b.inputs[0])
    for i, t in enumerate(b.inputs[1:], 1):
        if not T.same_shape(s0, T.shape(t)):
            return (f"inputs must have the same shape, got inputs[0] {b.inputs[0]} and "
                    f"inputs[{i}] {t}")


def _reduce_elements(b):
    for i, (t, v) in enumerate(zip(b.inputs, b.init_values)):
        if T.elem(t) != T.elem(v):
            return f"init_values[{i}] {v} must have the element type of inputs[{i}] {t}"


def _reduce_range(b):
    r = T.rank(b.inputs[0])
    bad = [d for d in b.dimensions if not 0 <= d < r]
    if bad:
        return (f"dimensions {list(b.dimensions)} has {bad[0]} out of range for rank-{r} "
                f"inputs[0] {b.inputs[0]}")


def _reduce_unique(b):
    dims = list(b.dimensions)
    dup = [d for d in dims if dims.count(d) > 1]
    if dup:
        return f"dimensions {dims} repeats dimension {dup[0]}"


def _reduce_body(b, yielded) -> str | None:
    """(C6) body: (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...)."""
    want = [str(t) for t in b.init_values]
    got = [str(t) for t in yielded]
    if got != want:
        return f"body must return ({', '.join(want)}), got ({', '.join(got)})"


def _reduce_infer(b):
    s = T.shape(b.inputs[0])
    dims = [n for d, n in enumerate(s) if d not in b.dimensions]
    return [T.with_shape(b.inputs[0], dims, T.elem(v)) for v in b.init_values]


REDUCE = OpDef(
    "stablehlo.reduce",
    [Operand("inputs", variadic=True), Operand("init_values", variadic=True, rank0=True),
     Attr("dimensions", A.I64_ARRAY), Region("body")],
    checks=[Check("C3", _reduce_counts), Check("C1", _reduce_shapes),
            Check("C2", _reduce_elements), Check("C4", _reduce_range),
            Check("C5", _reduce_unique)],
    region_args=lambda b, name: list(b.init_values) * 2,
    region_check=Check("C6", _reduce_body),
    result_id="C7", result_element_id="C8", infer=_reduce_infer)

RETURN = OpDef("stablehlo.return", [Operand("results", classes=None, variadic=True)],
               result_type="none", summary="The terminator of StableHLO regions.")

OPS: list[OpDef] = [DOT_GENERAL, REDUCE, RETURN]
