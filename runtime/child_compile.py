"""Compile in a child `iree-compile` process, for flags that IREE only takes on its command line
and for compiles that must survive a crash of IREE's compiler (`isolate`).

Some IREE options are process-global LLVM options rather than session flags: a session
rejects them ("option not found"; e.g. `--iree-llvmcpu-matmul-tile-bytes`), and setting them
in-process (`ireeCompilerSetupGlobalCL`) makes every later session ignore its own flags
(measured: docs/performance.md). A module whose flags include one is compiled by the
`iree-compile` executable of the same wheel, with all its flags, in a process of its own.

A flag is process-global when its name is not one of a session's options (the names
`Session.get_flags()` lists) but `iree-compile --help-hidden` lists it. Any other unknown
flag stays with the session, which reports it as before.

Without `verify_each`, IREE's front end runs in one child without its verification after
every pass and the rest in a second (`compile_in_child`), as runtime.compiler compiles by
phase in process.
"""
from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import tempfile

from iree.compiler import ir

from ..context import context as new_context
from ..errors import CompileError
from ..module_io import module_bytecode

_NAME = re.compile(r"--([\w.\-]+)")
# Flags whose whole point is what iree-compile prints (MLIR's per-pass timing and statistics):
# a successful child's stderr is passed on with them, as an in-process compile would print it.
REPORT_FLAGS = ("--mlir-timing", "--mlir-pass-statistics")


def _name(flag: str) -> str:
    return flag.lstrip("-").partition("=")[0]


@functools.lru_cache(maxsize=None)
def _session_options() -> frozenset[str]:
    from iree.compiler.api import Session
    return frozenset(_name(f) for f in Session().get_flags())


@functools.lru_cache(maxsize=None)
def _command_line_options() -> frozenset[str]:
    done = subprocess.run([iree_compile(), "--help-hidden"], capture_output=True, text=True)
    return frozenset(m.group(1) for line in done.stdout.splitlines()
                     if (m := _NAME.match(line.strip())))


def iree_compile() -> str:
    """The `iree-compile` executable of the installed iree-base-compiler wheel."""
    from iree.compiler.tools.binaries import find_tool
    return find_tool("iree-compile")


def _outside_session(flags) -> list[str]:
    """The flags among `flags` that a session does not take."""
    session = _session_options()
    return [f for f in flags if f.startswith("--") and _name(f) not in session]


def process_global_flags(flags) -> tuple[str, ...]:
    """The flags among `flags` that only `iree-compile`'s command line accepts."""
    candidates = _outside_session(flags)
    return tuple(f for f in candidates if _name(f) in _command_line_options()) \
        if candidates else ()


def unknown_flags(flags) -> tuple[str, ...]:
    """The flags among `flags` that neither a session nor `iree-compile` knows."""
    candidates = _outside_session(flags)
    return tuple(f for f in candidates if _name(f) not in _command_line_options()) \
        if candidates else ()


# Where a child compile without `verify_each` hands the module from one iree-compile to the next:
# IREE's front end runs without its verification after every pass; the second child's parse
# verifies the module, and its phases (codegen, hal, vm) are verified pass by pass.
_FRONT_END = "executable-sources"


def compile_in_child(module_op, flags, *, phase_dir: str | None = None,
                     verify_each: bool = True, fixups=()) -> tuple[bytes, list]:
    """(.vmfb bytes, []) from `iree-compile` run on `module_op` with `flags`, or (b"", the
    error diagnostics it printed) when it fails. Without `verify_each` (and no phase dump or
    report flag) in two children split at `_FRONT_END`, the same .vmfb as one run; where either
    fails, one run verified pass by pass gives IREE's own diagnostics. With `fixups`, (phase,
    rewrite) pairs, in children split after each phase, its rewrite of the module between
    them (runtime.compiler's _FIXUPS)."""
    with tempfile.TemporaryDirectory(prefix="shlo-child-") as work:
        source = os.path.join(work, "input.mlirbc")
        output = os.path.join(work, "out.vmfb")
        with open(source, "wb") as f:
            f.write(module_bytecode(module_op))
        if fixups:
            return _compile_with_fixups(source, output, flags, fixups, phase_dir)
        reports = any(flag.startswith(REPORT_FLAGS) for flag in flags)
        if not (verify_each or phase_dir or reports):
            front = os.path.join(work, "front.mlirbc")
            steps = ([iree_compile(), source, *flags, "--verify=false", f"--compile-to={_FRONT_END}",
                      "--emit-mlir-bytecode", "-o", front],
                     [iree_compile(), front, *flags, f"--compile-from={_FRONT_END}", "-o", output])
            if all(_run(step).returncode == 0 for step in steps) and os.path.exists(output):
                with open(output, "rb") as vmfb:
                    return vmfb.read(), []
        command = [iree_compile(), source, *flags, "-o", output]
        if phase_dir:
            command.append(f"--dump-compilation-phases-to={phase_dir}")
        return _vmfb_or_errors(_run(command), output, reports)


def _vmfb_or_errors(done: subprocess.CompletedProcess, output: str,
                    reports: bool) -> tuple[bytes, list]:
    """The .vmfb a finished iree-compile wrote to `output` (its stderr passed on for report
    flags), or (b"", its error diagnostics)."""
    if done.returncode == 0 and os.path.exists(output):
        if reports:
            sys.stderr.write(done.stderr)
        with open(output, "rb") as vmfb:
            return vmfb.read(), []
    return b"", _diagnostics(done.stderr, done.returncode)


# The phases after which IREE's dispatches are configured (before codegen) and translated
# (before their code is serialized), where fixups rewrite them.
CONFIGURED = "executable-configurations"
TRANSLATED = "executable-targets"


def _compile_with_fixups(source: str, output: str, flags, fixups,
                         phase_dir: str | None) -> tuple[bytes, list]:
    dump = [f"--dump-compilation-phases-to={phase_dir}"] if phase_dir else []
    start: list[str] = []
    for phase, fixup in fixups:
        stage = os.path.join(os.path.dirname(output), f"{phase}.mlirbc")
        done = _run([iree_compile(), source, *flags, *dump, *start, f"--compile-to={phase}",
                     "--emit-mlir-bytecode", "-o", stage])
        if done.returncode != 0 or not os.path.exists(stage):
            return b"", _diagnostics(done.stderr, done.returncode)
        with new_context() as ctx, open(stage, "rb") as f:
            module = ir.Module.parse(f.read(), ctx)
            fixup(module.operation)
            with open(stage, "wb") as out:
                out.write(module_bytecode(module.operation))
        source, start = stage, [f"--compile-from={phase}"]
    done = _run([iree_compile(), source, *flags, *dump, *start, "-o", output])
    return _vmfb_or_errors(done, output, any(flag.startswith(REPORT_FLAGS) for flag in flags))


def _run(command: list[str]) -> subprocess.CompletedProcess:
    """A finished iree-compile command, its output captured."""
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise CompileError(f"cannot run iree-compile for process-global flags: {e}") from None


def _diagnostics(stderr: str, returncode: int) -> list[str]:
    """IREE's error diagnostics from iree-compile's stderr (`<loc>: error: message`), as the
    in-process callback gives them (`<loc>: message`); a crash says so, with the signal and
    LLVM's own last word (`LLVM ERROR: out of memory`) when there is one."""
    errors = [line.replace("error: ", "", 1) for line in stderr.splitlines()
              if "error: " in line]
    if errors:
        return errors
    if returncode < 0 or returncode == 134 or "Stack dump:" in stderr:
        try:
            why = signal.Signals(-returncode).name if returncode < 0 else "SIGABRT"
        except ValueError:
            why = f"signal {-returncode}"
        said = [line.strip() for line in stderr.splitlines() if line.startswith("LLVM ERROR")]
        return [f"IREE's compiler crashed ({why}{': ' + said[0] if said else ''})"]
    last = stderr.strip().splitlines()[-1:] or [f"iree-compile exited with status {returncode}"]
    return last
