"""The XLA builder's error: a `shlo.BuildError` naming the XLA op and the seed's rule."""
from __future__ import annotations

from typing import NoReturn

from shlo.errors import BuildError


class XlaError(BuildError):
    """An XLA op was called with arguments its rule (XLA's Operation Semantics) rejects."""


def fail(op: str, message: str, rule: str | None = None) -> NoReturn:
    """Raise `op: message (seed: rule)`."""
    raise XlaError(f"{op}: {message}" + (f" (seed: {rule})" if rule else ""))
