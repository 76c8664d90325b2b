"""The StableHLO reference interpreter as a test oracle: run one function of a module's text
on numpy arguments (the module crosses into jaxlib's MLIR as text, arguments as dense
attributes made there, results come back as numpy copies)."""
from __future__ import annotations

import itertools
import re

import numpy as np

from shlo.tools.conformance_reference import jaxlib_context


def evaluate(function_text: str, args) -> list[np.ndarray]:
    """Results of the single function in `function_text` (renamed `main`) on `args`."""
    jir, stablehlo, ctx = jaxlib_context()
    text = re.sub(r"func\.func (public |private )?@[\w$.]+\(", "func.func @main(", function_text,
                  count=1)
    with ctx, jir.Location.unknown():
        module = jir.Module.parse(text)
        attrs = [_attribute(jir, np.asarray(a)) for a in args]
        return [np.array(r, copy=True) for r in stablehlo.eval_module(module, attrs)]


def _attribute(jir, a: np.ndarray):
    """A dense attribute of `a`; 8-bit floats (ml_dtypes) from their bytes. (Results of
    those types do not come back: convert them to f32 inside the function.)"""
    from shlo.runtime.standalone_loader import _ELEMENT_NAMES
    name = _ELEMENT_NAMES.get(a.dtype, "")
    if name.startswith("f8"):
        return jir.DenseElementsAttr.get(np.ascontiguousarray(a).view(np.uint8).reshape(-1),
                                         type=jir.RankedTensorType.get(list(a.shape),
                                                                       jir.Type.parse(name)))
    # (np.ascontiguousarray makes a 0-d array 1-d: the shape is the caller's)
    return jir.DenseElementsAttr.get(np.ascontiguousarray(a), shape=list(a.shape),
                                     signless=a.dtype.kind != "u")


def integers_to_bf16(x) -> np.ndarray:
    """Integers rounded to bf16's 8 significant bits, to nearest even, in exact integer
    arithmetic (an oracle that never rounds through a wider float first)."""
    import ml_dtypes

    def one(v: int) -> float:
        n = abs(v)
        shift = max(n.bit_length() - 8, 0)
        q, r = divmod(n, 1 << shift)
        if shift and (r > 1 << (shift - 1) or r == 1 << (shift - 1) and q & 1):
            q += 1
        return float(q << shift) * (-1 if v < 0 else 1)
    return np.array([one(int(v)) for v in np.ravel(x)]).astype(ml_dtypes.bfloat16)


def function_name(function_text: str) -> str:
    return function_text.split("@", 1)[1].split("(", 1)[0]


def compile_functions(ctx, cases, target: str, **options):
    """One executable of all the (function text, args) `cases`, through shlo's default pipeline
    (`options` go to shlo.compile)."""
    import shlo
    text = "\n".join(function_text for function_text, _ in cases)
    return shlo.compile(shlo.parse_module(text, context=ctx), target=target, **options)


def assert_matches_reference(exe, case) -> None:
    """The compiled function of `case` returns what the interpreter returns, exactly."""
    function_text, args = case
    got = exe.function(function_name(function_text))(*args)
    got = got if isinstance(got, (list, tuple)) else [got]
    for g, want in zip(got, evaluate(function_text, args)):
        np.testing.assert_array_equal(np.asarray(g), want, err_msg=function_text)


def check_all(ctx, cases, target: str, **options) -> None:
    """Compile `cases` as one module for `target`; every function matches the interpreter."""
    exe = compile_functions(ctx, cases, target, **options)
    for case in cases:
        assert_matches_reference(exe, case)


def reduce_window_oracle(xs, inits, fn, window, strides, padding, base_dilation=None,
                         window_dilation=None):
    """Generic ReduceWindow on numpy arrays: dilate, pad with the init values, then reduce."""
    rank = xs[0].ndim
    base_dilation = base_dilation or [1] * rank
    window_dilation = window_dilation or [1] * rank
    padded = []
    for x, init in zip(xs, inits):
        dilated_shape = [(n - 1) * d + 1 for n, d in zip(x.shape, base_dilation)]
        shape = [n + lo + hi for n, (lo, hi) in zip(dilated_shape, padding)]
        p = np.full(shape, init, x.dtype)
        index = tuple(slice(lo, lo + n, d) for (lo, _), n, d in
                      zip(padding, dilated_shape, base_dilation))
        p[index] = x
        padded.append(p)
    extent = [(w - 1) * d + 1 for w, d in zip(window, window_dilation)]
    out_shape = [(n - e) // s + 1 for n, e, s in zip(padded[0].shape, extent, strides)]
    outs = [np.empty(out_shape, x.dtype) for x in xs]
    for o in itertools.product(*map(range, out_shape)):
        acc = list(inits)
        for k in itertools.product(*map(range, window)):
            at = tuple(oi * s + ki * d for oi, s, ki, d in zip(o, strides, k, window_dilation))
            acc = fn(*acc, *[p[at] for p in padded])
            acc = list(acc) if isinstance(acc, tuple) else [acc]
        for out, a in zip(outs, acc):
            out[o] = a
    return outs if len(outs) > 1 else outs[0]
