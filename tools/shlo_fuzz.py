"""shlo-fuzz: differential fuzzing of random StableHLO programs.

    shlo-fuzz --count 200 --seed 1 --target cpu,vulkan --out fuzz-out
    shlo-fuzz --replay fuzz-out/mismatch-cpu-1-17
    shlo-fuzz --jax --count 100 --seed 1 --target cpu,vulkan --out fuzz-out

Each program (built with shlo's XlaBuilder API, inputs as runtime arguments) is compiled and
run by shlo on every target in a child process, and compared with the StableHLO reference
interpreter and XLA. Failures are shrunk to small reproducers (docs/fuzzing.md). With --jax
the programs are whole jax programs, checked against XLA in f32 and f64.
"""
from __future__ import annotations

import argparse
import signal
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="shlo-fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100, help="programs to run")
    ap.add_argument("--seed", type=int, default=0, help="the run's seed (deterministic)")
    ap.add_argument("--first", type=int, default=0,
                    help="number of the first program (rerun one: --first I --count 1)")
    ap.add_argument("--target", default="cpu", help="comma-separated: cpu, vulkan")
    ap.add_argument("--out", default=None, help="directory for reproducers")
    ap.add_argument("--max-elements", type=int, default=1 << 22,
                    help="largest tensor a program may hold")
    ap.add_argument("--max-nodes", type=int, default=8, help="most ops (nodes) per program")
    ap.add_argument("--shrink-tests", type=int, default=80,
                    help="most candidate programs tried per failure (0: no shrinking)")
    ap.add_argument("--shrink-seconds", type=float, default=600.0,
                    help="time allowed for shrinking one failure")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds one compile-and-run may take before it counts as a crash")
    ap.add_argument("--batch", type=int, default=8,
                    help="programs compiled as one module per target (1: one by one); a "
                         "program that fails is checked again alone")
    ap.add_argument("--replay", metavar="DIR", help="rerun a reproducer and compare")
    ap.add_argument("--jax", action="store_true",
                    help="whole jax programs (layers, loops, conditionals, training steps) "
                         "against XLA in f32 and f64, instead of random StableHLO")
    args = ap.parse_args(argv)

    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import Worker
    if args.replay:
        target = args.target if args.target != "cpu" or "--target" in (argv or sys.argv) \
            else None
        why = fuzz.replay(args.replay, target, Worker(args.timeout))
        print(f"{args.replay}: " + ("passes" if why is None else f"still fails: {why}"))
        return 0 if why is None else 1
    targets = [t for t in args.target.split(",") if t]
    signal.signal(signal.SIGTERM, _interrupt)   # `kill`: stop and print the summary so far
    if args.jax:
        from shlo.tools.fuzz import jax_programs
        result = jax_programs.run(args.count, args.seed, targets, args.out,
                                  Worker(args.timeout), first=args.first,
                                  progress=fuzz.Progress(args.count))
    else:
        result = fuzz.run(args.count, args.seed, targets, args.out, args.max_elements,
                          args.max_nodes, args.shrink_tests, Worker(args.timeout),
                          first=args.first, shrink_seconds=args.shrink_seconds,
                          batch=args.batch)
    print(result["summary"])
    return 1 if result["mismatches"] or result["crashes"] or result["errors"] else 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
