"""Diagnostics the way mlir-opt prints them, and `--verify-diagnostics`.

`SourceManager` renders a diagnostic like MLIR's `SourceMgrDiagnosticHandler` over
LLVM's `SourceMgr`: `file:line:col: error: message`, then the source line (tabs
expanded to 8 columns) and a caret; a location with no file position prints as
`<unknown>:0: error: loc("name"): message`; call sites add `called from` notes.
Files other than the input are read from disk when a location names them.

`Verifier` is MLIR's `SourceMgrDiagnosticVerifierHandler`: it reads the
`expected-(error|warning|note|remark)[-re] [@+N|@-N|@above|@below|@unknown] {{text}}`
lines of the whole input, consumes each diagnostic that matches one, reports the
others as `unexpected error: ...`, and at the end each expectation nobody produced.
"""
from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir

from shlo.errors import Diagnostic, file_location, typed_location

TAB_STOP = 8
MAX_LINE_LENGTH = 4096          # LLVM does not print longer source lines
CALL_STACK_LIMIT = 10           # MLIR's default for `called from` notes
OP_NOTE = "see current operation: "


class SourceManager:
    """The input buffer, plus any file a location names, for printing source lines."""

    def __init__(self, out):
        self.out = out                      # a binary stream (stderr's buffer)
        self.buffers: dict[str, bytes | None] = {}

    def add(self, name: str, data: bytes) -> None:
        self.buffers[name] = data

    def buffer(self, name: str) -> bytes | None:
        if name not in self.buffers:
            try:
                with open(name, "rb") as f:
                    self.buffers[name] = f.read()
            except OSError:
                self.buffers[name] = None
        return self.buffers[name]

    # -- llvm::SourceMgr::PrintMessage -------------------------------------------------------

    def print_at(self, name: str, line: int, col: int, kind: str, message: str,
                 length: int = 0) -> bool:
        """Print at `name:line:col` with its source line; False if that position is not shown."""
        data = self.buffer(name) if line > 0 and col > 0 else None
        text = _line_text(data, line, col) if data is not None else None
        if text is None:
            return False
        self._write(f"{_display_name(name)}:{line}:{col}: {kind}: {message}\n".encode()
                    + _source_and_caret(text, col - 1, length))
        return True

    def print_plain(self, where: str, kind: str, message: str) -> None:
        """`where: kind: message` with no source line (`<unknown>:0` when `where` is empty)."""
        self._write(f"{where or '<unknown>:0'}: {kind}: {message}\n".encode())

    def _write(self, data: bytes) -> None:
        self.out.write(data)
        self.out.flush()          # C++ writes IR dumps straight to the same stream

    # -- mlir::SourceMgrDiagnosticHandler ----------------------------------------------------

    def emit(self, diag: Diagnostic) -> None:
        """Print a diagnostic and its notes like mlir-opt."""
        stack: list[tuple[object, str | None]] = []
        shown = _location_to_show(diag.location)
        if shown is not None:
            stack.append((shown, None))
        loc = typed_location(diag.location)
        call = _call_site(loc)
        if call is not None:
            loc = typed_location(call.caller)
            for _ in range(CALL_STACK_LIMIT):
                shown = _location_to_show(loc)
                if shown is not None:
                    stack.append((shown, "called from"))
                call = _call_site(loc)
                if call is None:
                    break
                loc = typed_location(call.caller)
        if not stack:
            self.emit_at(diag.location, diag.message, diag.severity)
        else:
            self.emit_at(stack[0][0], diag.message, diag.severity)
            for where, context in stack[1:]:
                self.emit_at(where, context or "", "note")     # (each one "called from")
        for note in diag.notes:
            self.emit_at(note.location, note.message, note.severity,
                         show_source=str(loc) != str(note.location))
            loc = note.location

    def emit_at(self, location, message: str, kind: str, show_source: bool = True) -> None:
        found = file_location(location)
        if found is None:
            prefix = "" if isinstance(typed_location(location), ir.UnknownLoc) else f"{location}: "
            self.print_plain("", kind, prefix + message)
            return
        name, line, col = found.filename, found.start_line, found.start_col
        if show_source and self.print_at(name, line, col, kind, message):
            return
        self.print_plain(f"{_display_name(name)}:{line}:{col}", kind, message)


def _display_name(name: str) -> str:
    return "<stdin>" if name == "-" else name


def _line_text(data: bytes, line: int, col: int) -> bytes | None:
    """The bytes of 1-based `line`, if `col` lies on it (up to one past its end), like LLVM."""
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return None
    end = len(data)
    for stop in (b"\n", b"\r"):
        found = data.find(stop, start)
        if 0 <= found < end:
            end = found
    if start + col - 1 > end:
        return None
    return data[start:end]


def _source_and_caret(text: bytes, column: int, length: int) -> bytes:
    """The source line (tabs expanded) and a `^~~~` line under `length` bytes at `column`."""
    if len(text) > MAX_LINE_LENGTH:
        return b""
    caret = [" "] * (len(text) + 1)
    for i in range(column, min(column + length, len(text))):
        caret[i] = "~"
    if column < len(caret):
        caret[column] = "^"
    caret_text = "".join(caret).rstrip(" ")
    source_out, caret_out, out_col = bytearray(), [], 0
    for i, byte in enumerate(text):
        if byte != 9:
            source_out.append(byte)
            out_col += 1
            continue
        source_out.append(32)
        out_col += 1
        while out_col % TAB_STOP:
            source_out.append(32)
            out_col += 1
    out_col = 0
    for i, ch in enumerate(caret_text):
        if i >= len(text) or text[i] != 9:
            caret_out.append(ch)
            out_col += 1
            continue
        caret_out.append(ch)
        out_col += 1
        while out_col % TAB_STOP:
            caret_out.append(ch)
            out_col += 1
    return bytes(source_out) + b"\n" + "".join(caret_out).encode() + b"\n"


def _search(loc, match):
    """MLIR's location searches: through a NameLoc's child and a FusedLoc's parts, first hit wins."""
    loc = typed_location(loc)
    if isinstance(loc, ir.NameLoc):
        return _search(loc.child_loc, match)
    if isinstance(loc, ir.FusedLoc):
        for child in loc.locations:
            found = _search(child, match)
            if found is not None:
                return found
        return None
    return match(loc)


def _location_to_show(loc):
    """MLIR's findLocToShow: a call site shows its callee; an unknown location shows nothing."""
    def match(found):
        if isinstance(found, ir.CallSiteLoc):
            return _location_to_show(found.callee)
        return None if isinstance(found, ir.UnknownLoc) else found
    return _search(loc, match)


def _call_site(loc):
    return _search(loc, lambda found: found if isinstance(found, ir.CallSiteLoc) else None)


# -- --verify-diagnostics ----------------------------------------------------------------------

_EXPECTED = re.compile(r"expected-(error|note|remark|warning)(-re)? *"
                       r"(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")
_POSIX_CLASSES = {"[:alnum:]": r"a-zA-Z0-9", "[:alpha:]": r"a-zA-Z", "[:digit:]": r"0-9",
                  "[:space:]": r"\s", "[:upper:]": r"A-Z", "[:lower:]": r"a-z",
                  "[:xdigit:]": r"0-9a-fA-F", "[:punct:]": r"!-/:-@\[-`{-~"}


@dataclasses.dataclass
class Expected:
    """One `expected-*` designator: what it expects, where, and whether it was seen."""

    kind: str
    line: int                  # the line the diagnostic must be on (0: @unknown)
    name: str
    designator_line: int       # where the designator itself is, for reporting it
    designator_col: int
    text: str
    pattern: re.Pattern | None = None
    matched: bool = False

    def match(self, message: str) -> bool:
        return bool(self.pattern.search(message)) if self.pattern else self.text in message


class Verifier:
    """Matches diagnostics against the input's `expected-*` designators, like mlir-opt."""

    def __init__(self, sources: SourceManager, name: str, data: bytes,
                 only_expected: bool = False):
        self.sources, self.only_expected = sources, only_expected
        self.ok = True
        self.expected: dict[str, list[Expected]] = {}
        self.unknown: list[Expected] = []
        self._scan(name, data)

    def _scan(self, name: str, data: bytes) -> list[Expected]:
        found = self.expected.setdefault(name, [])
        lines = data.split(b"\n")
        last_plain = 0
        pending: list[Expected] = []
        for number, raw in enumerate(lines):
            text = raw.decode("latin-1").rstrip(" \t\n\v\f\r")
            m = _EXPECTED.search(text)
            if not m:
                for item in pending:
                    item.line = number + 1
                pending.clear()
                last_plain = number
                continue
            item = Expected(m.group(1), number + 1, name, number + 1, m.start() + 1, m.group(5))
            if m.group(2) and not self._compile(item):
                continue
            offset = m.group(4)
            if offset is None:
                pass
            elif offset[0] in "+-":
                item.line += int(offset[1:]) * (1 if offset[0] == "+" else -1)
            elif offset == "unknown":
                item.line = 0
                self.unknown.append(item)
                continue
            elif offset == "above":
                item.line = last_plain + 1
            else:                      # below: the next line that is not a designator
                pending.append(item)
                item.line = len(lines)
            found.append(item)
        return found

    def _compile(self, item: Expected) -> bool:
        """The `{{regex}}` pieces of an `expected-*-re` text, as one Python pattern."""
        pieces, rest = [], item.text
        while rest:
            start = rest.find("{{")
            if start < 0:
                pieces.append(re.escape(rest))
                break
            pieces.append(re.escape(rest[:start]))
            rest = rest[start + 2:]
            end = rest.find("}}")
            if end < 0:
                return self._designator_error(item, "found start of regex with no end '}}'")
            regex = rest[:end]
            for posix, python in _POSIX_CLASSES.items():
                regex = regex.replace(posix, python)
            try:
                re.compile(regex)
            except re.error as e:
                return self._designator_error(item, f"invalid regex: {e}")
            pieces.append(f"({regex})")
            rest = rest[end + 2:]
        item.pattern = re.compile("".join(pieces))
        return True

    def _designator_error(self, item: Expected, message: str) -> bool:
        self.sources.print_at(item.name, item.designator_line, item.designator_col, "error",
                              message, len(item.text))
        self.ok = False
        return False

    def process(self, diag: Diagnostic) -> None:
        """Check one diagnostic and its notes (mlir-opt's op-printing notes are off here)."""
        self._check(diag.location, diag.message, diag.severity)
        for note in diag.notes:
            if not note.message.startswith(OP_NOTE):
                self._check(note.location, note.message, note.severity)

    def _check(self, location, message: str, kind: str) -> None:
        found = file_location(location)
        if found is not None:
            candidates = self.expected.get(found.filename)
            if candidates is None:
                data = self.sources.buffer(found.filename)
                candidates = self._scan(found.filename, data) if data is not None else []
        else:
            candidates = self.unknown
        near_miss = None
        for item in candidates:
            if found is not None and found.start_line != item.line:
                continue
            if item.match(message):
                if item.kind == kind:
                    item.matched = True
                    return
                near_miss = item
        if self.only_expected:
            return
        if near_miss is not None:
            self.sources.print_at(near_miss.name, near_miss.designator_line,
                                  near_miss.designator_col, "error",
                                  f"'{kind}' diagnostic emitted when expecting a "
                                  f"'{near_miss.kind}'")
        else:
            self.sources.emit_at(location, f"unexpected {kind}: {message}", "error")
        self.ok = False

    def finish(self) -> bool:
        """Report every expectation nobody produced; True when all went as expected."""
        for item in [i for items in self.expected.values() for i in items] + self.unknown:
            if item.matched:
                continue
            message = f'expected {item.kind} "{item.text}" was not produced'
            if item.line == 0:
                self.sources.print_plain("", "error", message)
            else:
                self.sources.print_at(item.name, item.designator_line, item.designator_col,
                                      "error", message, len(item.text))
            self.ok = False
        return self.ok
