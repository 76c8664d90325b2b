"""Run a module for several processes with one process per MPI rank.

    mpiexec -n 4 python step.py            # step.py, on every rank:
        import shlo
        d = shlo.distributed
        exe = shlo.compile(text)            # mhlo.num_replicas = 2, mhlo.num_partitions = 2
        y = d.run(exe, my_x, num_replicas=2, num_partitions=2)

Rank r is process r of the spec (replica r // P, partition r % P); `run` calls this rank's
function with this rank's inputs and returns its results. On a GPU driver named alone
("cuda"), each rank opens the GPU of its position on its host (`rank_device`). The program's collectives are calls
of shlo's host runtime (shlo-host-collectives); here they move bytes with MPI instead of
through the shared memory of `shlo.run_parallel`'s threads, and return the same bytes, so both
engines give identical results (reductions fold in the program, in group order, either way).

Every collective first exchanges a small signature with every rank (its number, op, how it
moves data, byte count, groups), which finds ranks running different collectives, ranks that
finished while others wait, and waits longer than `timeout` seconds (SHLO_MPI_TIMEOUT,
default 600); then the group's communicator (split from the world once per group list, in the
same order on every rank, and kept) moves the data. A rank that fails prints its error and
aborts the job (MPI_Abort), so no rank hangs.

send / recv need their `source_target_pairs` here (the thread engine also has channels any
process may read; MPI must name the receiver): a send is an MPI_Isend to its target, tagged
with its channel, on the communicator of the signatures, so a recv waiting for a rank that
went on to a collective, or finished, without sending sees that rank's signature first (MPI
keeps one sender's messages in order) and fails as a deadlock, as do two ranks that wait in a
recv for each other (notices, `MpiGrid.recv`). Each run ends by checking that every message
sent was received.
"""
from __future__ import annotations

import collections
import os
import sys
import time
import weakref
import zlib
from typing import Any

import numpy as np

from .. import host_abi
from ..errors import InvocationError
from .devices import device_config, device_count
from .host_module import HostError, HostProcess, describe_process, exchange_result
from .mpi_env import local_rank

_TAG_SIGNATURE, _TAG_END = 1, 2
_TAG_CHANNEL = 16               # send/recv messages: tag _TAG_CHANNEL + channel handle
_END = -1                       # signature number of a rank that finished its function
_FORWARD_PAUSE = 1.0           # seconds a failing rank waits between its message and MPI_Abort
GPU_DRIVERS = ("cuda", "hip")  # drivers whose ranks each take a GPU of their host (rank_device)
_SIGNATURE = 6                  # int64s: number, op, primitive, byte count, groups crc, 0


def mpi():
    """mpi4py's MPI module (a clear error where it is missing)."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise InvocationError(f"shlo.distributed needs mpi4py and an MPI library (pip install "
                              f"'shlo[mpi]', i.e. mpi4py and mpich): {e}") from None
    return MPI


def world():
    """The world communicator (mpi4py's COMM_WORLD)."""
    return mpi().COMM_WORLD


def rank() -> int:
    return world().Get_rank()


def size() -> int:
    return world().Get_size()


def default_timeout() -> float:
    return float(os.environ.get("SHLO_MPI_TIMEOUT", "600"))


class _Communicators:
    """The communicators shlo uses on one world: duplicates for signatures (and send/recv),
    collective_permute's data and the notices of waiting recvs, and one per process-group
    list (created collectively, on first use); the number of runs so far."""

    def __init__(self, comm, wait):
        self.world = comm
        (self.control, first), (self.data, second), (self.notices, third) = \
            comm.Idup(), comm.Idup(), comm.Idup()
        wait({r: q for r, q in enumerate([first, second, third])}, "shlo.distributed's first "
             "run: the ranks' communicators (MPI_Comm_idup)", name_ranks=False)
        self.groups: dict = {}
        self.runs = 0
        self.notes: list = []       # (request, buffer) of notices sent, until they complete

    def of(self, groups: list, me: int):
        """This rank's communicator in `groups` (COMM_NULL when it is in none)."""
        key = tuple(map(tuple, groups))
        comm = self.groups.get(key)
        if comm is None:
            color = next((k for k, g in enumerate(groups) if me in g), mpi().UNDEFINED)
            position = groups[color].index(me) if color != mpi().UNDEFINED else 0
            comm = self.groups[key] = self.world.Split(color, position)
        return comm


_communicators: dict = {}
traffic = [0]           # bytes this rank sent to others (each copy counted), a counter


def _communicators_of(comm, wait) -> _Communicators:
    key = comm.py2f()
    if key not in _communicators:
        _communicators[key] = _Communicators(comm, wait)
    return _communicators[key]


class MpiGrid:
    """The grid of one run as seen by one rank (host_module's `Grid`, what HostProcess uses:
    `exchange`, `send`, `recv`, queues), its data moved by MPI."""

    def __init__(self, replicas: int, partitions: int, comm, infeed=None,
                 timeout: float | None = None):
        self.replicas, self.partitions = replicas, partitions
        self.size = replicas * partitions
        self.rank = comm.Get_rank()
        self.timeout = default_timeout() if timeout is None else float(timeout)
        self.comms = _communicators_of(comm, self._wait)
        self.infeed: list = [[] for _ in range(self.size)]     # this rank's: a deque
        self.infeed[self.rank] = collections.deque(infeed or [])
        self.outfeed: list[list[tuple]] = [[] for _ in range(self.size)]
        self.outfeed_configs: list[list[str]] = [[] for _ in range(self.size)]
        self.collectives = 0
        self.failure = None
        self.run = self.comms.runs              # (every rank counts its runs alike)
        self.comms.runs += 1
        self.sent = self.received = 0           # send/recv messages of this run
        # rank -> messages sent to it, this run; rank -> its messages read, this run
        self._sent_to: collections.Counter[int] = collections.Counter()
        self._read_from: collections.Counter[int] = collections.Counter()
        self._sends: list = []                  # (request, buffer) of sends in flight
        # (rank, tag) -> messages a recv read on its way
        self._mail: collections.defaultdict[tuple[int, int], collections.deque[bytes]] = \
            collections.defaultdict(collections.deque)

    def describe(self, index: int) -> str:
        return describe_process(index, self.partitions).replace("process", "rank", 1)

    # -- the signatures --------------------------------------------------------------------
    def _signatures(self, mine: np.ndarray, what: str) -> np.ndarray:
        """Every rank's signature row (this rank's is `mine`), within the timeout."""
        comm, MPI = self.comms.control, mpi()
        rows = np.zeros((self.size, _SIGNATURE), np.int64)
        rows[self.rank] = mine
        others = [r for r in range(self.size) if r != self.rank]
        sends = [comm.Isend(mine, dest=r, tag=_TAG_SIGNATURE) for r in others]
        pending = {r: comm.Irecv(rows[r], source=r, tag=_TAG_SIGNATURE) for r in others}
        self._wait(pending, what)
        MPI.Request.Waitall(sends)
        return rows

    def _wait(self, pending: dict, what: str, name_ranks: bool = True) -> None:
        """Complete the requests of `pending` (rank -> request), or fail after the timeout
        naming the ranks whose requests did not complete."""
        deadline, pause = time.monotonic() + self.timeout, 1e-5
        while pending:
            pending = {r: q for r, q in pending.items() if not q.Test()}
            if not pending:
                return
            if time.monotonic() > deadline:
                late = f"rank(s) {', '.join(map(str, pending))}" if name_ranks else \
                    "the other ranks"
                raise HostError(f"{what}: {self.describe(self.rank)} waited {self.timeout:g} s "
                                f"for {late}, which did not reach it (SHLO_MPI_TIMEOUT sets "
                                f"the wait)")
            time.sleep(pause)
            pause = min(2 * pause, 2e-3)

    def _agree(self, number: int, name: str, primitive: int, groups: list, nbytes: int):
        what = f"{name} (collective #{number})"
        crc = zlib.crc32(repr(groups).encode())
        mine = np.array([number, host_abi.OPS.index(name), primitive, nbytes, crc, 0], np.int64)
        rows = self._signatures(mine, what)
        if (rows == mine).all():
            return
        finished = [r for r in range(self.size) if rows[r, 0] == _END]
        if finished:
            raise HostError(f"{what}: deadlock: {self.describe(self.rank)} waits, and rank(s) "
                            f"{', '.join(map(str, finished))} finished their function")
        kinds: dict = {}
        for r, row in enumerate(rows):
            kinds.setdefault(tuple(row), []).append(r)
        parts = [f"rank(s) {', '.join(map(str, ranks))} run {host_abi.OPS[row[1]]} "
                 f"(collective #{row[0]}, {row[3]} bytes, groups {row[4]:08x})"
                 for row, ranks in kinds.items()]
        raise HostError(f"{what}: {'; '.join(parts)}: every rank must run the same "
                        f"collectives in one order")

    def finished(self, index: int, error=None) -> None:
        """This rank's function returned: tell every rank (a rank still waiting in a
        collective then fails at once), and hear that every other one returned too."""
        if error is not None:
            return
        mine = np.array([_END, self.sent, self.received] + [0] * (_SIGNATURE - 3), np.int64)
        rows = self._signatures(mine, "the end of the run")
        late = [r for r in range(self.size) if rows[r, 0] != _END]
        if late:
            raise HostError(f"the end of the run: {self.describe(self.rank)} finished its "
                            f"function while rank(s) {', '.join(map(str, late))} still run "
                            f"collectives (collective #{rows[late[0], 0]}: "
                            f"{host_abi.OPS[rows[late[0], 1]]})")
        sent, received = int(rows[:, 1].sum()), int(rows[:, 2].sum())
        if sent != received:
            raise HostError(f"the end of the run: {sent - received} stablehlo.send message(s) "
                            f"were never received (sent per rank: {rows[:, 1].tolist()}, "
                            f"received per rank: {rows[:, 2].tolist()}): every send needs a "
                            f"stablehlo.recv on its target, on the same channel")
        mpi().Request.Waitall([q for q, _ in self._sends])
        self._sends.clear()

    # -- the exchanges ---------------------------------------------------------------------
    def exchange(self, index: int, number: int, name: str, primitive: int, groups: list,
                 data: bytes) -> bytes:
        """What this rank receives from collective number `number` (as the thread engine's
        `ProcessGrid.exchange` computes it)."""
        self._agree(number, name, primitive, groups, len(data))
        me = self.rank
        if primitive == host_abi.PERMUTE:
            return self._permute(number, groups, data)
        if primitive == host_abi.ROOT_ONLY:
            return exchange_result(primitive, name, groups, [data] * self.size, me,
                                   self.partitions)
        comm = self.comms.of(groups, me)
        group = next((g for g in groups if me in g), None)
        if group is None:           # (the thread engine's zeros, or its error)
            return exchange_result(primitive, name, groups, [data] * self.size, me,
                                   self.partitions)
        send = np.frombuffer(data, np.int8)
        n = len(group)
        traffic[0] += len(data) * {host_abi.BROADCAST: (n - 1) * (group[0] == me),
                                   host_abi.ALL_TO_ALL: (n - 1) / n}.get(primitive, n - 1)
        if primitive == host_abi.BROADCAST:
            out = send.copy() if group[0] == me else np.empty_like(send)
            comm.Bcast(out, root=0)
            return out.tobytes()
        if primitive == host_abi.ALL_TO_ALL:
            out = np.empty_like(send)
            comm.Alltoall(send, out)
            return out.tobytes()
        gathered = np.empty((len(group), len(data)), np.int8)      # GATHER, BROADCAST_FROM
        comm.Allgather(send, gathered)
        values = [b""] * self.size
        for m, row in zip(group, gathered):
            values[m] = row.tobytes()
        return exchange_result(primitive, name, groups, values, me, self.partitions)

    def _permute(self, number: int, pairs: list, data: bytes) -> bytes:
        me, comm = self.rank, self.comms.data
        target = next((t for s, t in pairs if s == me), None)
        source = next((s for s, t in pairs if t == me), None)
        tag = number % 32768
        traffic[0] += len(data) if target is not None else 0
        send = comm.Isend(np.frombuffer(data, np.int8), dest=target, tag=tag) \
            if target is not None else None
        out = np.zeros(len(data), np.int8)
        if source is not None:
            comm.Recv(out, source=source, tag=tag)
        if send is not None:
            send.Wait()
        return out.tobytes()

    def send(self, index: int, channel: int, target: int | None, data: bytes) -> None:
        """Send `data` to rank `target` on `channel` (see the module docstring)."""
        if target is None:
            raise HostError(f"stablehlo.send on channel {channel}: under MPI a send must say "
                            f"which rank receives it (source_target_pairs, or the frontend "
                            f"attribute _xla_send_recv_source_target_pairs); without them run "
                            f"the module on one machine with shlo.run_parallel")
        tag = self._tag("stablehlo.send", channel)
        self._sends = [(q, b) for q, b in self._sends if not q.Test()]
        buffer = np.frombuffer(data, np.int8)
        self._sends.append((self.comms.control.Isend(buffer, dest=target, tag=tag), buffer))
        self.sent += 1
        self._sent_to[target] += 1
        traffic[0] += len(data)

    def recv(self, index: int, channel: int, source: int | None) -> bytes:
        """The next message rank `source` sent this rank on `channel`. Messages of other
        channels read on the way are kept for their recv; a signature of that rank means it
        went on without sending this message: a deadlock. While it waits, it tells `source`
        so (a notice: this run, how many of its messages it has read, how many it was sent);
        a notice of `source` that it waits for this rank, having read all this rank sent it,
        when this rank has read all `source` sent, is a deadlock too (two ranks that wait for
        each other with nothing in flight; longer cycles end at the timeout)."""
        if source is None:
            raise HostError(f"stablehlo.recv on channel {channel}: under MPI a recv must say "
                            f"which rank sends to it (source_target_pairs, or the frontend "
                            f"attribute _xla_send_recv_source_target_pairs); without them run "
                            f"the module on one machine with shlo.run_parallel")
        MPI, comm = mpi(), self.comms.control
        tag = self._tag("stablehlo.recv", channel)
        mail, status = self._mail[(source, tag)], MPI.Status()
        deadline, pause, noticed = time.monotonic() + self.timeout, 1e-5, None
        while not mail:
            message = comm.Improbe(source=source, tag=MPI.ANY_TAG, status=status)
            if message is None:
                if noticed != self._read_from[source]:
                    noticed = self._read_from[source]
                    self._notice(source, noticed)
                self._check_notices(source, channel)
                if time.monotonic() > deadline:
                    raise HostError(f"stablehlo.recv on channel {channel}: "
                                    f"{self.describe(self.rank)} waited {self.timeout:g} s for "
                                    f"rank {source}'s send, which did not reach it "
                                    f"(SHLO_MPI_TIMEOUT sets the wait)")
                time.sleep(pause)
                pause = min(2 * pause, 2e-3)
                continue
            got = status.Get_tag()
            buffer = np.empty(_SIGNATURE if got == _TAG_SIGNATURE else
                              status.Get_count(MPI.BYTE), np.int64 if got == _TAG_SIGNATURE
                              else np.int8)
            message.Recv(buffer)
            if got == _TAG_SIGNATURE:
                went = "finished its function" if buffer[0] == _END else \
                    f"went on to collective #{buffer[0]} ({host_abi.OPS[buffer[1]]})"
                raise HostError(f"stablehlo.recv on channel {channel}: deadlock: "
                                f"{self.describe(self.rank)} waits for a message of rank "
                                f"{source}, which {went} without sending it")
            self._mail[(source, got)].append(buffer.tobytes())
            self._read_from[source] += 1
        self.received += 1
        return mail.popleft()

    def _notice(self, source: int, read: int) -> None:
        """Tell `source` that this rank waits for it, having read `read` of its messages and
        sent it what it sent."""
        notes = self.comms.notes
        notes[:] = [(q, b) for q, b in notes if not q.Test()]
        note = np.array([self.run, read, self._sent_to[source]], np.int64)
        notes.append((self.comms.notices.Isend(note, dest=source, tag=_TAG_SIGNATURE), note))

    def _check_notices(self, source: int, channel: int) -> None:
        """Read `source`'s notices; fail if it waits for this rank with nothing in flight
        either way (its wait cannot have ended since: this rank sent it nothing more)."""
        notices = self.comms.notices
        while notices.Iprobe(source=source, tag=_TAG_SIGNATURE):
            note = np.empty(3, np.int64)
            notices.Recv(note, source=source, tag=_TAG_SIGNATURE)
            if note[0] == self.run and note[1] == self._sent_to[source] and \
                    note[2] == self._read_from[source]:
                raise HostError(f"stablehlo.recv on channel {channel}: deadlock: "
                                f"{self.describe(self.rank)} waits for a message of rank "
                                f"{source}, which waits in a recv for a message of this rank")

    def _tag(self, op: str, channel: int) -> int:
        """The MPI tag of a channel's messages."""
        upper = self.comms.control.Get_attr(mpi().TAG_UB) - _TAG_CHANNEL
        if not 0 <= channel <= upper:
            raise HostError(f"{op} on channel {channel}: under MPI a channel handle is a "
                            f"message tag, 0 to {upper} with this MPI library")
        return _TAG_CHANNEL + channel


_last: list = [[], []]
# executable -> its parts: (device config, host process, context, functions by name)
_bound: weakref.WeakKeyDictionary[Any, tuple[Any, HostProcess | None, Any, dict[str, Any]]] = \
    weakref.WeakKeyDictionary()


def _function(executable, name: str, grid: MpiGrid):
    """This rank's function `name` of `executable`, its host process bound to `grid`."""
    config = device_config(executable.device)
    parts = _bound.get(executable)
    if parts is None or parts[0] is not config:
        host = HostProcess(grid, grid.rank, config.device) if executable.calls_host else None
        context = executable.new_context(config, host)
        parts = _bound[executable] = (config, host, context, {})
    config, host, context, functions = parts
    if host is not None:
        host.reset(grid)
    if name not in functions:
        functions[name] = executable.bind(name, config, context.vm_context, host)
    return functions[name]


def rank_device(device: str, count=device_count) -> str:
    """The device this rank opens for `device`: a GPU driver named alone ("cuda", "hip") is
    the host's GPU number local rank mod `count(driver)` (IREE's `cuda://N`), so the ranks of a
    host share its GPUs evenly; a device named in full, or any other driver, as it is."""
    if device not in GPU_DRIVERS:
        return device
    gpus = count(device)
    return f"{device}://{host_rank() % gpus}" if gpus else device


def host_rank() -> int:
    """This rank's position among the world's ranks on its host: the launcher's variable
    (mpi_env.local_rank), else MPI's shared-memory split of the world (once)."""
    if _host_rank:
        return _host_rank[0]
    found = local_rank()
    if found is None:
        found = world().Split_type(mpi().COMM_TYPE_SHARED).Get_rank()
    _host_rank.append(found)
    return found


_host_rank: list[int] = []


def run(executable, *args, num_replicas: int | None = None, num_partitions: int = 1,
        function: str | None = None, infeed=None, timeout: float | None = None, comm=None,
        abort: bool = True):
    """Run this rank's process of `executable` (see the module docstring) and return what its
    function returned. `infeed`: this rank's infeed items. On a failure the error is printed
    and, with `abort`, the whole job aborts (other ranks would wait for this one)."""
    comm = comm if comm is not None else world()
    ranks = comm.Get_size()
    if num_replicas is None:
        num_replicas = max(1, ranks // max(1, num_partitions))
    me = comm.Get_rank()
    try:
        if num_replicas * num_partitions != ranks:
            raise InvocationError(f"shlo.distributed: the module runs as {num_replicas} "
                                  f"replica(s) x {num_partitions} partition(s) = "
                                  f"{num_replicas * num_partitions} processes, but the job has "
                                  f"{ranks} rank(s): start it with mpiexec -n "
                                  f"{num_replicas * num_partitions}")
        grid = MpiGrid(num_replicas, num_partitions, comm, infeed, timeout)
        executable.device = rank_device(str(executable.device))
        call = _function(executable, function or executable.entry, grid)
        result = call.call(*args)
        grid.finished(me)
        _last[:] = [grid.outfeed[me], grid.outfeed_configs[me]]
        return result
    except Exception as e:
        if not abort or ranks == 1:
            raise
        fail(e, comm)


def last_outfeed() -> tuple[list, list]:
    """(items, configs) this rank's last `run` sent to its outfeed."""
    return _last[0], _last[1]


def fail(error: Exception, comm=None) -> None:
    """Print `error` as this rank's and abort every rank of the job."""
    comm = comm if comm is not None else world()
    print(f"shlo: rank {comm.Get_rank()} of {comm.Get_size()} failed: {error}", file=sys.stderr,
          flush=True)
    time.sleep(_FORWARD_PAUSE)  # MPI_Abort kills every rank: give mpiexec time to forward this
    comm.Abort(1)
    os._exit(1)                 # (MPI_Abort may return before the launcher ends the job)


# ---- sharded programs --------------------------------------------------------------------------

def sharding(executable, function: str | None = None) -> dict:
    """The global shardings of a function compiled from a sharded program (core/shardy: mesh,
    device_ids, per argument and result its global shape and mesh axes per dimension)."""
    import json

    from ..shardy import REFLECTION_KEY
    name = function or executable.entry
    exports = executable._load()[3]
    reflection = exports[name].reflection if name in exports else {}
    if REFLECTION_KEY not in reflection:
        raise InvocationError(f"{name}: not compiled from a sharded program (no Shardy mesh "
                              f"and mhlo.num_partitions > 1), so it has no shardings")
    return json.loads(reflection[REFLECTION_KEY])


def _blocks(plan: dict, value: dict, process: int, what: str) -> tuple:
    """The slices of `value` (a plan entry) that `process` holds."""
    sizes = dict((a, s) for a, s in plan["mesh"])
    ids = plan["device_ids"] or list(range(int(np.prod(list(sizes.values()) or [1]))))
    coords = dict(zip(sizes, np.unravel_index(ids.index(process), list(sizes.values()))
                      if sizes else []))
    out = []
    for dim, (n, axes) in enumerate(zip(value["shape"], value["dims"])):
        count, index = 1, 0
        for a in axes:
            count, index = count * sizes[a], index * sizes[a] + int(coords[a])
        if n % count:
            raise InvocationError(f"{what}: dimension {dim} of size {n} is split over "
                                  f"{count} devices ({', '.join(axes)}), which does not "
                                  f"divide it")
        out.append(slice(index * (n // count), (index + 1) * (n // count)))
    return tuple(out)


def shard(executable, *args, function: str | None = None) -> list[tuple]:
    """Each process's arguments (process p: the blocks device p holds) of global `args`."""
    plan = sharding(executable, function)
    if len(args) != len(plan["args"]):
        raise InvocationError(f"shard: the function takes {len(plan['args'])} arguments, got "
                              f"{len(args)}")
    processes = len(plan["device_ids"] or []) or int(np.prod([s for _, s in plan["mesh"]]))
    out = []
    for p in range(processes):
        blocks = []
        for k, (x, value) in enumerate(zip(args, plan["args"])):
            x = np.asarray(x)
            if list(x.shape) != value["shape"]:
                raise InvocationError(f"shard: argument {k} has shape {x.shape}, the sharded "
                                      f"program's is {tuple(value['shape'])}")
            blocks.append(np.ascontiguousarray(x[_blocks(plan, value, p, f'argument {k}')]))
        out.append(tuple(blocks))
    return out


def gather(executable, per_process: list, function: str | None = None):
    """The global results from each process's results (as `shard` splits arguments)."""
    plan = sharding(executable, function)
    per_process = [r if isinstance(r, tuple) else (r,) for r in per_process]
    out = []
    for k, value in enumerate(plan["results"]):
        first = np.asarray(per_process[0][k])
        whole = np.zeros(value["shape"], first.dtype)
        for p, results in enumerate(per_process):
            whole[_blocks(plan, value, p, f"result {k}")] = results[k]
        out.append(whole)
    return out[0] if len(out) == 1 else tuple(out)


def gather_to_all(executable, mine, comm=None, function: str | None = None):
    """`gather` under MPI: every rank's results (`mine` here) collected on every rank."""
    comm = comm if comm is not None else world()
    return gather(executable, comm.allgather(mine), function)
