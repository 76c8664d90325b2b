"""shlo: a StableHLO compiler in Python on the official MLIR Python bindings.

Build StableHLO/CHLO modules in Python (`shlo.dialect`, `shlo.xla`), transform
them with Python and C++ passes (`shlo.passes`, `shlo.pipelines`), and compile
and run them with IREE on CPU, Vulkan and CUDA (`shlo.compile`).
"""
from .context import context
from .errors import (BuildError, CompileError, DeviceError, Error, InvocationError,
                     ParseError, PassError, PipelineError)
from .module_io import module_bytecode, parse_module, print_module, read_module

__all__ = [
    "context", "parse_module", "read_module", "print_module", "module_bytecode",
    "compile", "load", "Executable", "run_parallel",
    "Error", "ParseError", "BuildError", "PipelineError", "PassError", "CompileError",
    "InvocationError", "DeviceError",
]

_LAZY = {"compile": "shlo.runtime.compiler", "load": "shlo.runtime.executable",
         "Executable": "shlo.runtime.executable", "run_parallel": "shlo.runtime.parallel"}


def __getattr__(name):
    # The runtime (and iree.runtime) is imported only when used: shlo-opt stays fast to start.
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name == "distributed":       # one process per MPI rank (mpi4py)
        import importlib
        return importlib.import_module("shlo.runtime.distributed")
    if name == "jax":           # shlo.jax.jit: the front door for jax users (core/jax.py)
        import importlib
        return importlib.import_module("shlo.jax")
    raise AttributeError(f"module 'shlo' has no attribute '{name}'")
