"""StableHLO windowed reductions: reduce_window and select_and_scatter (with their `body`,
`select` and `scatter` regions), and `num_windows`, the window-count rule that convolution
shares, declared as data with the spec's constraints."""
from __future__ import annotations

from . import attributes as A
from . import checks as K
from . import types as T
from .opdef import Attr, Check, OpDef, Operand, Region


def num_windows(size: int, window: int, stride: int = 1, base_dilation: int = 1,
                window_dilation: int = 1, pad_low: int = 0, pad_high: int = 0) -> int:
    """The spec's num_windows for one dimension (DYN when `size` is dynamic)."""
    if size == T.DYN:
        return T.DYN
    dilated = 0 if size == 0 else (size - 1) * base_dilation + 1
    padded = pad_low + dilated + pad_high
    dilated_window = 0 if window == 0 else (window - 1) * window_dilation + 1
    if padded <= 0 or dilated_window > padded:
        return 0
    return (padded - dilated_window) // stride + 1


def _ones(b, name: str, rank: int) -> list[int]:
    v = b.attrs[name]
    return [1] * rank if v is None else list(v)


def _padding(b, rank: int) -> list[list[int]]:
    v = b.attrs["padding"]
    return [[0, 0]] * rank if v is None else v.tolist()


# --- reduce_window ---------------------------------------------------------------------------


def _rw_body(b, types):
    """(C13) body: (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...)."""
    want = [str(t) for t in b.init_values]
    got = [str(t) for t in types]
    if got != want:
        return f"body must return ({', '.join(want)}), got ({', '.join(got)})"


def _rw_infer(b):
    r = T.rank(b.inputs[0])
    strides, bd = _ones(b, "window_strides", r), _ones(b, "base_dilations", r)
    wd, pad = _ones(b, "window_dilations", r), _padding(b, r)
    dims = [num_windows(n, w, s, x, y, lo, hi) for n, w, s, x, y, (lo, hi) in zip(
        T.shape(b.inputs[0]), b.window_dimensions, strides, bd, wd, pad)]
    return [T.with_shape(b.inputs[0], dims, T.elem(v)) for v in b.init_values]


def _rank_by_2(operand: str):
    return K.matrix_shape("padding", lambda b: [K.rank_of(b, operand), 2])


REDUCE_WINDOW = OpDef(
    "stablehlo.reduce_window",
    [Operand("inputs", variadic=True), Operand("init_values", variadic=True, rank0=True),
     Attr("window_dimensions", A.I64_ARRAY),
     Attr("window_strides", A.I64_ARRAY, default=None),
     Attr("base_dilations", A.I64_ARRAY, default=None),
     Attr("window_dilations", A.I64_ARRAY, default=None),
     Attr("padding", A.I64_MATRIX, default=None), Region("body", check=Check("C13", _rw_body))],
    checks=[Check("C1", K.counts_match("inputs", "init_values")),
            Check("C2", K.same_shape("inputs")),
            Check("C3", K.pairwise_element_type("inputs", "init_values")),
            Check("C4", K.size_is_rank("window_dimensions", "inputs")),
            Check("C5", K.positive("window_dimensions")),
            Check("C6", K.size_is_rank("window_strides", "inputs")),
            Check("C7", K.positive("window_strides")),
            Check("C8", K.size_is_rank("base_dilations", "inputs")),
            Check("C9", K.positive("base_dilations")),
            Check("C10", K.size_is_rank("window_dilations", "inputs")),
            Check("C11", K.positive("window_dilations")),
            Check("C12", _rank_by_2("inputs"))],
    region_args=lambda b, name: list(b.init_values) * 2,
    result_id="C15", result_element_id="C16", infer=_rw_infer)

# --- select_and_scatter ------------------------------------------------------------------------


def _ss_source_shape(b):
    r = T.rank(b.operand)
    strides, pad = _ones(b, "window_strides", r), _padding(b, r)
    want = [num_windows(n, w, s, 1, 1, lo, hi) for n, w, s, (lo, hi) in zip(
        T.shape(b.operand), b.window_dimensions, strides, pad)]
    if not T.same_shape(T.shape(b.source), want):
        return (f"source {b.source} must have the window count shape {T.fmt_shape(want)} of "
                f"operand {b.operand}")


def _scalar_of(b):
    return T.with_shape(b.operand, [], T.elem(b.operand))


def _ss_select(b, types):
    """(C9) select: (tensor<E>, tensor<E>) -> tensor<i1>."""
    if [str(t) for t in types] != ["tensor<i1>"]:
        return f"select must return (tensor<i1>), got ({', '.join(map(str, types))})"


def _ss_scatter(b, types):
    """(C10) scatter: (tensor<E>, tensor<E>) -> tensor<E>."""
    want = str(_scalar_of(b))
    if [str(t) for t in types] != [want]:
        return f"scatter must return ({want}), got ({', '.join(map(str, types))})"


SELECT_AND_SCATTER = OpDef(
    "stablehlo.select_and_scatter",
    [Operand("operand"), Operand("source"), Operand("init_value", rank0=True),
     Attr("window_dimensions", A.I64_ARRAY),
     Attr("window_strides", A.I64_ARRAY, default=None),
     Attr("padding", A.I64_MATRIX, default=None),
     Region("select", check=Check("C9", _ss_select)),
     Region("scatter", check=Check("C10", _ss_scatter))],
    checks=[Check("C1", K.same_element_type("operand", "source")),
            Check("C3", K.same_element_type("operand", "init_value")),
            Check("C4", K.size_is_rank("window_dimensions", "operand")),
            Check("C5", K.positive("window_dimensions")),
            Check("C6", K.size_is_rank("window_strides", "operand")),
            Check("C7", K.positive("window_strides")),
            Check("C8", _rank_by_2("operand")),
            Check("C2", _ss_source_shape)],
    region_args=lambda b, name: [_scalar_of(b)] * 2,
    result_id="C11", result_element_id="C12", infer=lambda b: b.operand)

CHAPTER = "reduction"
OPS: list[OpDef] = [REDUCE_WINDOW, SELECT_AND_SCATTER]
