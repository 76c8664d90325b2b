"""Constraint-check factories shared by the op tables.

Each factory returns `fn(build) -> message or None` for a `Check(id, fn)`. They read attributes
by name (`b.attrs[name]`) and operand types by name (`b.types[name]`; a variadic operand's first
type stands for all of them), so one factory serves every op with that shape of constraint
(`is_unique(dimensions)`, `0 <= dims < rank(operand)`, `size(x) = rank(operand)`, ...).
"""
from __future__ import annotations

from . import types as T


def first(t):
    """A variadic operand's first type (its types share the properties checked)."""
    return t[0] if isinstance(t, list) else t


def rank_of(b, operand: str) -> int:
    return T.rank(first(b.types[operand]))


def _what(operand: str, b) -> str:
    t = b.types[operand]
    return f"{operand}[0] {t[0]}" if isinstance(t, list) else f"{operand} {t}"


def unique(*names: str):
    """is_unique(concatenate(names...))."""
    def check(b):
        dims = [d for n in names for d in (b.attrs[n] or ())]
        dup = [d for d in dims if dims.count(d) > 1]
        if dup:
            what = " + ".join(names)
            return f"{what} {dims} repeats dimension {dup[0]}"
    return check


def ascending(name: str):
    """is_sorted(name)."""
    def check(b):
        dims = list(b.attrs[name] or ())
        if dims != sorted(dims):
            return f"{name} {dims} must be sorted"
    return check


def in_range(name: str, operand: str | None = None, *, rank=None, inclusive: bool = False,
             negative: bool = False):
    """0 <= name < rank(operand) (or <= with `inclusive`; -R <= name with `negative`).
    `rank(b)` may replace `operand` for ranks that are not an operand's."""
    def check(b):
        v = b.attrs[name]
        if v is None:
            return None
        # (an operand is named whenever no rank function is)
        r = rank(b) if rank is not None else rank_of(b, operand)  # type: ignore[arg-type]
        lo = -r if negative else 0
        hi = r + 1 if inclusive else r
        dims = list(v) if isinstance(v, tuple) else [v]
        bad = [d for d in dims if not lo <= d < hi]
        if bad:
            where = _what(operand, b) if operand else f"rank {r}"
            shown = list(v) if isinstance(v, tuple) else v
            if isinstance(v, tuple):
                return f"{name} {shown} has {bad[0]} out of range for {where}"
            return f"{name} {shown} is out of range for {where}"
    return check


def size_is_rank(name: str, operand: str, *, offset: int = 0):
    """size(name) = rank(operand) + offset (offset -2: one entry per spatial dimension)."""
    def check(b):
        v = b.attrs[name]
        if v is None:
            return None
        want = rank_of(b, operand) + offset
        if len(v) != want:
            per = "per dimension" if offset == 0 else "per spatial dimension"
            return (f"{name} {list(v)} must have {want} entries (one {per} of "
                    f"{_what(operand, b)})")
    return check


def positive(name: str):
    """0 < name (every entry of a list attribute)."""
    def check(b):
        v = b.attrs[name]
        if v is None:
            return None
        vals = list(v) if isinstance(v, tuple) else [v]
        bad = [x for x in vals if x <= 0]
        if bad:
            return f"{name} {list(v) if isinstance(v, tuple) else v} must be > 0, got {bad[0]}"
    return check


def same_element_type(*names: str):
    """element_type(a) = element_type(b) = ... over operands (variadic ones: every entry)."""
    def check(b):
        flat = []
        for n in names:
            t = b.types[n]
            flat += [(f"{n}[{i}]", x) for i, x in enumerate(t)] if isinstance(t, list) \
                else [(n, t)]
        if not flat:
            return None
        first = flat[0]
        for name, t in flat[1:]:
            if T.elem(t) != T.elem(first[1]):
                return (f"{name} {t} must have the element type of {first[0]} {first[1]}")
    return check


def same_shape(name: str):
    """same(shape(name...)) over a variadic operand."""
    def check(b):
        types = b.types[name]
        for i, t in enumerate(types[1:], 1):
            if not T.same_shape(T.shape(types[0]), T.shape(t)):
                return (f"{name} must have the same shape, got {name}[0] {types[0]} and "
                        f"{name}[{i}] {t}")
    return check


def nonempty(name: str):
    """0 < size(name) for a variadic operand."""
    def check(b):
        if not b.types[name]:
            return f"{name} must not be empty"
    return check


def matrix_shape(name: str, want):
    """shape(name) = want(b) for a 2-D attribute (padding: [rank, 2])."""
    def check(b):
        v = b.attrs[name]
        if v is None:
            return None
        w = list(want(b))
        if list(v.shape) != w:
            return f"{name} {v.tolist()} must have shape {w}, got {list(v.shape)}"
    return check



def counts_match(first: str, second: str):
    """0 < size(first) = size(second) for two variadic operands."""
    def check(b):
        n, m = len(b.types[first]), len(b.types[second])
        if not n or n != m:
            return (f"need as many {second} as {first}, and at least one; got {n} {first} and "
                    f"{m} {second}")
    return check


def pairwise_element_type(first: str, second: str):
    """element_type(second[i]) = element_type(first[i]) for two variadic operands."""
    def check(b):
        for i, (t, v) in enumerate(zip(b.types[first], b.types[second])):
            if T.elem(t) != T.elem(v):
                return f"{second}[{i}] {v} must have the element type of {first}[{i}] {t}"
    return check


def one_d(*names: str):
    """Each operand `names` is a 1-D tensor."""
    def check(b):
        for n in names:
            if T.rank(b.types[n]) != 1:
                return f"{n} must be a 1-D tensor, got {b.types[n]}"
    return check


def precision_pair(b):
    """size(precision_config) = 2."""
    if b.precision_config is not None and len(b.precision_config) != 2:
        return f"precision_config must have 2 entries, got {list(b.precision_config)}"
