"""The shlo exception family: every error shlo raises is a `shlo.Error`.

Each stage has its own subclass so callers can catch precisely, and every
message is one line that names what failed (op, operand, shapes, constraint)
and, where known, the source location as ``file:line:col``.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir


class Error(Exception):
    """Root of every exception shlo raises."""

    def __init__(self, message: str, *, location: str | None = None):
        self.message = message
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class ParseError(Error):
    """MLIR text or bytecode that does not parse or verify; `diagnostics` holds MLIR's own."""

    def __init__(self, message: str, *, location: str | None = None, diagnostics=()):
        self.diagnostics = list(diagnostics)
        super().__init__(message, location=location)


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

    diagnostics: list[str]      # IREE's messages (set when IREE gave them)
    command: str                # the command that replays the compile (likewise)

    def __init__(self, message: str, *, location: str | None = None,
                 reproducer: str | None = None):
        self.reproducer = reproducer
        super().__init__(message, location=location)


class InvocationError(Error):
    """A compiled function was called with the wrong number, shapes or types of inputs."""


class DeviceError(Error):
    """A runtime device (driver) is missing or failed."""


def file_location(loc):
    """The first `ir.FileLineColLoc` inside `loc` (pre-order, like MLIR's findInstanceOf), or None."""
    loc = typed_location(loc)
    if isinstance(loc, ir.FileLineColLoc):
        return loc
    for child in _child_locations(loc):
        found = file_location(child)
        if found is not None:
            return found
    return None


def typed_location(loc):
    """`loc` as its concrete class (FileLineColLoc, NameLoc, ...): MLIRError's are plain."""
    if type(loc) is ir.Location:
        return ir.Location.from_attr(loc.attr, loc.context)
    return loc


def _child_locations(loc) -> list:
    if isinstance(loc, ir.NameLoc):
        return [loc.child_loc]
    if isinstance(loc, ir.CallSiteLoc):
        return [loc.callee, loc.caller]
    if isinstance(loc, ir.FusedLoc):
        return list(loc.locations)
    return []


def location_text(loc) -> str | None:
    """`file:line:col` for an `ir.Location` (its first file location), else a name, else None."""
    found = file_location(loc)
    if found is not None:
        return f"{found.filename}:{found.start_line}:{found.start_col}"
    loc = typed_location(loc)
    while isinstance(loc, ir.NameLoc):
        if not isinstance(loc.child_loc, ir.UnknownLoc):
            loc = typed_location(loc.child_loc)
            continue
        return loc.name_str
    return None


SEVERITIES = ("error", "warning", "note", "remark")


@dataclasses.dataclass
class Diagnostic:
    """An MLIR diagnostic copied out of a handler callback (the callback's object dies with it).

    `severity` is one of SEVERITIES; `location` an `ir.Location`; `notes` more Diagnostics.
    """

    severity: str
    location: object
    message: str
    notes: list = dataclasses.field(default_factory=list)

    @classmethod
    def from_mlir(cls, diag, severity: str | None = None) -> "Diagnostic":
        """Copy an `ir.Diagnostic` (or an `ir.MLIRError` diagnostic) with its notes."""
        kind = severity or str(diag.severity).rsplit(".", 1)[-1].lower()
        return cls(kind, diag.location, diag.message,
                   [cls.from_mlir(n, None if hasattr(n, "severity") else "note")
                    for n in diag.notes])

    def lines(self, source_name: str | None = None):
        """`where: severity: message` lines for this diagnostic and its notes."""
        where = location_text(self.location)
        if where and source_name and where.startswith("-:"):
            where = source_name + where[1:]
        yield f"{where}: {self.severity}: {self.message}" if where else \
            f"{self.severity}: {self.message}"
        for note in self.notes:
            yield from note.lines(source_name)


def diagnostics_text(mlir_error, source_name: str | None = None) -> str:
    """Render an `ir.MLIRError`'s diagnostics as `file:line:col: error: ...` lines."""
    lines = []
    for diag in mlir_error.error_diagnostics:
        lines.extend(Diagnostic.from_mlir(diag, "error").lines(source_name))
    return "\n".join(lines) if lines else str(mlir_error)
