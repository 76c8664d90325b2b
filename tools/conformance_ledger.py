"""Ledgers of expected failures: one per target, one test function per line with its reason.

    # comment
    add.mlir::add_op_test_i1    i1 add: IREE computes XOR, the spec says OR (issue 10)

A run matches its ledger when every failure it sees is listed and every listed function it
runs fails: a new failure and an unexpected pass both break the match, so the ledger stays
true. Functions the run does not reach are not judged.
"""
from __future__ import annotations

import dataclasses
import os

from .conformance_report import cause_of
from .conformance_values import ConformanceError
from .conformance_worker import Outcome


@dataclasses.dataclass
class Verdict:
    new_failures: list[Outcome]
    unexpected_passes: list[Outcome]

    @property
    def ok(self) -> bool:
        return not self.new_failures and not self.unexpected_passes

    def lines(self) -> list[str]:
        out = [f"new failure: {o.id}: {o.cause}: {o.message}" for o in self.new_failures]
        out += [f"unexpected pass (remove it from the ledger): {o.id}"
                for o in self.unexpected_passes]
        return out


def read_ledger(path: str) -> dict[str, str]:
    """id -> reason; a line without a reason or a repeated id is an error naming the line."""
    entries: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            test_id, *rest = line.split(None, 1)
            reason = rest[0] if rest else ""
            if not reason.strip():
                raise ConformanceError(f"{path}:{number}: '{test_id}' needs a reason")
            if test_id in entries:
                raise ConformanceError(f"{path}:{number}: '{test_id}' is listed twice")
            entries[test_id] = reason.strip()
    return entries


FLAKY = "flaky:"


def judge(outcomes: list[Outcome], ledger: dict[str, str]) -> Verdict:
    """Compare a run with its ledger (only the functions the run reached). An entry whose
    reason starts with `flaky:` may pass or fail (a target bug that reads uninitialised
    memory, say); any other entry must fail."""
    new = [o for o in outcomes if o.status == "failed" and o.id not in ledger]
    passes = [o for o in outcomes if o.status == "passed" and o.id in ledger
              and not ledger[o.id].startswith(FLAKY)]
    return Verdict(new, passes)


def write_ledger(path: str, outcomes: list[Outcome], header: str,
                 previous: dict[str, str] | None = None) -> int:
    """Write the failures of a run as a ledger, keeping reasons already written; returns count."""
    previous = previous or {}
    failures = [o for o in outcomes if o.status == "failed"]
    width = max((len(o.id) for o in failures), default=0) + 2
    lines = _header_of(path) or [f"# {l}" if l else "#" for l in header.splitlines()]
    for o in failures:
        reason = previous.get(o.id) or cause_of(o)
        lines.append(f"{o.id.ljust(width)}{reason}")
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return len(failures)


def _header_of(path: str) -> list[str]:
    """The comment lines an existing ledger starts with (kept when it is rewritten)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    head = []
    for line in lines:
        if not line.startswith("#"):
            break
        head.append(line)
    return head
