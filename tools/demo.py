"""The end-to-end demo (`make demo`): an MLP with a GELU (chlo.erf) and a softmax.

Built with shlo's Python builders, legalized by shlo's own `shlo-legalize-chlo`
pass, compiled in-process by IREE for CPU and for Vulkan, run on both, and
checked against a numpy implementation. Prints a table and writes the .vmfb
files; exits non-zero if any result is wrong.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any

import numpy as np

BATCH, IN, HIDDEN, OUT = 16, 64, 256, 10
TOLERANCE = 1e-5          # on softmax probabilities (values in [0, 1])


def build_mlp(ctx):
    """softmax(gelu(x @ w1 + b1) @ w2 + b2) as a StableHLO/CHLO module."""
    from iree.compiler import ir
    from iree.compiler.dialects import func

    from shlo.dialect import chlo, stablehlo

    def tensor(*shape):
        return ir.RankedTensorType.get(shape, ir.F32Type.get())

    def matmul(a, b):
        return stablehlo.dot_general(a, b, lhs_contracting_dimensions=[1],
                                     rhs_contracting_dimensions=[0])

    def scalar(value):
        return stablehlo.constant(np.array(value, dtype=np.float32))

    def reduce_rows(x, init, combine):
        row = stablehlo.reduce([x], [scalar(init)], dimensions=[1], body=combine)
        return stablehlo.broadcast_in_dim(row, broadcast_dimensions=[0], result_type=x.type)

    def gelu(h):
        # 0.5 * h * (1 + erf(h / sqrt(2)))
        erf = chlo.erf(chlo.broadcast_multiply(h, scalar(1 / math.sqrt(2))))
        half_h = chlo.broadcast_multiply(h, scalar(0.5))
        return stablehlo.multiply(half_h, chlo.broadcast_add(erf, scalar(1.0)))

    def softmax(z):
        shifted = stablehlo.subtract(z, reduce_rows(z, -np.inf, stablehlo.maximum))
        e = stablehlo.exponential(shifted)
        return stablehlo.divide(e, reduce_rows(e, 0.0, stablehlo.add))

    with ctx, ir.Location.name("mlp"):
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            @func.FuncOp.from_py_func(tensor(BATCH, IN), tensor(IN, HIDDEN), tensor(HIDDEN),
                                      tensor(HIDDEN, OUT), tensor(OUT), name="main")
            def main(x, w1, b1, w2, b2):
                hidden = gelu(chlo.broadcast_add(matmul(x, w1), b1))
                return softmax(chlo.broadcast_add(matmul(hidden, w2), b2))
    return module


def mlp_numpy(x, w1, b1, w2, b2):
    """The same model in float64 numpy, with math.erf: the oracle."""
    x, w1, b1, w2, b2 = (a.astype(np.float64) for a in (x, w1, b1, w2, b2))
    h = x @ w1 + b1
    h = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
    z = h @ w2 + b2
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def inputs(seed: int = 0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) * scale for shape, scale in (
        ((BATCH, IN), 1.0), ((IN, HIDDEN), 0.2), ((HIDDEN,), 0.1), ((HIDDEN, OUT), 0.2),
        ((OUT,), 0.1))]


def run_target(module, target: str, args, want, out_dir: str) -> dict:
    import shlo
    from shlo.runtime.devices import driver_available

    row: dict[str, Any] = {"target": target}
    start = time.perf_counter()
    executable = shlo.compile(module, target=target, pipeline=None, cache=False)
    row["compile_ms"] = (time.perf_counter() - start) * 1e3
    path = os.path.join(out_dir, f"mlp_{target}.vmfb")
    executable.save(path)
    row["vmfb"] = path
    ok, why = driver_available(executable.device)
    if not ok:
        row["status"] = f"compiled; not run: {why}"
        return row
    executable(*args)                                  # first call loads the module
    start = time.perf_counter()
    got = executable(*args)
    row["run_ms"] = (time.perf_counter() - start) * 1e3
    row["max_abs_error"] = float(np.max(np.abs(got.astype(np.float64) - want)))
    row["status"] = "ok" if row["max_abs_error"] <= TOLERANCE else "WRONG"
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="shlo-demo", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out", help="where to write the .mlir and .vmfb files")
    parser.add_argument("--targets", default="cpu,vulkan")
    args = parser.parse_args(argv)

    import shlo
    from shlo.passes.chlo.legalize_chlo import LegalizeChlo

    os.makedirs(args.out, exist_ok=True)
    module = build_mlp(shlo.context())
    _write(args.out, "mlp.mlir", shlo.print_module(module))
    LegalizeChlo().apply(module)
    legalized = shlo.print_module(module)
    assert "chlo." not in legalized
    _write(args.out, "mlp_legalized.mlir", legalized)

    data = inputs()
    want = mlp_numpy(*data)
    rows = [run_target(module, t, data, want, args.out) for t in args.targets.split(",")]
    print(f"MLP {BATCH}x{IN} -> {HIDDEN} (GELU via chlo.erf) -> {OUT} (softmax); "
          f"CHLO legalized by shlo-legalize-chlo; oracle: numpy float64")
    print(f"{'target':<8} {'compile ms':>10} {'run ms':>8} {'max abs error':>14}  status")
    for r in rows:
        run = f"{r['run_ms']:.2f}" if "run_ms" in r else "-"
        err = f"{r['max_abs_error']:.2e}" if "max_abs_error" in r else "-"
        print(f"{r['target']:<8} {r['compile_ms']:>10.0f} {run:>8} {err:>14}  {r['status']}")
    print(f"wrote {', '.join(r['vmfb'] for r in rows)}")
    return 1 if any(r["status"] == "WRONG" for r in rows) else 0


def _write(directory, name, text):
    with open(os.path.join(directory, name), "w") as f:
        f.write(text)


if __name__ == "__main__":
    sys.exit(main())
