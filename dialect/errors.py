"""Errors raised by the op builders: subclasses of `shlo.BuildError`.

Every message is one line, ``op: what is wrong, with the shapes/values (ID)``, where ID is the
StableHLO spec's constraint id (``C13``) or input label (``I2``; ``O1`` for the n-th output).
"""
from __future__ import annotations

from shlo.errors import BuildError


class ConstraintError(BuildError):
    """An op's operands, attributes or result type violate a constraint of the spec."""

    def __init__(self, op: str, message: str, constraint: str, *, location: str | None = None):
        self.op = op
        self.constraint = constraint
        super().__init__(f"{op}: {message} ({constraint})", location=location)


class ArgumentError(BuildError):
    """A builder was called wrongly from Python (arguments, missing context, bad array)."""


class VerifierError(BuildError):
    """The MLIR verifier rejected an op that passed shlo's own checks."""
