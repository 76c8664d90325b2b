"""The `shlo_host` VM module: what a compiled program's collectives, send/recv and infeed/outfeed
call (shlo-host-collectives emits the calls; core/host_abi is the contract).

A `ProcessGrid` is the shared state of one run of `num_replicas x num_partitions` processes:
the rendezvous of collectives (the n-th collective of every process meets the n-th of every
other), one FIFO per send/recv channel (per channel, source and target when the ops name
their `source_target_pairs`), and each process's infeed and outfeed queues. Each
process runs in its own VM context, whose `shlo_host` module is a `HostProcess` bound to the
process's index (replica * num_partitions + partition, the spec's flattened id).

A process that waits (a collective, a recv) while every other unfinished process waits too,
and none of them can go on, is a deadlock: it fails at once with what it waited for, and so do
the others. A failure of one process aborts the others at their next wait. Host functions
record their error (`HostProcess.error`) before raising, because IREE passes a Python
exception on as a traceback inside its own message.
"""
from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from typing import Protocol

import iree.runtime as rt
import numpy as np

from .. import host_abi
from ..errors import InvocationError
from .standalone_loader import ELEMENT_DTYPES, download, upload

_I8 = rt.HalElementType.SINT_8


class HostError(InvocationError):
    """A process of a parallel run could not exchange data (wrong grid, deadlock, empty queue)."""


def describe_process(index: int, partitions: int) -> str:
    return f"process {index} (replica {index // partitions}, partition {index % partitions})"


def process_groups(mode: str, rows: np.ndarray, replicas: int, partitions: int) -> list:
    """The spec's process groups (lists of flattened ids) of replica_groups-like `rows`
    (no rows: one group of every id)."""
    bound = {"cross_replica": replicas, "cross_partition": partitions,
             "cross_replica_and_partition": replicas}.get(mode, replicas * partitions)
    ids = [[int(x) for x in row if x != -1] for row in np.asarray(rows).reshape(
        len(rows), -1)] if np.size(rows) else [list(range(bound))]
    bad = [x for row in ids for x in row if not 0 <= x < bound]
    if bad:
        raise HostError(f"{mode} process groups {ids} name id {bad[0]}, outside [0, {bound}) "
                        f"for {replicas} replica(s) x {partitions} partition(s)")
    if mode == "cross_replica":
        return [[r * partitions + p for r in row] for p in range(partitions) for row in ids]
    if mode == "cross_partition":
        return [[r * partitions + p for p in row] for r in range(replicas) for row in ids]
    if mode == "cross_replica_and_partition":
        return [[r * partitions + p for p in range(partitions) for r in row] for row in ids]
    return ids                                                      # flattened_ids


def exchange_result(primitive: int, op: str, groups: list, values: list, me: int,
                    partitions: int) -> bytes:
    """What process `me` receives, given every process's bytes (`values`, by flattened id)."""
    mine = values[me]
    group = next((g for g in groups if me in g), None)
    zeros = bytes(len(mine))
    if primitive == host_abi.PERMUTE:           # groups are (source, target) pairs
        source = next((g[0] for g in groups if g[1] == me), None)
        return zeros if source is None else values[source]
    if primitive == host_abi.BROADCAST:
        return zeros if group is None else values[group[0]]
    if primitive == host_abi.BROADCAST_FROM:        # data = payload + the root's group index
        if group is None:
            return bytes(len(mine) - 4)
        root = int(np.frombuffer(mine[-4:], np.int32)[0])
        if not 0 <= root < len(group):
            raise HostError(f"{op}: root {root} is outside the caller's process group {group}")
        return values[group[root]][:-4]
    if primitive == host_abi.ROOT_ONLY:
        return mine if group is not None and group[0] == me else zeros
    if group is None:
        raise HostError(f"{op}: {describe_process(me, partitions)} is in none of its process "
                        f"groups {groups}")
    if primitive == host_abi.GATHER:
        longest = max(len(g) for g in groups)
        return b"".join(values[m] for m in group) + bytes(len(mine) * (longest - len(group)))
    n, j = len(group), group.index(me)                               # ALL_TO_ALL
    block = len(mine) // n
    return b"".join(values[m][j * block:(j + 1) * block] for m in group)


class _Slot:
    """One collective in progress: each process's bytes, and how many have read the result."""

    def __init__(self, kind):
        self.kind, self.values, self.read = kind, {}, 0


class ProcessGrid:
    """The shared state of one parallel run (see the module docstring)."""

    def __init__(self, replicas: int = 1, partitions: int = 1, infeed=None):
        self.replicas, self.partitions = replicas, partitions
        self.size = replicas * partitions
        queues = list(infeed) if infeed is not None else [[]] * self.size
        if len(queues) != self.size:
            raise HostError(f"infeed: expected one queue per process ({self.size}), got "
                            f"{len(queues)}")
        self.infeed = [collections.deque(q) for q in queues]
        self.outfeed: list[list[tuple]] = [[] for _ in range(self.size)]
        self.outfeed_configs: list[list[str]] = [[] for _ in range(self.size)]
        self._cond = threading.Condition()
        self._slots: dict[int, _Slot] = {}
        # channel (any target), or (channel, source, target)
        self._channels: dict[int | tuple[int, int, int], collections.deque] = \
            collections.defaultdict(collections.deque)
        self._waiting: dict[int, Callable[[], bool]] = {}
        self._running = self.size
        self.failure: Exception | None = None

    def describe(self, index: int) -> str:
        return describe_process(index, self.partitions)

    # -- lifetime ---------------------------------------------------------------------------
    def finished(self, index: int, error: Exception | None = None) -> None:
        """Process `index` returned (or failed with `error`): waiters re-check."""
        with self._cond:
            self._running -= 1
            if error is not None and self.failure is None:
                self.failure = error
            self._cond.notify_all()

    def _wait(self, index: int, ready, what: str) -> None:
        """Block (holding the lock) until `ready()`; fail on a deadlock or another's failure."""
        self._waiting[index] = ready
        try:
            while not ready():
                if self.failure is not None:
                    raise HostError(f"{what}: {self.describe(index)} stopped because another "
                                    f"process failed: {self.failure}")
                if len(self._waiting) == self._running and not any(
                        r() for r in self._waiting.values()):
                    raise HostError(f"{what}: deadlock: {self.describe(index)} waits, and "
                                    f"every other process has finished or waits too")
                self._cond.wait()
        finally:
            del self._waiting[index]

    # -- exchanges --------------------------------------------------------------------------
    def rendezvous(self, index: int, number: int, kind: tuple, data: bytes) -> list:
        """Every process's bytes for collective number `number` (all processes take part)."""
        with self._cond:
            slot = self._slots.setdefault(number, _Slot(kind))
            if slot.kind != kind:
                other = next(iter(slot.values))
                raise HostError(f"{kind[0]}: {self.describe(index)} runs it as collective "
                                f"#{number}, where {self.describe(other)} runs {slot.kind[0]}; "
                                f"every process must run the same collectives in one order")
            slot.values[index] = data
            self._cond.notify_all()
            self._wait(index, lambda: len(slot.values) == self.size,
                       f"{kind[0]} (collective #{number})")
            values = [slot.values[i] for i in range(self.size)]
            slot.read += 1
            if slot.read == self.size:
                del self._slots[number]
            return values

    def exchange(self, index: int, number: int, name: str, primitive: int, groups: list,
                 data: bytes) -> bytes:
        """What process `index` receives from collective number `number` (runtime.distributed
        has the same method over MPI)."""
        values = self.rendezvous(index, number, (name, primitive), data)
        return exchange_result(primitive, name, groups, values, index, self.partitions)

    def send(self, index: int, channel: int, target: int | None, data: bytes) -> None:
        """Queue `data` from process `index` on `channel` for `target` (None: for whichever
        process receives on the channel first)."""
        with self._cond:
            self._channels[channel if target is None else (channel, index, target)].append(data)
            self._cond.notify_all()

    def recv(self, index: int, channel: int, source: int | None) -> bytes:
        """The next bytes `source` (None: any process) sent process `index` on `channel`."""
        with self._cond:
            queue = self._channels[channel if source is None else (channel, source, index)]
            what = f"stablehlo.recv on channel {channel}" + (
                "" if source is None else f" from {self.describe(source)}")
            self._wait(index, lambda: bool(queue), what)
            return queue.popleft()

    def check_delivered(self) -> None:
        """After a run: every send that named its target was received (under MPI an unreceived
        message would stay in flight, so both engines reject it)."""
        for key, queue in self._channels.items():
            if isinstance(key, tuple) and queue:
                channel, source, target = key
                raise HostError(f"stablehlo.send on channel {channel}: {self.describe(source)} "
                                f"sent {len(queue)} message(s) to {self.describe(target)} that "
                                f"it did not receive: every send needs a stablehlo.recv on its "
                                f"target, on the same channel")


class Grid(Protocol):
    """What a HostProcess uses of its run's grid: a ProcessGrid (threads) or
    runtime.distributed's MpiGrid (one MPI rank)."""

    replicas: int
    partitions: int
    infeed: list                    # per process: its queue (a deque) of infeed items
    outfeed: list[list[tuple]]
    outfeed_configs: list[list[str]]

    def describe(self, index: int) -> str: ...

    def exchange(self, index: int, number: int, name: str, primitive: int, groups: list,
                 data: bytes) -> bytes: ...

    def send(self, index: int, channel: int, target: int | None, data: bytes) -> None: ...

    def recv(self, index: int, channel: int, source: int | None) -> bytes: ...


class HostProcess:
    """The `shlo_host` functions of one process (exported by `create_host_module`)."""

    def __init__(self, grid: Grid, index: int, device):
        self.index, self.device = index, device
        self.reset(grid)

    def reset(self, grid: Grid) -> None:
        """Start a new run as process `index` of `grid`."""
        self.grid = grid
        self.error: Exception | None = None
        self._collectives = 0
        self._infeed_item: tuple | None = None
        self._outfeed_parts: list[np.ndarray] = []
        self._outfeed_config = ""

    # host functions (`after` only orders the calls): each records its error before IREE
    # wraps it
    def collective(self, after, data, groups, primitive, op, mode, replicas, partitions):
        return self._guard(self._collective, data, groups, primitive, op, mode, replicas,
                           partitions)

    def process_id(self, after, replicas, partitions):
        return self._guard(self._process_id, replicas, partitions)

    def send(self, after, data, channel, pairs, mode, replicas, partitions):
        return self._guard(self._send, data, channel, pairs, mode, replicas, partitions)

    def recv(self, after, channel, size, pairs, mode, replicas, partitions):
        return self._guard(self._recv, channel, size, pairs, mode, replicas, partitions)

    def infeed(self, after, descriptor, part, parts):
        return self._guard(self._infeed, descriptor, part, parts)

    def outfeed(self, after, data, descriptor, part, parts):
        return self._guard(self._outfeed, data, descriptor, part, parts)

    def _guard(self, fn, *args):
        try:
            return fn(*args)
        except Exception as e:
            # a new exception, without the traceback: the VM context holds this object, and a
            # traceback's frames would tie it into a cycle Python's collector cannot see
            self.error = HostError(str(e) if isinstance(e, HostError) else
                                   f"shlo_host: {type(e).__name__}: {e}")
            raise

    def take_error(self) -> Exception | None:
        """The error a host function recorded in the last call (then forgotten)."""
        error, self.error = self.error, None
        return error

    # -- implementations ---------------------------------------------------------------------
    def _collective(self, data, groups, primitive, op, mode, replicas, partitions):
        name = host_abi.OPS[op]
        self._check_grid(name, replicas, partitions)
        rows = self._array(groups, np.int64)
        groups = process_groups(host_abi.MODES[mode], rows, replicas, partitions) \
            if rows.size or primitive != host_abi.PERMUTE else []     # no pairs: nobody sends
        if primitive == host_abi.GROUP_SIZE:
            group: list[int] = next((g for g in groups if self.index in g), [])
            return self._upload(np.int32(len(group)).tobytes())
        number, self._collectives = self._collectives, self._collectives + 1
        return self._upload(self.grid.exchange(self.index, number, name, primitive, groups,
                                               self._bytes(data)))

    def _process_id(self, replicas, partitions):
        self._check_grid("stablehlo.replica_id", replicas, partitions)
        ids = np.array(divmod(self.index, self.grid.partitions), np.uint32)
        return self._upload(ids.tobytes())

    def _send(self, data, channel, pairs, mode, replicas, partitions):
        pairs = self._pairs("stablehlo.send", pairs, mode, replicas, partitions)
        target = None if pairs is None else next((t for s, t in pairs if s == self.index), -1)
        if target != -1:                    # (-1: this process sends to nobody)
            self.grid.send(self.index, channel, target, self._bytes(data))
        return self._upload(b"")

    def _recv(self, channel, size, pairs, mode, replicas, partitions):
        pairs = self._pairs("stablehlo.recv", pairs, mode, replicas, partitions)
        source = None if pairs is None else next((s for s, t in pairs if t == self.index), -1)
        if source == -1:                    # nobody sends to this process: zeros, as in
            return self._upload(bytes(size))        # collective_permute
        data = self.grid.recv(self.index, channel, source)
        if len(data) != size:
            raise HostError(f"stablehlo.recv on channel {channel}: {self.grid.describe(self.index)}"
                            f" expects {size} bytes, the matching send sent {len(data)}")
        return self._upload(data)

    def _pairs(self, op: str, pairs, mode: int, replicas: int, partitions: int):
        """The (source, target) flattened ids of a send/recv's source_target_pairs (None when
        it has none)."""
        rows = self._array(pairs, np.int64)
        if not rows.size:
            return None
        self._check_grid(op, replicas, partitions)
        return process_groups(host_abi.MODES[mode], rows, replicas, partitions)

    def _infeed(self, descriptor, part, parts):
        element, shape, _ = _descriptor(self._array(descriptor, np.int64))
        if part == 0:
            queue = self.grid.infeed[self.index]
            if not queue:
                raise HostError(f"stablehlo.infeed: the infeed queue of "
                                f"{self.grid.describe(self.index)} is empty (fill it with "
                                f"shlo.run_parallel(..., infeed=[[items...]]))")
            item = queue.popleft()
            self._infeed_item = tuple(item) if isinstance(item, (tuple, list)) else (item,)
            if len(self._infeed_item) != parts:
                raise HostError(f"stablehlo.infeed reads {parts} tensor(s), the queue's item "
                                f"has {len(self._infeed_item)}")
        if self._infeed_item is None:
            raise HostError(f"stablehlo.infeed: part {part} of {parts} read before part 0")
        array = np.asarray(self._infeed_item[part])
        dtype = ELEMENT_DTYPES[element]
        if array.shape != shape or not np.can_cast(array.dtype, dtype, "same_kind"):
            raise HostError(f"stablehlo.infeed result {part}: expected "
                            f"tensor<{''.join(f'{d}x' for d in shape)}{element}>, the queue "
                            f"holds a {array.dtype} array of shape {array.shape}")
        return self._upload(np.ascontiguousarray(array.astype(dtype)).view(np.int8).tobytes())

    def _outfeed(self, data, descriptor, part, parts):
        element, shape, config = _descriptor(self._array(descriptor, np.int64))
        array = np.frombuffer(self._bytes(data), ELEMENT_DTYPES[element]).reshape(shape)
        if part == 0:
            self._outfeed_parts, self._outfeed_config = [], config
        self._outfeed_parts.append(array.copy())
        if part == parts - 1:
            self.grid.outfeed[self.index].append(tuple(self._outfeed_parts))
            self.grid.outfeed_configs[self.index].append(self._outfeed_config)
        return self._upload(b"")

    # -- helpers -----------------------------------------------------------------------------
    def _check_grid(self, op: str, replicas: int, partitions: int) -> None:
        if (replicas, partitions) != (self.grid.replicas, self.grid.partitions):
            raise HostError(f"{op}: the module is for {replicas} replica(s) x {partitions} "
                            f"partition(s) but runs as {self.grid.replicas} x "
                            f"{self.grid.partitions}: run it as {replicas} x {partitions} processes "
                            f"(shlo.run_parallel(exe, inputs_per_process, num_replicas="
                            f"{replicas}, num_partitions={partitions}); shlo-run "
                            f"--num-replicas {replicas} --num-partitions {partitions})")

    def _array(self, ref, dtype) -> np.ndarray:
        view = ref.deref(rt.HalBufferView)
        return np.array(download(self.device, view, np.dtype(dtype)))

    def _bytes(self, ref) -> bytes:
        return self._array(ref, np.int8).tobytes()

    def _upload(self, data: bytes):
        array = np.frombuffer(data, np.int8) if data else np.zeros(0, np.int8)
        return upload(self.device, np.ascontiguousarray(array), _I8).ref


def _descriptor(row: np.ndarray) -> tuple[str, tuple, str]:
    """(element type, shape, config) of an infeed/outfeed descriptor (see core/host_abi)."""
    element, rank = host_abi.ELEMENTS[int(row[0])], int(row[1])
    shape = tuple(int(d) for d in row[2:2 + rank])
    config = bytes(int(b) for b in row[2 + rank:]).decode()
    return element, shape, config


def create_host_module(process: HostProcess):
    """The `shlo_host` VM module whose functions are `process`'s methods."""
    iface = rt.PyModuleInterface(host_abi.MODULE, lambda _: process)
    for name, convention in host_abi.FUNCTIONS.items():
        iface.export(name, convention, getattr(HostProcess, name))
    return iface.create()
