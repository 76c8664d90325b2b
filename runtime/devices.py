"""Runtime devices: one `iree.runtime.Config` per driver, and moving numpy arrays onto them.

On the local CPU drivers (`local-task`, `local-sync`) device memory is host
memory, so `to_device` hands IREE the numpy array's own memory (no copy) when
IREE can use it in place: C-contiguous, writeable (IREE's import refuses
read-only memory) and 64-byte aligned (IREE's CPU code generator assumes
64-byte aligned buffers: it emits aligned AVX-512 loads, which fault on less).
Everything else is copied: on those drivers into an aligned numpy array that
IREE then reads in place (`importable`: 3.7x faster than IREE's own copy), on
others by IREE (`standalone_loader.upload`). numpy aligns large
arrays to 16 bytes only: `empty_aligned` / `aligned` make arrays that qualify,
and the arrays shlo returns on CPU already do, so chained calls never copy.
IREE may update an input buffer in place (dynamic_update_slice, scatter,
sort, loops), so only functions whose module IREE merely reads
(`abi.mark_read_only_inputs`, recorded at compile time) get zero-copy inputs.
"""
from __future__ import annotations

import gc
import os
import threading

import iree.runtime as rt
import numpy as np

from ..errors import DeviceError
from .mpi_env import without_mpi_environment
from .standalone_loader import context_binder, upload

# Drivers whose device memory is host memory, and the alignment their compiled code assumes.
HOST_MEMORY_DRIVERS = frozenset({"local-task", "local-sync"})
ALIGNMENT = 64
_IMPORT_MEMORY = int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE)
_IMPORT_USAGE = int(rt.BufferUsage.DEFAULT)

_lock = threading.Lock()
_configs: dict[str, object] = {}
_binders: dict[str, object] = {}      # driver -> its CUDA context binder (context_binder)


def physical_cores() -> int:
    """The physical cores this process may run on (as many as IREE's local-task makes workers
    by default); its allowed CPUs where /proc/cpuinfo does not say."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    cores, cpu, package = set(), None, "0"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = (part.strip() for part in line.partition(":"))
                if key == "processor":
                    cpu = int(value)
                elif key == "physical id":
                    package = value
                elif key == "core id" and cpu in allowed:
                    cores.add((package, value))
    except (OSError, ValueError):
        pass
    return len(cores) or len(allowed) or 1


def _open(driver: str):
    """A new IREE device for `driver`. local-task gets as many task workers as IREE's default
    (one per physical core) but not pinned to a core each: a pinned worker cannot move off a
    core where the calling thread spins in IREE's wait for it (docs/performance.md, "Loops:
    transformer_decode and lstm_scan"). SHLO_PINNED_WORKERS=1 keeps IREE's default."""
    if driver != "local-task" or os.environ.get("SHLO_PINNED_WORKERS", "") not in ("", "0"):
        return rt.get_device(driver, cache=False)
    workers = min(physical_cores(), 64)     # (IREE's --task_topology_max_group_count)
    rt.flags.parse_flags(f"--task_topology_group_count={workers}")
    try:
        return rt.get_device(driver, cache=False)
    finally:
        rt.flags.parse_flags("--task_topology_group_count=0")      # (IREE's default again)


def device_config(driver: str):
    """The `iree.runtime.Config` (instance + device) for a driver, created on first use.

    The device is shlo's own, not iree.runtime's process-wide cached one, so that after
    `forget_device` or `release_device` the next call really opens a new device."""
    with _lock:
        config = _configs.get(driver)
        if config is None:
            try:
                with without_mpi_environment():     # (IREE would look for MPI channels)
                    config = rt.Config(device=_open(driver))
            except Exception as e:      # the driver is missing or has no usable device
                cause = e.__cause__ or e    # iree.runtime keeps the driver's own reason there
                raise DeviceError(f"cannot open IREE device '{driver}': {first_line(cause)}") \
                    from None
            _configs[driver], _binders[driver] = config, context_binder(driver)
        return config


def thread_binder(driver: str, config):
    """What makes `config`'s device usable on the calling thread (`context_binder`), or
    None where any thread can use it."""
    return _binders.get(driver) if _configs.get(driver) is config else None


def is_current(driver: str, config) -> bool:
    """Whether `config` is still the driver's device (not forgotten after a loss, nor released)."""
    return _configs.get(driver) is config


def forget_device(driver: str, config) -> None:
    """Drop a driver's device (it was lost) so that the next `device_config` opens a new one."""
    with _lock:
        if _configs.get(driver) is config:
            del _configs[driver]
            _binders.pop(driver, None)


def release_device(driver: str) -> None:
    """Close a driver's device once the executables loaded on it are gone (they reopen one on
    their next call). Mesa's software Vulkan driver (lavapipe, 22.3) keeps two threads busy
    while an IREE Vulkan device is open (IREE waits for any of several semaphores, which Mesa
    implements by spinning), so a process that is done with Vulkan should release it."""
    if driver not in _configs:
        return                  # none open: nothing to collect for (a test's release is free)
    gc.collect()                # garbage holding IREE objects goes while their device lives
    with _lock:
        config = _configs.pop(driver, None)
        _binders.pop(driver, None)
    if config is not None:
        del config
        gc.collect()            # executables and their functions refer to each other


def device_count(driver: str) -> int:
    """How many devices `driver` finds on this host (0 where the driver cannot load)."""
    try:
        with without_mpi_environment():
            return len(rt.get_driver(driver).query_available_devices())
    except Exception:
        return 0


def driver_available(driver: str) -> tuple[bool, str]:
    """Whether a driver can open a device here, and if not, why."""
    try:
        device_config(driver)
        return True, ""
    except DeviceError as e:
        return False, str(e)


def first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def can_import(driver: str | None, array: np.ndarray) -> bool:
    """Whether `to_device` passes this array to IREE without copying it."""
    return (driver in HOST_MEMORY_DRIVERS and array.flags.c_contiguous and array.flags.writeable
            and array.ctypes.data % ALIGNMENT == 0)


def importable(driver: str | None, array: np.ndarray, in_place: bool,
               staging: StagingCopies, index: int) -> np.ndarray:
    """What `to_device` should get for input `index`: on the host-memory drivers the array
    itself when IREE may read it in place (`in_place`, and `can_import`), else an aligned
    private copy made by numpy (64 MiB: 13 ms, where IREE's own copy takes 49 ms) in
    `staging`, which the caller must keep alive until the call ends and then give back;
    on other drivers the array (IREE copies it)."""
    if driver not in HOST_MEMORY_DRIVERS or not array.nbytes or (
            in_place and can_import(driver, array)):
        return array
    return staging.copy(index, array)


class StagingCopies:
    """The aligned copies of one function's inputs (`importable`), kept from call to call.

    A fresh copy per call cost page faults: a 256x256 f32 add with unaligned inputs (numpy's
    large arrays start 16 bytes into a page) took 62 us in some processes and 240 us, with 96
    minor faults per call, in others. One buffer per input is kept (none over
    KEEP_BYTES); a call that finds it taken (another thread's call) makes a fresh one.
    """
    KEEP_BYTES = 256 << 20

    def __init__(self):
        self._free: dict[int, np.ndarray] = {}

    def copy(self, index: int, array: np.ndarray) -> np.ndarray:
        """An aligned copy of `array`, in input `index`'s kept buffer when it fits."""
        buffer = self._free.pop(index, None)
        if buffer is None or buffer.shape != array.shape or buffer.dtype != array.dtype:
            buffer = empty_aligned(array.shape, array.dtype)
        buffer[...] = array
        return buffer

    def keep(self, index: int, buffer: np.ndarray) -> None:
        """Give input `index`'s copy back once the call that read it has ended."""
        if buffer.nbytes <= self.KEEP_BYTES:
            self._free[index] = buffer


def to_device(driver: str | None, device, array: np.ndarray, element_type):
    """A buffer view of an array `importable` returned: on the host-memory drivers its own
    memory (`importable` made sure IREE can read it in place), elsewhere a copy."""
    if driver in HOST_MEMORY_DRIVERS and array.nbytes:
        buffer = device.allocator.import_host_allocation(array, _IMPORT_MEMORY, _IMPORT_USAGE)
        return rt.HalBufferView(buffer, array.shape, element_type)
    return upload(device, array, element_type)


def empty_aligned(shape, dtype=np.float32) -> np.ndarray:
    """Like `numpy.empty`, but 64-byte aligned: CPU devices read it in place, without a copy."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def aligned(array) -> np.ndarray:
    """The array itself when CPU devices can read it in place, else an aligned C-order copy."""
    array = np.asarray(array)
    if array.flags.c_contiguous and array.ctypes.data % ALIGNMENT == 0:
        return array
    copy = empty_aligned(array.shape, array.dtype)
    copy[...] = array
    return copy

