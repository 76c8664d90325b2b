"""Run a compiled module as several processes (replicas x partitions) that talk to each other.

    results = shlo.run_parallel(exe, [(x0,), (x1,)], num_replicas=2)

Each process is a thread with its own VM context of the module, whose `shlo_host` module
(runtime.host_module) is bound to the process; collectives, send/recv and infeed/outfeed meet
on the host (shlo-host-collectives compiled them into host calls). `inputs[i]` are the
arguments of process i = replica * num_partitions + partition (the spec's flattened id), and
the i-th entry of the result is what that process returned. `programs` gives each process its
own function (a list of names, one per process; default: the module's entry for all), like
the reference interpreter's `interpreter.run_parallel`.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

from ..errors import InvocationError
from .devices import device_config
from .host_module import HostProcess, ProcessGrid


class ParallelResults(list):
    """One entry per process (what its function returned), plus what each sent to its
    outfeed: `outfeed[i]` lists process i's outfeed items (tuples of arrays), in order, and
    `outfeed_configs[i]` their `outfeed_config` strings."""

    outfeed: list
    outfeed_configs: list


def run_parallel(executable, inputs: Sequence[Sequence], *, num_replicas: int | None = None,
                 num_partitions: int = 1, programs: Sequence[str] | None = None,
                 infeed: Sequence[Sequence] | None = None) -> ParallelResults:
    """Run `executable` as num_replicas x num_partitions processes (see the module docstring).
    `infeed[i]` is process i's infeed queue: items (an array, or a tuple of arrays for an
    infeed with several results) in the order its infeed ops read them."""
    inputs = [tuple(args) if isinstance(args, (tuple, list)) else (args,) for args in inputs]
    if num_replicas is None:
        num_replicas = max(1, len(inputs) // max(1, num_partitions))
    size = num_replicas * num_partitions
    if num_replicas < 1 or num_partitions < 1 or len(inputs) != size:
        raise InvocationError(f"run_parallel: {num_replicas} replica(s) x {num_partitions} "
                              f"partition(s) need {max(size, 0)} argument lists (one per "
                              f"process), got {len(inputs)}")
    names = list(programs) if programs is not None else [executable.entry] * size
    if len(names) != size:
        raise InvocationError(f"run_parallel: programs names {len(names)} functions for "
                              f"{size} processes")
    grid = ProcessGrid(num_replicas, num_partitions, infeed)
    calls_host = executable.calls_host
    config = device_config(executable.device)
    functions = []
    for index, name in enumerate(names):
        host = HostProcess(grid, index, config.device) if calls_host else None
        context = executable.new_context(config, host)
        functions.append(executable.bind(name, config, context.vm_context, host))
    results: list = [None] * size
    errors: list = [None] * size

    def run(index: int) -> None:
        error = None
        try:
            results[index] = functions[index].call(*inputs[index])
        except Exception as e:          # reported below, with the process it happened on
            error = errors[index] = e
        finally:
            grid.finished(index, error)

    threads = [threading.Thread(target=run, args=(i,), name=f"shlo-process-{i}")
               for i in range(size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    functions.clear()               # (a traceback must not keep the contexts alive)
    if any(e is not None for e in errors):
        raise _first_failure(grid, errors) from None
    grid.check_delivered()
    out = ParallelResults(results)
    out.outfeed, out.outfeed_configs = grid.outfeed, grid.outfeed_configs
    return out


def _first_failure(grid: ProcessGrid, errors: list) -> Exception:
    """The error of the process that failed first (the others stopped because of it), naming
    the process; the originals (and their tracebacks) are dropped."""
    failed = [i for i, e in enumerate(errors) if e is not None]
    first = grid.failure if grid.failure is not None else errors[failed[0]]
    origin = next((i for i in failed if errors[i] is first), failed[0])
    grid.failure = None
    errors.clear()
    return type(first)(f"{grid.describe(origin)}: {first}")
