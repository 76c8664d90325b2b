"""In-process compilation of a module to a .vmfb with IREE's compiler API.

`compile_module` is the one path from a module to .vmfb bytes, shared by
`shlo.compile` and `shlo-compile`: shlo's pipeline (pass by pass when the IR
of every stage is dumped), the f64 policy, the numpy-friendly boundary, the
on-disk cache, then IREE. With `isolate` (SHLO_ISOLATE_COMPILE=1), IREE runs in
a child `iree-compile` of the same wheel (child_compile) instead: it costs about
what an in-process compile does (measured: 0.34 s both for a small module, 8-12 s
both for a large one) and turns a crash of IREE's compiler into a `CompileError`.

One IREE session per target (flags accumulate per session). A module is
imported into the session whose context it lives in, with no text round trip:
the first target a shlo context is compiled for claims that context's own
session; other targets get a session of their own, into whose context the
module is copied as bytecode. IREE's diagnostics come back as a
`CompileError` naming a reproducer and the command that replays it.

IREE verifies the module after every pass, as it does by default. With SHLO_VERIFY_EACH=0 it
runs phase by phase instead (`_execute_by_phase`; a child's front end and the rest in two
children, child_compile): codegen's passes verified one by one, the other phases' passes not,
the whole module verified after each phase; a compile that fails that way runs again verified
pass by pass, so that its diagnostics (and the retry they choose) are IREE's own. That saves
about a tenth of the compile's CPU, but IR that IREE makes invalid mid-phase reaches later
passes, which can crash the process (docs/performance.md, "Cold compiles: IREE's verification
once a phase").
"""
from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import functools
import hashlib
import inspect
import os
import re
import shlex
import sys
import tempfile
import threading
from typing import Any

from iree.compiler import ir

from ..context import context as new_context, home_session
from ..errors import CompileError
from ..module_io import module_bytecode, parse_module, print_module
from ..vhlo import is_vhlo
from ..pipelines import DEFAULT, get_pipeline, target_pipeline
from ..pipelines import cpu_tuning
from ..pipelines.cpu_tuning import retry_with, tuned
from ..pipelines.targets import Target, get_target
from ..passes.pipeline import Pipeline, parse_pipeline
from ..passes.targets.vulkan.unaligned_transfers import scalarize_unaligned_dispatches
from ..passes.targets.vulkan.workgroup_barriers import fence_workgroup_memory
from .abi import mark_read_only_inputs, mark_small_loops, one_thread
from .boundary import prepare_boundary
from .cache import CompileCache
from .child_compile import (CONFIGURED, REPORT_FLAGS, TRANSLATED, compile_in_child,
                            process_global_flags, unknown_flags)
from .f64 import check_f64
from .target_probe import probe_target

_lock = threading.RLock()
_claimed: dict[int, str] = {}                 # id(context) -> the session key its session serves
_target_sessions: dict[str, Any] = {}      # session key -> session, for foreign modules

_SEVERITY_ERROR = 2
_DiagnosticCallback = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                                       ctypes.c_void_p)
# IREE's note that demotion changed the public signatures: shlo converts values at the boundary.
_DEMOTION_NOTE = re.compile(r"WARNING: ConvertTypesPass .*?New signature:\n(?:    .*\n)*\n?", re.S)


def compile(module, target: str | Target = "cpu", *, flags=(), pipeline: str | None = DEFAULT,
            demote_f64: bool = False, fast_math: bool = False,
            cache: bool | CompileCache = True, dump_dir: str | None = None,
            specialize: bool = False, isolate: bool | None = None):
    """Compile a module (ir.Module, MLIR text/bytecode, or an object with `.module`) for a target.

    Runs `pipeline` (shlo's legalizations by default; None or "" for none) on a
    copy of the module, then IREE; returns an `Executable`. f64 stays f64 unless
    `demote_f64=True`. `fast_math=True` keeps IREE's own sine, cosine, tan, atan2 and
    complex<f32> functions (faster, inaccurate: see shlo-accurate-math). Results are cached on disk (`cache=False` to skip; see
    shlo.runtime.cache). IREE's diagnostics come back as a `CompileError` that
    names a reproducer on disk and the command that replays it.
    `specialize=True` compiles nothing yet: each call compiles (once per argument shapes and
    dtypes) a copy whose shapes are refined to the arguments' (see shlo.runtime.specialize).
    `isolate=True` (or SHLO_ISOLATE_COMPILE=1) runs IREE in a child `iree-compile` of the same
    wheel instead of this process, so that a crash of IREE's compiler (it segfaults on some
    valid programs) is a `CompileError`, not the end of the calling process.
    """
    from .executable import Executable

    target = get_target(target, flags, demote_f64=demote_f64)
    if specialize:
        from .specialize import SpecializingExecutable

        def compiled(refined):
            vmfb = compile_module(refined, target, pipeline=pipeline, cache=cache,
                                  dump_dir=dump_dir, fast_math=fast_math, isolate=isolate)
            return Executable(vmfb, device=device_for(target, vmfb), target=target.name)
        return SpecializingExecutable(_as_module(module), compiled)
    vmfb = compile_module(module, target, pipeline=pipeline, cache=cache, dump_dir=dump_dir,
                          fast_math=fast_math, isolate=isolate)
    return Executable(vmfb, device=device_for(target, vmfb), target=target.name)


def device_for(target: Target, vmfb: bytes) -> str:
    """The runtime device for a module compiled for `target`: the target's own, except that a
    local-task module marked to run on one thread (`abi.mark_small_loops`) runs on
    local-sync, the calling thread."""
    return "local-sync" if target.driver == "local-task" and one_thread(vmfb) else target.driver


def _switch(name: str, default: bool) -> bool:
    """Environment variable `name` as a switch (0: off, anything else: on), `default` when it
    is unset or empty."""
    value = os.environ.get(name)
    return default if value is None or value == "" else value != "0"


def isolate_by_default(default: bool = False) -> bool:
    """Whether compiles run in a child iree-compile: SHLO_ISOLATE_COMPILE (1 or 0) when set,
    else `default` (the CLIs isolate, the library compiles in-process)."""
    return _switch("SHLO_ISOLATE_COMPILE", default)


def verify_each_by_default() -> bool:
    """Whether a first compile verifies the module after every pass: SHLO_VERIFY_EACH (1 or 0)
    when set, else yes (0: phase by phase, faster, for modules known to compile)."""
    return _switch("SHLO_VERIFY_EACH", True)


# a RETRY_RULES retry, then a SECOND_RETRIES one where the first gives the same error
MAX_RETRIES = 2


def compile_module(module, target: Target, *, pipeline: str | None = DEFAULT,
                   cache: bool | CompileCache = True, dump_dir: str | None = None,
                   source_name: str | None = None, fast_math: bool = False,
                   isolate: bool | None = None) -> bytes:
    """The .vmfb bytes for a module: shlo's pipeline, f64 check, boundary, cache, IREE (in a
    child iree-compile with `isolate`, whose default is SHLO_ISOLATE_COMPILE)."""
    if isolate is None:
        isolate = isolate_by_default()
    probe_target(target)
    module = _as_module(module)
    pipeline_text = target_pipeline(pipeline, target, fast_math=fast_math)
    stages = _Stages(dump_dir)
    work = module.operation.clone()
    stages.write("input", work)
    _run_pipeline(work, pipeline_text, stages, source_name)
    check_f64(work, target)
    prepare_boundary(work, demote_f64=target.demote_f64)
    mark_read_only_inputs(work)
    if target.driver == "local-task":
        mark_small_loops(work)
    target = tuned(target, work)                  # per-module cpu flags (cpu_tuning)
    if target.device_targets:
        with work.context:
            work.attributes["hal.device.targets"] = ir.Attribute.parse(target.device_targets)
    stages.write("boundary", work)

    store = CompileCache.from_environment() if cache is True else (cache or None)
    key = cache_key(work, target) if store else ""
    reports = any(f.startswith(REPORT_FLAGS) for f in target.flags)  # (--mlir-timing: compile)
    if store and not dump_dir and not reports:
        cached = store.get(key)
        if cached is not None:
            return cached
    tried: list[tuple] = []        # the retries made (cpu_tuning.retry_with)
    verify_each = verify_each_by_default()     # else every pass only after a failure
    while True:
        last = len(tried) == MAX_RETRIES
        attempt = work.clone()                         # (IREE consumes what it compiles)
        try:
            vmfb = compile_to_vmfb(attempt, target, original=module, pipeline=pipeline_text,
                                   stages=stages, isolate=isolate, verify_each=verify_each)
            break
        except _FailedByPhase:
            verify_each = True                         # again, for IREE's own diagnostics
            continue
        except CompileError as e:
            plan = ((), ()) if last else retry_with(target)(str(e))
            if plan == ((), ()) or plan in tried:
                raise
            tried.append(plan)
        flags, passes = plan
        if passes:
            _run_pipeline(work, Pipeline().append(*passes).text(", "), stages, source_name)
            pipeline_text = parse_pipeline(pipeline_text).append(*passes).text(", ")  # (replay)
        target = dataclasses.replace(target, extra_flags=target.extra_flags + flags)
    if store:
        store.put(key, vmfb)
    return vmfb


def cache_key(work: ir.Operation, target: Target) -> str:
    """The compile cache's key: the module after shlo's pipeline, the target and its flags, and
    for `cpu` (this machine's CPU) that CPU's features, so that a cache shared between
    machines never hands out code for another CPU; the retry rules (an entry is stored
    under the key of the first attempt, whatever retry made it); and the rewrite of IREE's
    rewrites of IREE's own IR (`_FIXUPS`)."""
    host = ((f"host-cpu-features={','.join(sorted(cpu_tuning.host_cpu_features()))}",)
            if cpu_tuning.for_this_machine(target) else ())
    fixups = tuple(f"fixup={_source_digest(fixup)}" for _, fixup in _fixups_for(target))
    return CompileCache.key(module_bytecode(work), target.name,
                            target.flags + host + fixups + (cpu_tuning.retries_fingerprint(),))


@functools.lru_cache(maxsize=None)
def _source_digest(function) -> str:
    """The digest of the source of `function`'s module (a cached entry made by an earlier
    version of a fixup is not handed out)."""
    module = sys.modules[function.__module__]
    return hashlib.sha256(inspect.getsource(module).encode()).hexdigest()[:16]


def _as_module(module) -> ir.Module:
    if hasattr(module, "module") and not isinstance(module, ir.Module):
        module = module.module                       # an XlaComputation or similar wrapper
    if isinstance(module, (str, bytes)):
        return parse_module(module)
    if isinstance(module, ir.Module):
        return module
    raise CompileError(f"compile expects an ir.Module, MLIR text or bytecode, got "
                       f"{type(module).__name__}")


def _run_pipeline(work: ir.Operation, pipeline: str, stages, source_name):
    """Run shlo's pipeline; pass by pass (top-level steps) when every stage is dumped."""
    if not pipeline:
        return
    from ..passes.pipeline import run_pipeline
    if not stages.directory:
        run_pipeline(work, pipeline, source_name=source_name)
        return
    root = parse_pipeline(pipeline)
    for step in root.steps:
        run_pipeline(work, Pipeline(root.op_name, [step]), source_name=source_name)
        stages.write(getattr(step, "name", None) or step.op_name, work)


class _Stages:
    """Writes `NNN-stage.mlir` files into a dump directory (or nothing, without one): three
    digits, so that a listing sorts them in order (the pipeline and IREE's phases are over 100)."""

    def __init__(self, directory: str | None):
        self.directory = directory
        self.count = 0
        if directory:
            os.makedirs(directory, exist_ok=True)

    def write(self, name: str, op_or_text) -> None:
        if not self.directory:
            return
        text = op_or_text if isinstance(op_or_text, str) else print_module(op_or_text)
        with open(os.path.join(self.directory, f"{self.count:03d}-{name}.mlir"), "w") as f:
            f.write(text)
        self.count += 1

    def adopt_iree_phases(self, phase_dir: str) -> None:
        """Rename IREE's `<module>.<N>.<phase>.mlir` dumps into the numbered sequence."""
        phases = []
        for name in os.listdir(phase_dir):
            m = re.fullmatch(r".*?\.(\d+)\.([\w.\-]+)\.mlir", name)
            if m:
                phases.append((int(m.group(1)), m.group(2), name))
        for _, phase, name in sorted(phases):
            with open(os.path.join(phase_dir, name)) as f:
                self.write(f"iree-{phase}", f.read())
            os.remove(os.path.join(phase_dir, name))
        os.rmdir(phase_dir)


def compile_to_vmfb(module_op: ir.Operation, target: Target, *, original=None,
                    pipeline: str = "", stages: _Stages | None = None,
                    isolate: bool = False, verify_each: bool = True) -> bytes:
    """IREE-compile a prepared module op (consumed: IREE rewrites it) to .vmfb bytes; without
    `verify_each` and not dumping stages, by phase (`_execute_by_phase`, or in two children:
    child_compile)."""
    from iree.compiler.api import Output

    if isolate and (unknown := unknown_flags(target.flags)):
        raise CompileError(f"IREE rejected the flags of target '{target.name}': "
                           f"{', '.join(unknown)}: no such IREE option")
    if isolate or process_global_flags(target.flags):
        return _compile_in_child(module_op, target, original=original, pipeline=pipeline,
                                 stages=stages, verify_each=verify_each)
    lib = _dylib()
    errors: list[str] = []

    @_DiagnosticCallback
    def on_diagnostic(severity, message, size, _user):
        if severity == _SEVERITY_ERROR:
            errors.append(ctypes.string_at(message, size).decode("utf-8", "replace"))

    with _lock:
        session, module_op = _session_for(module_op, target)
        invocation = session.invocation()
        lib.ireeCompilerInvocationEnableCallbackDiagnostics(invocation._inv_p, 0, on_diagnostic,
                                                            None)
        phase_dir = None
        if stages is not None and stages.directory:
            phase_dir = tempfile.mkdtemp(prefix=".iree-phases-", dir=stages.directory)
            lib.ireeCompilerInvocationSetDumpCompilationPhasesTo(invocation._inv_p,
                                                                 phase_dir.encode())
        invocation.import_module(module_op)
        by_phase = not verify_each and phase_dir is None

        fixups = _fixups_for(target)

        def execute() -> bool:
            if by_phase:
                return _execute_by_phase(lib, invocation, module_op, fixups)
            if not fixups:
                return invocation.execute()
            return _execute_with_fixups(lib, invocation, module_op, fixups)
        if target.demote_f64:
            with _captured_stderr() as printed:
                ok = execute()
            sys.stderr.write(_DEMOTION_NOTE.sub("", printed.text))
        else:
            ok = execute()
        if phase_dir and stages is not None:
            stages.adopt_iree_phases(phase_dir)
        if not ok:
            raise _compile_error(errors, target, original if original is not None else module_op,
                                 pipeline)
        output = Output.open_membuffer()
        invocation.output_vm_bytecode(output)
        vmfb = bytes(output.map_memory())
        output.close()
        invocation.close()
    return vmfb


# IREE's compile phases in order (iree-compile's --compile-to), and those whose passes stay
# verified one by one: codegen, where IREE 3.13 makes invalid ops and lowers them away in the
# same phase (unverified, jnp.fft of a symbolic batch crashed the compiler, docs/performance.md).
_PHASES = ("input", "abi", "preprocessing", "global-optimization", "dispatch-creation", "flow",
           "stream", "executable-sources", "executable-configurations", "executable-targets",
           "hal", "vm", "end")
_VERIFIED_EACH_PASS = frozenset({"executable-configurations", "executable-targets"})
# target kind -> rewrites of IREE's own IR, each after an IREE phase, in phase order: once its
# dispatches are configured (before codegen), and once they are translated (before the
# SPIR-V is serialized)
_FIXUPS = {"vulkan": ((CONFIGURED, scalarize_unaligned_dispatches),
                      (TRANSLATED, fence_workgroup_memory))}


def _fixups_for(target: Target) -> tuple:
    """The (phase, rewrite) pairs of IREE's IR for `target`'s kind (`_FIXUPS`)."""
    return _FIXUPS.get(target.kind.name, ())


class _FailedByPhase(CompileError):
    """A phase whose passes were not verified one by one failed: compile again with every pass
    verified, for IREE's own diagnostics (an invalid op that verification after its pass names
    can fail a later pass otherwise)."""


def _run_phases(lib, invocation, start: str, end: str, verify_each: bool = True) -> bool:
    lib.ireeCompilerInvocationSetCompileFromPhase(invocation._inv_p, start.encode())
    lib.ireeCompilerInvocationSetCompileToPhase(invocation._inv_p, end.encode())
    lib.ireeCompilerInvocationSetVerifyIR(invocation._inv_p, verify_each)
    return invocation.execute()


def _execute_with_fixups(lib, invocation, module_op: ir.Operation, fixups) -> bool:
    """IREE's pipeline in runs that end where each of `fixups` (`_FIXUPS`) rewrites IREE's
    IR."""
    start = "start"
    for phase, fixup in fixups:
        if not _run_phases(lib, invocation, start, phase):
            return False
        fixup(module_op)
        start = phase
    return _run_phases(lib, invocation, start, "end")


def _execute_by_phase(lib, invocation, module_op: ir.Operation, fixups=()) -> bool:
    """IREE's pipeline one phase at a time (the same .vmfb as one run): the passes of
    `_VERIFIED_EACH_PASS` phases verified one by one, the module verified after each other phase
    instead of after each of its passes; each of `fixups` after its phase. False
    where a phase verified pass by pass fails (IREE's diagnostics are its own); `_FailedByPhase`
    where another fails."""
    start = "start"
    for phase in _PHASES:
        each = phase in _VERIFIED_EACH_PASS
        ok = _run_phases(lib, invocation, start, phase, each)
        if ok and not each:
            try:
                module_op.verify()
            except ir.MLIRError:
                ok = False
        if not ok and each:
            return False
        if not ok:
            raise _FailedByPhase(f"IREE failed in its {phase} phase, not verified pass by pass")
        for fixed_phase, fixup in fixups:
            if phase == fixed_phase:
                fixup(module_op)
        start = phase
    return True


def _compile_in_child(module_op: ir.Operation, target: Target, *, original, pipeline: str,
                      stages: _Stages | None, verify_each: bool) -> bytes:
    """compile_to_vmfb for flags only iree-compile's command line takes (child_compile)."""
    phase_dir = None
    if stages is not None and stages.directory:
        phase_dir = tempfile.mkdtemp(prefix=".iree-phases-", dir=stages.directory)
    vmfb, errors = compile_in_child(module_op, target.flags, phase_dir=phase_dir,
                                    verify_each=verify_each,
                                    fixups=_fixups_for(target))
    if phase_dir and stages is not None:
        stages.adopt_iree_phases(phase_dir)
    if errors:
        raise _compile_error(errors, target, original if original is not None else module_op,
                             pipeline)
    return vmfb


def _session_for(module_op: ir.Operation, target: Target):
    """The session compiling for `target`, and the module op living in its context."""
    ctx = module_op.context
    home = home_session(ctx)
    if home is None:
        raise CompileError("module was not created in a shlo context: build or parse it "
                           "with shlo.context() / shlo.parse_module")
    key = target.name + repr(target.flags)
    if _claimed.setdefault(id(ctx), key) == key:
        if not getattr(home, "_shlo_configured", False):
            _set_flags(home, target)
            home._shlo_configured = True
        return home, module_op
    session = _target_sessions.get(key)
    if session is None:
        session = home_session(new_context())
        _set_flags(session, target)
        _target_sessions[key] = session
    return session, ir.Module.parse(module_bytecode(module_op), session.context).operation


def _set_flags(session, target: Target):
    try:
        session.set_flags(*target.flags)
    except ValueError as e:
        raise CompileError(f"IREE rejected the flags of target '{target.name}': "
                           f"{' '.join(str(e).split())}") from None


class _Printed:
    text = ""


@contextlib.contextmanager
def _captured_stderr():
    """Collect what native code writes to file descriptor 2 (to drop IREE's demotion note)."""
    printed = _Printed()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield printed
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            printed.text = sink.read().decode("utf-8", "replace")


def _compile_error(errors: list[str], target: Target, module, pipeline: str) -> CompileError:
    directory = tempfile.mkdtemp(prefix="shlo-repro-")
    path = os.path.join(directory, "input.mlir")
    with open(path, "w") as f:
        f.write(print_module(module, debuginfo=True))
    command = " ".join(replay_command(path, target, pipeline,
                                      os.path.join(directory, "out.vmfb")))
    first = errors[0].splitlines()[0] if errors else "IREE reported no diagnostic"
    if "does not have integral number of total bytes" in first:
        first += (" (IREE 3.13 cannot keep a sub-byte tensor with an odd number of elements "
                  "between dispatches: use an even element count or compute in i8)")
    if is_vhlo(module):
        first += (" (the module is a VHLO portable artifact, which IREE reads but shlo's passes "
                  "do not, and shlo.vhlo could not convert it: compile its StableHLO instead, "
                  "e.g. jax's exported.mlir_module() or `stablehlo-translate --deserialize`)")
    message = (f"IREE compilation for target '{target.name}' failed: {first} "
               f"(reproducer: {path}; replay: {command})")
    error = CompileError(message, reproducer=path)
    error.diagnostics = errors
    error.command = command
    return error


def replay_command(path: str, target: Target, pipeline: str, output: str) -> list[str]:
    """The `shlo-compile` command line (quoted words) that compiles `path` the same way."""
    words = ["shlo-compile", path, "--target", target.name]
    words += [f"--iree-flag={f}" for f in target.extra_flags]
    if target.demote_f64:
        words.append("--demote-f64")
    if pipeline != get_pipeline(DEFAULT):
        words.append(f"--pipeline={pipeline or 'none'}")
    words += ["-o", output]
    return [shlex.quote(w) for w in words]


def _dylib():
    from iree.compiler.api import ctypes_dl
    lib = ctypes_dl._dylib
    fn = lib.ireeCompilerInvocationEnableCallbackDiagnostics
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, _DiagnosticCallback, ctypes.c_void_p]
    fn.restype = None
    for name in ("SetDumpCompilationPhasesTo", "SetCompileFromPhase", "SetCompileToPhase"):
        setter = getattr(lib, f"ireeCompilerInvocation{name}")
        setter.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        setter.restype = None
    verify = lib.ireeCompilerInvocationSetVerifyIR
    verify.argtypes = [ctypes.c_void_p, ctypes.c_bool]
    verify.restype = None
    return lib
