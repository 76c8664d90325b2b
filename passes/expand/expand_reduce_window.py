"""shlo-expand-reduce-window: make a reduce_window's padding and base dilation explicit, so IREE
sees only a plain sliding window over exactly the elements it reads.

The spec defines reduce_window on `pad(inputs, init_values, padding_low, padding_high,
base_dilations - 1)`: edge padding and the holes of base dilation hold the init value. IREE
lowers the padding itself, and fails where it should not: padding of unsigned integers
(every unsigned cumsum, cumprod, cummin, cummax), and windows whose strides leave the padded
input's tail unread (docs/iree_gaps.md#shlo-expand-reduce-window).
The rewrite pads each input with its init value (stablehlo.pad with interior
padding for base dilation; negative padding slices), slices off the tail no window reaches,
and keeps window dimensions, strides and window dilations. A reduce_window without base
dilation or unread tail is left alone when it has no padding or its padding is of a signed or
float type (IREE's own lowering of that padding is right, and far faster on cumulative ops);
dynamic shapes are below. IREE's compiler crashes (a segmentation fault) on complex padding
unless the window is a scan (a whole dimension, padded by its size - 1: cumsum), and on
Vulkan on complex scans too: a complex sum becomes the sums of its real and imaginary parts,
and any other complex padding but a scan's is made explicit (shlo-expand-complex-pad pads
the parts).

IREE rejects every reduce_window with run-time sizes. One of one input and a one-op body
(a symbolic batch, or a static window sliding along a symbolic length: pooling over time) is
spelt out: the op over one strided `tensor.extract_slice` of the padded input per window
position (at most `MAX_WINDOW_POSITIONS`), each sized by the one run-time window count.
"""
from __future__ import annotations

import dataclasses
import itertools
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import DYN
from shlo.dialect.windows import num_windows
from ..lib import builders as extras
from ..base import binary_body
from ..lib.expr import Num, attributes, complex_, element_of, imag, is_complex, real
from ..custom_calls.cumulative_window import is_identity
from .index_vectors import is_static, shape_of
from ..op_rules import RulesPass

# a run-time sized reduce_window is spelt out as one op per window position: up to this many
MAX_WINDOW_POSITIONS = 64


def _sums_parts(op: ir.Operation) -> bool:
    """Whether `op` reduces one complex input by addition (its parts then sum apart)."""
    block = op.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    return len(op.operands) == 2 and is_complex(element_of(op.operands[0])) and \
        [o.name for o in ops] == ["stablehlo.add", "stablehlo.return"] and \
        list(ops[0].operands) == list(block.arguments)


def window_attributes(kw: dict, rank: int) -> tuple[list, list, list, list, list]:
    """Window dimensions, strides, base and window dilations and padding, defaults filled."""
    padding = kw.get("padding")
    return (list(kw["window_dimensions"]), list(kw.get("window_strides") or [1] * rank),
            list(kw.get("base_dilations") or [1] * rank),
            list(kw.get("window_dilations") or [1] * rank),
            [[0, 0]] * rank if padding is None else [list(map(int, p)) for p in padding])


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
        return _dynamic_window(op, inputs, inits, kw)
    complex_padding = any(is_complex(element_of(x)) for x in inputs)
    shape = shape_of(inputs[0])
    rank = len(shape)
    window, strides, base, dilation, padding = window_attributes(kw, rank)
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
        # would be a quadratic sliding window, far slower on long scans)
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


def _dynamic_window(op: ir.Operation, inputs, inits, kw):
    """A reduce_window of one input with run-time sized dimensions (a symbolic batch, or a
    static window sliding along a symbolic length: pooling over time) and a body of one binary
    op: that op over the window positions' strided slices of the padded input, starting from
    the init value. A run-time sized dimension may have any static window, stride, window
    dilation and padding, but no base dilation; its number of windows is computed at run
    time."""
    combine = binary_body(op)
    x = inputs[0]
    shape = ir.RankedTensorType(x.type).shape
    rank = len(shape)
    window, strides, base, dilation, padding = window_attributes(kw, rank)
    dynamic = [d for d in range(rank) if shape[d] == DYN]
    if (len(inputs) != 1 or combine is None or math.prod(window) > MAX_WINDOW_POSITIONS
            or any(base[d] != 1 for d in dynamic)):
        return None
    counts = [num_windows(*args) if d not in dynamic else DYN
              for d, args in enumerate(zip(shape, window, strides, base, dilation,
                                           [p[0] for p in padding], [p[1] for p in padding]))]
    if 0 in counts:
        return None
    padded = stablehlo.pad(x, inits[0], edge_padding_low=[lo for lo, _ in padding],
                           edge_padding_high=[hi for _, hi in padding],
                           interior_padding=[b - 1 for b in base])
    # the number of windows along each dimension: a constant, or an index computed once at
    # run time (the input's own size where the window leaves the dimension alone)
    sizes = []
    for d, count in enumerate(counts):
        if count != DYN:
            sizes.append(count)
            continue
        if (window[d], strides[d], dilation[d], padding[d]) == (1, 1, 1, [0, 0]):
            sizes.append(extras.dim(x, d))
            continue
        sizes.append(extras.window_count(padded, d, (window[d] - 1) * dilation[d] + 1,
                                         strides[d]))
    result_type = op.results[0].type
    acc = None
    for position in itertools.product(*(range(w) for w in window)):
        start = [p * d for p, d in zip(position, dilation)]
        piece = extras.extract_slice(padded, start, sizes, strides, result_type)
        if acc is None:
            if is_identity(inits[0], combine.name):
                acc = piece     # (IREE fails on the init broadcast to 2 run-time sizes)
                continue
            acc = extras.dynamic_broadcast_in_dim(inits[0], extras.shape_of(piece), [],
                                                  result_type)
        acc = ir.Operation.create(combine.name, results=[result_type], operands=[acc, piece],
                                  attributes=attributes(combine)).result
    return [acc]


@dataclasses.dataclass
class ExpandReduceWindow(RulesPass):
    """Make reduce_window padding and base dilation explicit pads IREE lowers correctly."""

    NAME = "shlo-expand-reduce-window"
    RULES = {"stablehlo.reduce_window": _reduce_window}
