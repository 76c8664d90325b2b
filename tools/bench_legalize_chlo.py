"""Speed of shlo-legalize-chlo against the wheel's C++ chlo-legalize-to-stablehlo.

    python -m shlo.tools.bench_legalize_chlo [--ops 10000] [--rounds 5]

Builds modules of N CHLO ops (default 10,000) and times each pass on a fresh parse of the
same text, in alternating rounds (the parse is not timed), printing the median wall time of
each and the ratio shlo / C++. Workloads:
  mixed       the math and broadcasting ops both lowerings accept, in a chain, on 4 shapes
  broadcast   broadcasting ops only (numpy-style operands)
  distinct    every op on a shape of its own (no two ops share a signature: shlo's
              per-signature replay cache never hits)
The issue's goal is a ratio of at most 5x; nothing asserts it: read the ratio.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

SHLO = "builtin.module(func.func(shlo-legalize-chlo))"
CPP = "builtin.module(func.func(chlo-legalize-to-stablehlo))"
UNARY = ("erf", "erfc", "erf_inv", "lgamma", "digamma", "tan", "sinh", "cosh", "atan",
         "asinh", "acosh", "atanh", "asin", "acos", "square", "conj")
BINARY = ("add", "multiply", "subtract", "maximum", "divide", "power", "atan2")


def _chain(n: int, shapes: list[str], kinds: str) -> str:
    """A function per shape; ops cycle through the kinds, each feeding the next."""
    per = -(-n // len(shapes))
    funcs, made = [], 0
    for s, shape in enumerate(shapes):
        t = f"tensor<{shape}xf32>"
        row = t.replace(f"<{shape}x", f"<{shape.split('x')[-1]}x") if "x" in shape else t
        lines = [f"func.func @f{s}(%x: {t}, %r: {row}) -> {t} {{"]
        last = "%x"
        for i in range(min(per, n - made)):
            if kinds == "broadcast" or (kinds == "mixed" and i % 3 == 2):
                op = BINARY[i % len(BINARY)]
                lines.append(f"  %v{i} = chlo.broadcast_{op} {last}, %r : ({t}, {row}) -> {t}")
            else:
                op = UNARY[i % len(UNARY)]
                lines.append(f"  %v{i} = chlo.{op} {last} : {t} -> {t}")
            last = f"%v{i}"
        made += min(per, n - made)
        lines += [f"  return {last} : {t}", "}"]
        funcs.append("\n".join(lines))
    return "\n".join(funcs)


def workload(name: str, n: int) -> str:
    if name == "distinct":
        return _chain(n, [f"{2 + i}x{3 + i % 7}" for i in range(n)], "mixed")
    return _chain(n, ["16x32", "8x128", "1024", "4x4x4"], name)


def time_pass(text: str, pipeline: str) -> float:
    import shlo
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(text, context=shlo.context())
    start = time.perf_counter()
    run_pipeline(module.operation, pipeline)
    elapsed = time.perf_counter() - start
    if "chlo." in str(module.operation):
        raise SystemExit(f"bench_legalize_chlo: {pipeline} left CHLO ops")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=10000, help="CHLO ops per module")
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds per pass")
    p.add_argument("--only", default="", help="comma-separated workloads")
    args = p.parse_args(argv)
    names = [w for w in args.only.split(",") if w] or ["mixed", "broadcast", "distinct"]
    print(f"{'workload':<10} {'ops':>6} {'C++ ms':>9} {'shlo ms':>9} {'shlo/C++':>9}")
    for name in names:
        text = workload(name, args.ops)
        cpp, ours = [], []
        for _ in range(args.rounds):
            cpp.append(time_pass(text, CPP))
            ours.append(time_pass(text, SHLO))
        c, s = statistics.median(cpp), statistics.median(ours)
        print(f"{name:<10} {args.ops:>6} {c * 1e3:>9.0f} {s * 1e3:>9.0f} {s / c:>8.2f}x",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
