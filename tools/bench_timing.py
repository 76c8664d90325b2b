"""The measurement shared by shlo-bench's tiers (tools/shlo_bench.py, bench_models.py,
gpu_bench.py, flag_sweep.py): a workload's inputs and XLA's compiled function, agreement with
XLA, interleaved timing, the results table and the geometric mean."""
from __future__ import annotations

import math
import statistics
import sys
import time

import numpy as np


def _time(fn, repeats: int, cpu: list | None = None) -> float:
    """The median wall time of `repeats` calls; with `cpu`, appends the process CPU time per
    call (all threads) over them."""
    samples = []
    start_cpu = time.process_time()
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    if cpu is not None:
        cpu.append((time.process_time() - start_cpu) / repeats)
    return statistics.median(samples)


def _repeats(seconds_per_call: float, budget: float) -> int:
    return max(1, min(50, int(budget / max(seconds_per_call, 1e-6))))


def prepare(w, target: str = "cpu"):
    """Inputs, the StableHLO text JAX lowers the workload to, and XLA's compiled function
    (on device arrays for the CPU, host in and host out on a GPU target, as shlo's calls)."""
    import jax

    from ..runtime.devices import aligned

    args = [aligned(a) for a in w.inputs(np.random.default_rng(0))]
    on_cpu = target.split(":")[0] == "cpu"
    start = time.perf_counter()
    with jax.default_matmul_precision("float32" if not on_cpu else None):
        lowered = jax.jit(w.jax_fn).lower(*args)
        xla = lowered.compile()
    xla_ms = (time.perf_counter() - start) * 1e3
    if not on_cpu:
        def host_call():
            return jax.tree.map(np.asarray, xla(*args))
        return args, lowered.as_text(), host_call, xla_ms
    device_args = [jax.device_put(a) for a in args]
    return args, lowered.as_text(), (lambda: jax.block_until_ready(xla(*device_args))), xla_ms


def disagreement(w, got, want) -> str | None:
    """None when shlo's result matches XLA's within the workload's tolerance, else why not."""
    want = np.asarray(want)
    got = np.asarray(got, dtype=want.dtype)
    if got.shape == want.shape and np.allclose(got, want, rtol=w.rtol, atol=w.atol):
        return None
    if got.shape != want.shape:
        return f"shlo and XLA disagree (shapes {got.shape} vs {want.shape})"
    worst = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))))
    return f"shlo and XLA disagree (max abs difference {worst:.3g})"


def time_interleaved(contenders: dict, rounds: int, budget: float,
                     cpu: dict | None = None) -> dict:
    """name -> (median over rounds of each round's median seconds, relative spread). With
    `cpu` (a dict), also fills name -> median over rounds of the process CPU seconds per call:
    on a loaded machine a steadier measure of the work than the wall time, which also counts
    waits for the scheduler."""
    repeats = {}
    for name, fn in contenders.items():
        start = time.perf_counter()
        fn()
        repeats[name] = _repeats(time.perf_counter() - start, budget)
    medians: dict[str, list[float]] = {name: [] for name in contenders}
    cpus: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            medians[name].append(_time(fn, repeats[name], cpus[name]))
    if cpu is not None:
        cpu.update({name: statistics.median(v) for name, v in cpus.items()})
    return {name: (statistics.median(v), (max(v) - min(v)) / statistics.median(v))
            for name, v in medians.items()}


def geomean(values) -> float:
    values = list(values)
    return math.exp(sum(math.log(x) for x in values) / len(values))


def print_table(rows, out=None):
    out = out or sys.stdout
    print(f"{'workload':<26} {'shlo ms':>9} {'XLA ms':>9} {'numpy ms':>9} {'shlo/XLA':>9} "
          f"{'spread':>7} {'compile ms shlo/XLA':>20}", file=out)
    for r in rows:
        if "error" in r:
            print(f"{r['name']:<26} ERROR: {r['error']}", file=out)
            continue
        numpy_ms = f"{r['numpy_ms']:.2f}" if "numpy_ms" in r else "-"
        spread = max(r["shlo_spread"], r["xla_spread"])
        print(f"{r['name']:<26} {r['shlo_ms']:>9.2f} {r['xla_ms']:>9.2f} {numpy_ms:>9} "
              f"{r['ratio_xla']:>9.2f} {spread:>6.0%} "
              f"{r['shlo_compile_ms']:>9.0f}/{r['xla_compile_ms']:<9.0f}", file=out)
    ratios = [r["ratio_xla"] for r in rows if "ratio_xla" in r]
    if ratios:
        print(f"geomean shlo/XLA over {len(ratios)} workloads: {geomean(ratios):.2f} "
              f"(worst {max(ratios):.2f}; below 1 means shlo is faster)", file=out)


def select(suite, only: str | None, prog: str = "shlo-bench"):
    """The named workloads (heavy ones included), or the light ones; None after an error."""
    if not only:
        return [w for w in suite if not w.heavy]
    names = only.split(",")
    unknown = sorted(set(names) - {w.name for w in suite})
    if unknown:
        print(f"{prog}: unknown workload(s) {', '.join(unknown)} (see --list)", file=sys.stderr)
        return None
    return [w for w in suite if w.name in names]
