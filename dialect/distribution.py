"""StableHLO distribution ops: all_gather, all_reduce, all_to_all, collective_broadcast,
collective_permute, collective_reduce, reduce_scatter, replica_id, partition_id, the deprecated
cross-replica-sum, async_start/async_done, and the token ops send, recv, infeed and outfeed,
declared as data with the spec's constraints.

The spec's `channel_id` is a keyword (with `channel_type`, default DEVICE_TO_DEVICE when a
channel is given); both become one ``#stablehlo.channel_handle``. `replica_groups` and
`source_target_pairs` are 2-D int lists. The constraints on the number of processes (size of
replica_groups = num_replicas, ...) read the enclosing module's ``mhlo.num_replicas`` and
``mhlo.num_partitions`` attributes; without them those counts are unknown when the op is built,
and only the checks that do not need them run.

collective_broadcast takes a list of operands and, as a keyword, the optional dynamic `root`
(a tensor<Nxi32>, one root per operand; `has_dynamic_root` in MLIR), checked as (C4).
Ops outside this spec version carry these ids: collective_reduce (C1) is_unique(replica_groups),
(C2) 0 <= replica_groups, (C3) computation (tensor<E>, tensor<E>) -> tensor<E>, (C4) results
have the operands' types; cross-replica-sum (C1) is_unique(replica_groups), (C2) 0 <=
replica_groups; async_start (C1) its body holds exactly one collective or slice op and a return,
(C2) the result is a future of what the body returns; async_done (C1) results are the future's
types.
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import checks as K
from . import types as T
from .opdef import Attr, Check, Derived, OpDef, Operand, Region, default_encode


def _channel() -> list[Attr]:
    derived = Derived(lambda b: None if b.channel_id is None else "DEVICE_TO_DEVICE")
    return [Attr("channel_id", A.I64, default=None, struct=A.CHANNEL_HANDLE, field="handle",
                 mlir="channel_handle"),
            Attr("channel_type", A.CHANNEL_TYPE, default=derived, struct=A.CHANNEL_HANDLE,
                 field="type", mlir="channel_handle")]


_GROUPS = Attr("replica_groups", A.I64_MATRIX)
_GLOBAL_IDS = Attr("use_global_device_ids", A.UNIT, default=False)


def process_counts(b) -> tuple[int | None, int | None]:
    """(num_replicas, num_partitions) from the enclosing module's mhlo.* attributes."""
    op = b.ip.block.owner if b.ip is not None else None
    while op is not None and op.name != "builtin.module":
        op = op.parent
    if op is None:
        return None, None
    attrs = op.attributes
    counts = []
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        counts.append(ir.IntegerAttr(attrs[name]).value if name in attrs else None)
    return counts[0], counts[1]


def _ids(b, name: str = "replica_groups") -> list[int]:
    """The ids of a replica_groups-like attribute (-1 pads ragged groups)."""
    return [x for x in b.attrs[name].reshape(-1).tolist() if x != -1]


def _groups_unique(b):
    ids = _ids(b)
    dup = [x for x in ids if ids.count(x) > 1]
    if dup:
        return f"replica_groups {b.replica_groups.tolist()} repeats id {dup[0]}"


def _mode(b) -> str:
    channel = b.channel_id or 0
    if b.attrs.get("use_global_device_ids"):
        return "flattened_ids"
    return "cross_replica" if channel <= 0 else "cross_replica_and_partition"


def _expected_processes(b, partitions_mode: bool = False) -> int | None:
    replicas, partitions = process_counts(b)
    mode = _mode(b)
    if partitions_mode:
        return replicas if (b.channel_id or 0) <= 0 else partitions
    if mode == "flattened_ids":
        return None if replicas is None or partitions is None else replicas * partitions
    return replicas


def _groups_size(partitions_mode: bool = False):
    """(C3-style) size(replica_groups) = num_replicas / num_partitions / num_processes."""
    def check(b):
        want = _expected_processes(b, partitions_mode)
        ids = _ids(b)
        if want is not None and ids and len(ids) != want:
            return (f"replica_groups {b.replica_groups.tolist()} has {len(ids)} ids but the "
                    f"module has {want} processes for {_mode(b)}")
    return check


def _groups_range(partitions_mode: bool = False, sized: bool = True):
    """(C4-style) 0 <= replica_groups < size(replica_groups), size being the number of
    processes (known from the module), else the number of ids (`sized`: the spec also fixes
    size(replica_groups) to that number), else unbounded."""
    def check(b):
        ids = _ids(b)
        want = _expected_processes(b, partitions_mode) or (len(ids) if sized else 1 << 62)
        bad = [x for x in ids if not 0 <= x < want]
        if bad:
            return f"replica_groups {b.replica_groups.tolist()} has {bad[0]} outside [0, {want})"
    return check


def _groups_non_negative(b):
    bad = [x for x in _ids(b) if x < 0]
    if bad:
        return f"replica_groups {b.replica_groups.tolist()} has negative id {bad[0]}"


def _global_ids_need_channel(b):
    if b.use_global_device_ids and (b.channel_id or 0) <= 0:
        return f"use_global_device_ids needs channel_id > 0, got {b.channel_id}"


def _group_size(b) -> int | None:
    """dim(process_groups, 1): the size of each process group (None when unknown: implicit
    groups, or cross_replica_and_partition without the module's num_partitions)."""
    if not b.replica_groups.size:
        return None
    n = b.replica_groups.shape[1]
    if _mode(b) == "cross_replica_and_partition":
        partitions = process_counts(b)[1]
        return None if partitions is None else n * partitions
    return n


def _scalar_region_args(operand: str):
    def args(b, name):
        t = K.first(b.types[operand])
        return [T.with_shape(t, [], T.elem(t))] * 2
    return args


def _reducer_check(operand: str):
    """computation: (tensor<E>, tensor<E>) -> (tensor<E>), E the operand's element type."""
    def check(b, types):
        t = K.first(b.types[operand])
        want = str(T.with_shape(t, [], T.elem(t)))
        if [str(x) for x in types] != [want]:
            return f"computation must return ({want}), got ({', '.join(map(str, types))})"
    return check


# --- all_gather / all_reduce / all_to_all / reduce_scatter ---------------------------------------


def _ag_dim(b):
    for i, t in enumerate(b.operands):
        if not 0 <= b.all_gather_dim < T.rank(t):
            return f"all_gather_dim {b.all_gather_dim} is out of range for operands[{i}] {t}"


def _ag_infer(b):
    n = _group_size(b)
    out = []
    for t in b.operands:
        dims = T.shape(t)
        d = dims[b.all_gather_dim]
        dims[b.all_gather_dim] = T.DYN if n is None or d == T.DYN else d * n
        out.append(T.with_shape(t, dims))
    return out


ALL_GATHER = OpDef(
    "stablehlo.all_gather",
    [Operand("operands", variadic=True), Attr("all_gather_dim", A.I64), _GROUPS, *_channel(),
     _GLOBAL_IDS],
    checks=[Check("C1", _ag_dim), Check("C2", _groups_unique), Check("C3", _groups_size()),
            Check("C4", _groups_range()), Check("C5", _global_ids_need_channel)],
    result_id="C6", infer=_ag_infer)

ALL_REDUCE = OpDef(
    "stablehlo.all_reduce",
    [Operand("operands", variadic=True), _GROUPS, *_channel(), _GLOBAL_IDS,
     Region("computation", check=Check("C5", _reducer_check("operands")))],
    checks=[Check("C1", _groups_unique), Check("C2", _groups_size()),
            Check("C3", _groups_range()), Check("C4", _global_ids_need_channel)],
    region_args=_scalar_region_args("operands"), result_id="C6", result_element_id="C7",
    infer=lambda b: list(b.operands))


def _a2a_split(b):
    for i, t in enumerate(b.operands):
        d = T.shape(t)[b.split_dimension]
        if d != T.DYN and d % b.split_count:
            return (f"operands[{i}] {t} dimension {b.split_dimension} has size {d}, not a "
                    f"multiple of split_count {b.split_count}")


def _a2a_group_size(b):
    n = _group_size(b)
    if n is not None and n != b.split_count:
        return (f"replica_groups {b.replica_groups.tolist()} has groups of {n} but split_count "
                f"is {b.split_count}")


def _a2a_infer(b):
    out = []
    for t in b.operands:
        dims = T.shape(t)
        if dims[b.split_dimension] != T.DYN:
            dims[b.split_dimension] //= b.split_count
        if dims[b.concat_dimension] != T.DYN:
            dims[b.concat_dimension] *= b.split_count
        out.append(T.with_shape(t, dims))
    return out


ALL_TO_ALL = OpDef(
    "stablehlo.all_to_all",
    [Operand("operands", variadic=True), Attr("split_dimension", A.I64),
     Attr("concat_dimension", A.I64), Attr("split_count", A.I64), _GROUPS, *_channel()],
    checks=[Check("C1", K.in_range("split_dimension", "operands")),
            Check("C3", K.in_range("concat_dimension", "operands")),
            Check("C4", K.positive("split_count")), Check("C2", _a2a_split),
            Check("C5", _groups_unique), Check("C6", _groups_size(partitions_mode=True)),
            Check("C7", _groups_range(partitions_mode=True)), Check("C8", _a2a_group_size)],
    result_id="C9", infer=_a2a_infer)


def _rs_divisible(b):
    n = _group_size(b)
    d = T.shape(b.operand)[b.scatter_dimension]
    if n and d != T.DYN and d % n:
        return (f"operand {b.operand} dimension {b.scatter_dimension} has size {d}, not a "
                f"multiple of the group size {n}")


def _rs_infer(b):
    n = _group_size(b)
    dims = T.shape(b.operand)
    d = dims[b.scatter_dimension]
    dims[b.scatter_dimension] = T.DYN if not n or d == T.DYN else d // n
    return T.with_shape(b.operand, dims)


REDUCE_SCATTER = OpDef(
    "stablehlo.reduce_scatter",
    [Operand("operand"), Attr("scatter_dimension", A.I64), _GROUPS, *_channel(), _GLOBAL_IDS,
     Region("computation", check=Check("C7", _reducer_check("operand")))],
    checks=[Check("C2", K.in_range("scatter_dimension", "operand")),
            Check("C1", _rs_divisible), Check("C3", _groups_unique),
            Check("C4", _groups_size()), Check("C5", _groups_range()),
            Check("C6", _global_ids_need_channel)],
    region_args=_scalar_region_args("operand"), result_id="C8", result_element_id="C9",
    infer=_rs_infer)

# --- collective_broadcast / collective_permute / collective_reduce / cross-replica-sum ----------


def _pairs_width(b):
    if b.source_target_pairs.shape[1:] != (2,) and b.source_target_pairs.size:
        return (f"source_target_pairs {b.source_target_pairs.tolist()} must have 2 columns, "
                f"got {b.source_target_pairs.shape[1]}")


def _pairs_unique(column: int):
    def check(b):
        col = b.source_target_pairs[:, column].tolist() if b.source_target_pairs.size else []
        dup = [x for x in col if col.count(x) > 1]
        if dup:
            what = "sources" if column == 0 else "targets"
            return f"source_target_pairs {b.source_target_pairs.tolist()} repeats {what} {dup[0]}"
    return check


def _pairs_range(b):
    want = _expected_processes(b, partitions_mode=True)
    bad = [x for x in b.source_target_pairs.reshape(-1).tolist()
           if x < 0 or (want is not None and x >= want)]
    if bad:
        bound = f"[0, {want})" if want is not None else "[0, number of processes)"
        return f"source_target_pairs {b.source_target_pairs.tolist()} has {bad[0]} outside {bound}"


def _root(b):
    """(C4) root: a 1-D i32 tensor with one entry per operand."""
    r = b.root
    if r is not None and (str(T.elem(r)) != "i32" or T.shape(r) != [len(b.operands)]):
        return f"root must be a tensor<{len(b.operands)}xi32> (one per operand), got {r}"


def _encode_broadcast(b) -> dict:
    out = default_encode(b.opdef, b)
    if b.root is not None:
        out["has_dynamic_root"] = ir.UnitAttr.get()
    return out


def _split_broadcast(op) -> list:
    values = list(op.operands)
    if "has_dynamic_root" in op.attributes:
        return [values[:-1], values[-1]]
    return [values, None]


COLLECTIVE_BROADCAST = OpDef(
    "stablehlo.collective_broadcast",
    [Operand("operands", variadic=True), _GROUPS, *_channel(),
     Operand("root", frozenset({T.SINT}), optional=True)],
    checks=[Check("C1", _groups_unique),
            Check("C2", _groups_range(partitions_mode=True, sized=False)), Check("C4", _root)],
    result_id="C3", infer=lambda b: list(b.operands), encode=_encode_broadcast,
    decode_operands=_split_broadcast)

COLLECTIVE_PERMUTE = OpDef(
    "stablehlo.collective_permute",
    [Operand("operand"), Attr("source_target_pairs", A.I64_MATRIX), *_channel()],
    checks=[Check("C1", _pairs_width), Check("C2", _pairs_unique(0)),
            Check("C3", _pairs_unique(1)), Check("C4", _pairs_range)],
    result_id="C5", infer=lambda b: b.operand)

COLLECTIVE_REDUCE = OpDef(
    "stablehlo.collective_reduce",
    [Operand("operands", variadic=True), _GROUPS, *_channel(),
     Region("computation", check=Check("C3", _reducer_check("operands")))],
    checks=[Check("C1", _groups_unique), Check("C2", _groups_non_negative)],
    region_args=_scalar_region_args("operands"), result_id="C4",
    infer=lambda b: list(b.operands))

CROSS_REPLICA_SUM = OpDef(
    "stablehlo.cross-replica-sum", [Operand("operand"), _GROUPS],
    checks=[Check("C1", _groups_unique), Check("C2", _groups_non_negative)],
    result_id="C1", infer=lambda b: b.operand, summary="Deprecated: use all_reduce.")

# --- ids ---------------------------------------------------------------------------------------


def _ui32_scalar(b):
    return ir.RankedTensorType.get([], ir.IntegerType.get_unsigned(32))


REPLICA_ID = OpDef("stablehlo.replica_id", [], result_type="none", infer=_ui32_scalar)
PARTITION_ID = OpDef("stablehlo.partition_id", [], result_type="none", infer=_ui32_scalar)

# --- async_start / async_done -------------------------------------------------------------------

ASYNC_OPS = ("stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all",
             "stablehlo.collective_broadcast", "stablehlo.collective_permute",
             "stablehlo.reduce_scatter", "stablehlo.slice")


def _async_body(b):
    ops = [op.name for op in b.blocks["body"].operations]
    if len(ops) != 2 or ops[0] not in ASYNC_OPS:
        return (f"body must hold exactly one of {', '.join(o.split('.')[1] for o in ASYNC_OPS)} "
                f"and a return, got {', '.join(o.split('.')[1] for o in ops)}")


ASYNC_START = OpDef(
    "stablehlo.async_start", [Operand("inputs", variadic=True), Region("body")],
    post_checks=[Check("C1", _async_body)], region_args=lambda b, name: list(b.inputs),
    infer_from_regions=True, result_what="value", result_id="C2",
    infer=lambda b: T.future_type(b.yielded["body"]))

ASYNC_DONE = OpDef(
    "stablehlo.async_done", [Operand("future", what="future")], result_what="value",
    result_id="C1", infer=lambda b: T.future_elements(b.future))

# --- send / recv / infeed / outfeed --------------------------------------------------------------


def _transfer_channel(host_type: str):
    derived = Derived(lambda b: host_type if b.is_host_transfer else "DEVICE_TO_DEVICE")
    return [Attr("channel_id", A.I64, struct=A.CHANNEL_HANDLE, field="handle",
                 mlir="channel_handle"),
            Attr("channel_type", A.CHANNEL_TYPE, default=derived, struct=A.CHANNEL_HANDLE,
                 field="type", mlir="channel_handle"),
            Attr("is_host_transfer", A.BOOL, default=False),
            Attr("source_target_pairs", A.I64_MATRIX, default=None)]


def _channel_type(host_type: str):
    def check(b):
        want = host_type if b.is_host_transfer else "DEVICE_TO_DEVICE"
        if b.channel_type != want:
            return (f"channel_type must be {want} when is_host_transfer is "
                    f"{b.is_host_transfer}, got {b.channel_type}")
    return check


def _results_given(b):
    if not b.result_type:
        return "result_type must list at least the token result"


def _leading_tensors(b):
    for i, t in enumerate(b.result_type[:-1]):
        if not T.is_ranked_tensor(t):
            return f"result_type[{i}] must be a tensor, got {t}"


def _last_token(b):
    if not T.is_token(b.result_type[-1]):
        return f"the last result must be a !stablehlo.token, got {b.result_type[-1]}"


def _io_checks(first: int) -> list[Check]:
    return [Check(f"C{first}", _results_given), Check(f"C{first + 1}", _leading_tensors),
            Check(f"C{first + 2}", _last_token)]


SEND = OpDef(
    "stablehlo.send",
    [Operand("inputs", variadic=True), Operand("token", what="token"),
     *_transfer_channel("DEVICE_TO_HOST")],
    checks=[Check("C1", _channel_type("DEVICE_TO_HOST"))], result_type="none",
    result_what="value", infer=lambda b: T.token_type())

RECV = OpDef(
    "stablehlo.recv", [Operand("token", what="token"), *_transfer_channel("HOST_TO_DEVICE")],
    checks=[Check("C1", _channel_type("HOST_TO_DEVICE")), *_io_checks(2)],
    result_type="required_many", result_what="value", infer=lambda b: list(b.result_type))

INFEED = OpDef(
    "stablehlo.infeed",
    [Operand("token", what="token"), Attr("infeed_config", A.STRING, default=""),
     Attr("layout", A.NESTED_INT_ARRAYS, default=None)],
    checks=_io_checks(1), result_type="required_many", result_what="value",
    infer=lambda b: list(b.result_type))

OUTFEED = OpDef(
    "stablehlo.outfeed",
    [Operand("inputs", variadic=True), Operand("token", what="token"),
     Attr("outfeed_config", A.STRING, default="")],
    result_type="none", result_what="value", infer=lambda b: T.token_type())

CHAPTER = "distribution"
OPS: list[OpDef] = [ALL_GATHER, ALL_REDUCE, ALL_TO_ALL, COLLECTIVE_BROADCAST,
                    COLLECTIVE_PERMUTE, COLLECTIVE_REDUCE, REDUCE_SCATTER, CROSS_REPLICA_SUM,
                    REPLICA_ID, PARTITION_ID, ASYNC_START, ASYNC_DONE, SEND, RECV, INFEED,
                    OUTFEED]
