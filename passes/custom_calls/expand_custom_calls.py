"""shlo-expand-custom-calls: stablehlo.custom_call by a registry of Python decompositions.

IREE compiles no custom_call except `shape_assertion`. Built in: the LAPACK calls JAX emits
on the CPU (shlo.passes.custom_calls.lapack.ffi_calls and its siblings), jax's ApproxTopK
(shlo.passes.custom_calls.approx_top_k) and the sharding and placement annotations of single-device
programs (shlo.passes.custom_calls.sharding_calls). A user
maps a call target to a
decomposition with `register_custom_call(target, fn)`; `fn(op, *operands)` runs with the
insertion point before the call and its location, builds StableHLO with shlo's builders
(`from shlo.dialect import stablehlo`) and returns the value or values replacing the call's
results (same types). A target that is neither registered nor IREE's own is an error that
names it. A decomposition that IREE compiles right only under some flags registers them
(`cpu_flags=`): the pass leaves them on the module (`shlo.cpu_flags`) and the cpu target
adds them to that module's compile (shlo.pipelines.cpu_tuning).

    from shlo.passes.custom_calls.expand_custom_calls import register_custom_call
    register_custom_call("my_lib.softplus", lambda op, x: stablehlo.log_plus_one(
        stablehlo.exponential(x)))
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from iree.compiler import ir

from shlo.errors import PassError
from ..chlo import structure as chlo_structure
from . import cumulative_window
from .lapack import host_calls as lapack_host_calls, lu_pivots
from ..base import Pass, from_constants
from .registry import (CPU_FLAGS_ATTR, call_target, cpu_flags, decomposition, register_custom_call,
    registered_custom_calls, request_cpu_flags, static_shapes_only, unregister_custom_call)
from ..op_rules import apply_rules

# The registry's API, kept importable from here.
__all__ = ["ExpandCustomCalls", "register_custom_call", "unregister_custom_call",
           "registered_custom_calls", "CPU_FLAGS_ATTR"]

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
    target = call_target(op)
    if target in IREE_TARGETS:
        return None
    fn = decomposition(target)
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
                        f"register one with shlo.passes.custom_calls.expand_custom_calls.register_custom_call "
                        f"(registered: {known})", at=op)
    operands = _data_operands(op)
    dynamic = [str(v.type) for v in (*operands, *op.results) if static_shapes_only(target)
               and isinstance(v.type.maybe_downcast(), ir.RankedTensorType)
               and not ir.RankedTensorType(v.type).has_static_shape]
    if dynamic:
        raise PassError(f"stablehlo.custom_call @{target}: shlo decomposes it for static "
                        f"shapes only, and this call has run-time sizes ({dynamic[0]}): compile "
                        f"for concrete shapes (shlo.compile(..., specialize=True), or "
                        f"--shlo-refine-arguments)", at=op)
    out = fn(op, *operands)
    if cpu_flags(target):
        request_cpu_flags(op, cpu_flags(target))
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
    LAPACK in shlo's runtime (shlo.passes.custom_calls.lapack.host_calls); `lapack=stablehlo` (the
    default): their StableHLO decompositions, for modules that must run without shlo."""

    NAME = "shlo-expand-custom-calls"
    lapack: str = "stablehlo"

    def run(self, op: ir.Operation) -> None:
        if self.lapack not in ("stablehlo", "host"):
            raise PassError(f"{self.NAME}: lapack={self.lapack}: expected 'stablehlo' or "
                            f"'host'")
        if self.lapack == "host":
            self._permutations_without_loops(op)
        failed: list[ir.Operation] = []

        def rule(call: ir.Operation):
            if failed:      # a decomposition failed after building ops: stop rewriting
                return None
            try:
                # (of constants alone IREE evaluates the decomposition when it compiles, where
                # a host call cannot run)
                if self.lapack == "host" and not from_constants(_data_operands(call)):
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

    @staticmethod
    def _permutations_without_loops(op: ir.Operation) -> None:
        """jax's permutation loops over the pivots of getrf calls LAPACK will serve in closed
        form (shlo.passes.custom_calls.lapack.lu_pivots)."""
        calls: list[ir.Operation] = []

        def visit(o):
            if o.name == "stablehlo.custom_call" and re.fullmatch(
                    r"lapack_[sdcz]getrf_ffi", call_target(o.operation)):
                calls.append(o.operation)
            return ir.WalkResult.ADVANCE
        op.walk(visit)
        with op.context:
            for call in calls:
                operands = _data_operands(call)
                if lapack_host_calls.serves(call, operands) and not from_constants(operands):
                    lu_pivots.rewrite(call)
