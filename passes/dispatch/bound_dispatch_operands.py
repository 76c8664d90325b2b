"""shlo-bound-dispatch-operands: no dispatch IREE forms reads and writes more buffers than the
runtime binds (`max-bindings`, 32; 16 on CUDA and HIP).

IREE fuses an elementwise tree (and the reduce, dot, gather or scatter it feeds) into one
dispatch however many distinct buffers it reads; a dispatch of more than 32 bindings fails when
the module is loaded or called (docs/iree_gaps.md#shlo-bound-dispatch-operands). Values
computed in the program share one binding (IREE packs them into one transient allocation), and
so do values a loop replaces each iteration, and the module's constants; each function argument, each value returned, each
value a loop passes on unchanged and each value of an op that is no dispatch (loop results,
concatenations) is a binding of its own. The pass estimates, per value, the buffers of the
fusion group that computes it, counting through the whole elementwise tree and one reduction
(an upper bound of what IREE fuses), and where a group would exceed the bound it fences the
operand that brings the most buffers (`chlo_stablehlo_extras.fence`: that operand is computed
in dispatches of its own and read back as one buffer). A variadic reduce, reduce_window or scatter
whose own operands exceed the bound is split into several of the same op, where each result
depends only on its own operands. Groups within the bound are left unchanged.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, is_splat_constant, nested_ops
from ..lib.expr import attributes
from ..lib.elementwise import ELEMENTWISE_OPS

# Ops that IREE fuses with their operands' producers and their consumers.
_FUSED = ELEMENTWISE_OPS | {f"stablehlo.{name}" for name in (
    "broadcast_in_dim", "broadcast", "reshape", "transpose", "slice", "dynamic_slice", "pad",
    "reverse", "gather", "iota", "map", "dynamic_broadcast_in_dim", "dynamic_iota",
    "dynamic_reshape", "real_dynamic_slice", "dynamic_pad", "dynamic_gather")}
# Ops that fuse their producers and consumers, but no second op of this kind.
_ROOTS = frozenset(f"stablehlo.{name}" for name in (
    "reduce", "reduce_window", "dot_general", "dot", "convolution", "scatter",
    "select_and_scatter", "fft"))
# Ops with regions whose blocks hold tensors computed by dispatches.
_CONTROL_FLOW = frozenset({"stablehlo.while", "stablehlo.if", "stablehlo.case"})
# Variadic ops that can be split into ops of fewer operands ("lanes": an operand and an
# initial value or update per result).
_SPLIT = frozenset({"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter"})
_TRANSIENT = "transient"        # the one binding of every value computed in the program
_CONSTANTS = "constants"        # the one binding of the module's constants
_SPARE = 1                      # Vulkan's buffer of constants (a splat it did not inline)


@dataclasses.dataclass(frozen=True)
class _Group:
    """The buffers a value's fusion group reads, the returned values it writes, and the
    buffers of the largest reduction (or dot, ...) fused into it."""
    reads: frozenset = frozenset()
    writes: frozenset = frozenset()
    root: frozenset = frozenset()

    @property
    def bindings(self) -> int:
        return len(self.reads | self.root) + max(len(self.writes), 1) + _SPARE

    def __or__(self, other: _Group) -> _Group:
        return _Group(self.reads | other.reads, self.writes | other.writes,
                      max(self.root, other.root, key=len))


_COMPUTED = _Group(frozenset({_TRANSIENT}))


@dataclasses.dataclass
class BoundDispatchOperands(Pass):
    """Fence fusion groups that would read and write more buffers than a dispatch binds."""

    NAME = "shlo-bound-dispatch-operands"
    max_bindings: int = 32

    def run(self, op: ir.Operation) -> None:
        for func in nested_ops(op, "func.func"):
            if func.regions and func.regions[0].blocks:
                self._block(func.regions[0].blocks[0])

    def _block(self, block: ir.Block) -> None:
        groups = {a: _COMPUTED for a in _updated_in_loop(block)}
        returned = set()
        for op in block.operations:
            if op.name in ("func.return", "stablehlo.return"):
                returned = set(op.operands)
        for op in list(block.operations):
            op = op.operation
            if op.name in _CONTROL_FLOW:
                for region in op.regions:
                    for inner in region.blocks:
                        self._block(inner)
            elif op.name == "stablehlo.iota":
                groups[op.results[0]] = _Group()
            elif op.name == "stablehlo.constant":       # a splat is inlined
                groups[op.results[0]] = _Group(
                    frozenset() if is_splat_constant(op) else frozenset({_CONSTANTS}))
            elif op.name in _FUSED or op.name in _ROOTS:
                self._bound(op, groups, returned)

    def _group(self, value: ir.Value, groups: dict) -> _Group:
        group = groups.get(value)
        if group is not None:
            return group
        owner = value.owner
        if not isinstance(owner, ir.Block) and owner.name == "stablehlo.constant":
            # a constant captured from outside a loop's or branch's block: a splat inlined
            return _Group(frozenset() if is_splat_constant(owner.operation)
                          else frozenset({_CONSTANTS}))
        return _Group(frozenset({value}))

    def _bound(self, op: ir.Operation, groups: dict, returned: set) -> None:
        """Record the group of `op`'s results, fencing operands until it fits the bound."""
        root = op.name in _ROOTS
        while True:
            group = _Group()
            for v in op.operands:
                operand = self._group(v, groups)
                if root:        # a reduction in the operand's group is a dispatch of its own
                    operand = _Group(operand.reads, operand.writes)
                group = group | operand
            outputs = frozenset(r for r in op.results if r in returned)
            group = _Group(group.reads, group.writes | outputs, group.root)
            if group.bindings <= self.max_bindings:
                break
            # the operands whose fence takes buffers off the group, and how many
            takes = {v: len(groups[v].reads | groups[v].writes | (set() if root else groups[v].root)
                            - {_TRANSIENT, _CONSTANTS}) for v in op.operands if v in groups}
            # (a fence on a value of run-time shape leaves IREE unable to resolve its sizes)
            candidates = [v for v, n in takes.items()
                          if n and ir.RankedTensorType(v.type).has_static_shape]
            if not candidates:
                if op.name in _SPLIT:
                    self._split(op, groups, returned)
                return              # else left to the runtime's error (runtime/executable.py)
            self._fence(max(candidates, key=lambda v: takes[v]), groups)
        if root:
            group = _Group(_COMPUTED.reads, root=group.reads | group.writes)
        for r in op.results:
            groups[r] = group

    def _fence(self, value: ir.Value, groups: dict) -> None:
        groups[extras.fence_uses(value, lambda v: extras.fence([v])[0])] = _COMPUTED

    def _split(self, op: ir.Operation, groups: dict, returned: set) -> None:
        """Split a variadic op into ops of fewer lanes, each fitting the bound, where each of
        its results depends only on its own operands."""
        n = len(op.results)
        if n < 2 or not _independent_lanes(op, n):
            return
        operands = list(op.operands)
        shared = operands[n:len(operands) - n] if op.name == "stablehlo.scatter" else []
        firsts, seconds = operands[:n], operands[len(operands) - n:]
        chunks: list[list[int]] = []
        chunk: list[int] = []
        group = _Group()
        for i in range(n):
            lane = self._group(firsts[i], groups) | self._group(seconds[i], groups)
            for v in shared:
                lane = lane | self._group(v, groups)
            if op.results[i] in returned:
                lane = _Group(lane.reads, lane.writes | {op.results[i]}, lane.root)
            if chunk and (group | lane).bindings > self.max_bindings:
                chunks.append(chunk)
                chunk, group = [], _Group()
            chunk.append(i)
            group = group | lane
        chunks.append(chunk)
        if len(chunks) == 1:
            return
        body = op.regions[0].blocks[0]
        new_ops = []
        with ir.InsertionPoint(op), op.location:
            for chunk in chunks:
                new = ir.Operation.create(
                    op.name, results=[op.results[i].type for i in chunk],
                    operands=[firsts[i] for i in chunk] + shared + [seconds[i] for i in chunk],
                    attributes=attributes(op), regions=1)
                _clone_lanes(body, new.regions[0], chunk, n)
                for i, r in zip(chunk, new.results):
                    op.results[i].replace_all_uses_with(r)
                    if op.results[i] in returned:
                        returned.discard(op.results[i])
                        returned.add(r)
                new_ops.append(new)
        op.erase()
        for new in new_ops:
            self._bound(new, groups, returned)


def _updated_in_loop(block: ir.Block) -> list[ir.Value]:
    """The arguments of a while region's block that the loop body replaces with values it
    computes: IREE keeps those in one buffer (one binding), while values the loop passes on
    unchanged stay the buffers they came in."""
    loop = block.owner
    if loop is None or loop.name != "stablehlo.while":
        return []
    body = loop.regions[1].blocks[0]
    next_values = list(body.operations)[-1].operands
    return [a for a, v in zip(block.arguments, next_values) if v not in set(body.arguments)]


def _independent_lanes(op: ir.Operation, n: int) -> bool:
    """True where result i of `op`'s body reads only its arguments i and n + i."""
    body = op.regions[0].blocks[0]
    args = list(body.arguments)
    lane_of = {a: frozenset({i % n}) for i, a in enumerate(args)}
    for inner in body.operations:
        reads = frozenset().union(*(lane_of.get(v, frozenset()) for v in inner.operands))
        if inner.name == "stablehlo.return":
            return all(lane_of.get(v, frozenset()) <= {i} for i, v in enumerate(inner.operands))
        if len(inner.regions):
            return False
        for r in inner.results:
            lane_of[r] = reads
    return False


def _clone_lanes(body: ir.Block, region: ir.Region, chunk: list[int], n: int) -> None:
    """Fill `region` with the part of `body` that computes the results in `chunk`."""
    args = list(body.arguments)
    picked = [args[i] for i in chunk] + [args[n + i] for i in chunk]
    block = region.blocks.append(*[a.type for a in picked],
                                 arg_locs=[a.location for a in picked])
    env = dict(zip(picked, block.arguments))
    others = set(args) - set(picked)       # and what they compute
    with ir.InsertionPoint(block):
        for inner in body.operations:
            if inner.name == "stablehlo.return":
                ir.Operation.create(inner.name,
                                    operands=[env.get(inner.operands[i], inner.operands[i])
                                              for i in chunk])
                return
            if any(v in others for v in inner.operands):
                others.update(inner.results)
                continue
            new = ir.Operation.create(inner.name, results=[r.type for r in inner.results],
                                      operands=[env.get(v, v) for v in inner.operands],
                                      attributes=attributes(inner))
            env.update(zip(inner.results, new.results))
