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
from ..passes.lib.builders import PRODUCTS
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


# ---- small modules, run on the calling thread ---------------------------------------------------
# local-task hands every dispatch to its workers and the calling thread waits for them; a loop of
# small dispatches (transformer_decode: 4-row matmuls, 1600 dispatches a call) then spends about
# as much CPU in that hand-over and wait as in the dispatches, while two threads save nothing on
# dispatches of a few microseconds (docs/performance.md, "Loops of small dispatches"). A
# loop-free module of many small ops and little work in all (sampling) is the same case once
# (docs/performance.md, "Small loop-free modules on the calling thread"). A loop is judged by
# the work per dispatch of its body (lstm_scan: 16x128x512 products among ~90 small ops a step,
# mean 25K; nbody's 196K-element steps stay on local-task), what runs once by its total against
# one trip (docs/performance.md, "lstm_scan on the calling thread").
ONE_THREAD_KEY = "shlo.threads"     # iree.reflection entry: "1" where one thread should run it
SMALL_PRODUCT = 1 << 19             # loop-free modules: multiply-adds of the largest product
SMALL_ELEMENTS = 1 << 16            # modules with a loop: elements of the largest other op,
LOOP_PRODUCT = 1 << 20              # multiply-adds of the largest product in a loop body,
LOOP_MEAN = 1 << 16                 # mean work of a loop body's ops of more than TRIVIAL_WORK
ONCE_ELEMENTS = 1 << 20             # loop-free modules: elements of the largest other op,
ONCE_TOTAL = 1 << 24                # the work of all ops together,
ONCE_MEAN = 1 << 16                 # and the mean work of the ops of more than TRIVIAL_WORK
TRIVIAL_WORK = 1 << 10              # (scalar and index arithmetic: no dispatch of their own)
_PRODUCTS = PRODUCTS       # not stablehlo.dot: op_work reads these two's dimension numbers
# ops of programs that run as replicas or partitions (threads of `run_parallel`, which share
# one device) or talk to the host: such modules keep their target's device
_SHARED_OPS = frozenset(f"stablehlo.{n}" for n in (
    "all_reduce", "all_gather", "all_to_all", "reduce_scatter", "collective_permute",
    "collective_broadcast", "replica_id", "partition_id", "send", "recv", "infeed", "outfeed",
    "custom_call"))
# ops whose results are their regions' (or operands') values, not work of their own
_CONTROL_OPS = frozenset({"stablehlo.while", "stablehlo.if", "stablehlo.case",
                          "stablehlo.optimization_barrier", "stablehlo.return", "func.return",
                          "func.func", "builtin.module"})


def op_work(op) -> int:
    """A static op's work: multiply-adds of a dot_general or convolution, elements read by a
    reduction, elements written by an in-place update, else elements written (0 for constants,
    fills, dynamic shapes and ops without tensor results)."""
    from iree.compiler import ir

    def elements(value) -> int:
        t = value.type.maybe_downcast()
        return math.prod(t.shape) if isinstance(t, ir.RankedTensorType) and \
            t.has_static_shape else 0

    if op.name in _CONTROL_OPS:
        return 0
    written = sum(elements(r) for r in op.results)
    if op.name in _PRODUCTS:
        from ..dialect.rebuild import arguments
        numbers = arguments(op)[1]
        if op.name == "stablehlo.dot_general":     # each result element: a contracted sum
            lhs = ir.RankedTensorType(op.operands[0].type)
            dims = numbers.get("lhs_contracting_dimensions") or ()
            return written * math.prod(lhs.shape[d] for d in dims)
        kernel = ir.RankedTensorType(op.operands[1].type).shape    # one kernel slice each
        return written * math.prod(kernel) // max(1, kernel[numbers["kernel_output_feature_dimension"]])
    if op.name in ("stablehlo.reduce", "stablehlo.reduce_window"):
        return sum(elements(v) for v in op.operands)
    if op.name == "stablehlo.constant" or op.name == "stablehlo.broadcast_in_dim" and \
            ir.RankedTensorType(op.operands[0].type).rank == 0:
        return 0                    # data, or a fill
    if op.name == "stablehlo.dynamic_update_slice":
        return elements(op.operands[1])
    if op.name == "stablehlo.scatter":
        return sum(elements(v) for v in op.operands[len(op.results) + 1:])
    return written


def mark_small_loops(module_op) -> None:
    """Record on each public function that one thread should run it (ONE_THREAD_KEY) when no
    op of the module has a dynamic shape, a collective or a host call, and either
    - it runs a while loop, whose bodies' ops are small dispatches repeated every trip: no
      product over LOOP_PRODUCT, no other op over SMALL_ELEMENTS, at most LOOP_MEAN work
      (`op_work`) on average over the ops of more than TRIVIAL_WORK; outside the loops no
      op other than a product over SMALL_ELEMENTS, and no more work in all than one trip of
      the loop bodies (the loops' dispatches dominate the call), or
    - it has no loop, no product over SMALL_PRODUCT, no other op over ONCE_ELEMENTS, at most
      ONCE_TOTAL work in all and at most ONCE_MEAN on average over its ops of more than
      TRIVIAL_WORK."""
    from iree.compiler import ir

    # per place ("loop": in a while's regions, "once": outside): the largest product, the
    # largest other op, all work, and the count and work of the ops over TRIVIAL_WORK
    found = {place: {"product": 0, "largest": 0, "total": 0, "sized": 0, "sized_work": 0}
             for place in ("loop", "once")}
    shared = has_loop = False

    def dynamic(value) -> bool:
        t = value.type.maybe_downcast()
        return isinstance(t, ir.UnrankedTensorType) or \
            isinstance(t, ir.RankedTensorType) and not t.has_static_shape

    def in_loop(op) -> bool:
        parent = op.parent
        while parent is not None:
            if parent.name == "stablehlo.while":
                return True
            parent = parent.parent
        return False

    def visit(op):
        nonlocal shared, has_loop
        has_loop = has_loop or op.name == "stablehlo.while"
        if op.name in _SHARED_OPS or op.name == "func.func" and not len(op.regions[0].blocks) \
                or any(dynamic(r) for r in op.results):
            shared = True       # replicas in threads, host calls, sizes unknown here
            return ir.WalkResult.INTERRUPT
        work = op_work(op.operation)
        if not work:
            return ir.WalkResult.ADVANCE
        place = found["loop" if in_loop(op.operation) else "once"]
        key = "product" if op.name in _PRODUCTS else "largest"
        place[key] = max(place[key], work)
        place["total"] += work
        if work > TRIVIAL_WORK:
            place["sized"] += 1
            place["sized_work"] += work
        return ir.WalkResult.ADVANCE
    module_op.walk(visit)
    if shared:
        return
    loop, once = found["loop"], found["once"]
    if has_loop:
        small = loop["product"] <= LOOP_PRODUCT and \
            max(loop["largest"], once["largest"]) <= SMALL_ELEMENTS and \
            loop["sized_work"] <= LOOP_MEAN * max(1, loop["sized"]) and \
            once["total"] <= loop["total"]
    else:
        small = once["product"] <= SMALL_PRODUCT and once["largest"] <= ONCE_ELEMENTS and \
            once["total"] <= ONCE_TOTAL and \
            once["sized_work"] <= ONCE_MEAN * max(1, once["sized"])
    if not small:
        return
    with module_op.context:
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and not (
                    "sym_visibility" in op.attributes
                    and ir.StringAttr(op.attributes["sym_visibility"]).value != "public"):
                set_reflection(op.operation, ONE_THREAD_KEY, "1")


def one_thread(vmfb: bytes) -> bool:
    """Whether every exported function of a .vmfb is marked to run on one thread
    (`mark_small_loops`)."""
    import iree.runtime as rt

    from .standalone_loader import exported_functions
    instance = rt.VmInstance()      # (outlives the module, whose functions refer to it)
    module = rt.VmModule.copy_buffer(instance, vmfb)
    marks = [f.reflection.get(ONE_THREAD_KEY) for f in exported_functions(module).values()]
    del module
    return bool(marks) and all(mark == "1" for mark in marks)
