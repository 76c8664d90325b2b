"""The parent's side of the worker process: send a request, wait (with a timeout) for the
reply, and turn a dead or hung child into a crash result instead of dying with it."""
from __future__ import annotations

import dataclasses
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from typing import IO


@dataclasses.dataclass
class Result:
    status: str                 # "ok", "error" (a clean exception), "crash" (died), "timeout"
    outputs: list | None = None
    error: str = ""
    repeat: list | None = None  # a target's second call, where it differs from the first
    seconds: float = 0.0

    def values(self) -> list:
        """The outputs of an "ok" result (a clear error for any other)."""
        if self.status != "ok" or self.outputs is None:
            raise RuntimeError(f"the worker's result is {self.status!r}, not 'ok' with outputs"
                               + (f": {self.error}" if self.error else ""))
        return self.outputs


class Worker:
    """One `python -m shlo.tools.fuzz.worker` child, restarted after a crash or timeout."""

    def __init__(self, timeout_s: float = 300.0, env: dict | None = None):
        self.timeout_s = timeout_s
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None
        self.spent: dict[str, list] = {}    # kind -> [calls, wall seconds] (the run's summary)

    def _start(self) -> subprocess.Popen[bytes]:
        self.log = tempfile.TemporaryFile()
        env = dict(os.environ, **(self.env or {}))
        self.proc = subprocess.Popen([sys.executable, "-m", "shlo.tools.fuzz.worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, env=env, start_new_session=True)
        return self.proc

    def _running(self) -> subprocess.Popen[bytes]:
        if self.proc is None:
            raise RuntimeError("the fuzz worker is not running (call() starts it)")
        return self.proc

    def _stderr_tail(self, n: int = 1500) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-n:]

    def call(self, kind: str, text: str | list[str], inputs: list, timeout_s: float | None = None) -> Result:
        """`kind` (a target, "batch:<target>", "reference", "xla") on `text` and `inputs`."""
        result = self._call(kind, text, inputs, timeout_s)
        spent = self.spent.setdefault(kind.split(":")[0] if kind.startswith("batch:") else kind,
                                      [0, 0.0])
        spent[0], spent[1] = spent[0] + 1, spent[1] + result.seconds
        return result

    def _call(self, kind: str, text: str | list[str], inputs: list, timeout_s: float | None) -> Result:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            proc = self._start()
        assert proc.stdin is not None   # Popen(stdin=PIPE)
        start = time.monotonic()
        data = pickle.dumps({"kind": kind, "text": text, "inputs": inputs},
                            protocol=pickle.HIGHEST_PROTOCOL)
        try:
            proc.stdin.write(struct.pack("<Q", len(data)) + data)
            proc.stdin.flush()
            reply = self._reply(start + (timeout_s or self.timeout_s))
        except (BrokenPipeError, EOFError):
            return self._died(start)
        except TimeoutError:
            self.close()
            return Result("timeout", error=f"no reply within {timeout_s or self.timeout_s:.0f} s",
                          seconds=time.monotonic() - start)
        seconds = time.monotonic() - start
        if reply["ok"]:
            return Result("ok", outputs=reply["outputs"], repeat=reply.get("repeat"),
                          seconds=seconds)
        return Result("error", error=reply["error"], seconds=seconds)

    def _reply(self, deadline: float) -> dict:
        stdout = self._running().stdout
        assert stdout is not None       # Popen(stdout=PIPE)
        fd = stdout.fileno()
        head = self._read(fd, 8, deadline)
        (n,) = struct.unpack("<Q", head)
        return pickle.loads(self._read(fd, n, deadline))

    @staticmethod
    def _read(fd: int, n: int, deadline: float) -> bytes:
        chunks, got = [], 0
        while got < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(n - got, 1 << 22))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def _died(self, start: float) -> Result:
        code = self._running().wait()
        how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        tail = self._stderr_tail().strip().splitlines()
        self.proc = None
        return Result("crash", error=f"worker died ({how}): " + " | ".join(tail[-3:]),
                      seconds=time.monotonic() - start)

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:     # the child and what it started (iree-compile)
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.wait()
            self.proc = None


class InProcess:
    """A Worker's interface in this process (for tests and replays of clean failures: a
    crash ends the caller; no timeout)."""

    timeout_s = float("inf")

    def call(self, kind: str, text: str | list[str], inputs: list, timeout_s: float | None = None) -> Result:
        from .worker import TargetRun, handle
        start = time.monotonic()
        try:
            out = handle({"kind": kind, "text": text, "inputs": inputs})
            if isinstance(out, TargetRun):
                return Result("ok", outputs=out.outputs, repeat=out.repeat,
                              seconds=time.monotonic() - start)
            return Result("ok", outputs=out, seconds=time.monotonic() - start)
        except Exception as e:      # noqa: BLE001 - reported like the child's errors
            lines = [line for line in str(e).splitlines() if line.strip()]
            return Result("error", error=f"{type(e).__name__}: {lines[0] if lines else ''}",
                          seconds=time.monotonic() - start)

    def close(self) -> None:
        pass
