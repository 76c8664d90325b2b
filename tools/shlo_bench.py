"""shlo-bench: shlo's compiled code timed side by side with XLA (via jax) and numpy.

    shlo-bench                      # the suite (heavy workloads only with --only)
    shlo-bench --only matmul_1024,softmax_4096x4096 --rounds 7 --json bench.json
    shlo-bench --suite models       # whole jax programs (tools/bench_models.py)

Each workload is one JAX function: JAX lowers it to StableHLO text, shlo
compiles the text through its default pipeline for the target, XLA runs the
same function. Inputs are 64-byte aligned (`shlo.runtime.devices.aligned`), so
on CPU shlo reads them in place, as XLA reads its device_put arrays; numpy uses
the same arrays. On a GPU target shlo's calls take numpy arrays and return numpy
arrays, so XLA's do too (host -> device -> host, timed on both sides), and XLA's
f32 products are asked for full f32 precision (its GPU default is TF32). With
--resident both sides run on data already on the device, queued asynchronously and
waited for once per batch (tools/gpu_bench.py). Rounds interleave the contenders;
the time of a contender is the median over rounds of each round's median. Results
must agree before any time counts. Prints a table and the geometric mean of shlo/XLA.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from .bench_timing import disagreement, prepare, print_table, select, time_interleaved


def run_workload(w, target: str, rounds: int, flags: list[str], budget: float,
                 resident: bool = False) -> dict:
    import shlo

    if resident:
        from .gpu_bench import resident_row
        return resident_row(w, target, rounds, flags, budget)

    args, text, xla_call, xla_ms = prepare(w, target)
    row = {"name": w.name, "group": w.group, "target": target, "xla_compile_ms": xla_ms}
    start = time.perf_counter()
    try:
        executable = shlo.compile(text, target=target, flags=flags, cache=False)  # cold compile
    except shlo.Error as e:
        row["error"] = str(e).splitlines()[0][:300]
        return row
    row["shlo_compile_ms"] = (time.perf_counter() - start) * 1e3

    contenders = {"shlo": lambda: executable(*args), "xla": xla_call}
    if w.numpy_fn is not None:
        contenders["numpy"] = lambda: w.numpy_fn(*args)
    error = disagreement(w, contenders["shlo"](), contenders["xla"]())
    if error:
        row["error"] = error
        return row
    for name, (seconds, spread) in time_interleaved(contenders, rounds, budget).items():
        row[f"{name}_ms"] = seconds * 1e3
        row[f"{name}_spread"] = spread
    row["ratio_xla"] = row["shlo_ms"] / row["xla_ms"]
    if "numpy_ms" in row:
        row["ratio_numpy"] = row["shlo_ms"] / row["numpy_ms"]
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="shlo-bench", description=__doc__.splitlines()[0])
    p.add_argument("--only", help="comma-separated workload names (heavy ones included)")
    p.add_argument("--target", default="cpu", help="cpu | vulkan | cuda")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    p.add_argument("--budget", type=float, default=0.3,
                   help="seconds per contender per round (sets the repeats)")
    p.add_argument("--iree-flag", action="append", default=[], help="extra IREE flag")
    p.add_argument("--json", help="write one JSON object per workload here")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    p.add_argument("--resident", action="store_true",
                   help="inputs and results stay on the device; calls queued, one wait a batch")
    p.add_argument("--suite", choices=("ops", "models"), default="ops",
                   help="ops: single-op workloads; models: whole jax programs (bench_models)")
    p.add_argument("--no-vulkan", action="store_true",
                   help="models: skip the vulkan compile-time column")
    p.add_argument("--small", action="store_true", help="models: the small sizes (the test's)")
    args = p.parse_args(argv)
    if args.suite == "models":
        from .bench_models import main as models_main
        return models_main(args)

    from .bench_workloads import workloads

    suite = workloads()
    if args.list:
        for w in suite:
            print(f"{w.name:<26} {w.group:<12} {'(heavy)' if w.heavy else ''}")
        return 0
    suite = select(suite, args.only)
    if suite is None:
        return 2
    rows = []
    tty = sys.stderr.isatty()
    for i, w in enumerate(suite):
        if tty:
            print(f"\r[{i + 1}/{len(suite)}] {w.name:<30}", end="", file=sys.stderr, flush=True)
        rows.append(run_workload(w, args.target, args.rounds, args.iree_flag, args.budget,
                                 args.resident))
    if tty:
        print("\r" + " " * 50 + "\r", end="", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print_table(rows)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
