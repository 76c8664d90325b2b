"""Cross-replica ops: AllGather, AllReduce, AllToAll, CollectiveBroadcast, CollectivePermute,
CrossReplicaSum, ReduceScatter, RaggedAllToAll, ReplicaId and PartitionID.

Empty replica_groups mean "all replicas in one group" (XLA); where the op's group size is
known from its arguments (shard_count, split_count) the group is spelled out."""
from __future__ import annotations

import numpy as np

from shlo.dialect import stablehlo
from shlo.dialect import types as T

from .builder import XlaBuilder, XlaOp
from . import elementwise
from .computations import region, scalar_shapes
from .errors import fail
from .numbers import channel
from .operands import array, as_builder, builder_of, ints
from .shapes import Shape, as_shape


def _groups(op: str, replica_groups, size: int | None = None) -> list[list[int]]:
    groups = [] if replica_groups is None else [
        ints(op, "replica_groups", getattr(g, "replica_ids", g)) for g in replica_groups]
    if not groups and size is not None:
        groups = [list(range(size))]
    if size is not None and any(len(g) != size for g in groups):
        fail(op, f"replica_groups {groups} must each hold {size} replicas",
             "every group has shard_count (split_count) replicas")
    return groups


def _channel(op: str, channel_id, use_global_device_ids=None) -> dict:
    cid, ctype = channel(op, channel_id)
    out: dict[str, int | str | bool | None] = {"channel_id": cid}
    if ctype is not None:
        out["channel_type"] = ctype
    if use_global_device_ids:
        out["use_global_device_ids"] = True
    return out


def AllGather(operand: XlaOp, all_gather_dimension: int, shard_count: int, replica_groups=None,
              channel_id=None, layout=None, use_global_device_ids=None) -> XlaOp:
    """XLA AllGather: concatenate the operands of a group's replicas along
    all_gather_dimension (its size grows shard_count times)."""
    b = builder_of("AllGather", operand)
    x = array("AllGather", operand)
    dims = T.shape(x.type)
    if not 0 <= all_gather_dimension < len(dims):
        fail("AllGather", f"all_gather_dimension {all_gather_dimension} out of range for "
             f"{operand.shape()}")
    dims[all_gather_dimension] *= shard_count
    with b.emit("AllGather"):
        return b.wrap(stablehlo.all_gather(
            [x], all_gather_dim=all_gather_dimension,
            replica_groups=_groups("AllGather", replica_groups, shard_count),
            result_type=[T.with_shape(x.type, dims)],
            **_channel("AllGather", channel_id, use_global_device_ids)))


def AllReduce(operand: XlaOp, computation, replica_groups=None, channel_id=None,
              shape_with_layout=None, use_global_device_ids=None) -> XlaOp:
    """XLA AllReduce: reduce the operand (an array or a tuple of arrays) across a group's
    replicas with the scalar computation."""
    b = builder_of("AllReduce", operand)
    xs = [array("AllReduce", o) for o in (operand._elements if operand._elements is not None
                                           else [operand])]
    if shape_with_layout is not None and as_shape("AllReduce", shape_with_layout) != \
            operand.shape():
        fail("AllReduce", f"shape_with_layout {shape_with_layout} differs from the operand's "
             f"{operand.shape()}")
    with b.emit("AllReduce"):
        body = region("AllReduce", computation, b, scalar_shapes(xs[:1]) * 2, "2 scalars")
        out = stablehlo.all_reduce(xs, replica_groups=_groups("AllReduce", replica_groups),
                                   computation=body,
                                   **_channel("AllReduce", channel_id, use_global_device_ids))
        out = list(out) if isinstance(out, tuple) else [out]
        return b.unflatten(out, [operand.shape()])[0]


def CrossReplicaSum(operand: XlaOp, replica_groups=None) -> XlaOp:
    """XLA CrossReplicaSum: AllReduce with addition."""
    return AllReduce(operand, elementwise.OPS["Add"], replica_groups)


def AllToAll(operand: XlaOp, split_dimension: int, concat_dimension: int, split_count: int,
             replica_groups=None, layout=None, channel_id=None) -> XlaOp:
    """XLA AllToAll: split along split_dimension into split_count blocks, send block i to the
    group's replica i, concatenate what arrives along concat_dimension."""
    b = builder_of("AllToAll", operand)
    with b.emit("AllToAll"):
        return b.wrap(stablehlo.all_to_all(
            [array("AllToAll", operand)], split_dimension=split_dimension,
            concat_dimension=concat_dimension, split_count=split_count,
            replica_groups=_groups("AllToAll", replica_groups, split_count),
            **_channel("AllToAll", channel_id)))


def CollectiveBroadcast(operand: XlaOp, replica_groups, channel_id=None) -> XlaOp:
    """XLA CollectiveBroadcast: the first replica of each group sends its operand to the
    others of its group."""
    b = builder_of("CollectiveBroadcast", operand)
    with b.emit("CollectiveBroadcast"):
        return b.wrap(stablehlo.collective_broadcast(
            [array("CollectiveBroadcast", operand)],
            replica_groups=_groups("CollectiveBroadcast", replica_groups),
            **_channel("CollectiveBroadcast", channel_id)))


def CollectivePermute(operand: XlaOp, source_target_pairs, channel_id=None,
                      inplace: bool = False) -> XlaOp:
    """XLA CollectivePermute: send the operand along (source, target) pairs; a replica that is
    no target gets zeros. `inplace` is a scheduling hint only."""
    b = builder_of("CollectivePermute", operand)
    try:
        pairs = [[int(s), int(t)] for s, t in source_target_pairs]
    except (TypeError, ValueError):
        fail("CollectivePermute", f"source_target_pairs must be (source, target) pairs, got "
             f"{source_target_pairs!r}")
    with b.emit("CollectivePermute"):
        return b.wrap(stablehlo.collective_permute(array("CollectivePermute", operand),
                                                   source_target_pairs=pairs,
                                                   **_channel("CollectivePermute", channel_id)))


def ReduceScatter(operand: XlaOp, computation, scatter_dimension: int, shard_count: int,
                  replica_groups=None, channel_id=None, layout=None,
                  use_global_device_ids=None) -> XlaOp:
    """XLA ReduceScatter: AllReduce, then replica i keeps block i of scatter_dimension."""
    b = builder_of("ReduceScatter", operand)
    x = array("ReduceScatter", operand)
    dims = T.shape(x.type)
    if not 0 <= scatter_dimension < len(dims) or dims[scatter_dimension] % shard_count:
        fail("ReduceScatter", f"scatter_dimension {scatter_dimension} of {operand.shape()} must "
             f"exist and divide into {shard_count} shards", "the scattered dimension is a "
             "multiple of shard_count")
    dims[scatter_dimension] //= shard_count
    with b.emit("ReduceScatter"):
        body = region("ReduceScatter", computation, b, scalar_shapes([x]) * 2, "2 scalars")
        return b.wrap(stablehlo.reduce_scatter(
            x, scatter_dimension=scatter_dimension,
            replica_groups=_groups("ReduceScatter", replica_groups, shard_count),
            computation=body, result_type=T.with_shape(x.type, dims),
            **_channel("ReduceScatter", channel_id, use_global_device_ids)))


def ReplicaId(builder: XlaBuilder) -> XlaOp:
    """XLA ReplicaId(b): this replica's id, a U32 scalar."""
    b = as_builder("ReplicaId", builder)
    with b.emit("ReplicaId"):
        return b.wrap(stablehlo.replica_id())


def PartitionID(builder: XlaBuilder, shape: Shape | None = None) -> XlaOp:
    """XLA PartitionID(b, shape): this partition's id, a U32 scalar (`shape`, when given,
    must be U32[])."""
    b = as_builder("PartitionID", builder)
    if shape is not None and as_shape("PartitionID", shape) != Shape.array_shape("U32", []):
        fail("PartitionID", f"shape must be u32[], got {shape}", "the result is a U32 scalar")
    with b.emit("PartitionID"):
        return b.wrap(stablehlo.partition_id())


def RaggedAllToAll(input: XlaOp, input_offsets: XlaOp, send_sizes: XlaOp,  # noqa: A002
                   output: XlaOp, output_offsets: XlaOp, recv_sizes: XlaOp, replica_groups,
                   channel_id=None) -> XlaOp:
    """XLA RaggedAllToAll with [num_devices] offsets and sizes, built from StableHLO: every
    replica sends input[input_offsets[j]:+send_sizes[j]] (padded to input's size) to
    replica j with one all_to_all; output_offsets travel with a second all_to_all; each
    received block is written into `output` at its offset (a gather and a select)."""
    op = "RaggedAllToAll"
    b = builder_of(op, input, input_offsets, send_sizes, output, output_offsets, recv_sizes)
    x, o = array(op, input, "input"), array(op, output, "output")
    meta = [array(op, v, w) for v, w in ((input_offsets, "input_offsets"),
                                         (send_sizes, "send_sizes"),
                                         (output_offsets, "output_offsets"),
                                         (recv_sizes, "recv_sizes"))]
    groups = _groups(op, replica_groups)
    if not groups:
        fail(op, "needs replica_groups (the group size sets the number of blocks)")
    n = len(groups[0])
    for v, w in zip(meta, ("input_offsets", "send_sizes", "output_offsets", "recv_sizes")):
        if T.shape(v.type) != [n]:
            fail(op, f"{w} must have shape [{n}] (one entry per replica of a group), got "
                 f"{Shape.from_ir(v.type)}", "offsets and sizes have shape [num_devices]")
    xs, os_ = T.shape(x.type), T.shape(o.type)
    if len(xs) != len(os_) or xs[1:] != os_[1:] or not xs:
        fail(op, f"input {input.shape()} and output {output.shape()} must agree past the "
             "ragged (outer) dimension")
    with b.emit(op):
        blocks = [_block(x, meta[0], meta[1], j) for j in range(n)]
        sent = stablehlo.concatenate(blocks, dimension=0)
        common = dict(split_dimension=0, concat_dimension=0, split_count=n,
                      replica_groups=groups, **_channel(op, channel_id))
        received = stablehlo.all_to_all([sent], **common)
        offsets = stablehlo.all_to_all([meta[2]], **common)
        for j in range(n):
            o = _write(o, received, _scalar(offsets, j), _scalar(meta[3], j), j, xs[0])
        return b.wrap(o)


def _scalar(v, j: int):
    s = stablehlo.slice(v, start_indices=[j], limit_indices=[j + 1], strides=[1])
    return stablehlo.reshape(s, result_type=T.with_shape(v.type, []))


def _rows(t, n: int):
    """S32 row numbers (iota over dimension 0) of a tensor shaped like `t` with n rows."""
    return stablehlo.iota(iota_dimension=0,
                          result_type=T.tensor_type([n] + T.shape(t)[1:], np.int32))


def _i32(_=None):
    return T.tensor_type([], np.int32)


def _mask(rows, lo, size):
    """lo <= rows < lo + size, per element."""
    def full(v):
        return stablehlo.broadcast_in_dim(v, broadcast_dimensions=[], result_type=rows.type)
    lo = stablehlo.convert(lo, result_type=_i32(None))
    hi = stablehlo.add(lo, stablehlo.convert(size, result_type=_i32(None)))
    return stablehlo.and_(stablehlo.compare(rows, full(lo), comparison_direction="GE"),
                          stablehlo.compare(rows, full(hi), comparison_direction="LT"))


def _block(x, offsets, sizes, j: int):
    """Block j to send: x[offsets[j]:+sizes[j]] at the top of an x-shaped zero block, [1, ...]."""
    n = T.shape(x.type)[0]
    zero = stablehlo.constant(np.zeros((), T.element_dtype(T.elem(x.type))))
    padded = stablehlo.pad(x, zero, edge_padding_low=[0] * T.rank(x.type),
                           edge_padding_high=[n] + [0] * (T.rank(x.type) - 1))
    start = stablehlo.convert(_scalar(offsets, j), result_type=_i32(None))
    zeros = [stablehlo.constant(np.int32(0))] * (T.rank(x.type) - 1)
    part = stablehlo.dynamic_slice(padded, [start] + zeros, slice_sizes=T.shape(x.type))
    keep = _mask(_rows(x.type, n), stablehlo.constant(np.int32(0)), _scalar(sizes, j))
    part = stablehlo.select(keep, part, stablehlo.broadcast_in_dim(
        zero, broadcast_dimensions=[], result_type=x.type))
    return stablehlo.reshape(part, result_type=T.with_shape(x.type, [1] + T.shape(x.type)))


def _write(out, received, offset, size, j: int, n: int):
    """out with rows [offset, offset + size) taken from received block j's first rows."""
    m = T.shape(out.type)[0]
    rest = T.shape(out.type)[1:]
    block = stablehlo.slice(received, start_indices=[j] + [0] * (len(rest) + 1),
                            limit_indices=[j + 1, n] + rest, strides=[1] * (len(rest) + 2))
    block = stablehlo.reshape(block, result_type=T.with_shape(out.type, [n] + rest))
    rows = _rows(out.type, m)
    index = stablehlo.subtract(stablehlo.iota(iota_dimension=0, result_type=T.tensor_type(
        [m, 1], np.int32)), stablehlo.broadcast_in_dim(
        stablehlo.convert(offset, result_type=_i32(None)), broadcast_dimensions=[],
        result_type=T.tensor_type([m, 1], np.int32)))
    index = stablehlo.clamp(stablehlo.constant(np.int32(0)), index,
                            stablehlo.constant(np.int32(n - 1)))
    taken = stablehlo.gather(block, index, offset_dims=list(range(1, len(rest) + 1)),
                             collapsed_slice_dims=[0], start_index_map=[0], index_vector_dim=1,
                             slice_sizes=[1] + rest)
    return stablehlo.select(_mask(rows, offset, size), taken, out)


OPS = dict(AllGather=AllGather, AllReduce=AllReduce, CrossReplicaSum=CrossReplicaSum,
           AllToAll=AllToAll, CollectiveBroadcast=CollectiveBroadcast,
           CollectivePermute=CollectivePermute, ReduceScatter=ReduceScatter,
           ReplicaId=ReplicaId, PartitionID=PartitionID, RaggedAllToAll=RaggedAllToAll)
