"""The shlo exception family: every error shlo raises is a `shlo.Error`.

Each stage has its own subclass so callers can catch precisely, and every
message is one line that names what failed (op, operand, shapes, constraint)
and, where known, the source location as ``file:line:col``.
"""
from __future__ import annotations


class Error(Exception):
    """Root of every exception shlo raises."""

    def __init__(self, message: str, *, location: str | None = None):
        self.message = message
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class ParseError(Error):
    """MLIR text or bytecode that does not parse or verify."""


class BuildError(Error):
    """An op built through shlo's Python builders violates a spec constraint."""


class PipelineError(Error):
    """A pass pipeline that does not parse, or names an unknown pass or option."""


class PassError(Error):
    """A pass failed on a module; Python passes raise it with `at=` the offending op."""

    def __init__(self, message: str, *, at=None, location: str | None = None):
        self.at = at
        super().__init__(message, location=location)


class CompileError(Error):
    """IREE rejected a module; carries IREE's diagnostics and a reproducer."""

    def __init__(self, message: str, *, location: str | None = None,
                 reproducer: str | None = None):
        self.reproducer = reproducer
        super().__init__(message, location=location)


class InvocationError(Error):
    """A compiled function was called with the wrong number, shapes or types of inputs."""


class DeviceError(Error):
    """A runtime device (driver) is missing or failed."""


def location_text(loc) -> str | None:
    """`file:line:col` for an `ir.Location`, or None for unknown locations."""
    text = str(loc)
    if not text.startswith("loc(") or text == "loc(unknown)":
        return None
    body = text[4:-1]
    if body.startswith('"'):
        name, _, rest = body[1:].partition('"')
        return f"{name}{rest}" if rest.startswith(":") else name
    return body


def diagnostics_text(mlir_error, source_name: str | None = None) -> str:
    """Render an `ir.MLIRError`'s diagnostics the way mlir-opt prints them."""
    lines = []
    for diag in mlir_error.error_diagnostics:
        lines.extend(_diagnostic_lines(diag, "error", source_name))
    return "\n".join(lines) if lines else str(mlir_error)


def _diagnostic_lines(diag, kind: str, source_name: str | None):
    where = location_text(diag.location)
    if where and source_name and where.startswith("-:"):
        where = source_name + where[1:]
    yield f"{where}: {kind}: {diag.message}" if where else f"{kind}: {diag.message}"
    for note in diag.notes:
        yield from _diagnostic_lines(note, "note", source_name)
