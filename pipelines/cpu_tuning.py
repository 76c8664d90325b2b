"""Per-module IREE flags for the cpu target, chosen from what the module contains (data).

shlo's cpu defaults (`CPU_DEFAULT_FLAGS` in shlo.pipelines.targets, chosen by
`python -m shlo.tools.flag_sweep`, numbers in docs/performance.md) fit every
workload measured but one: with O2/O3, IREE fuses jax's scatter (its negative
index wrapping) into a dispatch that needs 4 MiB of stack and fails to compile
("exceeded stack allocation limit"). A module with a scatter therefore compiles
without aggressive fusion, which avoids it. Flags the user gave come last and
win (IREE takes the last value of a repeated flag).
"""
from __future__ import annotations

from iree.compiler import ir

# op name -> (flags added when the module holds that op, why)
MODULE_RULES: dict[str, tuple[tuple[str, ...], str]] = {
    "stablehlo.scatter": (("--iree-dispatch-creation-enable-aggressive-fusion=false",),
                          "O2/O3 fuse scatter index math into a dispatch over the stack limit"),
}


def module_flags(module_op: ir.Operation) -> tuple[str, ...]:
    """The extra cpu flags MODULE_RULES give a module (in table order, each once)."""
    names: set[str] = set()
    module_op.walk(lambda op: names.add(op.name) or ir.WalkResult.ADVANCE)
    flags: list[str] = []
    for op_name, (extra, _why) in MODULE_RULES.items():
        if op_name in names:
            flags += [f for f in extra if f not in flags]
    return tuple(flags)


def tuned(target, module_op: ir.Operation):
    """`target` with the module's extra flags placed before the user's (cpu targets only)."""
    if target.kind.name != "cpu":
        return target
    extra = module_flags(module_op)
    if not extra:
        return target
    import dataclasses
    return dataclasses.replace(target, extra_flags=extra + target.extra_flags)
