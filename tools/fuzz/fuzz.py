"""The fuzzing loop: run random programs on the targets and the oracles, compare, shrink each
failure and write its reproducer."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import time

import numpy as np

from . import program as P
from .compare import OutputMeta, compare, meta_of
from .runner import Result, Worker


# ops the reference interpreter aborts on (the process, not a clean error): unsupported ones
# (the fuzzer writes batch_norm_inference out for it), fft ("Semantics mismatch between provided
# type and complex value"), and convolutions with dilations or negative padding ("Incompatible
# index and shape found while flattening index")
NOT_INTERPRETED = ("stablehlo.rng ", "stablehlo.rng_bit_generator", "stablehlo.batch_norm_",
                   "stablehlo.fft ", "stablehlo.cholesky", "stablehlo.triangular_solve")
_CONV_WINDOW = re.compile(r"stablehlo\.convolution.*window = \{([^}]*)\}")


def interpretable(text: str) -> bool:
    """Whether the reference interpreter runs the program `text` (else XLA alone is the oracle)."""
    if any(op in text for op in NOT_INTERPRETED):
        return False
    for window in _CONV_WINDOW.findall(text):
        dilations = re.findall(r"_dilate = \[([^\]]*)\]", window)
        if "-" in window or any(d.strip() != "1" for ds in dilations for d in ds.split(",")):
            return False
    return True


@dataclasses.dataclass
class Finding:
    kind: str           # "mismatch", "crash" (the child died or hung), "error" (an exception)
    target: str
    detail: str
    program: P.Program

    def signature(self) -> str:
        """What a shrunk program must keep: the kind, the target, an error's gist."""
        if self.kind == "crash":
            return f"crash:{self.target}:{'timeout' if 'timeout' in self.detail else 'died'}"
        if self.kind != "error":
            return f"{self.kind}:{self.target}"
        # (past IREE's common prefix: a shrunk vulkan compile failure of seed 57 program 673
        # drifted from 'memref.subview' to another op's message)
        detail = re.sub(r"IREE compilation for target '[^']*' failed: -:\d+:\d+: ", "",
                        self.detail)
        gist = re.sub(r"tensor<[^>]*>|\d+|/\S+", "_", detail)
        return f"error:{self.target}:{gist[:70]}"


@dataclasses.dataclass
class Checked:
    findings: list
    oracles: dict = dataclasses.field(default_factory=dict)
    invalid: str = ""        # the program did not build (a fuzzer or builder bug)
    batch_only: list = dataclasses.field(default_factory=list)  # findings in a batch alone


class Fuzzer:
    """Checks programs on `targets` against the reference interpreter (when its cost, in
    element operations, is under `reference_work`) and XLA."""

    def __init__(self, targets, worker: Worker | None = None, max_elements: int = 1 << 22,
                 reference_work: int = 1_500_000, oracles=("reference", "xla"),
                 lazy: bool = False):
        self.targets = list(targets)
        self.worker = worker or Worker()
        self.max_elements = max_elements
        self.reference_work = reference_work
        self.use = set(oracles)
        # lazy: XLA only where the interpreter gave no answer or the target disagrees with it
        # (an element that agrees with one oracle agrees with both: `compare` is monotone)
        self.lazy = lazy
        self.target_timeout_s = None    # a shorter limit while shrinking a timeout

    def close(self):
        self.worker.close()

    def texts(self, program: P.Program):
        """(built, its text, the interpreter's text) of `program`; a program that XLA does not
        check and the interpreter does not run is built `xla_safe` (XLA then checks it)."""
        built = P.build(program, self.max_elements)
        ref = P.build(program, self.max_elements, exchange=True)
        if built.xla_wrong and not self.interprets(built, str(ref.module)):
            built = P.build(program, self.max_elements, xla_safe=True)
            ref = P.build(program, self.max_elements, exchange=True, xla_safe=True)
        return built, str(built.module), str(ref.module)

    def interprets(self, built, ref_text: str) -> bool:
        """Whether the reference interpreter is an oracle for the program `built`."""
        return "reference" in self.use and built.work <= self.reference_work and \
            interpretable(ref_text)

    def oracles(self, program, built, text, ref_text, xla: bool | None = None) -> dict:
        """The oracles' outputs (None where one failed); `xla` False: the interpreter alone,
        True: XLA alone, None: both (lazy: XLA only when the interpreter gave none)."""
        out: dict = {}
        if xla is not True and self.interprets(built, ref_text):
            r = self.worker.call("reference", ref_text, P.exchange_inputs(program))
            out["reference"] = P.exchange_outputs(program, built.vals, r.values()) \
                if r.status == "ok" else None
        if xla is None and self.lazy and out.get("reference") is not None:
            return out
        if xla is not False and "xla" in self.use and not built.xla_wrong:
            r = self.worker.call("xla", text, list(program.inputs))
            out["xla"] = r.outputs if r.status == "ok" else None
        return out

    def check(self, program: P.Program, targets=None, need_oracles: bool = True,
              given: dict | None = None) -> Checked:
        """`program` on the targets (`given`: target -> a Result already at hand) against
        the oracles."""
        try:
            built, text, ref_text = self.texts(program)
        except Exception as e:      # noqa: BLE001 - reported as an invalid program
            return Checked([], invalid=f"{type(e).__name__}: {str(e).splitlines()[0][:300]}")
        metas = meta_of(program, built.vals)
        findings, oracles = [], None
        for target in targets or self.targets:
            r = (given or {}).get(target) or self.worker.call(target, text, list(program.inputs),
                                                             self.target_timeout_s)
            if r.status in ("crash", "timeout"):
                findings.append(Finding("crash", target, f"{r.status}: {r.error}", program))
                continue
            if r.status == "error":
                findings.append(Finding("error", target, r.error, program))
                continue
            if not need_oracles:
                continue
            if oracles is None:
                oracles = self.oracles(program, built, text, ref_text)
            why = compare(r.values(), oracles, metas)
            if why and self.lazy and "xla" not in oracles:   # the interpreter alone disagreed
                oracles.update(self.oracles(program, built, text, ref_text, xla=True))
                why = compare(r.values(), oracles, metas)
            if why and any(built.vals[o].scale for o in program.outputs) and \
                    not any(m.scale for m in metas):
                metas = self.scaled(program, built, metas)
                why = compare(r.values(), oracles, metas)
            if not why and r.repeat is not None:
                again = compare(r.repeat, oracles, metas)
                why = f"on the second call: {again}" if again else ""
            if why:
                findings.append(Finding("mismatch", target, why, program))
        return Checked(findings, oracles or {})

    def check_batch(self, programs: list) -> list:
        """`check` of each program, the targets' results from one module of them all per
        target (one compile). A batch that fails to compile or run, and every program with a
        finding, is checked alone: what is reported is what a program does by itself (one that
        fails only in the batch is marked `batch_only`)."""
        texts = {}
        for i, program in enumerate(programs):
            try:
                texts[i] = self.texts(program)[1]
            except Exception:       # noqa: BLE001 - check() reports it
                pass
        given: list[dict[str, Result]] = [{} for _ in programs]
        for target in self.targets:
            if target.startswith("fake-") or len(texts) < 2:
                continue
            r = self.worker.call(f"batch:{target}", list(texts.values()),
                                 [list(programs[i].inputs) for i in texts])
            if r.status != "ok":
                continue
            for i, res in zip(texts, r.values()):
                given[i][target] = Result("ok", outputs=res["outputs"], repeat=res["repeat"]) \
                    if res["ok"] else \
                    Result("error", error=res["error"])
        out = []
        for program, known in zip(programs, given):
            checked = self.check(program, given=known)
            if checked.findings and known:
                alone = self.check(program)
                seen = {f.signature() for f in alone.findings}
                alone.batch_only = [f for f in checked.findings if f.signature() not in seen]
                checked = alone
            out.append(checked)
        return out

    def reproduces(self, finding: Finding, program: P.Program) -> bool:
        """Whether `program` fails as `finding` did."""
        checked = self.check(program, [finding.target], need_oracles=finding.kind == "mismatch")
        return any(f.signature() == finding.signature() for f in checked.findings)

    def scaled(self, program: P.Program, built, metas: list) -> list:
        """`metas` with each output's `scale`: the largest finite magnitude of an oracle's
        value of its Val.scale (0 where it has none or no oracle gives it)."""
        out = []
        for o, m in zip(program.outputs, metas):
            vid = built.vals[o].scale
            v = self.value_of(program, vid) if vid else None
            if v is not None:
                v = np.asarray(v)       # (complex where a real part's scale is |z|)
                a = np.abs(v.astype(np.complex128 if np.iscomplexobj(v) else np.float64))
                a = a[np.isfinite(a)]
                m = dataclasses.replace(m, scale=float(a.max()) if a.size else 0.0)
            out.append(m)
        return out

    def value_of(self, program: P.Program, vid: str):
        """An oracle's value of `vid` in `program` (None when neither oracle gives one)."""
        sub = P.prune(dataclasses.replace(program.copy(), outputs=[vid]))
        try:
            built, text, ref_text = self.texts(sub)
        except Exception:           # noqa: BLE001
            return None
        r = self.worker.call("xla", text, list(sub.inputs))
        if r.status == "ok":
            return r.values()[0]
        if not interpretable(ref_text):
            return None
        r = self.worker.call("reference", ref_text, P.exchange_inputs(sub))
        if r.status == "ok":
            return P.exchange_outputs(sub, built.vals, r.values())[0]
        return None


# --- reproducers -------------------------------------------------------------------------------
def write_reproducer(fuzzer: Fuzzer, finding: Finding, directory: str, note: str = "") -> str:
    """A directory with the program (program.mlir: what the target compiles; reference.mlir:
    the interpreter's form), its inputs (input_<i>.npy), meta.json and README.txt."""
    os.makedirs(directory, exist_ok=True)
    program = finding.program
    built, text, ref_text = fuzzer.texts(program)
    with open(os.path.join(directory, "program.mlir"), "w") as f:
        f.write(text)
    with open(os.path.join(directory, "reference.mlir"), "w") as f:
        f.write(ref_text)
    for i, a in enumerate(program.inputs):
        np.save(os.path.join(directory, f"input_{i}.npy"), a)
    meta = {"kind": finding.kind, "target": finding.target, "detail": finding.detail,
            "program": program.to_json(), "describe": program.describe(), "note": note,
            "outputs": [dataclasses.asdict(m) for m in
                        fuzzer.scaled(program, built, meta_of(program, built.vals))],
            "input_dtypes": [p.dtype for p in program.params],
            "max_elements": fuzzer.max_elements}
    with open(os.path.join(directory, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    device = {"cpu": "local-task", "vulkan": "vulkan"}.get(finding.target, finding.target)
    inputs = " ".join(f"--input=@input_{i}.npy" for i in range(len(program.inputs)))
    with open(os.path.join(directory, "README.txt"), "w") as f:
        f.write(f"{finding.kind} on {finding.target}: {finding.detail}\n"
                f"program: {program.describe()}\n{note}\n"
                f"replay (compares with the oracles): shlo-fuzz --replay {directory}\n"
                f"by hand: shlo-compile program.mlir --target {finding.target} -o p.vmfb && "
                f"shlo-run p.vmfb --device {device} {inputs}\n")
    return directory


def load_reproducer(directory: str):
    """(target text, reference text, inputs, output metas, meta dict) of a reproducer."""
    with open(os.path.join(directory, "meta.json")) as f:
        meta = json.load(f)
    read = lambda name: open(os.path.join(directory, name)).read()  # noqa: E731
    inputs = [np.load(os.path.join(directory, f"input_{i}.npy"))
              for i in range(len(meta["input_dtypes"]))]
    inputs = [a.view(P.NUMPY[d]) if a.dtype.kind == "V" else a
              for a, d in zip(inputs, meta["input_dtypes"])]
    return (read("program.mlir"), read("reference.mlir"), inputs,
            [OutputMeta(**m) for m in meta["outputs"]], meta)


def replay(directory: str, target: str | None = None, worker: Worker | None = None) -> str | None:
    """None when the reproducer in `directory` now passes on its target (or `target`), else
    what still fails."""
    with open(os.path.join(directory, "meta.json")) as f:
        found = json.load(f)
    if found.get("kind") == "jax":        # a whole jax program (jax_programs.save)
        from . import jax_programs
        return jax_programs.replay(directory, target or found["target"], worker or Worker())
    text, ref_text, inputs, metas, meta = load_reproducer(directory)
    target = target or meta["target"]
    worker = worker or Worker()
    try:
        got = worker.call(target, text, inputs)
        if got.status != "ok":
            return f"{got.status}: {got.error}"
        oracles: dict[str, list | None] = {}
        if interpretable(ref_text):
            r = worker.call("reference", ref_text,
                            P.exchange_arrays(meta["input_dtypes"], inputs))
            if r.status == "ok":
                oracles["reference"] = P.unexchange_arrays([m.dtype for m in metas], r.outputs)
        r = worker.call("xla", text, inputs)
        oracles["xla"] = r.outputs if r.status == "ok" else None
        return compare(got.values(), oracles, metas)
    finally:
        worker.close()


# --- the loop ----------------------------------------------------------------------------------
class Progress:
    """A plain-text progress bar on stderr (a line per 5% when stderr is not a terminal)."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.stream, self.start = total, stream, time.monotonic()
        self.tty = stream.isatty()
        self.last = -1

    def update(self, done: int, counts: dict) -> None:
        step = max(1, self.total // 20)
        if not self.tty and done != self.total and done // step == self.last:
            return
        self.last = done // step
        width = 30
        fill = width * done // max(self.total, 1)
        spent = time.monotonic() - self.start
        rate = spent / done if done else 0.0
        line = (f"[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total} "
                f"{counts['mismatches']} mismatches {counts['crashes']} crashes "
                f"{counts['errors']} errors {rate:.1f} s/program "
                f"eta {rate * (self.total - done) / 60:.0f} min")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def say(self, message: str) -> None:
        self.stream.write(("\r\033[K" if self.tty else "") + message + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")


def run(count: int, seed: int, targets, out_dir: str | None = None,
        max_elements: int = 1 << 22, max_nodes: int = 8, shrink_tests: int = 80,
        worker: Worker | None = None, stream=sys.stderr, first: int = 0,
        shrink_seconds: float = 600.0, batch: int = 8) -> dict:
    """Fuzz `count` programs (numbered from `first`), compiled `batch` to a module; returns
    the counts and the findings."""
    fuzzer = Fuzzer(targets, worker, max_elements, lazy=True)
    counts = dict(programs=0, mismatches=0, crashes=0, errors=0, invalid=0, batch_only=0,
                  shrink_seconds=0.0)
    findings: list[tuple[Finding, Finding, str | None]] = []
    seen: dict[str, int] = {}
    progress = Progress(count, stream)
    interrupted = False
    try:
        for start in range(first, first + count, max(batch, 1)):
            numbers = range(start, min(start + max(batch, 1), first + count))
            programs = [P.random_program(f"{seed}:{i}", max_elements, max_nodes)
                        for i in numbers]
            checks = fuzzer.check_batch(programs) if batch > 1 else \
                [fuzzer.check(p) for p in programs]
            for i, program, checked in zip(numbers, programs, checks):
                _record(fuzzer, i, seed, program, checked, counts, findings, seen, progress,
                        out_dir, shrink_tests, shrink_seconds)
                progress.update(i - first + 1, counts)
    except KeyboardInterrupt:       # Ctrl-C: the summary of the programs checked so far
        interrupted = True
    finally:
        progress.finish()
        fuzzer.close()
        progress.say(time_spent(fuzzer.worker, counts["shrink_seconds"]))
    summary = (f"{counts['programs']} programs, {counts['mismatches']} mismatches, "
               f"{counts['crashes']} crashes, {counts['errors']} errors, "
               f"{counts['invalid']} invalid" + (" (interrupted)" if interrupted else ""))
    return dict(counts, findings=findings, summary=summary)


def time_spent(worker, shrinking: float) -> str:
    """Where a run's time went: wall seconds and calls per kind of worker call (shrinking's
    calls included), and the seconds spent shrinking."""
    spent = getattr(worker, "spent", {})
    parts = [f"{kind} {s:.0f} s ({n})" for kind, (n, s) in
             sorted(spent.items(), key=lambda kv: -kv[1][1])]
    return "time: " + (", ".join(parts) or "-") + f"; shrinking {shrinking:.0f} s of it"


def _record(fuzzer, i, seed, program, checked, counts, findings, seen, progress, out_dir,
            shrink_tests, shrink_seconds) -> None:
    """Count program i's result; shrink and write each of its findings."""
    from .shrink import shrink
    counts["programs"] += 1
    if checked.batch_only:
        counts["batch_only"] += 1
        progress.say(f"program {seed}:{i} fails only when compiled with others: "
                     + "; ".join(f"{f.kind} on {f.target}: {f.detail[:200]}"
                                 for f in checked.batch_only))
    if checked.invalid:
        counts["invalid"] += 1
        progress.say(f"program {seed}:{i} did not build: {checked.invalid}")
    for f in checked.findings:
        counts[{"mismatch": "mismatches", "crash": "crashes", "error": "errors"}[f.kind]] += 1
        sig = f.signature()
        seen[sig] = seen.get(sig, 0) + 1
        small = f
        if shrink_tests and (f.kind == "mismatch" or seen[sig] <= 2):
            start = time.monotonic()
            try:
                small = shrink(fuzzer, f, max_tests=shrink_tests, max_seconds=shrink_seconds,
                               timeout_s=min(60.0, fuzzer.worker.timeout_s))
            finally:
                counts["shrink_seconds"] += time.monotonic() - start
        where = None
        if out_dir:
            where = write_reproducer(
                fuzzer, small, os.path.join(out_dir, f"{f.kind}-{f.target}-{seed}-{i}"),
                note=f"found by shlo-fuzz --seed {seed} --first {i} --count 1; "
                     f"before shrinking: {program.describe()}")
        findings.append((f, small, where))
        progress.say(f"{f.kind} on {f.target} (program {seed}:{i}): {small.detail}\n"
                     f"  {small.program.describe()}" + (f"\n  -> {where}" if where else ""))
