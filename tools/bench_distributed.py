"""Time a data-parallel training step (jax MLP, SGD) on 1, 2 and 4 MPI ranks.

    python -m shlo.tools.bench_distributed [--ranks 1,2,4] [--steps 10] [--batch 2048]

The global batch is fixed and split over the ranks (parameters replicated; the gradients'
all_reduce is the only exchange). Prints per rank count: seconds per step (median over
ranks of the per-step mean, after one warm-up step) and the bytes each rank sent per step.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

LOWER = r"""
import os, sys, json
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
ranks, batch, width, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
mesh = Mesh(np.array(jax.devices()[:ranks]), ("data",))
rep, split = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))
def loss(params, x, y):
    w1, b1, w2 = params
    return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 - y) ** 2)
def step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return [p - 0.01 * g for p, g in zip(params, grads)], value
f32 = jax.ShapeDtypeStruct
shapes = ([f32((width, 2 * width), jnp.float32), f32((2 * width,), jnp.float32),
           f32((2 * width, width), jnp.float32)], f32((batch, width), jnp.float32),
          f32((batch, width), jnp.float32))
g = jax.jit(step, in_shardings=([rep] * 3, split, split), out_shardings=([rep] * 3, rep))
open(out, "w").write(g.lower(*shapes).as_text())
"""


def worker(vmfb: str, steps: int, batch: int, width: int) -> None:
    """One rank: run `steps` steps (after a warm-up), print its timing as JSON (rank 0)."""
    import numpy as np

    import shlo
    from shlo.runtime import distributed as d
    exe = shlo.load(vmfb)
    ranks, me = d.size(), d.rank()
    rng = np.random.default_rng(me)
    params = [rng.standard_normal((width, 2 * width)).astype(np.float32) * 0.05,
              np.zeros(2 * width, np.float32),
              rng.standard_normal((2 * width, width)).astype(np.float32) * 0.05]
    x = rng.standard_normal((batch // ranks, width)).astype(np.float32)
    y = rng.standard_normal((batch // ranks, width)).astype(np.float32)

    def step(params):
        *params, loss = d.run(exe, *params, x, y, num_replicas=1, num_partitions=ranks)
        return params, loss

    params, _ = step(params)
    sent, start = d.traffic[0], time.perf_counter()
    for _ in range(steps):
        params, loss = step(params)
    seconds = (time.perf_counter() - start) / steps
    times = d.world().gather((seconds, (d.traffic[0] - sent) / steps), root=0)
    if me == 0:
        print(json.dumps({"ranks": ranks, "seconds": sorted(t for t, _ in times)[ranks // 2],
                          "bytes": max(b for _, b in times), "loss": float(loss)}))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ranks", default="1,2,4")
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--batch", type=int, default=2048)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.worker, args.steps, args.batch, args.width)
        return 0
    import shlo
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    with tempfile.TemporaryDirectory() as folder:
        for ranks in [int(r) for r in args.ranks.split(",")]:
            text = os.path.join(folder, f"step{ranks}.mlir")
            subprocess.run([sys.executable, "-c", LOWER, str(ranks), str(args.batch),
                            str(args.width), text], check=True)
            vmfb = os.path.join(folder, f"step{ranks}.vmfb")
            with open(vmfb, "wb") as f:
                f.write(shlo.compile(open(text).read(), target="cpu").vmfb)
            done = subprocess.run([mpiexec, "-n", str(ranks), sys.executable, "-m",
                                   "shlo.tools.bench_distributed", "--worker", vmfb,
                                   "--steps", str(args.steps), "--batch", str(args.batch),
                                   "--width", str(args.width)], capture_output=True, text=True)
            if done.returncode:
                print(done.stderr[-2000:], file=sys.stderr)
                return 1
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{r['ranks']} rank(s): {r['seconds'] * 1e3:8.1f} ms/step, "
                  f"{r['bytes'] / 2**20:7.2f} MiB sent per rank per step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
