"""The registry of custom-call decompositions: call target -> Python function.

Registrants import this module and call `register_custom_call`; it imports none of them.
The built-in registrants are named in BUILTINS and imported on the registry's first use.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

from iree.compiler import ir

# The modules that register shlo's built-in decompositions, imported on first use.
BUILTINS = tuple(f"shlo.passes.custom_calls.{m}" for m in (
    "lapack.ffi_calls", "lapack.gees", "lapack.geev", "lapack.gehrd", "lapack.geqp3",
    "lapack.gesdd", "lapack.gtsv", "lapack.syevd", "lapack.sytrd",       # LAPACK
    "gpu_solver_calls", "tpu_solver_calls",     # GPU and TPU solvers (on the LAPACK ones)
    "approx_top_k",             # jax's ApproxTopK
    "sharding_calls",           # sharding and placement annotations
    "threefry_calls",           # jax's Threefry on CUDA and ROCm
    "gpu_svd_calls",            # jax's SVD on CUDA and ROCm
    "lapack.legacy_calls",      # jaxlib's LAPACK calls before FFI
    "ducc_fft_calls",           # jax's CPU FFT call of 2023
))
# The module attribute (an array of strings) where expansions leave the IREE cpu flags they
# need; shlo.pipelines.cpu_tuning adds them to the module's compile.
CPU_FLAGS_ATTR = "shlo.cpu_flags"

_REGISTRY: dict[str, Callable] = {}
_STATIC_ONLY: set[str] = set()        # targets whose decomposition needs static shapes
_CPU_FLAGS: dict[str, tuple[str, ...]] = {}     # target -> IREE cpu flags its expansion needs
_BY_USER: set[str] = set()            # targets registered by modules outside BUILTINS
_loaded = False


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in BUILTINS:
            importlib.import_module(name)


def register_custom_call(target: str, decomposition: Callable, *,
                         static_shapes_only: bool = False,
                         cpu_flags: tuple[str, ...] = ()) -> None:
    """Map `stablehlo.custom_call @target` to `decomposition(op, *operands)` (replaces any
    earlier registration of that target; a built-in one never replaces a user's). With `static_shapes_only`,
    a call with run-time sizes is a one-line error that says to compile for concrete shapes
    instead. `cpu_flags`: IREE flags a module holding the expansion compiles with for the cpu
    target (left on the module as CPU_FLAGS_ATTR)."""
    if not isinstance(target, str) or not target:
        raise ValueError("register_custom_call: the target must be a non-empty string")
    if not callable(decomposition):
        raise ValueError(f"register_custom_call: the decomposition for '{target}' is not "
                         f"callable")
    builtin = getattr(decomposition, "__module__", None) in BUILTINS
    if builtin and target in _BY_USER:
        return
    (_BY_USER.discard if builtin else _BY_USER.add)(target)
    _REGISTRY[target] = decomposition
    (_STATIC_ONLY.add if static_shapes_only else _STATIC_ONLY.discard)(target)
    _CPU_FLAGS[target] = tuple(cpu_flags)


def unregister_custom_call(target: str) -> None:
    _load_builtins()
    _BY_USER.discard(target)
    _REGISTRY.pop(target, None)
    _STATIC_ONLY.discard(target)
    _CPU_FLAGS.pop(target, None)


def registered_custom_calls() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def decomposition(target: str) -> Callable | None:
    """The function registered for `target`, or None."""
    _load_builtins()
    return _REGISTRY.get(target)


def static_shapes_only(target: str) -> bool:
    _load_builtins()
    return target in _STATIC_ONLY


def cpu_flags(target: str) -> tuple[str, ...]:
    """The IREE cpu flags `target`'s decomposition asks for."""
    _load_builtins()
    return _CPU_FLAGS.get(target, ())


def call_target(op: ir.Operation) -> str:
    """A stablehlo.custom_call's call_target_name."""
    return ir.StringAttr(op.attributes["call_target_name"]).value


def request_cpu_flags(op: ir.Operation, flags: tuple[str, ...]) -> None:
    """Add `flags` to CPU_FLAGS_ATTR of the module around `op`."""
    module = op
    while module.name != "builtin.module" and module.parent is not None:
        module = module.parent
    have = ([ir.StringAttr(a).value for a in ir.ArrayAttr(module.attributes[CPU_FLAGS_ATTR])]
            if CPU_FLAGS_ATTR in module.attributes else [])
    module.attributes[CPU_FLAGS_ATTR] = ir.ArrayAttr.get(
        [ir.StringAttr.get(f) for f in have + [f for f in flags if f not in have]])
