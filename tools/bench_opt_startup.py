"""Start-up benchmark: an empty module through shlo-opt and through iree-opt (the anchor).

    python -m shlo.tools.bench_opt_startup [--runs 20]

Runs both tools alternately on `module {}` (and on a small module through a C++ pipeline),
and prints the median wall time of each and the ratio shlo-opt / iree-opt. The issue's
target is a ratio within 2x; nothing here asserts it (machines differ): read the ratio.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SMALL = """func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
"""
CASES: tuple[tuple[str, str, list[str]], ...] = (
    ("empty module", "module {}\n", []),
    ("small module, --cse --canonicalize", SMALL, ["--cse", "--canonicalize"]))


def tool(name: str) -> str:
    """The tool next to this Python (the venv's bin), else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise SystemExit(f"bench_opt_startup: '{name}' not found next to {sys.executable} "
                         f"or on PATH")
    return found


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each tool per case")
    args = parser.parse_args(argv)
    shlo_opt, iree_opt = tool("shlo-opt"), tool("iree-opt")
    print(f"{'case':<38} {'iree-opt ms':>12} {'shlo-opt ms':>12} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, flags in CASES:
            path = os.path.join(tmp, "input.mlir")
            with open(path, "w") as f:
                f.write(text)
            for command in ([iree_opt, path, *flags], [shlo_opt, path, *flags]):
                wall(command)                                 # warm the file cache
            iree, shlo = [], []
            for _ in range(args.runs):                        # alternate: load drifts alike
                iree.append(wall([iree_opt, path, *flags]))
                shlo.append(wall([shlo_opt, path, *flags]))
            a, b = statistics.median(iree), statistics.median(shlo)
            print(f"{name:<38} {a * 1e3:>12.1f} {b * 1e3:>12.1f} {b / a:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
