"""Argument handling shared by the op modules: XlaOp operands, their builder, int lists."""
from __future__ import annotations

from typing import Literal, overload

import numpy as np

from .builder import XlaBuilder, XlaOp
from .errors import fail


def op_list(op: str, what: str, xs) -> list[XlaOp]:
    """A seed's variadic argument: a list of XlaOps, or one XlaOp alone."""
    if isinstance(xs, XlaOp):
        return [xs]
    if not isinstance(xs, (list, tuple)):
        fail(op, f"{what} must be an XlaOp or a list of XlaOps, got {type(xs).__name__}")
    for i, x in enumerate(xs):
        if not isinstance(x, XlaOp):
            fail(op, f"{what}[{i}] must be an XlaOp, got {type(x).__name__}")
    return list(xs)


def builder_of(op: str, *operands) -> XlaBuilder:
    """The one builder all XlaOp operands (lists allowed) come from."""
    flat: list = []
    for x in operands:
        flat.extend(x if isinstance(x, (list, tuple)) else [x])
    found = None
    for i, x in enumerate(flat):
        if not isinstance(x, XlaOp):
            fail(op, f"operand {i} must be an XlaOp, got {type(x).__name__}")
        if found is None:
            found = x.builder()
        elif x.builder() is not found:
            fail(op, f"operands come from different builders ({found.name!r} and "
                 f"{x.builder().name!r})", "all operands of an op belong to one XlaBuilder")
    if found is None:
        fail(op, "needs at least one XlaOp operand")
    return found


def as_builder(op: str, b) -> XlaBuilder:
    if not isinstance(b, XlaBuilder):
        fail(op, f"the first argument must be the XlaBuilder, got {type(b).__name__}")
    return b


def array(op: str, x: XlaOp, what: str = "operand"):
    """The ir.Value of an array XlaOp (not a tuple or token)."""
    if not isinstance(x, XlaOp):
        fail(op, f"{what} must be an XlaOp, got {type(x).__name__}")
    s = x.shape()
    if not s.is_array():
        fail(op, f"{what} must be an array, got {s}")
    return x.value


@overload
def ints(op: str, what: str, v, *, optional: Literal[False] = False) -> list[int]: ...
@overload
def ints(op: str, what: str, v, *, optional: bool) -> list[int] | None: ...


def ints(op: str, what: str, v, *, optional: bool = False) -> list[int] | None:
    """A list of ints (a numpy array or any sequence of integers)."""
    if v is None and optional:
        return None
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        v = [v]
    try:
        out = [int(x) for x in v]
        if any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) for x in v):
            raise TypeError
    except TypeError:
        fail(op, f"{what} must be a sequence of ints, got {v!r}")
    return out
