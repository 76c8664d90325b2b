"""GPU measurement and inspection for shlo's CUDA targets (docs/gpu.md).

    python -m shlo.tools.gpu_bench inspect [--only mlp_256x1024x3,...] [--config NAME]
    python -m shlo.tools.gpu_bench configs [--only ...]      # every configuration, side by side
    python -m shlo.tools.gpu_bench time --config top-k --only top_k_64x4096_k16   # on a GPU
    shlo-bench --target cuda:sm_90a --resident               # timing with device-resident data

`inspect` compiles each shlo-bench workload for a GPU target (no GPU needed) and reads what
IREE made of it: dispatches per call, each kernel's codegen pipeline and workgroup size, and in
its PTX the tensor-core instructions (mma.sync, wmma, wgmma, ldmatrix), shared-memory traffic,
vector loads and f32 FMAs. `configs` does that under each configuration of
`shlo.pipelines.gpu_tuning.CONFIGS`; `time` checks and times one on device-resident data.

The resident mode (`ResidentCall`, `resident_row`) times both compilers on data already on the
device: shlo's module is compiled with IREE's asynchronous ABI (`--iree-execution-model=
async-external`), its inputs are uploaded once, each call is queued after the previous one
through fences and keeps its results on the device, and the host waits once at the end of a
batch; XLA's calls take `jax.device_put` arrays and the host blocks on the batch's last result.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import glob
import os
import pathlib
import re
import sys
import tempfile
import time
from typing import Any

import numpy as np

ASYNC_FLAG = "--iree-execution-model=async-external"
BATCH_SECONDS = 0.02            # a timed batch of resident calls lasts about this long


# ------------------------------------------------------------------ device-resident calls

class ResidentCall:
    """Calls of a module compiled with ASYNC_FLAG on inputs uploaded once.

    `launch(n)` queues n calls, each waiting for the previous one's fence and signalling its
    own (an in-order stream, as XLA's), and results stay on the device; `wait()` blocks until
    the last has finished; `results()` downloads the last call's results (numpy, user types).
    """

    def __init__(self, executable, args):
        import iree.runtime as rt

        from ..runtime.devices import importable, to_device
        from ..runtime.standalone_loader import validate

        fn = executable.function(executable.entry)
        if fn.signature.outputs and "async" not in \
                executable._load()[3][fn.signature.name].reflection.get(
                    "iree.abi.declaration", ""):
            raise ValueError(f"{fn.signature.name}: not compiled with {ASYNC_FLAG}")
        self._rt, self._fn = rt, fn
        arrays = [value.to_device(a) for a, value in zip(
            validate(fn.signature, args), fn.signature.inputs)]
        # host-memory drivers read the caller's aligned arrays in place: keep them alive
        self._arrays = [importable(fn.driver, a, True, fn._staging, i)
                        for i, a in enumerate(arrays)]
        if fn._bind is not None:
            fn._bind()
        self._views = [to_device(fn.driver, fn._device, a, t)
                       for a, t in zip(self._arrays, fn._element_types)]
        self._semaphore = fn._device.create_semaphore(0)
        self._value = 0
        self._last: Any = None          # the last launch's result list

    def launch(self, n: int = 1) -> None:
        rt, fn = self._rt, self._fn
        if fn._bind is not None:
            fn._bind()
        for _ in range(n):
            args = rt.VmVariantList(len(self._views) + 2)
            for view in self._views:
                args.push_ref(view)
            args.push_ref(rt.HalFence.create_at(self._semaphore, self._value))
            self._value += 1
            args.push_ref(rt.HalFence.create_at(self._semaphore, self._value))
            results = rt.VmVariantList(len(fn.signature.outputs))
            fn._invoker(args, results)
            self._last = results

    def wait(self) -> None:
        self._rt.HalFence.create_at(self._semaphore, self._value).wait()

    def __call__(self, n: int = 1) -> None:
        self.launch(n)
        self.wait()

    def results(self):
        from ..runtime.standalone_loader import download
        self.wait()
        fn = self._fn
        out = [value.to_user(download(fn._device, self._last.get_as_object(i, fn._view),
                                      value.transport))
               for i, value in enumerate(fn.signature.outputs)]
        return out[0] if len(out) == 1 else tuple(out)


def _batch(single_call_seconds: float) -> int:
    return max(1, min(1000, int(BATCH_SECONDS / max(single_call_seconds, 1e-6))))


def resident_row(w, target: str, rounds: int, flags: list[str], budget: float,
                 pipeline: str | None = None) -> dict:
    """shlo-bench's row for workload `w` timed on device-resident data (see the module doc):
    the per-call times are a batch's time over its number of calls. `pipeline`: shlo's
    pipeline text (None: the default)."""
    import jax
    import shlo

    from .bench_timing import disagreement, prepare, time_interleaved

    args, text, _, xla_ms = prepare(w, target)
    on_cpu = target.split(":")[0] == "cpu"
    with jax.default_matmul_precision("float32" if not on_cpu else None):
        xla = jax.jit(w.jax_fn)
        device_args = [jax.device_put(a) for a in args]
        jax.block_until_ready(xla(*device_args))
    row = {"name": w.name, "group": w.group, "target": target, "xla_compile_ms": xla_ms,
           "mode": "resident"}
    start = time.perf_counter()
    try:
        executable = shlo.compile(text, target=target, flags=[*flags, ASYNC_FLAG], cache=False,
                                  **({"pipeline": pipeline} if pipeline else {}))
    except shlo.Error as e:
        row["error"] = str(e).splitlines()[0][:300]
        return row
    row["shlo_compile_ms"] = (time.perf_counter() - start) * 1e3
    shlo_call = ResidentCall(executable, args)
    shlo_call()
    error = disagreement(w, shlo_call.results(), jax.tree.map(np.asarray, xla(*device_args)))
    if error:
        row["error"] = error
        return row

    def xla_calls(n):
        out = None
        for _ in range(n):
            out = xla(*device_args)
        jax.block_until_ready(out)

    contenders = {}
    for name, calls in (("shlo", shlo_call), ("xla", xla_calls)):
        start = time.perf_counter()
        calls(1)
        n = _batch(time.perf_counter() - start)
        contenders[name] = (lambda calls=calls, n=n: calls(n)), n
    timed = time_interleaved({k: f for k, (f, _) in contenders.items()}, rounds, budget)
    for name, (seconds, spread) in timed.items():
        row[f"{name}_ms"] = seconds / contenders[name][1] * 1e3
        row[f"{name}_spread"] = spread
        row[f"{name}_batch"] = contenders[name][1]
    row["ratio_xla"] = row["shlo_ms"] / row["xla_ms"]
    return row


# ------------------------------------------------------------------ compile-side inspection

@dataclasses.dataclass
class Kernel:
    name: str
    pipeline: str = "?"
    workgroup_size: str = "?"
    config: str = ""                        # the root op's lowering_config, shortened
    counts: dict = dataclasses.field(default_factory=dict)   # PTX instruction class -> count

    @property
    def tensor_cores(self) -> bool:
        return any(self.counts.get(k) for k in ("mma", "wmma", "wgmma"))


@dataclasses.dataclass
class Inspection:
    dispatches: int                         # dispatches in the program (static count)
    kernels: list[Kernel]
    ptx_header: str                         # `.version X / .target Y`
    error: str | None = None


# PTX instruction classes counted per kernel (the first matching pattern wins).
PTX_CLASSES = (
    ("wgmma", re.compile(r"^wgmma\.")),
    ("mma", re.compile(r"^mma\.sync")),
    ("wmma", re.compile(r"^wmma\.")),
    ("ldmatrix", re.compile(r"^ldmatrix")),
    ("cp.async", re.compile(r"^cp\.async")),
    ("ld.shared", re.compile(r"^ld\.shared")),
    ("st.shared", re.compile(r"^st\.shared")),
    ("bar", re.compile(r"^(bar|barrier)\.")),
    ("shfl", re.compile(r"^shfl\.")),
    ("ld.global.v4", re.compile(r"^ld\.global(\.nc)?\.v4")),
    ("ld.global.v2", re.compile(r"^ld\.global(\.nc)?\.v2")),
    ("ld.global", re.compile(r"^ld\.global")),
    ("st.global.v4", re.compile(r"^st\.global\.v4")),
    ("st.global", re.compile(r"^st\.global")),
    ("fma.f32", re.compile(r"^fma\.rn\.f32")),
)
_ENTRY = re.compile(r"^\.visible \.entry (\w+)\(", re.MULTILINE)


def ptx_counts(body: str) -> dict:
    """Instruction class -> count in one kernel's PTX text."""
    counts: collections.Counter[str] = collections.Counter()
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("@"):                        # predicated: `@%p1 bra ...`
            line = line.split(None, 1)[-1]
        for name, pattern in PTX_CLASSES:
            if pattern.match(line):
                counts[name] += 1
                break
    return dict(counts)


def _read_kernels(folder: str) -> tuple[list[Kernel], str]:
    kernels: dict[str, Kernel] = {}
    for path in sorted(glob.glob(os.path.join(folder, "configured_*.mlir"))):
        text = pathlib.Path(path).read_text()
        for m in re.finditer(r"func\.func @(\w+)\(\) attributes \{translation_info = "
                             r"#iree_codegen\.translation_info<pipeline = ([^ >]+)>?"
                             r"(?: workgroup_size = \[([\d, ]+)\])?", text):
            pipeline = m.group(2).replace("#iree_gpu.pipeline<", "").rstrip(">")
            config = re.search(r"lowering_config = #iree_(?:gpu|codegen)\.lowering_config<(.*?)>\}",
                               text[m.end():])
            kernels[m.group(1)] = Kernel(m.group(1), pipeline, m.group(3) or "?",
                                         config.group(1)[:120] if config else "")
    header = ""
    for path in sorted(glob.glob(os.path.join(folder, "*.ptx"))):
        ptx = pathlib.Path(path).read_text()
        header = " / ".join(re.findall(r"^\.(?:version|target) \S+", ptx, re.MULTILINE))
        starts = list(_ENTRY.finditer(ptx))
        for i, m in enumerate(starts):
            body = ptx[m.end():starts[i + 1].start() if i + 1 < len(starts) else len(ptx)]
            kernels.setdefault(m.group(1), Kernel(m.group(1))).counts = ptx_counts(body)
    return list(kernels.values()), header


def inspect(text, target: str = "cuda:sm_90a", flags=(), pipeline: str | None = None
            ) -> Inspection:
    """Compile `text` (or a module) for `target` with `flags` (and shlo's `pipeline` text, None:
    the default) and read its dispatches and kernels."""
    import shlo

    with tempfile.TemporaryDirectory(prefix="shlo-gpu-") as folder:
        stats = os.path.join(folder, "statistics.txt")
        try:
            shlo.compile(text, target=target, cache=False, flags=[
                *flags, f"--iree-hal-dump-executable-files-to={folder}",
                f"--iree-scheduling-dump-statistics-file={stats}",
                "--iree-scheduling-dump-statistics-format=pretty"],
                **({"pipeline": pipeline} if pipeline else {}))
        except shlo.Error as e:
            return Inspection(0, [], "", str(e).splitlines()[0][:200])
        dispatches = re.search(r"Dispatches: (\d+)", pathlib.Path(stats).read_text())
        kernels, header = _read_kernels(folder)
    return Inspection(int(dispatches.group(1)) if dispatches else -1, kernels, header)


def _lower(w) -> str:
    import jax

    from ..runtime.devices import aligned
    args = [aligned(a) for a in w.inputs(np.random.default_rng(0))]
    return jax.jit(w.jax_fn).lower(*args).as_text()


def _kernel_summary(k: Kernel) -> str:
    c = k.counts
    parts = [f"{n}={c[n]}" for n, _ in PTX_CLASSES if c.get(n)]
    return f"{k.pipeline} wg[{k.workgroup_size}] " + " ".join(parts)


def inspection_markdown(rows: list[tuple[str, str, Inspection]]) -> str:
    """A markdown table: workload, configuration, dispatches, tensor cores, kernels."""
    lines = ["| workload | config | dispatches | tensor cores | shared mem | kernels |",
             "|---|---|---|---|---|---|"]
    for name, config, ins in rows:
        if ins.error:
            lines.append(f"| {name} | {config} | - | - | - | compile error: {ins.error} |")
            continue
        tc = sum(k.tensor_cores for k in ins.kernels)
        shared = sum(k.counts.get("ld.shared", 0) + k.counts.get("st.shared", 0) > 0
                     for k in ins.kernels)
        kernels = "<br>".join(f"`{k.name.split('_', 3)[-1][:48]}`: {_kernel_summary(k)}"
                              for k in ins.kernels)
        lines.append(f"| {name} | {config} | {ins.dispatches} | {tc}/{len(ins.kernels)} | "
                     f"{shared}/{len(ins.kernels)} | {kernels} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    from ..pipelines.gpu_tuning import CONFIGS, config_pipeline
    from ..pipelines.targets import get_target
    from .bench_workloads import workloads
    from .bench_timing import print_table, select

    p = argparse.ArgumentParser(prog="gpu_bench", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("inspect", "configs", "time"))
    p.add_argument("--only", help="comma-separated workload names (heavy ones included)")
    p.add_argument("--target", default="cuda:sm_90a")
    p.add_argument("--config", default="default", choices=sorted(CONFIGS),
                   help="inspect, time: the configuration (pipelines/gpu_tuning.py)")
    p.add_argument("--rounds", type=int, default=3, help="time: interleaved rounds")
    p.add_argument("--budget", type=float, default=0.1, help="time: seconds per contender")
    p.add_argument("-o", "--output", help="also write the table here")
    args = p.parse_args(argv)
    suite = select(workloads(), args.only, "gpu_bench")
    if suite is None:
        return 2
    target = get_target(args.target)
    configs = list(CONFIGS) if args.command == "configs" else [args.config]
    rows: list = []       # result dicts (time), else (workload, config, Inspection)
    for w in suite:
        text = _lower(w) if args.command != "time" else None
        for config in configs:
            print(f"{w.name} {config}", file=sys.stderr, flush=True)
            flags, pipeline = CONFIGS[config][0], config_pipeline(target, config)
            if args.command == "time":
                rows.append(resident_row(w, args.target, args.rounds, list(flags), args.budget,
                                         pipeline) | {"config": config})
            else:
                rows.append((w.name, config, inspect(text, args.target, flags, pipeline)))
    if args.command == "time":
        import io
        out = io.StringIO()
        print_table(rows, out)
        table = f"configuration {args.config}\n" + out.getvalue()
    else:
        table = inspection_markdown(rows)
    print(table)
    if args.output:
        with open(args.output, "w") as f:
            f.write(table + "\n")
    return 1 if args.command == "time" and any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
