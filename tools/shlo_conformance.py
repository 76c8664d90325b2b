"""shlo-conformance: run StableHLO check-based test files on a target and report each function.

    shlo-conformance --target cpu ../shared/conformance/stablehlo-interpret
    shlo-conformance --target vulkan --jobs 2 --json out.jsonl add.mlir sort.mlir
    shlo-conformance --target reference --by-cause suite/
    shlo-conformance --target cpu --ledger test/conformance/ledger_cpu.txt suite/

Each failing function gets one line (file, function, first mismatch or error); the last line
is `N passed, M failed, K skipped`. With --ledger, the exit status is 0 when the failures are
exactly the ledger's (for the functions run); without, when nothing fails.
"""
from __future__ import annotations

import argparse
import json
import sys

TARGETS = "cpu[:CPU] | vulkan[:GPU] | cuda[:sm_XX] | vmvx | reference"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="shlo-conformance", description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="+", metavar="PATH", help=".mlir test files or folders")
    p.add_argument("--target", default="cpu", help=TARGETS)
    p.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (default: CPUs)")
    p.add_argument("--json", metavar="FILE", help="write one JSON line per function to FILE")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds a worker may spend on one file before it is stopped")
    p.add_argument("--keep-constants", action="store_true",
                   help="leave test inputs as constants (IREE may then fold a test away at "
                        "compile time); by default they become runtime arguments")
    p.add_argument("--by-cause", action="store_true", help="print failures grouped by cause")
    p.add_argument("--ledger", metavar="FILE", help="expected failures: judge the run by them")
    p.add_argument("--write-ledger", metavar="FILE",
                   help="write this run's failures as a ledger (keeps reasons already there)")
    args = p.parse_args(argv)

    from shlo import Error
    from .conformance_ledger import judge, read_ledger, write_ledger
    from .conformance_report import (Progress, cause_table, failure_line, summary_line)
    from .conformance_runner import Runner, discover

    if args.target != "reference":
        from shlo.pipelines.targets import get_target
        try:
            get_target(args.target)
        except Error as e:
            print(f"shlo-conformance: {e}", file=sys.stderr)
            return 2
    try:
        files = discover(args.paths)
        ledger = read_ledger(args.ledger) if args.ledger else None
    except (OSError, Error) as e:
        print(f"shlo-conformance: {e}", file=sys.stderr)
        return 2
    progress = Progress(len(files))
    runner = Runner(args.target, jobs=args.jobs, timeout=args.timeout,
                    lift_constants=not args.keep_constants, on_outcome=progress.outcome, on_file_done=progress.file_done)
    try:
        outcomes = runner.run(files)
    finally:
        progress.close()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            for o in outcomes:
                f.write(json.dumps(o.as_json()) + "\n")
    for o in outcomes:
        if o.status == "failed":
            print(failure_line(o))
    if args.by_cause:
        print("failures by cause:")
        print("\n".join(cause_table(outcomes)))
    status = 0 if all(o.status != "failed" for o in outcomes) else 1
    if ledger is not None:
        verdict = judge(outcomes, ledger)
        for line in verdict.lines():
            print(line)
        status = 0 if verdict.ok else 1
    if args.write_ledger:
        previous = _read_if_exists(args.write_ledger, read_ledger)
        header = (f"Expected failures of `shlo-conformance --target {args.target}`.\n"
                  "One test function per line: file::function (#k: the k-th function of that "
                  "name in the file), then why it fails.\n"
                  f"Regenerate: shlo-conformance --target {args.target} --write-ledger FILE "
                  "SUITE (reasons already written are kept).")
        write_ledger(args.write_ledger, outcomes, header, previous)
    print(summary_line(outcomes))
    return status


def _read_if_exists(path, read):
    import os
    return read(path) if os.path.exists(path) else {}


if __name__ == "__main__":
    sys.exit(main())
