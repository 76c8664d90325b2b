"""Sharding, layout and memory-placement annotations that JAX and XLA spell as custom calls,
decomposed for single-device programs (registered with shlo-expand-custom-calls).

Each says how a value is split over devices, laid out or placed (device or host memory), and
none changes what a program computes on one device, so each call is its operand:

* `Sharding` (GSPMD's sharding annotation, jax's with_sharding_constraint), `LayoutConstraint`;
* `annotate_device_placement` (jax's memory kinds), `MoveToHost`, `MoveToDevice`;
* `xla.sdy.FuncResultSharding`, `xla.sdy.PropagationBarrier` (Shardy's round trip through
  XLA), `xla.sdy.ShardingGroup` (no result: erased);
* `SPMDFullToShardShape`, `SPMDShardToFullShape`, `xla.sdy.GlobalToLocalShape`,
  `xla.sdy.LocalToGlobalShape`: the entry and exit of code written per device (shard_map).
  On one device a shard is the whole value and the types agree; where they do not, the
  program was written for several devices, and the call is an error that says so.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.errors import PassError
from .registry import call_target, register_custom_call

# target -> what it annotates
ANNOTATIONS = {
    "Sharding": "a GSPMD sharding",
    "LayoutConstraint": "a layout",
    "annotate_device_placement": "a memory kind",
    "MoveToHost": "a move to host memory",
    "MoveToDevice": "a move to device memory",
    "xla.sdy.FuncResultSharding": "a Shardy result sharding",
    "xla.sdy.PropagationBarrier": "a Shardy propagation barrier",
    "xla.sdy.ShardingGroup": "a Shardy sharding group",
    "SPMDFullToShardShape": "the entry of per-device code",
    "SPMDShardToFullShape": "the exit of per-device code",
    "xla.sdy.GlobalToLocalShape": "the entry of per-device code",
    "xla.sdy.LocalToGlobalShape": "the exit of per-device code",
}


def identity(op: ir.Operation, *operands: ir.Value) -> list[ir.Value]:
    """The call's operands as its results (none for a call without results)."""
    if not op.results:
        return []
    if len(operands) != len(op.results) or any(
            v.type != r.type for v, r in zip(operands, op.results)):
        got = ", ".join(str(v.type) for v in operands)
        want = ", ".join(str(r.type) for r in op.results)
        raise PassError(f"stablehlo.custom_call @{call_target(op)} ({ANNOTATIONS[call_target(op)]}) "
                        f"turns {got} into {want}: the program is written per device for "
                        f"several devices, and shlo compiles single-device programs (export "
                        f"it for one device)", at=op)
    return list(operands)


for _target_name in ANNOTATIONS:
    register_custom_call(_target_name, identity)
