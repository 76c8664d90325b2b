"""Turn a failed run-time shape check into an `InvocationError` that names the op and shapes.

shlo's passes guard dynamic shapes with `cf.assert` checks whose message starts with
`shape_checks.MARKER` (the op, its location and its types); IREE reports a failing one as
`FAILED_PRECONDITION; <message>;`. The caller passed shapes that do not fit, so it is an
error of the call, reported with the arguments' shapes as given.
"""
from __future__ import annotations

import re

from ..errors import InvocationError
from ..passes.shapes.shape_checks import MARKER

_MESSAGE = re.compile(re.escape(MARKER) + r": (.*?);?\s*$")


def shape_check_error(signature, message: str, arg_list) -> InvocationError | None:
    """The InvocationError for a device failure `message` of a call of `signature` with the
    buffer views in `arg_list`, or None when the failure is no shape check."""
    found = _MESSAGE.search(message)
    if found is None:
        return None
    import iree.runtime as rt

    shapes = []
    for i, value in enumerate(signature.inputs):
        dims = arg_list.get_as_object(i, rt.HalBufferView).shape
        shapes.append("".join(f"{d}x" for d in dims) + value.spec.element)
    return InvocationError(f"{signature.name}: {found.group(1)} "
                           f"(called with {', '.join(shapes)})")
