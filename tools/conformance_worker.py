"""Run the test functions of one file (or some of its chunks) on one target, one outcome each.

IREE targets compile ONE module per file: every chunk's instrumented functions, renamed
`c<chunk>_<name>` so chunks cannot clash. When that module does not compile, the chunk the
error points at fails and the rest is compiled again (bisecting when the error has no line),
so a file costs one compile plus one per failing chunk. `reference` runs each function
in the StableHLO reference interpreter instead.

As a subprocess (`python -m shlo.tools.conformance_worker TARGET`) it reads tasks as JSON
lines on stdin and writes events as JSON lines on stdout, so that a crash in a compiler or a
runtime kills only the worker (see conformance_runner).
"""
from __future__ import annotations

import dataclasses
import json
import re
import sys
import time

import numpy as np

import shlo

from .conformance_checks import CheckMisuse, evaluate
from .conformance_instrument import (Options, TestFunction, host_results, instrument,
                                     rename_functions)
from .conformance_parallel import ParallelRun
from .conformance_syntax import rewrite_test_ops, split_chunks
from .conformance_values import ConformanceError

REFERENCE = "reference"
# Instrumentation per kind of target: IREE folds constants, the interpreter does not; the
# interpreter runs run_parallel itself but cannot hand complex results to Python.
IREE_OPTIONS = Options(lift_constants=True, emulate_parallel=True, carriers=True)
REFERENCE_OPTIONS = Options(lift_constants=False, emulate_parallel=False, carriers=False,
                            split_complex=True)


@dataclasses.dataclass
class Outcome:
    """What happened to one test function."""
    file: str
    line: int
    function: str
    id: str
    target: str
    status: str                 # passed | failed | skipped
    cause: str = ""             # mismatch | compile | runtime | collective | unsupported | ...
    message: str = ""
    mismatch: dict | None = None
    seconds: float = 0.0

    def summary_line(self) -> str:
        return f"{self.file}:{self.line}: @{self.function}: {self.cause}: {self.message}"

    def as_json(self) -> dict:
        return dataclasses.asdict(self)


def test_id(display: str, text: str, name: str, line: int) -> str:
    """`file::name`, with `#k` (k-th definition in the file) when the name is defined twice."""
    lines = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(
        rf"func\.func\s+(?:public\s+|private\s+)?@{re.escape(name)}\s*\(", text)]
    if len(lines) <= 1:
        return f"{display}::{name}"
    return f"{display}::{name}#{sum(1 for l in lines if l <= line)}"


class FileRun:
    """One task: a file (or a subset of its chunks) on a target; `emit` receives events."""

    def __init__(self, path: str, display: str, target: str, emit, *,
                 chunks: list[int] | None = None, lift_constants: bool = True):
        self.path, self.display, self.target, self.emit = path, display, target, emit
        self.options = REFERENCE_OPTIONS if target == REFERENCE else \
            dataclasses.replace(IREE_OPTIONS, lift_constants=lift_constants)
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.chunks = [c for c in split_chunks(self.text) if chunks is None or c.index in chunks]

    def outcome(self, test: TestFunction, status: str, cause: str = "", message: str = "",
                **extra) -> None:
        self.emit({"event": "outcome", **Outcome(
            self.display, test.line, test.name, test_id(self.display, self.text, test.name,
                                                        test.line),
            self.target, status, cause, message, **extra).as_json()})

    def run(self) -> None:
        reference = self.target == REFERENCE
        ctx = shlo.context(allow_unregistered_dialects=True)
        prepared = []
        for chunk in self.chunks:
            self.emit({"event": "phase", "what": f"parsing chunk {chunk.index}"})
            try:
                module = shlo.parse_module(rewrite_test_ops(chunk.text), context=ctx,
                                           source_name=self.display)
                tests = instrument(module, chunk.index, self.options)
            except Exception as e:      # this chunk fails; the file's other chunks go on
                placeholder = TestFunction(f"<chunk {chunk.index}>", "", chunk.index, chunk.line)
                cause, message = _classify(e, "parse")
                self.outcome(placeholder, "failed", cause, message)
                continue
            if not reference:
                rename_functions(module, f"c{chunk.index}_")
                for t in tests:
                    t.symbol = f"c{chunk.index}_{t.name}"
                    if t.parallel:
                        t.parallel.programs = [f"c{chunk.index}_{n}"
                                               for n in t.parallel.programs]
            self.emit({"event": "tests", "chunk": chunk.index, "tests": [
                [test_id(self.display, self.text, t.name, t.line), t.name, t.line]
                for t in tests]})
            runnable = []
            for t in tests:
                if t.skipped:
                    self.outcome(t, "skipped", "arguments", t.skipped)
                elif t.unsupported:
                    cause, _, detail = t.unsupported.partition(": ")
                    self.outcome(t, "failed", cause, detail)
                else:
                    runnable.append(t)
            if runnable:
                prepared.append((chunk, module, runnable))
        if not prepared:
            return
        if reference:
            self._run_reference(prepared, ctx)
            return
        from shlo.runtime.devices import driver_available
        from shlo.pipelines.targets import get_target
        ok, why = driver_available(get_target(self.target).driver)
        if not ok:
            for _, _, tests in prepared:
                for t in tests:
                    self.outcome(t, "skipped", "device", why)
            return
        grids: dict[tuple, list] = {}     # one module per process grid (module attributes)
        for item in prepared:
            grids.setdefault(_grid(item[1]), []).append(item)
        for group in grids.values():
            self._compile_and_run(group, ctx)

    def _run_reference(self, prepared, ctx) -> None:
        import os
        from .conformance_reference import run_reference
        threads = len(os.sched_getaffinity(0))
        for chunk, module, tests in prepared:
            for t in tests:
                if t.processes > threads:       # the interpreter runs one thread per CPU
                    self.outcome(t, "skipped", "threads",
                                 f"run_parallel starts {t.processes} processes; the "
                                 f"interpreter runs one per CPU and this machine has {threads}")
                    continue
                if "!quant." in chunk.text:
                    self.outcome(t, "skipped", "reference",
                                 "jaxlib's reference interpreter has no quant dialect: "
                                 "quantized tests run on the IREE targets")
                    continue
                self.emit({"event": "phase", "what": f"running @{t.name} (chunk {chunk.index})"})
                self._finish(t, lambda t=t, module=module: run_reference(module, t, ctx))

    def _compile_and_run(self, group, ctx) -> None:
        """Compile the chunks of `group` as one module. When that fails, the chunk holding the
        line the error names fails and the others are compiled again without it (bisection
        when the error names no line)."""
        indices = ",".join(str(c.index) for c, _, _ in group)
        self.emit({"event": "phase", "what": f"compiling chunks {indices}"})
        try:
            exe = shlo.compile(_merge([m for _, m, _ in group], ctx), target=self.target)
        except shlo.Error as e:
            culprit = self._chunk_at(str(e), group)
            if culprit is None and len(group) > 1:         # no line to go by: bisect
                half = len(group) // 2
                self._compile_and_run(group[:half], ctx)
                self._compile_and_run(group[half:], ctx)
                return
            culprit = culprit if culprit is not None else 0
            cause = "compile" if isinstance(e, shlo.CompileError) else "pipeline"
            for t in group[culprit][2]:
                self.outcome(t, "failed", cause, _first_line(str(e)))
            rest = group[:culprit] + group[culprit + 1:]
            if rest:                                      # the others compile without it
                self._compile_and_run(rest, ctx)
            return
        for chunk, _, tests in group:
            for t in tests:
                self.emit({"event": "phase", "what": f"running @{t.name} (chunk {chunk.index})"})
                self._finish(t, lambda t=t: _run_compiled(exe, t))

    def _chunk_at(self, message: str, group) -> int | None:
        """The index in `group` of the chunk holding the first file line `message` names."""
        for m in re.finditer(rf"{re.escape(self.display)}:(\d+):\d+", message):
            line = int(m.group(1))
            for i, (chunk, _, _) in enumerate(group):
                if chunk.line <= line <= chunk.text.count("\n") + 1:   # text is padded to line
                    return i
        return None

    def _finish(self, test: TestFunction, execute) -> None:
        """Run one test function, evaluate its checks, emit its outcome."""
        start = time.perf_counter()
        try:
            results = execute()
        except Exception as e:      # a failure of this function, whatever raised it
            cause, message = _classify(e, "runtime")
            self.outcome(test, "failed", cause, message, seconds=time.perf_counter() - start)
            return
        seconds = time.perf_counter() - start
        for check in test.checks:
            if check.unsupported:
                cause, _, detail = check.unsupported.partition(": ")
                self.outcome(test, "failed", cause, f"{check.op} at line {check.line}: {detail}",
                             seconds=seconds)
                return
            got = results[check.actual]
            want = check.expected if isinstance(check.expected, np.ndarray) else \
                results[check.expected]
            try:
                mismatch = evaluate(check.kind, got, want, tolerance=check.attrs.get("tolerance"),
                                    min_ulp=check.attrs.get("min_ulp_difference"),
                                    max_ulp=check.attrs.get("max_ulp_difference"))
            except CheckMisuse as e:
                self.outcome(test, "failed", "check", f"{check.op} at line {check.line}: {e}",
                             seconds=seconds)
                return
            if mismatch:
                self.outcome(test, "failed", "mismatch",
                             f"{check.op} at line {check.line}: {mismatch.text()}",
                             mismatch=mismatch.as_json(), seconds=seconds)
                return
        self.outcome(test, "passed", seconds=seconds)


def _run_compiled(exe, test: TestFunction) -> list[np.ndarray]:
    from shlo.runtime.abi import ELEMENT_DTYPES
    if test.parallel:
        return _run_processes(exe, test.parallel)
    args = [edge.value.astype(ELEMENT_DTYPES[edge.carrier])  # type: ignore[union-attr]
            if edge.carrier else edge.value for edge in test.args]  # (an argument has a value)
    if test.probes:                 # one process, whose outfeed holds the probed values
        run = shlo.run_parallel(exe, [args], programs=[test.symbol])
        return host_results(test, list(_tuple(run[0]))) + _probed(test, run)
    return host_results(test, list(_tuple(exe.function(test.symbol)(*args))))


def _run_processes(exe, run: ParallelRun) -> list:
    """run_parallel's results (None for its tokens), its programs run as processes."""
    outputs = shlo.run_parallel(exe, run.inputs, num_replicas=run.replicas,
                                num_partitions=run.partitions, programs=run.programs,
                                infeed=run.infeed)
    outputs = [_tuple(out) for out in outputs]
    return [None if where is None else np.asarray(outputs[where[0]][where[1]])
            for where in run.results]


def _probed(test: TestFunction, run) -> list[np.ndarray]:
    """The values the checks of nested probes read: the k-th outfeed item of that probe."""
    probed = []
    for probe_id, iteration in test.probes:
        values = [item[0] for item, config in zip(run.outfeed[0], run.outfeed_configs[0])
                  if config == probe_id]
        if iteration >= len(values):
            raise ConformanceError(f"probe '{probe_id}' ran {len(values)} time(s); a check "
                                   f"reads iteration {iteration}")
        probed.append(values[iteration])
    return probed


def _tuple(results) -> tuple:
    return results if isinstance(results, tuple) else (results,)


GRID_ATTRIBUTES = ("mhlo.num_replicas", "mhlo.num_partitions")


def _grid(module) -> tuple:
    """The process-grid attributes of a chunk's module (host_parallel sets them)."""
    attrs = module.operation.attributes
    return tuple(str(attrs[n]) if n in attrs else None for n in GRID_ATTRIBUTES)


def _merge(modules, ctx):
    """One module holding (copies of) the functions of every module in `modules` (all with
    the same process grid, which the merged module keeps)."""
    from iree.compiler import ir
    with ctx, ir.Location.unknown():
        merged = ir.Module.create()
        for name in GRID_ATTRIBUTES:
            if name in modules[0].operation.attributes:
                merged.operation.attributes[name] = modules[0].operation.attributes[name]
        for module in modules:
            for op in module.body.operations:
                op.clone(ip=ir.InsertionPoint(merged.body))
    return merged


def _classify(error: Exception, stage: str) -> tuple[str, str]:
    """(cause, message) of an exception: `stage` for shlo's and the runtime's errors,
    `harness` for anything else (a bug of shlo-conformance itself)."""
    if isinstance(error, (shlo.Error, RuntimeError)):
        return stage, _first_line(str(error))
    return "harness", f"{type(error).__name__}: {_first_line(str(error))}"


def _first_line(text: str) -> str:
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[0] if lines else "no message"


def serve(target: str) -> int:
    """The subprocess loop: one task per stdin line, events on stdout, `done` after each."""
    def emit(event):
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        task = json.loads(line)
        try:
            FileRun(task["path"], task["display"], target, emit, chunks=task.get("chunks"),
                    lift_constants=task.get("lift_constants", True)).run()
        except (shlo.Error, OSError) as e:
            emit({"event": "error", "message": _first_line(str(e))})
        emit({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
