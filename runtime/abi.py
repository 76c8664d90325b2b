"""Function signatures of a compiled module, read from the .vmfb's own reflection data.

IREE records each exported function's signature as it compiled it
(`iree.abi.declaration`, with `iree.abi.encoding` for unsigned types). Where
shlo changed the boundary (sub-byte integers travel as bytes; f64 demoted on
request) it also records the user's own signature (`shlo.signature`, written by
shlo.runtime.boundary), so a loaded .vmfb validates and converts its inputs
exactly like a fresh one. The implementation lives in `standalone_loader`,
which deploys without shlo; this module is its name inside shlo.
"""
import math

from ..passes.base import set_reflection
from ..passes.lib.elementwise import ELEMENTWISE_OPS
from .standalone_loader import (ELEMENT_DTYPES, Signature, TensorSpec, Value, describe,
                                parse_reflection, tensor_spec, validate)

__all__ = ["ELEMENT_DTYPES", "Signature", "TensorSpec", "Value", "describe", "parse_reflection",
           "tensor_spec", "validate"]


# ---- inputs IREE only reads -------------------------------------------------------------------
# IREE may update a function argument's buffer in place (dynamic_update_slice, scatter,
# sort, loop-carried values: ops it lowers to tied dispatches). Ops of READ_ONLY_OPS never do;
# the mutating ops of READ_SLOTS only ever read the operands it names (a scatter's indices
# and updates, a dynamic_update_slice's update and start indices, an if's predicate). An
# argument whose every use is one of those is marked, so that CPU devices may hand IREE the
# caller's own memory for it (docs/iree_gaps.md#runtimeabi).
_STRUCTURE = ("broadcast broadcast_in_dim concatenate constant convolution dot dot_general "
              "dynamic_slice gather iota pad reduce reduce_window reshape return reverse slice "
              "transpose optimization_barrier").split()
READ_ONLY_OPS = frozenset(
    [*ELEMENTWISE_OPS, *(f"stablehlo.{n}" for n in _STRUCTURE),
     "func.func", "func.return", "builtin.module", "arith.constant", "tensor.empty"])
READ_SLOTS = {      # op -> the operand positions it reads and never updates (n: operand count)
    "stablehlo.scatter": lambda op, n: range(len(op.results), n),
    "stablehlo.dynamic_update_slice": lambda op, n: range(1, n),
    "stablehlo.if": lambda op, n: (0,),         # the predicate; the branches capture the rest
    "stablehlo.case": lambda op, n: (0,),       # the branch index
}
READ_ONLY_KEY = "shlo.inputs"   # iree.reflection entry: "read-only" (all), or "read-only:0,2"


def _larger(result, operand) -> bool:
    """Whether a tensor of type `result` certainly has more elements of the same type than one
    of `operand` (then it cannot be a view of it)."""
    from iree.compiler import ir

    result, operand = result.maybe_downcast(), operand.maybe_downcast()
    if not all(isinstance(t, ir.RankedTensorType) and t.has_static_shape
               for t in (result, operand)) or result.element_type != operand.element_type:
        return False
    return math.prod(result.shape) > math.prod(operand.shape)


def _only_read(argument) -> bool:
    """Whether IREE reads `argument` and every value that may share its buffer, never updates
    them: each use (followed through READ_ONLY_OPS to their results that may be views or
    folds of their operands: all but those larger than the operand, such as the padded copy
    a scatter updates) is a READ_ONLY_OPS op or a READ_SLOTS operand, and none hands the
    value out of the region of another op (a while's carried value, an if's or case's result)."""
    seen, pending = set(), [argument]
    while pending:
        value = pending.pop()
        for use in value.uses:
            owner = use.owner.operation
            if owner.name == "stablehlo.return" and owner.parent.name not in READ_ONLY_OPS:
                return False
            if owner.name in READ_ONLY_OPS:
                for result in owner.results:
                    if result not in seen and not _larger(result.type, value.type):
                        seen.add(result)
                        pending.append(result)
            elif use.operand_number not in READ_SLOTS.get(
                    owner.name, lambda op, n: ())(owner, len(owner.operands)):
                return False
    return True


def mark_read_only_inputs(module_op) -> None:
    """Record on each public function which of its inputs IREE will only read."""
    from iree.compiler import ir

    with module_op.context:
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or (
                    "sym_visibility" in op.attributes
                    and ir.StringAttr(op.attributes["sym_visibility"]).value != "public"):
                continue
            body = op.regions[0].blocks
            if not len(body):
                continue
            read = [i for i, a in enumerate(body[0].arguments) if _only_read(a)]
            if len(read) == len(body[0].arguments):
                set_reflection(op.operation, READ_ONLY_KEY, "read-only")
            elif read:
                set_reflection(op.operation, READ_ONLY_KEY,
                               "read-only:" + ",".join(map(str, read)))


def read_only_inputs(reflection: dict, count: int) -> tuple[bool, ...]:
    """Per input of a compiled function, whether its reflection says IREE only reads it."""
    value = reflection.get(READ_ONLY_KEY, "")
    if value == "read-only":
        return (True,) * count
    read = {int(i) for i in value[len("read-only:"):].split(",")} \
        if value.startswith("read-only:") else set()
    return tuple(i in read for i in range(count))
