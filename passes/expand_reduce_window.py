"""shlo-expand-reduce-window: make a reduce_window's padding and base dilation explicit, so IREE
sees only a plain sliding window over exactly the elements it reads.

The spec defines reduce_window on `pad(inputs, init_values, padding_low, padding_high,
base_dilations - 1)`: edge padding and the holes of base dilation hold the init value. IREE
3.13 lowers the padding itself, and fails where it should not: padding of unsigned integers
(`unresolved target materialization from ('ui32') to ('i32')`, every unsigned cumsum,
cumprod, cummin, cummax), and windows whose strides leave the padded input's tail unread
(`'linalg.generic' op inferred input/output operand #1 has shape's dimension #0 to be 3,
but found 2`). The rewrite pads each input with its init value (stablehlo.pad with interior
padding for base dilation; negative padding slices), slices off the tail no window reaches,
and keeps window dimensions, strides and window dilations. A reduce_window without base
dilation or unread tail is left alone when it has no padding or its padding is of a signed or
float type (IREE's own lowering of that padding is right, and far faster on cumulative ops),
and so is one with dynamic shapes. IREE's compiler crashes (a segmentation fault) on complex
padding unless the window is a scan (a whole dimension, padded by its size - 1: cumsum), and
on Vulkan on complex scans too: a complex sum becomes the sums of its real and imaginary
parts, and any other complex padding but a scan's is made explicit (shlo-expand-complex-pad
pads the parts).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..dialect import stablehlo
from ..dialect.rebuild import arguments
from ..dialect.windows import num_windows
from .chlo_expr import Num, complex_, element_of, imag, is_complex, real
from .index_vectors import is_static, shape_of
from .op_rules import RulesPass


def _sums_parts(op: ir.Operation) -> bool:
    """Whether `op` reduces one complex input by addition (its parts then sum apart)."""
    block = op.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    return len(op.operands) == 2 and is_complex(element_of(op.operands[0])) and \
        [o.name for o in ops] == ["stablehlo.add", "stablehlo.return"] and \
        list(ops[0].operands) == list(block.arguments)


def _reduce_window(op: ir.Operation):
    (inputs, inits), kw = arguments(op)
    if _sums_parts(op):         # (a complex sum: IREE crashes on some complex scans, Vulkan)
        kw.pop("result_type", None)
        x, init = Num(inputs[0]), Num(inits[0])
        parts = [Num(stablehlo.reduce_window([part(x).value], [part(init).value],
                                             **{**kw, "body": lambda a, b: stablehlo.add(a, b)}))
                 for part in (real, imag)]
        return [complex_(*parts).value]
    if not is_static(*inputs):
        return None
    complex_padding = any(is_complex(element_of(x)) for x in inputs)
    shape = shape_of(inputs[0])
    rank = len(shape)
    window = list(kw["window_dimensions"])
    strides = list(kw.get("window_strides") or [1] * rank)
    base = list(kw.get("base_dilations") or [1] * rank)
    dilation = list(kw.get("window_dilations") or [1] * rank)
    padding = kw.get("padding")
    padding = [[0, 0]] * rank if padding is None else [list(map(int, p)) for p in padding]
    counts = [num_windows(*args) for args in zip(shape, window, strides, base, dilation,
                                                  [p[0] for p in padding],
                                                  [p[1] for p in padding])]
    padded = [lo + ((n - 1) * b + 1 if n else 0) + hi
              for n, b, (lo, hi) in zip(shape, base, padding)]
    # the elements the windows read: up to the end of the last window
    used = [(c - 1) * s + (w - 1) * d + 1 if c else 0
            for c, s, w, d in zip(counts, strides, window, dilation)]
    unsigned = any(isinstance(t, ir.IntegerType) and t.is_unsigned
                   for t in (element_of(x).maybe_downcast() for x in inputs))
    scan = all((w == 1 and p == [0, 0]) or (w == n and s == 1 and sorted(p) == [0, n - 1])
               for w, n, s, p in zip(window, shape, strides, padding))
    padded_only = any(p != [0, 0] for p in padding) and not unsigned and (
        scan or not complex_padding)
    if base == [1] * rank and used == padded and (padded_only or padded == shape):
        # nothing IREE gets wrong: keep its own lowering of the padding (it turns a padded
        # window over a whole dimension, a cumulative sum, into a scan; spelt out here it
        # would be a quadratic sliding window: 1M elements took 177 s instead of 6 ms)
        return None
    if 0 in counts:
        return None                     # an empty result: nothing for IREE to get wrong
    high = [hi - (p - u) for (lo, hi), p, u in zip(padding, padded, used)]
    low = [lo for lo, _ in padding]
    xs = [stablehlo.pad(x, init, edge_padding_low=low, edge_padding_high=high,
                        interior_padding=[b - 1 for b in base])
          for x, init in zip(inputs, inits)]
    kw.update(base_dilations=None, padding=None)
    kw.pop("result_type", None)
    out = stablehlo.reduce_window(xs, list(inits), **kw)
    return list(out) if isinstance(out, (list, tuple)) else [out]


@dataclasses.dataclass
class ExpandReduceWindow(RulesPass):
    """Make reduce_window padding and base dilation explicit pads IREE lowers correctly."""

    NAME = "shlo-expand-reduce-window"
    RULES = {"stablehlo.reduce_window": _reduce_window}
