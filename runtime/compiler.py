"""In-process compilation of a module to a .vmfb with IREE's compiler API.

One IREE session per target (flags accumulate per session). A module is
imported into the session whose context it lives in, with no text round trip:
the first target a shlo context is compiled for claims that context's own
session; other targets get a session of their own, into whose context the
module is copied as bytecode.
"""
from __future__ import annotations

import ctypes
import os
import shlex
import tempfile
import threading

from iree.compiler import ir

from ..context import context as new_context, home_session
from ..errors import CompileError
from ..module_io import module_bytecode, parse_module, print_module
from ..pipelines import DEFAULT, get_pipeline
from ..pipelines.targets import Target, get_target

_lock = threading.Lock()
_claimed: dict[int, str] = {}                 # id(context) -> target name its session compiles for
_target_sessions: dict[str, object] = {}      # target name -> session (for modules of other contexts)

_SEVERITY_ERROR = 2
_DiagnosticCallback = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                                       ctypes.c_void_p)


def compile(module, target: str | Target = "cpu", *, flags=(), pipeline: str | None = DEFAULT):
    """Compile a module (ir.Module, MLIR text/bytecode, or an object with `.module`) for a target.

    Runs `pipeline` (shlo's legalizations by default; None or "" for none) on a
    copy of the module, then IREE; returns an `Executable`. IREE's diagnostics
    come back as a `CompileError` that names a reproducer on disk.
    """
    from .executable import Executable

    target = get_target(target, flags)
    module = _as_module(module)
    work = module.operation.clone()
    pipeline_text = get_pipeline(pipeline) if pipeline else ""
    if pipeline_text:
        from ..passes.pipeline import run_pipeline
        run_pipeline(work, pipeline_text)
    vmfb = compile_to_vmfb(work, target, original=module, pipeline=pipeline_text)
    return Executable(vmfb, device=target.driver, target=target.name)


def _as_module(module) -> ir.Module:
    if hasattr(module, "module") and not isinstance(module, ir.Module):
        module = module.module                       # an XlaComputation or similar wrapper
    if isinstance(module, (str, bytes)):
        return parse_module(module)
    if isinstance(module, ir.Module):
        return module
    raise CompileError(f"compile expects an ir.Module, MLIR text or bytecode, got "
                       f"{type(module).__name__}")


def compile_to_vmfb(module_op: ir.Operation, target: Target, *, original=None,
                    pipeline: str = "") -> bytes:
    """IREE-compile a legalized module op (consumed: IREE rewrites it) to .vmfb bytes."""
    from iree.compiler.api import Output

    session, module_op = _session_for(module_op, target)
    invocation = session.invocation()
    errors: list[str] = []

    @_DiagnosticCallback
    def on_diagnostic(severity, message, size, _user):
        if severity == _SEVERITY_ERROR:
            errors.append(ctypes.string_at(message, size).decode("utf-8", "replace"))

    _dylib().ireeCompilerInvocationEnableCallbackDiagnostics(invocation._inv_p, 0, on_diagnostic,
                                                             None)
    invocation.import_module(module_op)
    if not invocation.execute():
        raise _compile_error(errors, target, original if original is not None else module_op,
                             pipeline)
    output = Output.open_membuffer()
    invocation.output_vm_bytecode(output)
    vmfb = bytes(output.map_memory())
    output.close()
    invocation.close()
    return vmfb


def _session_for(module_op: ir.Operation, target: Target):
    """The session compiling for `target`, and the module op living in its context."""
    ctx = module_op.context
    with _lock:
        home = home_session(ctx)
        if home is None:
            raise CompileError("module was not created in a shlo context: build or parse it "
                               "with shlo.context() / shlo.parse_module")
        claimed = _claimed.setdefault(id(ctx), target.name + repr(target.flags))
        if claimed == target.name + repr(target.flags):
            if not getattr(home, "_shlo_configured", False):
                home.set_flags(*target.flags)
                home._shlo_configured = True
            return home, module_op
        key = target.name + repr(target.flags)
        session = _target_sessions.get(key)
        if session is None:
            session = home_session(new_context())
            session.set_flags(*target.flags)
            _target_sessions[key] = session
    return session, ir.Module.parse(module_bytecode(module_op), session.context).operation


def _compile_error(errors: list[str], target: Target, module, pipeline: str) -> CompileError:
    directory = tempfile.mkdtemp(prefix="shlo-repro-")
    path = os.path.join(directory, "input.mlir")
    with open(path, "w") as f:
        f.write(print_module(module, debuginfo=True))
    command = (f"shlo-compile {shlex.quote(path)} --target {target.name}"
               + "".join(f" --iree-flag={shlex.quote(f)}" for f in target.extra_flags)
               + (f" --pipeline={shlex.quote(pipeline)}" if pipeline != DEFAULT else "")
               + f" -o {shlex.quote(os.path.join(directory, 'out.vmfb'))}")
    first = errors[0].splitlines()[0] if errors else "IREE reported no diagnostic"
    message = (f"IREE compilation for target '{target.name}' failed: {first} "
               f"(reproduce: {command})")
    error = CompileError(message, reproducer=path)
    error.diagnostics = errors
    error.command = command
    return error


def _dylib():
    from iree.compiler.api import ctypes_dl
    lib = ctypes_dl._dylib
    fn = lib.ireeCompilerInvocationEnableCallbackDiagnostics
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, _DiagnosticCallback, ctypes.c_void_p]
    fn.restype = None
    return lib
