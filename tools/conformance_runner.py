"""Run conformance test files on a target with a pool of worker processes.

Each file is one task for a worker subprocess (conformance_worker), which compiles the file
once and reports one outcome per test function. A worker that dies (a compiler or runtime
crash) or runs past the time limit is replaced; its task is split in halves of the chunks it
had not finished and retried, until the crash is pinned to one chunk, whose unfinished
functions then fail with cause `crash` (or `timeout`).
"""
from __future__ import annotations

import dataclasses
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from typing import IO

from .conformance_syntax import split_chunks
from .conformance_worker import Outcome


@dataclasses.dataclass
class Task:
    path: str
    display: str
    chunks: list[int]
    order: int                          # the file's position, for sorting outcomes


@dataclasses.dataclass
class _Worker:
    process: subprocess.Popen
    stderr: IO[bytes]
    task: Task | None = None
    started: float = 0.0
    buffer: bytes = b""
    phase: str = ""
    announced: dict = dataclasses.field(default_factory=dict)    # chunk -> test ids

    @property
    def stdin(self) -> IO[bytes]:
        return self.process.stdin  # type: ignore[return-value]  # a PIPE

    @property
    def stdout(self) -> IO[bytes]:
        return self.process.stdout  # type: ignore[return-value]  # a PIPE


def discover(paths: list[str]) -> list[tuple[str, str]]:
    """(path, display name) of every .mlir file under `paths`, display relative to its folder."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for folder, _, names in sorted(os.walk(path)):
                for name in sorted(names):
                    if name.endswith(".mlir"):
                        full = os.path.join(folder, name)
                        found.append((full, os.path.relpath(full, path)))
        elif os.path.isfile(path):
            found.append((path, os.path.basename(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found


class Runner:
    """Runs files on `target` with `jobs` workers; `on_outcome` sees each outcome as it comes."""

    def __init__(self, target: str, *, jobs: int = 0, timeout: float = 120.0,
                 lift_constants: bool = True, on_outcome=None, on_file_done=None):
        self.target = target
        self.lift_constants = lift_constants
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.timeout = timeout
        self.on_outcome = on_outcome or (lambda o: None)
        self.on_file_done = on_file_done or (lambda display: None)
        self.outcomes: list[tuple[int, Outcome]] = []
        self._seen: set[str] = set()
        self._pending_per_file: dict[str, int] = {}

    def run(self, files: list[tuple[str, str]]) -> list[Outcome]:
        queue = []
        for order, (path, display) in enumerate(files):
            with open(path, encoding="utf-8") as f:
                count = len(split_chunks(f.read()))
            queue.append(Task(path, display, list(range(count)), order))
            self._pending_per_file[display] = 1
        selector = selectors.DefaultSelector()
        workers: list[_Worker] = []
        try:
            while queue or any(w.task for w in workers):
                while queue and len([w for w in workers if w.task]) < self.jobs:
                    idle = next((w for w in workers if not w.task), None) or \
                        self._spawn(workers, selector)
                    self._assign(idle, queue.pop(0))
                for key, _ in selector.select(timeout=0.5):
                    self._read(key.data, queue, selector, workers)
                now = time.monotonic()
                for w in list(workers):
                    if w.task and now - w.started > self.timeout:
                        self._lost(w, queue, selector, workers, "timeout",
                                   f"no result within {self.timeout:g} s while {w.phase}")
        finally:
            for w in workers:
                self._stop(w, selector)
        return [o for _, o in sorted(self.outcomes, key=lambda p: (p[0], p[1].line))]

    def _spawn(self, workers, selector) -> _Worker:
        stderr = tempfile.TemporaryFile()
        process = subprocess.Popen(
            [sys.executable, "-m", "shlo.tools.conformance_worker", self.target],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        worker = _Worker(process, stderr)
        selector.register(process.stdout, selectors.EVENT_READ, worker)
        workers.append(worker)
        return worker

    def _assign(self, worker: _Worker, task: Task) -> None:
        worker.task, worker.started, worker.phase, worker.announced = \
            task, time.monotonic(), "starting", {}
        message = {"path": task.path, "display": task.display, "chunks": task.chunks,
                   "lift_constants": self.lift_constants}
        worker.stdin.write((json.dumps(message) + "\n").encode())
        worker.stdin.flush()

    def _read(self, worker: _Worker, queue, selector, workers) -> None:
        data = os.read(worker.stdout.fileno(), 1 << 16)
        if not data:
            code = worker.process.wait()
            why = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
            tail = _tail(worker.stderr)
            self._lost(worker, queue, selector, workers, "crash",
                       f"worker died ({why}) while {worker.phase}" + (f": {tail}" if tail else ""),
                       dead=True)
            return
        worker.buffer += data
        *lines, worker.buffer = worker.buffer.split(b"\n")
        for line in lines:
            if line.strip():
                self._event(worker, json.loads(line))

    def _event(self, worker: _Worker, event: dict) -> None:
        kind = event.pop("event")
        task = worker.task
        assert task is not None     # a worker reports only while it has a task
        if kind == "phase":
            worker.phase = event["what"]
        elif kind == "tests":
            worker.announced[event["chunk"]] = event["tests"]
        elif kind == "outcome":
            self._record(task, Outcome(**event))
        elif kind == "error":
            self._record(task, Outcome(task.display, 0, "<file>", f"{task.display}::<file>",
                                       self.target, "failed", "parse", event["message"]))
        elif kind == "done":
            worker.task = None
            self._file_progress(task.display, -1)

    def _record(self, task: Task, outcome: Outcome) -> None:
        if outcome.id in self._seen:
            return
        self._seen.add(outcome.id)
        self.outcomes.append((task.order, outcome))
        self.on_outcome(outcome)

    def _lost(self, worker, queue, selector, workers, cause: str, message: str, *,
              dead: bool = False) -> None:
        """A worker crashed or timed out: retry its unfinished chunks in halves."""
        task = worker.task
        self._stop(worker, selector, dead=dead)
        workers.remove(worker)
        unfinished = [c for c in task.chunks
                      if c not in worker.announced
                      or any(t[0] not in self._seen for t in worker.announced[c])]
        if len(unfinished) > 1:
            half = len(unfinished) // 2
            for part in (unfinished[:half], unfinished[half:]):
                queue.insert(0, dataclasses.replace(task, chunks=part))
            self._file_progress(task.display, +1)
            return
        for chunk in unfinished:
            tests = worker.announced.get(chunk) or \
                [[f"{task.display}::<chunk {chunk}>", f"<chunk {chunk}>", 0]]
            for test_id, name, line in tests:
                if test_id not in self._seen:
                    self._record(task, Outcome(task.display, line, name, test_id, self.target,
                                               "failed", cause, message))
        self._file_progress(task.display, -1)

    def _file_progress(self, display: str, delta: int) -> None:
        self._pending_per_file[display] += delta
        if self._pending_per_file[display] == 0:
            self.on_file_done(display)

    @staticmethod
    def _stop(worker: _Worker, selector, *, dead: bool = False) -> None:
        try:
            selector.unregister(worker.stdout)
        except (KeyError, ValueError):
            pass
        if not dead and worker.process.poll() is None:
            if worker.task:
                worker.process.kill()
            else:
                worker.stdin.close()
            try:
                worker.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
        worker.stdout.close()
        if not worker.stdin.closed:
            worker.stdin.close()
        worker.stderr.close()


def _tail(stream) -> str:
    stream.seek(0)
    lines = [l for l in stream.read().decode("utf-8", "replace").splitlines() if l.strip()]
    return lines[-1].strip()[:200] if lines else ""
