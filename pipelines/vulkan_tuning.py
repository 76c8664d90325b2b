"""Per-module IREE flags for the vulkan targets.

A module with control flow (a while, if or case) compiles without IREE's memoized command
buffers: IREE 3.13 records such a module's command buffers once, on the first call, and on
Vulkan later calls then read or wrote buffers of the first call (a loop's result
concatenated with an argument, a cond's result concatenated with a value read before it, a
pad by a loop's value: every element wrong from the second call on, silently; right with
memoization off). The flag is process-global in IREE 3.13, so such a module compiles in a
child `iree-compile` (runtime.child_compile). Evidence and costs:
docs/iree_gaps.md#vk-memoized-command-buffers-later-calls-of-modules-with-control-flow.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

NO_MEMOIZATION = "--iree-hal-memoization=false"
CONTROL_FLOW = ("stablehlo.while", "stablehlo.if", "stablehlo.case")


def has_control_flow(module_op: ir.Operation) -> bool:
    """Whether the module holds a while, if or case."""
    found = False

    def visit(op):
        nonlocal found
        found = op.name in CONTROL_FLOW
        return ir.WalkResult.INTERRUPT if found else ir.WalkResult.ADVANCE
    module_op.walk(visit)
    return found


def module_flags(module_op: ir.Operation) -> tuple[str, ...]:
    """The extra vulkan flags of a module: no memoized command buffers with control flow."""
    return (NO_MEMOIZATION,) if has_control_flow(module_op) else ()


def tuned(target, module_op: ir.Operation):
    """`target` with the module's extra flags placed before the user's (vulkan targets only)."""
    if target.kind.name != "vulkan":
        return target
    extra = module_flags(module_op)
    if not extra:
        return target
    return dataclasses.replace(target, extra_flags=extra + target.extra_flags)
