"""Function signatures of a compiled module, read from the .vmfb's own reflection data.

IREE records each exported function's signature as it compiled it
(`iree.abi.declaration`, with `iree.abi.encoding` for unsigned types). Where
shlo changed the boundary (sub-byte integers travel as bytes; f64 demoted on
request) it also records the user's own signature (`shlo.signature`, written by
shlo.runtime.boundary), so a loaded .vmfb validates and converts its inputs
exactly like a fresh one. The implementation lives in `standalone_loader`,
which deploys without shlo; this module is its name inside shlo.
"""
from ..passes.base import set_reflection
from ..passes.elementwise_ops import ELEMENTWISE_OPS
from .standalone_loader import (ELEMENT_DTYPES, Signature, TensorSpec, Value, describe,
                                parse_reflection, tensor_spec, validate)

__all__ = ["ELEMENT_DTYPES", "Signature", "TensorSpec", "Value", "describe", "parse_reflection",
           "tensor_spec", "validate"]


# ---- inputs IREE only reads -------------------------------------------------------------------
# IREE 3.13 may update a function argument's buffer in place (dynamic_update_slice, scatter,
# sort, loop-carried values: ops it lowers to tied dispatches). Ops of this table never do; a
# module made of them alone is marked so that CPU devices may hand IREE the caller's own memory.
_STRUCTURE = ("broadcast broadcast_in_dim concatenate constant convolution dot dot_general "
              "dynamic_slice gather iota pad reduce reduce_window reshape return reverse slice "
              "transpose optimization_barrier").split()
READ_ONLY_OPS = frozenset(
    [*ELEMENTWISE_OPS, *(f"stablehlo.{n}" for n in _STRUCTURE),
     "func.func", "func.return", "builtin.module", "arith.constant", "tensor.empty"])
READ_ONLY_KEY = "shlo.inputs"       # iree.reflection entry; value "read-only" when it holds


def mark_read_only_inputs(module_op) -> bool:
    """Record on each public function that IREE will only read its inputs, when every op in
    the module is one of READ_ONLY_OPS. Returns whether it did."""
    from iree.compiler import ir

    names: set[str] = set()
    module_op.walk(lambda op: names.add(op.name) or ir.WalkResult.ADVANCE)
    if not names <= READ_ONLY_OPS:
        return False
    with module_op.context:
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or (
                    "sym_visibility" in op.attributes
                    and ir.StringAttr(op.attributes["sym_visibility"]).value != "public"):
                continue
            set_reflection(op.operation, READ_ONLY_KEY, "read-only")
    return True


def inputs_read_only(reflection: dict) -> bool:
    """Whether a compiled function's reflection says IREE only reads its inputs."""
    return reflection.get(READ_ONLY_KEY) == "read-only"
