"""Try risky target flags in a child `iree-compile` before the in-process compiler sees them.

LLVM ends the whole process (`LLVM ERROR: 64-bit code requested on a subtarget
that doesn't support it!`) for some CPU names it does not know, and other
target flags can fail as hard. A named CPU, a cross-compiling triple, or a user
flag that names a target is therefore compiled once, on a tiny module, in a
child process; what LLVM printed there becomes a one-line `CompileError`.
Each distinct flag set is probed once per process.
"""
from __future__ import annotations

import os
import re
import subprocess
import threading

from ..errors import CompileError
from ..pipelines.targets import Target

PROBE_MODULE = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
_TARGET_FLAG = re.compile(r"--iree-[\w-]*target[\w-]*=")
_UNKNOWN_CPU = re.compile(r"'([^']*)' is not a recognized processor for this target")
_ACCEPTED_CPUS = re.compile(r"List of accepted CPUs: (.*)")

_lock = threading.Lock()
_verdicts: dict[tuple[str, ...], str | None] = {}   # flags -> error message, or None when fine


def needs_probe(target: Target) -> bool:
    named_cpu = target.kind.name == "cpu" and (target.triple or target.cpu not in ("host",
                                                                                    "generic"))
    return bool(named_cpu or any(_TARGET_FLAG.match(f) for f in target.extra_flags))


def probe_target(target: Target) -> None:
    """Raise CompileError if IREE cannot compile for `target`'s flags (checked in a child)."""
    if not needs_probe(target):
        return
    with _lock:
        if target.flags not in _verdicts:
            _verdicts[target.flags] = _probe(target)
        verdict = _verdicts[target.flags]
    if verdict:
        raise CompileError(verdict)


def _probe(target: Target) -> str | None:
    from iree.compiler.tools.binaries import find_tool

    command = [find_tool("iree-compile"), "-", *target.flags, "-o", os.devnull]
    try:
        done = subprocess.run(command, input=PROBE_MODULE, capture_output=True, text=True,
                              timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        return f"cannot check target '{target.name}' with iree-compile: {e}"
    unknown = _UNKNOWN_CPU.search(done.stderr)
    if unknown:
        accepted = _ACCEPTED_CPUS.search(done.stderr)
        return (f"unknown CPU '{unknown.group(1)}' for target '{target.name}'"
                + (f" (LLVM accepts: {accepted.group(1).strip()})" if accepted else ""))
    if done.returncode != 0:
        lines = [l.strip() for l in done.stderr.splitlines() if "error" in l.lower()]
        first = lines[0] if lines else (done.stderr.strip().splitlines() or ["no message"])[0]
        return f"IREE cannot compile for target '{target.name}' with its flags: {first}"
    return None
