"""Benchmarks of shlo's runtime layer, printed as ratios against named anchors (no assertions).

1. Call overhead: `Executable(*arrays)` (validation, upload, VM invoke, readback
   into a fresh numpy array) against the bare `iree.runtime` call a user would
   write (`SystemContext.modules.module.main(*arrays).to_host()`), on tiny and
   on larger tensors. Goal: at most 1.2x the bare call.
2. Compile: shlo's in-process compile (no cache) against the `iree-compile`
   subprocess on the same text and flags, and a compile-cache hit.

    python -m shlo.tools.bench_runtime [--device local-task|vulkan] [--calls N]

On Vulkan with Mesa's software driver the bare call cannot read results back
(`to_host()` fails: host pointers must be 4096-byte aligned), so its anchor
there is the bare call without read-back, and shlo's ratio includes the
staging copy the bare call skips.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

CALL_MODULE = """
func.func @main(%a: tensor<{shape}xf32>, %b: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %0 = stablehlo.add %a, %b : tensor<{shape}xf32>
  return %0 : tensor<{shape}xf32>
}}"""

COMPILE_MODULE = """
func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>, %b: tensor<32xf32>)
    -> tensor<64x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
       : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<64x32xf32>
  %2 = stablehlo.add %0, %1 : tensor<64x32xf32>
  %3 = stablehlo.tanh %2 : tensor<64x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.reduce(%3 init: %z) applies stablehlo.add across dimensions = [1]
       : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<64xf32>) -> tensor<64x32xf32>
  %6 = stablehlo.divide %3, %5 : tensor<64x32xf32>
  return %6 : tensor<64x32xf32>
}"""


def median_us(fns: list, calls: int, repeats: int = 7) -> list[float]:
    """Per function, the median over `repeats` rounds of its mean time per call in microseconds.

    Rounds interleave the functions, so a slow spell of the machine hits them all alike.
    """
    for fn in fns:
        fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, times in zip(fns, samples):
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            times.append((time.perf_counter() - start) / calls * 1e6)
    return [statistics.median(times) for times in samples]


def bench_calls(device: str, calls: int) -> list[tuple[str, float, float]]:
    import iree.runtime as rt

    import shlo
    from shlo.runtime.devices import device_config

    target = {"local-task": "cpu", "local-sync": "cpu"}.get(device, device)
    rows = []
    for shape, n in (("4", calls), ("512x512", max(calls // 20, 10))):
        executable = shlo.compile(CALL_MODULE.format(shape=shape), target=target, pipeline=None)
        executable.device = device
        dims = [int(d) for d in shape.split("x")]
        a, b = (np.random.default_rng(i).standard_normal(dims).astype(np.float32)
                for i in range(2))
        config = device_config(device)
        vm_module = rt.VmModule.copy_buffer(config.vm_instance, executable.vmfb)
        bare = rt.SystemContext(vm_modules=[vm_module], config=config).modules.module["main"]
        function = executable.function("main")
        try:
            np.testing.assert_array_equal(executable(a, b), bare(a, b).to_host())
            anchor, bare_call = "bare iree.runtime", lambda: bare(a, b).to_host()
        except ValueError as e:      # Vulkan on lavapipe: to_host() cannot import host memory
            print(f"  bare .to_host() fails on {device}: {str(e).splitlines()[0][:90]}")
            anchor, bare_call = "bare iree.runtime (no read-back)", lambda: bare(a, b)
        contenders = {anchor: bare_call,
                      "shlo Executable(a, b)": lambda: executable(a, b),
                      "shlo .function('main')(a, b)": lambda: function(a, b)}
        times = median_us(list(contenders.values()), n)
        rows += [(f"{shape}xf32 add, {label}", us, us / times[0])
                 for label, us in zip(contenders, times)]
    return rows


def bench_compile(repeats: int) -> list[tuple[str, float, float]]:
    from iree.compiler.tools.binaries import find_tool

    import shlo
    from shlo.pipelines.targets import get_target
    from shlo.runtime.cache import CompileCache

    target = get_target("cpu")
    module = shlo.parse_module(COMPILE_MODULE)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "in.mlir")
        with open(source, "w") as f:
            f.write(COMPILE_MODULE)
        command = [find_tool("iree-compile"), source, *target.flags, "-o",
                   os.path.join(tmp, "out.vmfb")]

        def subprocess_compile():
            subprocess.run(command, check=True, capture_output=True)

        cache = CompileCache(os.path.join(tmp, "cache"))
        contenders = {
            "iree-compile subprocess": subprocess_compile,
            "shlo in-process (no cache)":
                lambda: shlo.compile(module, target="cpu", pipeline=None, cache=False),
            "shlo cache hit": lambda: shlo.compile(module, target="cpu", pipeline=None,
                                                   cache=cache)}
        times = median_us(list(contenders.values()), 1, repeats)
    return [(f"compile, {label}", us, us / times[0]) for label, us in zip(contenders, times)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench_runtime", description=__doc__.splitlines()[0])
    p.add_argument("--device", default="local-task")
    p.add_argument("--calls", type=int, help="calls per round (default 2000; 40 on GPU drivers, "
                                             "whose every call waits for the device)")
    p.add_argument("--compiles", type=int, default=5)
    args = p.parse_args(argv)
    args.calls = args.calls or (2000 if args.device.startswith("local") else 40)
    print(f"{'benchmark':<48} {'time':>12} {'ratio':>8}")
    for rows, anchor in ((bench_calls(args.device, args.calls), "bare iree.runtime call"),
                         (bench_compile(args.compiles), "iree-compile subprocess")):
        for label, us, ratio in rows:
            time_text = f"{us:,.1f} us" if us < 1e4 else f"{us / 1e3:,.1f} ms"
            print(f"{label:<48} {time_text:>12} {ratio:>7.2f}x")
        print(f"  (ratios against the {anchor})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
