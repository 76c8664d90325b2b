"""shlo-host-collectives: collectives of a multi-process module, and infeed, outfeed, send and
recv, as calls of shlo's host runtime.

IREE's local CPU and Vulkan devices run one process and have no channels or host queues, so
a module for several processes (`mhlo.num_replicas` x `mhlo.num_partitions` > 1) cannot
exchange data through IREE. shlo runs such a module as one VM context per process, on threads
(`shlo.runtime.run_parallel`), and this pass routes every exchange through the host
(core/host_abi: one `shlo_host` import per kind, data as raw bytes):

- all_gather, all_to_all, collective_broadcast, collective_permute: the host moves bytes
  within the caller's process group (formed from replica_groups / source_target_pairs as the
  spec's cross_replica, cross_partition, cross_replica_and_partition or flattened_ids says);
  the program splits operands into the blocks the host moves and joins what comes back.
- all_reduce, reduce_scatter, collective_reduce: the host gathers the group's operands (for
  reduce_scatter, each process's own block of them), the program folds them in group order
  with the op's own computation (stablehlo.map), collective_reduce keeps it on the group's
  first process (zeros elsewhere). An all_reduce operand of SPLIT_BYTES or more is folded a
  block per process (all_to_all), and the folded blocks gathered: the same fold, in the same
  order, for a process's operand bytes moved twice instead of once per group member.
- replica_id, partition_id: asked of the host.
- send / recv (any module): with `source_target_pairs` (or XLA's frontend attribute
  `_xla_send_recv_source_target_pairs`), from each source to its target per channel, the
  pairs naming partitions (replicas in a module of one partition, or with channel handle 0),
  collective_permute's rule; without them a FIFO per channel handle that any process may read
  (the thread engine only: MPI must know the receiver). infeed / outfeed: the process's host
  queues. Their tokens become fresh `after_all` tokens: the calls keep program order.

Modules for one process keep their collectives (shlo-single-process-collectives rewrites
them). Operands must have static shapes.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
from iree.compiler import ir

from shlo import host_abi
from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.errors import PassError
from ..base import Pass, declare_host_imports, nested_ops
from ..lib.expr import Num, bit_width, scope

BYTES = "tensor<?xi8>"
GROUPS = "tensor<?x?xi64>"
DESCRIPTOR = "tensor<?xi64>"
SIGNATURES = {      # host function -> argument types after `after`, as core/host_abi says
    "collective": [BYTES, GROUPS, "i32", "i32", "i32", "i32", "i32"],
    "process_id": ["i32", "i32"],
    "send": [BYTES, "i64", GROUPS, "i32", "i32", "i32"],
    "recv": ["i64", "i64", GROUPS, "i32", "i32", "i32"],
    "infeed": [DESCRIPTOR, "i32", "i32"],
    "outfeed": [BYTES, DESCRIPTOR, "i32", "i32"],
}
COLLECTIVES = frozenset(host_abi.OPS) | {"stablehlo.replica_id", "stablehlo.partition_id"}
IO_OPS = frozenset({"stablehlo.send", "stablehlo.recv", "stablehlo.infeed",
                    "stablehlo.outfeed"})


def process_counts(module: ir.Operation) -> tuple[int, int]:
    """(num_replicas, num_partitions) of a module (1 where it does not say)."""
    counts = []
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        attrs = module.attributes
        counts.append(ir.IntegerAttr(attrs[name]).value if name in attrs else 1)
    return counts[0], counts[1]


# ---- bytes ------------------------------------------------------------------------------------

def _tensor(shape, element) -> ir.RankedTensorType:
    element = ir.Type.parse(element) if isinstance(element, str) else element
    return ir.RankedTensorType.get(list(shape), element)


def _cast(value: ir.Value, to: ir.Type | str) -> ir.Value:
    to = ir.Type.parse(to) if isinstance(to, str) else to
    return ir.Operation.create("tensor.cast", results=[to], operands=[value]).results[0]


def _carrier(element: ir.Type) -> tuple[ir.Type, int]:
    """(the type an element travels as before its bitcast to bytes, bytes per element)."""
    text = str(element)
    if text == "i1":
        return ir.IntegerType.get_signless(8), 1
    if isinstance(element, ir.ComplexType):
        part = ir.ComplexType(element).element_type
        return part, 2 * bit_width(part) // 8          # (real, imag) pairs
    width = bit_width(element)
    if width < 8:
        return (ir.F16Type.get() if isinstance(element, ir.FloatType) else
                ir.IntegerType.get_unsigned(8) if text.startswith("ui") else
                ir.IntegerType.get_signless(8)), 1
    return element, width // 8


def to_bytes(value: ir.Value, op: ir.Operation) -> ir.Value:
    """A static tensor's bytes, as `tensor<?xi8>` (row-major, native element layout)."""
    return _cast(_flat_bytes(value, op), BYTES)


def _flat_bytes(value: ir.Value, op: ir.Operation) -> ir.Value:
    """A static tensor's bytes, as `tensor<Nxi8>`."""
    t = ir.RankedTensorType(value.type)
    if not t.has_static_shape:
        raise PassError(f"{op.name}: operand {t} has a dynamic shape; exchanging it between "
                        f"processes needs static shapes (refine the module first)", at=op)
    shape, element = list(t.shape), t.element_type
    carrier, size = _carrier(element)
    if isinstance(element, ir.ComplexType):
        parts = [stablehlo.reshape(f(value), result_type=_tensor(shape + [1], carrier))
                 for f in (stablehlo.real, stablehlo.imag)]
        value, shape = stablehlo.concatenate(parts, dimension=len(shape)), shape + [2]
        size //= 2
    elif carrier != element:
        value = stablehlo.convert(value, result_type=_tensor(shape, carrier))
    byte_shape = shape + ([size] if size > 1 else [])
    value = stablehlo.bitcast_convert(value, result_type=_tensor(byte_shape, "i8"))
    return stablehlo.reshape(value, result_type=_tensor([int(np.prod(byte_shape))], "i8"))


def from_bytes(data: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    """The tensor of type `t` whose bytes `to_bytes` gave (the inverse of it)."""
    shape, element = list(t.shape), t.element_type
    carrier, size = _carrier(element)
    is_complex = isinstance(element, ir.ComplexType)
    value_shape = shape + ([2] if is_complex else [])
    item = size // 2 if is_complex else size
    byte_shape = value_shape + ([item] if item > 1 else [])
    flat = _cast(data, _tensor([int(np.prod(byte_shape))], "i8"))
    value = stablehlo.bitcast_convert(stablehlo.reshape(flat, result_type=_tensor(byte_shape,
                                                                                  "i8")),
                                      result_type=_tensor(value_shape, carrier))
    if is_complex:
        parts = [stablehlo.reshape(stablehlo.slice(value, start_indices=[0] * len(shape) + [k],
                                                   limit_indices=shape + [k + 1]),
                                   result_type=_tensor(shape, carrier)) for k in (0, 1)]
        return stablehlo.complex(*parts)
    if carrier != element:
        return stablehlo.convert(value, result_type=t)
    return value


# ---- host calls ------------------------------------------------------------------------------

@dataclasses.dataclass
class HostCalls:
    """The host calls of one module being rewritten: its process counts, and the last call
    made in each block (the next call's `after` operand, which keeps program order)."""
    counts: tuple[int, int]
    last: list = dataclasses.field(default_factory=list)      # [(block, result)]

    def call(self, name: str, operands: list[ir.Value]) -> ir.Value:
        """Call host function `name` after the previous host call of the insertion block."""
        block = ir.InsertionPoint.current.block
        previous = next((v for b, v in self.last if b == block), None)
        if previous is None:
            previous = _cast(stablehlo.constant(ir.DenseElementsAttr.get(
                np.zeros(0, np.int8), type=ir.IntegerType.get_signless(8))), BYTES)
        call = ir.Operation.create(
            "func.call", results=[ir.Type.parse(BYTES)], operands=[previous, *operands],
            attributes={"callee": ir.FlatSymbolRefAttr.get(f"{host_abi.MODULE}.{name}")})
        self.last = [(b, v) for b, v in self.last if b != block] + [(block, call.results[0])]
        return call.results[0]


def _scalar(value: int, width: int = 32) -> ir.Value:
    t = ir.IntegerType.get_signless(width)
    return ir.Operation.create("arith.constant", results=[t], attributes={
        "value": ir.IntegerAttr.get(t, int(value))}).results[0]


def _matrix(rows: np.ndarray, type_name: str) -> ir.Value:
    rows = np.asarray(rows, np.int64)
    rows = rows.reshape(len(rows), -1) if rows.size else np.zeros((0, 0), np.int64)
    attr = ir.DenseElementsAttr.get(np.ascontiguousarray(rows),
                                    type=ir.IntegerType.get_signless(64))
    return _cast(stablehlo.constant(attr), type_name)


def _int_matrix(op: ir.Operation, name: str) -> np.ndarray:
    if name not in op.attributes:
        return np.zeros((0, 0), np.int64)
    attr = ir.DenseIntElementsAttr(op.attributes[name])
    shape = ir.ShapedType(attr.type).shape
    return np.array([int(attr[i]) for i in range(len(attr))], np.int64).reshape(shape)


def _channel(op: ir.Operation) -> int:
    if "channel_handle" not in op.attributes:
        return 0
    text = str(op.attributes["channel_handle"])
    return int(text.split("handle =")[1].split(",")[0])


def _mode(op: ir.Operation) -> str:
    """How the op's groups name processes (the spec's rules for its kind of op)."""
    channel = _channel(op)
    if op.name in ("stablehlo.all_to_all", "stablehlo.collective_broadcast",
                   "stablehlo.collective_permute"):
        return "cross_replica" if channel <= 0 else "cross_partition"
    if "use_global_device_ids" in op.attributes:
        return "flattened_ids"
    return "cross_replica" if channel <= 0 else "cross_replica_and_partition"


def _group_size(op: ir.Operation, groups: np.ndarray, mode: str, counts) -> int:
    replicas, partitions = counts
    if groups.size:
        n = int((groups != -1).sum(axis=1).max())
        return n * partitions if mode == "cross_replica_and_partition" else n
    return {"cross_replica": replicas, "cross_partition": partitions,
            "cross_replica_and_partition": replicas * partitions,
            "flattened_ids": replicas * partitions}[mode]


class _Site:
    """One collective op being rewritten: its groups and how to ask the host about them."""

    def __init__(self, op: ir.Operation, host: HostCalls):
        self.op, self.host = op, host
        self.mode = _mode(op)
        attr = "source_target_pairs" if op.name == "stablehlo.collective_permute" else \
            "replica_groups"
        self.groups = _int_matrix(op, attr)
        self.size = _group_size(op, self.groups, self.mode, host.counts)

    def exchange(self, primitive: int, value: ir.Value, result: ir.RankedTensorType):
        return self.call(primitive, to_bytes(value, self.op), result)

    def call(self, primitive: int, data: ir.Value, result: ir.RankedTensorType):
        data = self.host.call("collective", [
            data, _matrix(self.groups, GROUPS), _scalar(primitive),
            _scalar(host_abi.OPS.index(self.op.name)), _scalar(host_abi.MODES.index(self.mode)),
            _scalar(self.host.counts[0]), _scalar(self.host.counts[1])])
        return from_bytes(data, result)


def _stacked(t: ir.RankedTensorType, n: int) -> ir.RankedTensorType:
    return _tensor([n] + list(t.shape), t.element_type)


def _blocks_first(value: ir.Value, dim: int, n: int) -> ir.Value:
    """[..., d, ...] -> [n, ..., d/n, ...]: dimension `dim` cut into n blocks, block index first."""
    t = ir.RankedTensorType(value.type)
    shape = list(t.shape)
    split = shape[:dim] + [n, shape[dim] // n] + shape[dim + 1:]
    value = stablehlo.reshape(value, result_type=_tensor(split, t.element_type))
    order = [dim] + [i for i in range(len(split)) if i != dim]
    return stablehlo.transpose(value, permutation=order)


def _join_blocks(value: ir.Value, dim: int) -> ir.Value:
    """[n, ...] -> the n blocks concatenated along `dim` of the block shape."""
    t = ir.RankedTensorType(value.type)
    n, block = t.shape[0], list(t.shape[1:])
    order = list(range(1, dim + 1)) + [0] + list(range(dim + 1, len(block) + 1))
    moved = stablehlo.transpose(value, permutation=order)
    joined = block[:dim] + [n * block[dim]] + block[dim + 1:]
    return stablehlo.reshape(moved, result_type=_tensor(joined, t.element_type))


def _fold(stacked: ir.Value, computation, count: ir.Value | None = None) -> ir.Value:
    """computation(...computation(x[0], x[1])..., x[n-1]) elementwise over the rows of x (its
    first `count` rows, a tensor<i32>, when given)."""
    t = ir.RankedTensorType(stacked.type)
    row_shape = list(t.shape[1:])
    row_type = _tensor(row_shape, t.element_type)
    rows = [stablehlo.reshape(stablehlo.slice(stacked, start_indices=[i] + [0] * len(row_shape),
                                              limit_indices=[i + 1] + row_shape),
                              result_type=row_type) for i in range(t.shape[0])]
    acc = rows[0]
    for i, row in enumerate(rows[1:], 1):
        step = stablehlo.map([acc, row], dimensions=list(range(len(row_shape))),
                             computation=computation)
        if count is not None:
            taken = stablehlo.compare(stablehlo.constant(i, result_type=count.type), count,
                                      comparison_direction="LT")
            step = stablehlo.select(taken, step, acc)
        acc = step
    return acc


# ---- rules ------------------------------------------------------------------------------------

def _all_gather(op, host):
    site = _Site(op, host)
    dim = ir.IntegerAttr(op.attributes["all_gather_dim"]).value
    return [_join_blocks(site.exchange(host_abi.GATHER, x, _stacked(x.type, site.size)), dim)
            for x in op.operands]


SPLIT_BYTES = 1 << 16       # all_reduce operands of this many bytes or more: _reduce_in_blocks


def _all_reduce(op, host):
    site, computation = _Site(op, host), arguments(op)[1]["computation"]
    count = None
    if (site.groups == -1).any():            # ragged groups: fold only the caller's group
        x = op.operands[0]
        count = site.exchange(host_abi.GROUP_SIZE, x, _tensor([], "i32"))
    elif site.size > 1:
        return [_reduce_in_blocks(site, x, computation)
                if _byte_count(ir.RankedTensorType(x.type), op) >= SPLIT_BYTES else
                _fold(site.exchange(host_abi.GATHER, x, _stacked(x.type, site.size)),
                      computation) for x in op.operands]
    return [_fold(site.exchange(host_abi.GATHER, x, _stacked(x.type, site.size)), computation,
                  count) for x in op.operands]


def _reduce_in_blocks(site: _Site, x: ir.Value, computation) -> ir.Value:
    """all_reduce of a large operand: its elements cut into one block per group member; each
    member folds its block of every member's operand (in group order, as the gathered fold
    does: the same results), then the folded blocks are gathered. A process moves twice its
    operand's bytes instead of the group size times them."""
    t = ir.RankedTensorType(x.type)
    n, size = int(np.prod(t.shape)), site.size
    m = -(-n // size)
    flat = stablehlo.reshape(x, result_type=_tensor([n], t.element_type))
    if m * size != n:               # (padding: its folded lanes are dropped at the end)
        pad = stablehlo.slice(flat, start_indices=[0], limit_indices=[m * size - n])
        flat = stablehlo.concatenate([flat, Num(pad).like(0).value], dimension=0)
    blocks = stablehlo.reshape(flat, result_type=_tensor([size, m], t.element_type))
    folded = _fold(site.exchange(host_abi.ALL_TO_ALL, blocks, blocks.type), computation)
    whole = site.exchange(host_abi.GATHER, folded, _stacked(folded.type, size))
    flat = stablehlo.reshape(whole, result_type=_tensor([size * m], t.element_type))
    if m * size != n:
        flat = stablehlo.slice(flat, start_indices=[0], limit_indices=[n])
    return stablehlo.reshape(flat, result_type=t)


def _collective_reduce(op, host):
    site = _Site(op, host)
    return [site.exchange(host_abi.ROOT_ONLY, r, r.type) for r in _all_reduce(op, host)]


def _reduce_scatter(op, host):
    site, computation = _Site(op, host), arguments(op)[1]["computation"]
    dim = ir.IntegerAttr(op.attributes["scatter_dimension"]).value
    blocks = _blocks_first(op.operands[0], dim, site.size)
    mine = site.exchange(host_abi.ALL_TO_ALL, blocks, blocks.type)
    return [_fold(mine, computation)]


def _all_to_all(op, host):
    site = _Site(op, host)
    split = ir.IntegerAttr(op.attributes["split_dimension"]).value
    concat = ir.IntegerAttr(op.attributes["concat_dimension"]).value
    n = ir.IntegerAttr(op.attributes["split_count"]).value
    out = []
    for x in op.operands:
        blocks = _blocks_first(x, split, n)
        out.append(_join_blocks(site.exchange(host_abi.ALL_TO_ALL, blocks, blocks.type),
                                concat))
    return out


def _collective_broadcast(op, host):
    site = _Site(op, host)
    if "has_dynamic_root" not in op.attributes:
        return [site.exchange(host_abi.BROADCAST, x, x.type) for x in op.operands]
    *operands, root = op.operands           # root[k]: the group index operand k comes from
    out = []
    for k, x in enumerate(operands):
        index = stablehlo.slice(root, start_indices=[k], limit_indices=[k + 1])
        data = stablehlo.concatenate([_flat_bytes(x, op), _flat_bytes(index, op)], dimension=0)
        out.append(site.call(host_abi.BROADCAST_FROM, _cast(data, BYTES), x.type))
    return out


def _collective_permute(op, host):
    x = op.operands[0]
    return [_Site(op, host).exchange(host_abi.PERMUTE, x, x.type)]


def _process_id(op, host):
    data = host.call("process_id", [_scalar(host.counts[0]), _scalar(host.counts[1])])
    ids = from_bytes(data, _tensor([2], "ui32"))
    k = 0 if op.name == "stablehlo.replica_id" else 1
    one = stablehlo.slice(ids, start_indices=[k], limit_indices=[k + 1])
    return [stablehlo.reshape(one, result_type=op.results[0].type)]


_XLA_PAIRS = "_xla_send_recv_source_target_pairs"


def _send_recv_route(op: ir.Operation, host: HostCalls) -> list[ir.Value]:
    """[pairs, mode, replicas, partitions] of a send/recv's host call (see core/host_abi):
    its source_target_pairs (or XLA's frontend attribute), 0 x 0 when it has none."""
    pairs = _int_matrix(op, "source_target_pairs")
    attrs = op.attributes
    if not pairs.size and "mhlo.frontend_attributes" in attrs:
        front = ir.DictAttr(attrs["mhlo.frontend_attributes"])
        if _XLA_PAIRS in front:
            text = ir.StringAttr(front[_XLA_PAIRS]).value
            pairs = np.array(re.findall(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}", text),
                             np.int64).reshape(-1, 2)
    if pairs.size and (pairs.shape[1] != 2 or len(set(pairs[:, 0])) < len(pairs) or
                       len(set(pairs[:, 1])) < len(pairs)):
        raise PassError(f"{op.name}: source_target_pairs {pairs.tolist()} must be (source, "
                        f"target) pairs with no source and no target twice (C1-C3)", at=op)
    replicas, partitions = host.counts
    mode = "cross_replica" if _channel(op) <= 0 or partitions == 1 else "cross_partition"
    return [_matrix(pairs, GROUPS), _scalar(host_abi.MODES.index(mode)), _scalar(replicas),
            _scalar(partitions)]


def _send(op, host):
    for x in op.operands[:-1]:
        host.call("send", [to_bytes(x, op), _scalar(_channel(op), 64),
                           *_send_recv_route(op, host)])
    return [stablehlo.after_all([])]


def _recv(op, host):
    channel = _scalar(_channel(op), 64)
    values = []
    for r in op.results[:-1]:
        t = ir.RankedTensorType(r.type)
        data = host.call("recv", [channel, _scalar(_byte_count(t, op), 64),
                                  *_send_recv_route(op, host)])
        values.append(from_bytes(data, t))
    return values + [stablehlo.after_all([])]


def _byte_count(t: ir.RankedTensorType, op) -> int:
    if not t.has_static_shape:
        raise PassError(f"{op.name}: result {t} has a dynamic shape; receiving it from the "
                        f"host needs a static shape", at=op)
    return int(np.prod(t.shape)) * _carrier(t.element_type)[1]


def descriptor(t: ir.RankedTensorType, config: str, op) -> ir.Value:
    """[element index, rank, dims..., config bytes...]: what the host needs to turn bytes into
    (or check them against) a numpy array."""
    element = str(t.element_type)
    if element not in host_abi.ELEMENTS:
        raise PassError(f"{op.name}: element type {element} cannot cross to the host queues "
                        f"(supported: {', '.join(host_abi.ELEMENTS)})", at=op)
    row = [host_abi.ELEMENTS.index(element), t.rank, *t.shape, *config.encode()]
    return _cast(stablehlo.constant(ir.DenseElementsAttr.get(
        np.array(row, np.int64), type=ir.IntegerType.get_signless(64))), DESCRIPTOR)


def _infeed(op, host):
    results = op.results[:-1]
    values = []
    for k, r in enumerate(results):
        t = ir.RankedTensorType(r.type)
        _byte_count(t, op)
        data = host.call("infeed", [descriptor(t, "", op), _scalar(k), _scalar(len(results))])
        values.append(from_bytes(data, t))
    return values + [stablehlo.after_all([])]


def _outfeed(op, host):
    config = ir.StringAttr(op.attributes["outfeed_config"]).value \
        if "outfeed_config" in op.attributes else ""
    inputs = op.operands[:-1]
    for k, x in enumerate(inputs):
        t = ir.RankedTensorType(x.type)
        host.call("outfeed", [to_bytes(x, op), descriptor(t, config if k == 0 else "", op),
                          _scalar(k), _scalar(len(inputs))])
    return [stablehlo.after_all([])]


RULES = {
    "stablehlo.all_gather": _all_gather, "stablehlo.all_reduce": _all_reduce,
    "stablehlo.reduce_scatter": _reduce_scatter, "stablehlo.all_to_all": _all_to_all,
    "stablehlo.collective_broadcast": _collective_broadcast,
    "stablehlo.collective_permute": _collective_permute,
    "stablehlo.collective_reduce": _collective_reduce,
    "stablehlo.replica_id": _process_id, "stablehlo.partition_id": _process_id,
    "stablehlo.send": _send, "stablehlo.recv": _recv, "stablehlo.infeed": _infeed,
    "stablehlo.outfeed": _outfeed,
}


@dataclasses.dataclass
class HostCollectives(Pass):
    """Route collectives of multi-process modules, and infeed/outfeed/send/recv, to the host."""

    NAME = "shlo-host-collectives"
    ANCHOR = "builtin.module"

    def run(self, module: ir.Operation) -> None:
        counts = process_counts(module)
        routed = COLLECTIVES | IO_OPS if counts[0] * counts[1] > 1 else IO_OPS
        ops = [o for o in nested_ops(module, "stablehlo.") if o.name in routed]
        if not ops:
            return
        host = HostCalls(counts)
        for op in ops:                      # (in program order: the calls chain so)
            with ir.InsertionPoint(op), op.location, scope():
                values = RULES[op.name](op, host)
            for old, new in zip(op.results, values):
                old.replace_all_uses_with(new)
            op.erase()
        self._declare(module)

    def _declare(self, module: ir.Operation) -> None:
        """The host imports (func.func private @shlo_host.<name>) and the reflection mark
        that tells the runtime to provide them."""
        with module.context:
            imports = {f"{host_abi.MODULE}.{name}": ir.FunctionType.get(
                [ir.Type.parse(a) for a in [BYTES, *args]], [ir.Type.parse(BYTES)])
                for name, args in SIGNATURES.items()}
        declare_host_imports(module, imports, host_abi.REFLECTION_KEY)
