"""StableHLO contraction and reduction ops: dot_general, reduce (with its `body` region), the
region terminator `return`, and the deprecated dot, einsum and unary_einsum, declared as data
with the spec's constraints (windowed ops: windows.py; convolution: convolution.py).

dot, einsum and unary_einsum are not in the spec; their checks carry these ids:
  dot (C1) lhs and rhs have rank 1 or 2; (C2) lhs's last and rhs's first dimension agree;
  (C3) lhs and rhs have one element type; (C4) precision_config has 2 entries.
  einsum/unary_einsum (C1) einsum_config is `labels,labels->labels` (`labels->labels` for
  unary_einsum) with letters and at most one leading `...`; (C2) each operand has one label
  per dimension; (C3) a label's dimensions agree; (C4) every output label is an input label.
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import checks as K
from . import quant_checks as Q
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


# (C1)-(C10): the dimension-number constraints, shared with chlo.ragged_dot.
DOT_DIMENSION_CHECKS = [
    Check("C1", _same_size("lhs_batching_dimensions", "rhs_batching_dimensions")),
    Check("C2", _same_size("lhs_contracting_dimensions", "rhs_contracting_dimensions")),
    Check("C3", _unique_dims("lhs")), Check("C4", _unique_dims("rhs")),
    Check("C5", _in_range("lhs", "batching")), Check("C6", _in_range("lhs", "contracting")),
    Check("C7", _in_range("rhs", "batching")), Check("C8", _in_range("rhs", "contracting")),
    Check("C9", _same_dims("batching")), Check("C10", _same_dims("contracting")),
]

_DIMS = [Attr(f"{side}_{what}_dimensions", A.I64_ARRAY, default=(), struct=A.DOT_DIMS,
              mlir="dot_dimension_numbers")
         for what in ("batching", "contracting") for side in ("lhs", "rhs")]


def _algo(name: str, kind) -> Attr:
    return Attr(name, kind, default=None, struct=A.DOT_ALGORITHM, mlir="algorithm")

DOT_GENERAL = OpDef(
    "stablehlo.dot_general",
    [Operand("lhs", Q.QUANTIZABLE), Operand("rhs", Q.QUANTIZABLE), *_DIMS,
     Attr("precision_config", A.PRECISION_CONFIG, default=None),
     _algo("lhs_precision_type", A.TYPE), _algo("rhs_precision_type", A.TYPE),
     _algo("accumulation_type", A.TYPE), _algo("lhs_component_count", A.I32),
     _algo("rhs_component_count", A.I32), _algo("num_primitive_operations", A.I32),
     _algo("allow_imprecise_accumulation", A.BOOL)],
    checks=[
        *DOT_DIMENSION_CHECKS,
        Check("C11", K.precision_pair), Check("C13", Q.unquantized_same_element),
        Check("C14", Q.quantized_together), Check("C15", Q.rhs_zero_points),
        Check("C16", Q.rhs_axis_not_contracting), Check("C17", Q.same_storage),
        Check("C18", Q.same_expressed), Check("C19", Q.per_tensor_result),
        Check("C20", Q.hybrid),
        Check("C21", _algorithm_complete), Check("C21", _algorithm_precision),
        Check("C22", _positive("lhs_component_count")),
        Check("C23", _positive("rhs_component_count")),
        Check("C24", _positive("num_primitive_operations")),
        Check("C21", _algorithm_known),
    ],
    result_id="C12", infer=_dot_infer)

# --- reduce --------------------------------------------------------------------------------------


def _reduce_shapes(b):
    s0 = T.shape(b.inputs[0])
    for i, t in enumerate(b.inputs[1:], 1):
        if not T.same_shape(s0, T.shape(t)):
            return (f"inputs must have the same shape, got inputs[0] {b.inputs[0]} and "
                    f"inputs[{i}] {t}")


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
    return None


def _reduce_infer(b):
    s = T.shape(b.inputs[0])
    dims = [n for d, n in enumerate(s) if d not in b.dimensions]
    return [T.with_shape(b.inputs[0], dims, T.elem(v)) for v in b.init_values]


REDUCE = OpDef(
    "stablehlo.reduce",
    [Operand("inputs", variadic=True), Operand("init_values", variadic=True, rank0=True),
     Attr("dimensions", A.I64_ARRAY), Region("body")],
    checks=[Check("C3", K.counts_match("inputs", "init_values")), Check("C1", _reduce_shapes),
            Check("C2", K.pairwise_element_type("inputs", "init_values")),
            Check("C4", _reduce_range),
            Check("C5", _reduce_unique)],
    region_args=lambda b, name: list(b.init_values) * 2,
    region_check=Check("C6", _reduce_body),
    result_id="C7", result_element_id="C8", infer=_reduce_infer)

RETURN = OpDef("stablehlo.return", [Operand("results", classes=None, variadic=True)],
               result_type="none", summary="The terminator of StableHLO regions.")

# --- deprecated: dot, einsum, unary_einsum -------------------------------------------------------


def _dot_ranks(b):
    if T.rank(b.lhs) not in (1, 2) or T.rank(b.rhs) not in (1, 2):
        return f"lhs {b.lhs} and rhs {b.rhs} must have rank 1 or 2"


def _dot_contracting(b):
    k, k2 = T.shape(b.lhs)[-1], T.shape(b.rhs)[0]
    if not T.same_dim(k, k2):
        return (f"lhs contracting dimension {T.rank(b.lhs) - 1} has size {k} but rhs "
                f"contracting dimension 0 has size {k2}")


def _dot_shape_infer(b):
    element = T.elem(b.result_type) if b.result_type is not None else T.elem(b.lhs)
    return T.with_shape(b.lhs, T.shape(b.lhs)[:-1] + T.shape(b.rhs)[1:], element)


DOT = OpDef("stablehlo.dot", [Operand("lhs"), Operand("rhs"),
                              Attr("precision_config", A.PRECISION_CONFIG, default=None)],
            checks=[Check("C1", _dot_ranks), Check("C2", _dot_contracting),
                    Check("C3", Q.unquantized_same_element), Check("C4", K.precision_pair)],
            result_id="C2", infer=_dot_shape_infer, summary="Deprecated: use dot_general.")


def _einsum_terms(b):
    """(input label strings, output label string) of einsum_config."""
    ins, _, out = b.einsum_config.partition("->")
    return [t.strip() for t in ins.split(",")], out.strip()


def _einsum_syntax(n_inputs: int):
    def check(b):
        ins, out = _einsum_terms(b)
        if "->" not in b.einsum_config or len(ins) != n_inputs:
            form = "labels,labels->labels" if n_inputs == 2 else "labels->labels"
            return f"einsum_config {b.einsum_config!r} must have the form {form!r}"
        for term in ins + [out]:
            body = term[3:] if term.startswith("...") else term
            if not body.isalpha() and body:
                return (f"einsum_config {b.einsum_config!r}: {term!r} must be letters after an "
                        f"optional leading '...'")
    return check


def _labels(b):
    """[(operand type, ellipsis dims, {label: size})] per input."""
    ins, _ = _einsum_terms(b)
    types = [b.lhs, b.rhs] if "lhs" in b.types else [b.operand]
    out = []
    for t, term in zip(types, ins):
        body = term[3:] if term.startswith("...") else term
        s = T.shape(t)
        n_ell = len(s) - len(body) if term.startswith("...") else 0
        out.append((t, term, s[:n_ell], list(zip(body, s[n_ell:]))))
    return out


def _einsum_ranks(b):
    for t, term, ell, pairs in _labels(b):
        body = term[3:] if term.startswith("...") else term
        if len(body) > T.rank(t) or (not term.startswith("...") and len(body) != T.rank(t)):
            return f"{term!r} has {len(body)} labels but operand {t} has rank {T.rank(t)}"


def _label_sizes(b) -> dict[str, list[int]]:
    sizes: dict[str, list[int]] = {}
    for _, _, _, pairs in _labels(b):
        for label, n in pairs:
            sizes.setdefault(label, []).append(n)
    return sizes


def _einsum_agree(b):
    for label, ns in _label_sizes(b).items():
        if not all(T.same_dim(ns[0], n) for n in ns[1:]):
            return f"label {label!r} has sizes {ns} that differ"


def _einsum_outputs(b):
    _, out = _einsum_terms(b)
    body = out[3:] if out.startswith("...") else out
    missing = [c for c in body if c not in _label_sizes(b)]
    if missing:
        return f"output label {missing[0]!r} of {b.einsum_config!r} is in no input"


def _einsum_infer(b):
    _, out = _einsum_terms(b)
    sizes = {k: next((n for n in ns if n != T.DYN), T.DYN) for k, ns in _label_sizes(b).items()}
    dims = []
    if out.startswith("..."):
        ells = [ell for _, _, ell, _ in _labels(b)]
        width = max(len(e) for e in ells)
        padded = [[1] * (width - len(e)) + list(e) for e in ells]
        dims = [max(col) if T.DYN not in col else T.DYN for col in zip(*padded)]
        out = out[3:]
    dims += [sizes[c] for c in out]
    element = T.elem(b.result_type) if b.result_type is not None else T.elem(
        b.types.get("lhs", b.types.get("operand")))
    return T.with_shape(b.types.get("lhs", b.types.get("operand")), dims, element)


def _einsum(name: str, operands: list) -> OpDef:
    n = len(operands)
    return OpDef(f"stablehlo.{name}", [*operands, Attr("einsum_config", A.STRING)],
                 checks=[Check("C1", _einsum_syntax(n)), Check("C2", _einsum_ranks),
                         Check("C3", _einsum_agree), Check("C4", _einsum_outputs)]
                 + ([Check("C3", Q.unquantized_same_element)] if n == 2 else []),
                 result_id="C4", infer=_einsum_infer, summary="Deprecated: use dot_general.")


CHAPTER = "reduction"
OPS: list[OpDef] = [DOT_GENERAL, REDUCE, RETURN, DOT,
                    _einsum("einsum", [Operand("lhs"), Operand("rhs")]),
                    _einsum("unary_einsum", [Operand("operand")])]
