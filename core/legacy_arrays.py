"""StableHLO text from before 2024: array attributes written as 1-D dense tensors.

In early 2024 StableHLO changed the attributes below from `dense<[1, 0]> : tensor<2xi64>` to
`array<i64: 1, 0>` (and `window_reversal` from `tensor<Nxi1>` to `array<i1: ...>`). Text
printed before that (older jax exports, StableHLO's testdata of the time) no longer parses:
"attribute 'limit_indices' failed to satisfy constraint: i64 dense array attribute". When a
parse fails so, `parse_module` rewrites those attributes, found by name, into the new form
and parses once more. Only 1-D tensors of i64 (i1 for `window_reversal`) change, and a 0-d
`tensor<i64>`, which some files of the time wrote for one dimension, is one value; a window's
`padding` is still an Nx2 tensor, and constants are left alone. Lines keep their numbers.
"""
from __future__ import annotations

import re

# StableHLO's (and CHLO's) attributes that became DenseI64ArrayAttr / DenseBoolArrayAttr.
ARRAY_ATTRIBUTES = frozenset({
    "broadcast_dimensions", "broadcast_sizes", "known_expanding_dimensions",
    "known_nonexpanding_dimensions", "permutation", "dimensions", "start_indices",
    "limit_indices", "strides", "slice_sizes", "edge_padding_low", "edge_padding_high",
    "interior_padding", "window_dimensions", "window_strides", "base_dilations",
    "window_dilations", "lhs_dilation", "rhs_dilation", "window_reversal", "fft_length",
})

_LEGACY = re.compile(r"(?<![\w.$-])(?P<name>[a-z_]+)(?P<eq>\s*=\s*)dense<(?P<values>[^<>\"]*)>"
                     r"\s*:\s*tensor<(?:(?P<count>\d+)x)?(?P<element>i64|i1)>")


def mentions_legacy_arrays(messages: list[str]) -> bool:
    """Whether a failed parse's diagnostics are the ones the old array syntax gives (in the
    custom form, or as an op's properties in the generic form)."""
    return any("dense array attribute" in m or
               ("in property conversion: dense<" in m and "Invalid attribute" in m)
               for m in messages)


def upgrade_arrays(text: str) -> str:
    """`text` with the array attributes of ARRAY_ATTRIBUTES in their 2024 syntax."""
    return _LEGACY.sub(_upgraded, text)


def _upgraded(m: re.Match) -> str:
    name, element = m.group("name"), m.group("element")
    if name not in ARRAY_ATTRIBUTES or (element == "i1") != (name == "window_reversal"):
        return m.group(0)
    values = [v.strip() for v in m.group("values").strip().strip("[]").split(",") if v.strip()]
    count = int(m.group("count") or 1)               # tensor<i64>: one value
    if len(values) == 1 and count != 1:               # a splat: dense<1> : tensor<3xi64>
        values *= count
    if len(values) != count:
        return m.group(0)
    body = f"{element}: {', '.join(values)}" if values else element
    return f"{name}{m.group('eq')}array<{body}>"
