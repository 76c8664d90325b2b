"""shlo-expand-custom-calls: stablehlo.custom_call by a registry of Python decompositions.

IREE compiles no custom_call except `shape_assertion`. Built in: the LAPACK calls JAX emits
on the CPU (shlo.passes.lapack_calls and its siblings), jax's ApproxTopK
(shlo.passes.approx_top_k) and the sharding and placement annotations of single-device
programs (shlo.passes.sharding_calls). A user
maps a call target to a
decomposition with `register_custom_call(target, fn)`; `fn(op, *operands)` runs with the
insertion point before the call and its location, builds StableHLO with shlo's builders
(`from shlo.dialect import stablehlo`) and returns the value or values replacing the call's
results (same types). A target that is neither registered nor IREE's own is an error that
names it. A decomposition that IREE compiles right only under some flags registers them
(`cpu_flags=`): the pass leaves them on the module (`shlo.cpu_flags`) and the cpu target
adds them to that module's compile (shlo.pipelines.cpu_tuning).

    from shlo.passes.custom_call import register_custom_call
    register_custom_call("my_lib.softplus", lambda op, x: stablehlo.log_plus_one(
        stablehlo.exponential(x)))
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from iree.compiler import ir

from ..errors import PassError
from . import chlo_structure, cumulative_window
from .base import Pass
from .op_rules import apply_rules

# Targets IREE compiles itself: left alone.
IREE_TARGETS = frozenset({"shape_assertion"})
# StableHLO's dynamic ops spelt as custom calls (jax emits them under shape polymorphism).
# shlo-refine-shapes makes them static ops where their shape operands are known at compile
# time; one still here depends on run-time sizes.
DYNAMIC_TARGETS = frozenset({"stablehlo.dynamic_reduce_window", "stablehlo.dynamic_top_k",
                             "stablehlo.dynamic_approx_top_k",
                             "stablehlo.dynamic_rng_bit_generator"})
# ... except these forms, decomposed whatever the sizes (None: not that form).
DYNAMIC_DECOMPOSITIONS: dict[str, Callable] = {
    "stablehlo.dynamic_reduce_window": cumulative_window.decompose,
    "stablehlo.dynamic_top_k": chlo_structure.dynamic_top_k}
DYNAMIC_EXCEPTIONS = {"stablehlo.dynamic_reduce_window": " (at any size it decomposes only "
                      "cumulative windows: add, multiply, max, min, and, or along one "
                      "dimension)"}
_REGISTRY: dict[str, Callable] = {}
_STATIC_ONLY: set[str] = set()        # targets whose decomposition needs static shapes
_CPU_FLAGS: dict[str, tuple[str, ...]] = {}     # target -> IREE cpu flags its expansion needs
# The module attribute (an array of strings) where expansions leave the IREE cpu flags they
# need; shlo.pipelines.cpu_tuning adds them to the module's compile.
CPU_FLAGS_ATTR = "shlo.cpu_flags"


def register_custom_call(target: str, decomposition: Callable, *,
                         static_shapes_only: bool = False,
                         cpu_flags: tuple[str, ...] = ()) -> None:
    """Map `stablehlo.custom_call @target` to `decomposition(op, *operands)` (replaces any
    earlier registration of that target). With `static_shapes_only`, a call with run-time
    sizes is a one-line error that says to compile for concrete shapes instead. `cpu_flags`:
    IREE flags a module holding the expansion compiles with for the cpu target (left on the
    module as CPU_FLAGS_ATTR)."""
    if not isinstance(target, str) or not target:
        raise ValueError("register_custom_call: the target must be a non-empty string")
    if not callable(decomposition):
        raise ValueError(f"register_custom_call: the decomposition for '{target}' is not "
                         f"callable")
    _REGISTRY[target] = decomposition
    (_STATIC_ONLY.add if static_shapes_only else _STATIC_ONLY.discard)(target)
    _CPU_FLAGS[target] = tuple(cpu_flags)


def unregister_custom_call(target: str) -> None:
    _REGISTRY.pop(target, None)
    _STATIC_ONLY.discard(target)
    _CPU_FLAGS.pop(target, None)


def _request_cpu_flags(op: ir.Operation, flags: tuple[str, ...]) -> None:
    """Add `flags` to CPU_FLAGS_ATTR of the module around `op`."""
    module = op
    while module.name != "builtin.module" and module.parent is not None:
        module = module.parent
    have = ([ir.StringAttr(a).value for a in ir.ArrayAttr(module.attributes[CPU_FLAGS_ATTR])]
            if CPU_FLAGS_ATTR in module.attributes else [])
    module.attributes[CPU_FLAGS_ATTR] = ir.ArrayAttr.get(
        [ir.StringAttr.get(f) for f in have + [f for f in flags if f not in have]])


def registered_custom_calls() -> list[str]:
    return sorted(_REGISTRY)


def _target(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["call_target_name"]).value


def _data_operands(op: ir.Operation) -> list[ir.Value]:
    """The call's operands less those `indices_of_shape_operands` names: jax passes the
    results' shapes as extra operands under shape polymorphism (lapack_spotrf_ffi of a
    symbolic batch); the results' types say the same."""
    operands = list(op.operands)
    if "indices_of_shape_operands" not in op.attributes:
        return operands
    shape_operands = {int(i) for i in ir.DenseIntElementsAttr(
        op.attributes["indices_of_shape_operands"])}
    return [v for i, v in enumerate(operands) if i not in shape_operands]


def _expand(op: ir.Operation):
    target = _target(op)
    if target in IREE_TARGETS:
        return None
    fn = _REGISTRY.get(target)
    if fn is None and target in DYNAMIC_TARGETS:
        values = DYNAMIC_DECOMPOSITIONS.get(target, lambda op: None)(op)
        if values is not None:
            return values
        raise PassError(f"stablehlo.custom_call @{target}: its window or size operands "
                        f"depend on run-time sizes, and shlo makes it a static op only when "
                        f"they are known at compile time{DYNAMIC_EXCEPTIONS.get(target, '')}: "
                        f"compile for concrete shapes (shlo.compile(..., specialize=True), or "
                        f"--shlo-refine-arguments)", at=op)
    if fn is None:
        known = ", ".join(registered_custom_calls()) or "none"
        raise PassError(f"stablehlo.custom_call: no decomposition for target '{target}': "
                        f"register one with shlo.passes.custom_call.register_custom_call "
                        f"(registered: {known})", at=op)
    operands = _data_operands(op)
    dynamic = [str(v.type) for v in (*operands, *op.results) if target in _STATIC_ONLY
               and isinstance(v.type.maybe_downcast(), ir.RankedTensorType)
               and not ir.RankedTensorType(v.type).has_static_shape]
    if dynamic:
        raise PassError(f"stablehlo.custom_call @{target}: shlo decomposes it for static "
                        f"shapes only, and this call has run-time sizes ({dynamic[0]}): compile "
                        f"for concrete shapes (shlo.compile(..., specialize=True), or "
                        f"--shlo-refine-arguments)", at=op)
    out = fn(op, *operands)
    if _CPU_FLAGS.get(target):
        _request_cpu_flags(op, _CPU_FLAGS[target])
    values = list(out) if isinstance(out, (list, tuple)) else [out]
    values = [v.result if isinstance(v, (ir.Operation, ir.OpView)) else v for v in values]
    got, want = [v.type for v in values], [r.type for r in op.results]
    if got != want:
        raise PassError(f"stablehlo.custom_call: the decomposition of '{target}' returned "
                        f"{', '.join(map(str, got)) or 'nothing'}; the call's results are "
                        f"{', '.join(map(str, want)) or 'none'}", at=op)
    return values


@dataclasses.dataclass
class ExpandCustomCalls(Pass):
    """Replace stablehlo.custom_call ops by their registered Python decompositions.

    `lapack=host` (the cpu target's): jax's LAPACK calls of static shapes become calls of
    LAPACK in shlo's runtime (shlo.passes.lapack_host_calls); `lapack=stablehlo` (the
    default): their StableHLO decompositions, for modules that must run without shlo."""

    NAME = "shlo-expand-custom-calls"
    lapack: str = "stablehlo"

    def run(self, op: ir.Operation) -> None:
        if self.lapack not in ("stablehlo", "host"):
            raise PassError(f"{self.NAME}: lapack={self.lapack}: expected 'stablehlo' or "
                            f"'host'")
        failed = []

        def rule(call: ir.Operation):
            if failed:      # a decomposition failed after building ops: stop rewriting
                return None
            try:
                if self.lapack == "host":
                    values = lapack_host_calls.emit(call, _data_operands(call))
                    if values is not None:
                        return values
                return _expand(call)
            except Exception:
                failed.append(call)
                raise
        apply_rules(op, {"stablehlo.custom_call": rule}, self.NAME)
        if self.lapack == "host":
            module = op
            while module.name != "builtin.module" and module.parent is not None:
                module = module.parent
            lapack_host_calls.declare(module)


from . import (lapack_calls, lapack_gees, lapack_geev, lapack_gehrd, lapack_geqp3,  # noqa: E402,F401
               lapack_gesdd, lapack_gtsv, lapack_syevd, lapack_sytrd,  # LAPACK
               gpu_solver_calls, tpu_solver_calls)  # GPU and TPU solvers (on the LAPACK ones)
from . import approx_top_k  # noqa: E402,F401  (built-in: jax's ApproxTopK)
from . import lapack_host_calls  # noqa: E402  (lapack=host)
from . import sharding_calls  # noqa: E402,F401  (built-in: sharding and placement annotations)
from . import threefry_calls  # noqa: E402,F401  (built-in: jax's Threefry on CUDA and ROCm)
from . import gpu_svd_calls  # noqa: E402,F401  (built-in: jax's SVD on CUDA and ROCm)
from . import lapack_legacy_calls  # noqa: E402,F401  (built-in: jaxlib's LAPACK calls before FFI)
from . import ducc_fft_calls  # noqa: E402,F401  (built-in: jax's CPU FFT call of 2023)
