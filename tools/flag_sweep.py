"""flag-sweep: every bench workload compiled under several IREE CPU flag sets, timed against XLA.

    python -m shlo.tools.flag_sweep --only matmul_1024,attention_s512_d512_h8 --json sweep.json
    python -m shlo.tools.flag_sweep --configs default,o3_dt

For each workload, each flag set (CONFIGS, data) is compiled through shlo's
default pipeline, its result checked against XLA's, and then all flag sets and
XLA are timed in the same interleaved rounds, so their ratios are comparable
on a noisy shared machine. Prints one row per workload (time / XLA per flag
set; `fail` when a set does not compile or disagrees) and per flag set the
geometric mean over the workloads every set ran. shlo's own CPU defaults
(shlo.pipelines.targets) are chosen from these tables; docs/performance.md
records them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from .bench_timing import disagreement, geomean, prepare, select, time_interleaved

O3 = ("--iree-opt-level=O3",)
DT = ("--iree-opt-data-tiling",)
UK = ("--iree-llvmcpu-enable-ukernels=all",)
NO_TRANSPOSE_PROPAGATION = ("--iree-opt-aggressively-propagate-transposes=false",)
NO_AGGRESSIVE_FUSION = ("--iree-dispatch-creation-enable-aggressive-fusion=false",)

# Flag set name -> the IREE flags it adds to the cpu target (`shlo_default` adds none: it is
# whatever shlo's cpu target does today, per-module choices included).
CONFIGS: dict[str, tuple[str, ...]] = {
    "shlo_default": (),
    "o0": ("--iree-opt-level=O0", "--iree-opt-data-tiling=false"),
    "o2": ("--iree-opt-level=O2",),
    "o3": O3,
    "o0_dt": ("--iree-opt-level=O0",) + DT,
    "o3_dt": O3 + DT,
    "o3_dt_uk": O3 + DT + UK,
    "o3_dt_notp": O3 + DT + NO_TRANSPOSE_PROPAGATION,
    "o3_dt_nofuse": O3 + DT + NO_AGGRESSIVE_FUSION,
}


def sweep_workload(w, configs: dict, rounds: int, budget: float) -> dict:
    """One row: per flag set its compile time and time / XLA (or the first line of its error)."""
    import shlo

    args, text, xla_call, xla_ms = prepare(w)
    want = xla_call()
    row = {"name": w.name, "group": w.group, "xla_compile_ms": xla_ms, "configs": {}}
    contenders = {"xla": xla_call}
    for name, flags in configs.items():
        start = time.perf_counter()
        try:
            executable = shlo.compile(text, target="cpu", flags=flags, cache=False)
        except shlo.Error as e:
            row["configs"][name] = {"error": str(e).splitlines()[0][:200]}
            continue
        result: dict[str, object] = {"compile_ms": (time.perf_counter() - start) * 1e3}
        call = (lambda exe: lambda: exe(*args))(executable)
        error = disagreement(w, call(), want)
        if error:
            result["error"] = error
        else:
            contenders[name] = call
        row["configs"][name] = result
    timed = time_interleaved(contenders, rounds, budget)
    row["xla_ms"] = timed["xla"][0] * 1e3
    for name, (seconds, spread) in timed.items():
        if name != "xla":
            row["configs"][name].update(ms=seconds * 1e3, spread=spread,
                                        ratio_xla=seconds / timed["xla"][0])
    return row


def print_table(rows, names, out=None):
    out = out or sys.stdout
    print(f"{'workload (time / XLA)':<24} {'XLA ms':>8} " + " ".join(f"{n:>12}" for n in names),
          file=out)
    for r in rows:
        cells = []
        for n in names:
            c = r["configs"].get(n, {})
            cells.append(f"{c['ratio_xla']:>12.2f}" if "ratio_xla" in c else f"{'fail':>12}")
        print(f"{r['name']:<24} {r['xla_ms']:>8.2f} " + " ".join(cells), file=out)
    complete = [r for r in rows if all("ratio_xla" in r["configs"].get(n, {}) for n in names)]
    if complete:
        means = [geomean(r["configs"][n]["ratio_xla"] for r in complete) for n in names]
        print(f"{f'geomean ({len(complete)} rows)':<24} {'':>8} "
              + " ".join(f"{m:>12.2f}" for m in means), file=out)
    for n in names:
        failed = [r["name"] for r in rows if "error" in r["configs"].get(n, {})]
        for name in failed:
            print(f"  {n} on {name}: {rows_error(rows, name, n)}", file=out)


def rows_error(rows, workload: str, config: str) -> str:
    return next(r["configs"][config]["error"] for r in rows if r["name"] == workload)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="flag-sweep", description=__doc__.splitlines()[0])
    p.add_argument("--only", help="comma-separated workload names (heavy ones included)")
    p.add_argument("--configs", help=f"comma-separated flag sets (default all: {', '.join(CONFIGS)})")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--budget", type=float, default=0.2, help="seconds per contender per round")
    p.add_argument("--json", help="write one JSON object per workload here")
    args = p.parse_args(argv)

    from .bench_workloads import workloads

    suite = select(workloads(), args.only, prog="flag-sweep")
    if suite is None:
        return 2
    names = args.configs.split(",") if args.configs else list(CONFIGS)
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        print(f"flag-sweep: unknown flag set(s) {', '.join(unknown)} "
              f"(known: {', '.join(CONFIGS)})", file=sys.stderr)
        return 2
    rows = []
    for i, w in enumerate(suite):
        print(f"[{i + 1}/{len(suite)}] {w.name}", file=sys.stderr, flush=True)
        rows.append(sweep_workload(w, {n: CONFIGS[n] for n in names}, args.rounds, args.budget))
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(rows[-1]) + "\n")
    print_table(rows, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
