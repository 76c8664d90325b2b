"""--split-input-file: cut a file at `// -----` exactly as MLIR's `splitAndProcessBuffer` does.

The file is split at the marker minus its last two characters; a piece that does not
go on with `--` (and a third character other than `0`) is a near miss: it stays in the
current chunk and earns a warning. A chunk starts right after its marker, so each one
is parsed with blank padding in front: its line and column numbers are the file's.
"""
from __future__ import annotations

import dataclasses

MARKER = b"// -----"
OUTPUT_MARKER = b"// -----\n"
_CHECK_LEN = 2              # MLIR splits at the marker without its last 2 characters


@dataclasses.dataclass(frozen=True)
class Chunk:
    """Bytes `start:end` of a file, which start at 1-based `line`:`col`."""

    index: int
    start: int
    end: int
    line: int
    col: int

    def text(self, source: bytes) -> bytes:
        return source[self.start:self.end]

    def padded(self, source: bytes) -> bytes:
        """The chunk behind blank lines and spaces: MLIR reports the file's line:col."""
        return b"\n" * (self.line - 1) + b" " * (self.col - 1) + self.text(source)


def position(source: bytes, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of a byte offset, columns counted in bytes like MLIR."""
    line_start = source.rfind(b"\n", 0, offset) + 1
    return source.count(b"\n", 0, offset) + 1, offset - line_start + 1


def split_input(source: bytes, marker: bytes = MARKER) -> tuple[list[Chunk], list[int]]:
    """The chunks of `source`, and the offsets of near misses of the marker."""
    cut = marker[:-_CHECK_LEN]
    tail = marker[-_CHECK_LEN:]
    pieces, start = [], 0
    while True:                                  # bytes.split keeps empty pieces, like LLVM's
        found = source.find(cut, start)
        if found < 0:
            pieces.append((start, len(source)))
            break
        pieces.append((start, found))
        start = found + len(cut)

    spans, near_misses = [], []
    prev: tuple[int, int] | None = None
    for begin, end in pieces:
        if prev is None or prev[0] == prev[1]:   # MLIR's `prev.empty()`: take the piece whole
            prev = (begin, end)
            continue
        piece = source[begin:end]
        if piece.startswith(tail) and len(piece) > _CHECK_LEN and piece[_CHECK_LEN:_CHECK_LEN + 1] != b"0":
            spans.append(prev)
            prev = (begin + _CHECK_LEN, end)
        else:
            near_misses.append(begin)
            prev = (prev[0], end)
    if prev is not None and prev[0] != prev[1]:
        spans.append(prev)
    chunks = [Chunk(i, begin, end, *position(source, begin)) for i, (begin, end) in enumerate(spans)]
    return chunks, near_misses
