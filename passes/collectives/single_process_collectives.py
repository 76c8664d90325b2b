"""shlo-single-process-collectives: collectives of a one-process program as the data movement
they amount to.

IREE compiles StableHLO collectives but they do not run on its local CPU or Vulkan devices.
A module for one replica and one partition (`mhlo.num_replicas` and `mhlo.num_partitions`
absent or 1) runs as process 0 alone, and every process group it can name is {0}: by the spec
all_reduce, all_gather, all_to_all, reduce_scatter and collective_broadcast over a group of
one return their operands, replica_id and partition_id are 0; collective_permute returns
the operand when (0, 0) is a source-target pair and zeros when process 0 receives from
nobody. A group naming another process is an error (that process does not exist). Modules
for several processes are left to IREE.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..op_rules import RulesPass
from ..lib.expr import Num


def _int_rows(attr: ir.Attribute) -> list[list[int]]:
    dense = ir.DenseIntElementsAttr(attr)
    shape = ir.ShapedType(dense.type).shape
    values = [int(dense[i]) for i in range(len(dense))]
    width = shape[-1] if shape else 1
    return [values[i:i + width] for i in range(0, len(values), width)] if values else []


def _processes(op: ir.Operation) -> int:
    """num_replicas * num_partitions of the module holding `op`."""
    module = op
    while module is not None and module.name != "builtin.module":
        module = module.parent
    count = 1
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        if module is not None and name in module.attributes:
            count *= ir.IntegerAttr(module.attributes[name]).value
    return count


def _check_groups(op: ir.Operation, attr: str) -> None:
    if attr not in op.attributes:
        return
    rows = _int_rows(op.attributes[attr])
    others = sorted({p for row in rows for p in row if p not in (0, -1)})
    if others:
        raise PassError(f"{op.name}: {attr} {rows} names process {others[0]}, but the module "
                        f"runs on one process (mhlo.num_replicas = mhlo.num_partitions = 1)",
                        at=op)


def _identity(attr: str):
    def rule(op: ir.Operation):
        if _processes(op) != 1:
            return None
        _check_groups(op, attr)
        for v, r in zip(op.operands, op.results):
            if v.type != r.type:
                raise PassError(f"{op.name}: result type {r.type} differs from the operand "
                                f"type {v.type}, which a group of one process cannot produce",
                                at=op)
        return list(op.operands)
    return rule


def _collective_permute(op: ir.Operation):
    if _processes(op) != 1:
        return None
    _check_groups(op, "source_target_pairs")
    pairs = _int_rows(op.attributes["source_target_pairs"])
    operand = op.operands[0]
    return [operand if [0, 0] in pairs else Num(operand).like(0).value]


def _process_zero(op: ir.Operation):
    """replica_id and partition_id of the one process: 0 (IREE's CPU and Vulkan runtimes
    fail on replica_id, which asks for a collective channel)."""
    if _processes(op) != 1:
        return None
    return [stablehlo.constant(0, result_type=op.results[0].type)]


RULES = {
    "stablehlo.replica_id": _process_zero,
    "stablehlo.partition_id": _process_zero,
    "stablehlo.all_reduce": _identity("replica_groups"),
    "stablehlo.all_gather": _identity("replica_groups"),
    "stablehlo.all_to_all": _identity("replica_groups"),
    "stablehlo.reduce_scatter": _identity("replica_groups"),
    "stablehlo.collective_broadcast": _identity("replica_groups"),
    "stablehlo.collective_permute": _collective_permute,
}


@dataclasses.dataclass
class SingleProcessCollectives(RulesPass):
    """Rewrite the collectives of a one-replica, one-partition module into what they compute."""

    NAME = "shlo-single-process-collectives"
    RULES = RULES
