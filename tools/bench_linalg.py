"""Linear algebra on the CPU: shlo (LAPACK host calls by default, or the StableHLO
decompositions with --stablehlo) against XLA (jax.jit on the CPU), per routine and size.

    python -m shlo.tools.bench_linalg                       # every routine, 64 96 256 512, f32 f64
    python -m shlo.tools.bench_linalg --only potrf,syevd --sizes 96 --dtypes f32

Prints per case the median call time of each, their ratio (shlo / XLA) and the cold compile
times (shlo without its cache, XLA's jit); the last rows are the geometric means, and the
whole pipeline of the issue (Cholesky solve, eigvalsh, QR and slogdet of one matrix).
Results must agree before a time counts. Never asserts on time.
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

ROUTINES = ("potrf", "trsm", "getrf", "geqrf", "syevd", "gesdd", "pipeline")


def _functions():
    import jax
    import jax.numpy as jnp

    def pipeline(spd, b):
        x = jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(spd), b)
        q, r = jnp.linalg.qr(spd)
        return x, jnp.linalg.eigvalsh(spd), q, r, jnp.linalg.slogdet(spd)[1]

    return {
        "potrf": lambda spd, b: jnp.linalg.cholesky(spd),
        "trsm": lambda spd, b: jax.scipy.linalg.solve_triangular(spd, b, lower=True),
        "getrf": lambda spd, b: jax.scipy.linalg.lu_factor(spd)[0],
        "geqrf": lambda spd, b: jnp.linalg.qr(spd, mode="r"),
        "syevd": lambda spd, b: jnp.linalg.eigh(spd)[0],
        "gesdd": lambda spd, b: jnp.linalg.svd(spd, compute_uv=False),
        "pipeline": pipeline,
    }


def _median_ms(fn, budget: float = 0.4) -> float:
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    repeats = max(3, min(50, int(budget / max(once, 1e-6))))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def run_case(routine: str, n: int, dtype: str, target) -> dict:
    import jax

    import shlo
    np_dtype = np.dtype({"f32": np.float32, "f64": np.float64}[dtype])
    rng = np.random.default_rng(0)
    m = rng.standard_normal((n, n))
    spd = (m @ m.T / n + np.eye(n)).astype(np_dtype)
    b = rng.standard_normal((n, 8)).astype(np_dtype)
    fn = _functions()[routine]
    with jax.enable_x64(dtype == "f64"):
        start = time.perf_counter()
        lowered = jax.jit(fn, keep_unused=True).lower(spd, b)
        xla = lowered.compile()
        xla_compile = time.perf_counter() - start
        text = lowered.as_text()
        dspd, db = jax.device_put(spd), jax.device_put(b)
        want = jax.tree.leaves(xla(dspd, db))
        start = time.perf_counter()
        exe = shlo.compile(text, target=target, cache=False)
        shlo_compile = time.perf_counter() - start
        got = exe(spd, b)
        got = list(got) if isinstance(got, tuple) else [got]
        tol = 1e-3 if dtype == "f32" else 1e-9
        for g, w in zip(got, want):
            w = np.asarray(w)
            if routine not in ("geqrf", "getrf") and not np.allclose(g, w, rtol=tol, atol=tol):
                raise AssertionError(f"{routine} {n} {dtype}: shlo and XLA disagree "
                                     f"(max {np.abs(g - w).max():.3g})")
        xla_ms = _median_ms(lambda: jax.block_until_ready(xla(dspd, db)))
    shlo_ms = _median_ms(lambda: exe(spd, b))
    return dict(routine=routine, n=n, dtype=dtype, shlo_ms=shlo_ms, xla_ms=xla_ms,
                shlo_compile_s=shlo_compile, xla_compile_s=xla_compile)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(ROUTINES))
    parser.add_argument("--sizes", default="64,96,256,512")
    parser.add_argument("--dtypes", default="f32,f64")
    parser.add_argument("--stablehlo", action="store_true",
                        help="the StableHLO decompositions instead of LAPACK host calls")
    args = parser.parse_args(argv)
    target = "cpu"
    if args.stablehlo:
        from ..runtime.lapack_host import linalg_as_stablehlo
        target = linalg_as_stablehlo("cpu")
    rows = []
    print(f"{'case':<22}{'shlo ms':>10}{'XLA ms':>10}{'ratio':>8}{'compile s':>11}{'XLA s':>8}")
    for routine in args.only.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            for dtype in args.dtypes.split(","):
                r = run_case(routine, n, dtype, target)
                rows.append(r)
                print(f"{routine + ' ' + str(n) + ' ' + dtype:<22}{r['shlo_ms']:>10.3f}"
                      f"{r['xla_ms']:>10.3f}{r['shlo_ms'] / r['xla_ms']:>8.2f}"
                      f"{r['shlo_compile_s']:>11.2f}{r['xla_compile_s']:>8.2f}", flush=True)
    if rows:
        ratio = math.exp(statistics.mean(math.log(r["shlo_ms"] / r["xla_ms"]) for r in rows))
        compile_ratio = math.exp(statistics.mean(
            math.log(r["shlo_compile_s"] / r["xla_compile_s"]) for r in rows))
        print(f"geometric mean shlo/XLA: time {ratio:.2f}, cold compile {compile_ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
