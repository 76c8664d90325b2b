"""What shlo-conformance prints: a progress bar, failure lines, causes, and the summary line."""
from __future__ import annotations

import collections
import re
import sys
import time

from .conformance_worker import Outcome


class Progress:
    """A one-line bar on a terminal (stderr); silent when stderr is not a terminal."""

    def __init__(self, files: int, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.files, self.done = files, 0
        self.counts: collections.Counter[str] = collections.Counter()
        self.start = time.monotonic()

    def outcome(self, outcome: Outcome) -> None:
        self.counts[outcome.status] += 1
        self.draw()

    def file_done(self, _display: str) -> None:
        self.done += 1
        self.draw()

    def draw(self) -> None:
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / max(self.files, 1))
        bar = "#" * filled + "." * (width - filled)
        c = self.counts
        self.stream.write(f"\r[{bar}] {self.done}/{self.files} files  {c['passed']} passed, "
                          f"{c['failed']} failed, {c['skipped']} skipped  "
                          f"{time.monotonic() - self.start:.0f}s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def failure_line(outcome: Outcome) -> str:
    """`file:line: @function: cause: first mismatch or error`, without reproducer paths."""
    message = re.sub(r"\s*\(reproducer: .*$", "", outcome.message)
    return f"{outcome.file}:{outcome.line}: @{outcome.function}: {outcome.cause}: {message}"


def summary_line(outcomes: list[Outcome]) -> str:
    counts = collections.Counter(o.status for o in outcomes)
    return f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"


def cause_of(outcome: Outcome) -> str:
    """A failure's cause with the particulars (places, shapes, numbers) taken out."""
    if outcome.cause == "mismatch":
        return f"mismatch: wrong values from {outcome.file.rsplit('.', 1)[0]}"
    text = re.sub(r"\s*\(reproducer: .*$", "", outcome.message)
    text = re.sub(r"^IREE compilation for target '[^']*' failed: ", "", text)
    text = re.sub(r"\S+\.mlir:\d+:\d+: ", "", text)
    text = re.sub(r"(marked illegal|see current operation): .*$", r"\1", text)
    text = re.sub(r"\bat line \d+", "", text)
    text = re.sub(r" while (running @\S+ \(chunk \d+\)|compiling chunks [\d,]+|parsing chunk \d+)",
                  "", text)
    text = re.sub(r"tensor<[^<>]*(?:<[^<>]*>)?[^<>]*>", "tensor<...>", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return f"{outcome.cause}: {text.strip()}"


def cause_table(outcomes: list[Outcome]) -> list[str]:
    """Failures grouped by cause, most frequent first: `  12  compile: ...`."""
    counts = collections.Counter(cause_of(o) for o in outcomes if o.status == "failed")
    return [f"{n:5d}  {cause}" for cause, n in counts.most_common()]
