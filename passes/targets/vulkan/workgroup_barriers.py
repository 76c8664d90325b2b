"""Barriers between the writes and the reads of workgroup memory in IREE's SPIR-V dispatches.

IREE 3.13's SPIRVBaseDistribute pipeline computes a fused producer that its consumer reads in
another order (a transpose, a window, a convolution's input) into workgroup memory, each
invocation writing its own elements, and then reads those elements from other invocations
with no barrier between: results wrong by a run-to-run varying count, stale or garbage values
(a race; docs/iree_gaps.md#vk-workgroup-memory-race).

This runs on IREE's own IR between its executable-targets and hal phases (runtime.compiler),
on each `spirv.func`: where an op of the function's body accesses workgroup memory that an
earlier op wrote (or writes memory an earlier op read) with no barrier between, a workgroup
barrier is put between them. A barrier must be reached by every invocation, so it goes into
the function's body, never under a condition: an `if` whose body writes and then reads is
split in two `if`s of the same condition, the barrier between them (values of the first that
the second cannot recompute pass through function variables).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ....errors import CompileError
from ...base import defining_op, nested_ops
from ...lib.expr import attributes

BARRIER = "spirv.ControlBarrier"
_SELECTION, _LOOP = "spirv.mlir.selection", "spirv.mlir.loop"
# ops that read or write memory, or run code, or synchronize: not repeated when a split `if`
# recomputes the values its second half reads from its first
_EFFECTS = ("spirv.Load", "spirv.Store", "spirv.Atomic", "spirv.CopyMemory", "spirv.Control",
            "spirv.Memory", "spirv.FunctionCall", "spirv.GroupNonUniform", "spirv.mlir.")


class _Unfenceable(Exception):
    """A race in workgroup memory where no barrier can go (inside a loop, an `if` of another
    form): the compile fails rather than run it."""


_ADDRESSES = ("spirv.AccessChain", "spirv.mlir.addressof", "spirv.PtrAccessChain")


@dataclasses.dataclass(frozen=True)
class _Access:
    """A read or write of workgroup memory: the variable, the address in it (`_address`)."""
    variable: object
    address: object
    write: bool

    def races_with(self, later: _Access) -> bool:
        """Whether the two race unless a barrier is between: one writes an element of the
        variable, the other accesses it at another address (an invocation reading back its
        own element, which IREE gives to one invocation only, is no race), one that can be
        another invocation's element (two different constant addresses are two elements in
        every invocation)."""
        return (self.variable == later.variable and self.address != later.address
                and (self.write or later.write)
                and not (_constant(self.address) and _constant(later.address)))


def _races(before, after) -> bool:
    return any(b.races_with(a) for b in before for a in after)


def _accesses(op: ir.Operation) -> frozenset:
    """The `_Access`es of workgroup memory by `op` and the ops nested in it."""
    found = set()
    for inner in nested_ops(op, "spirv."):
        if inner.name in _ADDRESSES:
            continue
        for value in inner.operands:
            if "Workgroup>" in str(value.type):
                found.add(_Access(_variable(value), _address(value),
                                  inner.name != "spirv.Load"))
    return frozenset(found)


def _variable(pointer: ir.Value) -> object:
    """The global variable a pointer points into (its name), or the pointer where it is not
    computed from one."""
    owner = defining_op(pointer)
    while owner is not None and owner.name in _ADDRESSES:
        if owner.name == "spirv.mlir.addressof":
            return str(owner.attributes["variable"])
        owner = defining_op(owner.operands[0])
    return pointer


_CONSTANT = "spirv.Constant"


def _address(value: ir.Value):
    """A key equal for two pointers that pure ops compute alike from the same values (IREE
    recomputes an invocation's index in each loop nest)."""
    owner = defining_op(value)
    if owner is not None and owner.name == "spirv.mlir.addressof":
        return (_CONSTANT, str(owner.attributes["variable"]))
    if owner is None or not _pure(owner):
        return value
    if owner.name == _CONSTANT:
        return (_CONSTANT, str(owner.attributes["value"]))
    named = tuple(sorted((name, str(value)) for name, value in attributes(owner).items()))
    return (owner.name, named, tuple(_address(v) for v in owner.operands))


def _constant(address) -> bool:
    """Whether an `_address` is the same in every invocation (computed from constants)."""
    if not isinstance(address, tuple):
        return False
    return address[0] == _CONSTANT or all(_constant(a) for a in address[2])


def _then_block(selection: ir.Operation):
    """The body of an `if` without `else` (a selection branching to it or to its merge
    block), or None for a selection of another form."""
    blocks = list(selection.regions[0].blocks)
    if len(blocks) != 3:
        return None
    branch = list(blocks[0].operations)[-1]
    ops = list(blocks[1].operations)
    if branch.name != "spirv.BranchConditional" or ops[-1].name != "spirv.Branch":
        return None
    return blocks[1]


def _split_point(block) -> int | None:
    """The index of the first op of `block` that races with the ops before it (none of them a
    barrier), or None."""
    seen: frozenset = frozenset()
    for index, op in enumerate(list(block.operations)[:-1]):
        if op.name == BARRIER:
            seen = frozenset()
            continue
        accesses = _accesses(op)
        if _races(seen, accesses):
            return index
        seen |= accesses
    return None


def _barrier(context: ir.Context, location: ir.Location) -> ir.Operation:
    return ir.Operation.create(BARRIER, attributes={
        "execution_scope": ir.Attribute.parse("#spirv.scope<Workgroup>", context),
        "memory_scope": ir.Attribute.parse("#spirv.scope<Workgroup>", context),
        "memory_semantics": ir.Attribute.parse(
            "#spirv.memory_semantics<AcquireRelease|WorkgroupMemory>", context)},
        loc=location)


def _split(selection: ir.Operation, at: int) -> ir.Operation:
    """Split an `if` before the op at index `at` of its body: `if c {A}; if c {B}`; the
    second `if` (returned) recomputes what B reads of A's pure values, and loads the others
    (loaded values, subgroup results) from function variables that A stores them to."""
    second = selection.clone(ir.InsertionPoint(selection))
    second.move_after(selection)
    first_ops = list(_then_block(selection).operations)
    second_ops = list(_then_block(second).operations)
    for index in reversed(range(at)):
        op = second_ops[index]
        if not any(len(list(result.uses)) for result in op.results):
            op.erase()
        elif not _pure(op):
            _spill(first_ops[index], first_ops[index + 1], op)
    for op in reversed(first_ops[at:-1]):
        op.erase()
    for op in reversed(first_ops[:at]):
        if _pure(op) and not any(len(list(result.uses)) for result in op.results):
            op.erase()
    return second


def _pure(op: ir.Operation) -> bool:
    return not (op.name.startswith(_EFFECTS) or len(op.regions))


def _spill(producer: ir.Operation, after_producer: ir.Operation, copy: ir.Operation) -> None:
    """Store `producer`'s results to new function variables after it, and use loads of them
    for `copy`'s results (its twin in the second half of a split `if`), which goes."""
    entry = _function_entry(producer)
    for result, copied in zip(producer.results, copy.results):
        pointer = ir.Type.parse(f"!spirv.ptr<{result.type}, Function>", producer.context)
        variable = ir.Operation.create("spirv.Variable", results=[pointer], attributes={
            "storage_class": ir.Attribute.parse("#spirv.storage_class<Function>",
                                                producer.context)}, loc=producer.location)
        ir.InsertionPoint.at_block_begin(entry).insert(variable)
        ir.InsertionPoint(after_producer).insert(ir.Operation.create(
            "spirv.Store", operands=[variable.result, result], loc=producer.location))
        load = ir.Operation.create("spirv.Load", results=[result.type],
                                   operands=[variable.result], loc=producer.location)
        ir.InsertionPoint(copy).insert(load)
        copied.replace_all_uses_with(load.result)
    copy.erase()


def _function_entry(op: ir.Operation):
    """The first block of the `spirv.func` that holds `op` (where its variables go)."""
    while op.name != "spirv.func":
        op = op.parent
    return op.regions[0].blocks[0]


def _fence_block(block, top: bool) -> int:
    """Fence the races among `block`'s ops (splitting `if`s in it); barriers go between ops
    of a `top` block only. How many barriers, with the splits the caller must fence."""
    fenced = 0
    for op in list(block.operations):
        if op.name != _SELECTION:
            continue
        body = _then_block(op)
        if body is None:
            if _has_race(op):
                raise _Unfenceable("the race is inside an `if` with an `else`")
            continue
        fenced += _fence_block(body, top=False)
        while (at := _split_point(body)) is not None:
            op = _split(op, at)
            body = _then_block(op)
    for op in list(block.operations):
        if op.name == _LOOP and _has_race_inside_loop(op):
            raise _Unfenceable("the race is inside a loop")
    if not top:
        return fenced
    while (at := _split_point(block)) is not None:
        ops = list(block.operations)
        barrier = _barrier(ops[at].context, ops[at].location)
        ir.InsertionPoint(ops[at]).insert(barrier)
        fenced += 1
    return fenced


def _has_race(op: ir.Operation) -> bool:
    return any(_split_point(block) is not None
               for region in op.regions for block in region.blocks)


def _has_race_inside_loop(loop: ir.Operation) -> bool:
    """A loop with no barrier of its own whose trips write workgroup memory and access it
    through more than one address (each trip of an invocation updating its own element is no
    race)."""
    if nested_ops(loop, BARRIER):
        return False
    accesses = _accesses(loop)
    return _races(accesses, accesses)


def _redundant_invocations(func: ir.Operation) -> bool:
    """Whether the workgroup has more than one invocation along a dimension whose local
    invocation index the code never reads: those invocations all update the same elements
    (IREE's convolutions, a workgroup of [4, 1, 2] reading the first index only), right only
    while they run in lockstep, and a barrier makes lavapipe run them one after another (their
    sums came out doubled). Such a function is left as IREE made it."""
    if "gpu.known_block_size" not in func.attributes:
        return False
    sizes = list(ir.DenseI32ArrayAttr(func.attributes["gpu.known_block_size"]))
    local_ids = {f"@{ir.StringAttr(g.attributes['sym_name']).value}"
                 for g in nested_ops(func.parent, "spirv.GlobalVariable")
                 if "built_in" in g.attributes
                 and ir.StringAttr(g.attributes["built_in"]).value == "LocalInvocationId"}
    read = set()
    for load in nested_ops(func, "spirv.Load"):
        if _variable(load.operands[0]) not in local_ids:
            continue
        for use in load.results[0].uses:
            reader = use.owner.operation
            if reader.name != "spirv.CompositeExtract":
                return False            # the whole index read: no dimension left out
            read.add(ir.ArrayAttr(reader.attributes["indices"])[0].value)
    return any(size > 1 and dimension not in read for dimension, size in enumerate(sizes))


def fence_workgroup_memory(module_op: ir.Operation) -> int:
    """Put a barrier between every write and later access of workgroup memory, in every
    SPIR-V function of the module; how many barriers."""
    fenced = 0
    for func in nested_ops(module_op, "spirv.func"):
        if not any("Workgroup>" in str(g.attributes["type"])
                   for g in nested_ops(func.parent, "spirv.GlobalVariable")) \
                or _redundant_invocations(func):
            continue
        try:
            blocks = list(func.regions[0].blocks)
            if len(blocks) != 1:
                raise _Unfenceable("its code is more than one block")
            fenced += _fence_block(blocks[0], top=True)
        except _Unfenceable as e:
            name = ir.StringAttr(func.attributes["sym_name"]).value
            raise CompileError(
                f"vulkan: IREE's dispatch {name} reads workgroup memory that other invocations "
                f"write, with no barrier between (a race: results would vary from run to run), "
                f"and shlo cannot put one there: {e} "
                f"(docs/iree_gaps.md#vk-workgroup-memory-race)") from None
    return fenced
