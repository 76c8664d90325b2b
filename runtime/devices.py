"""Runtime devices (one per driver, created once) and reading results back to numpy.

Results are always read back through a host-visible staging buffer when the
device buffer is not mappable: importing a numpy allocation fails on Vulkan's
software driver (host pointers must be 4096-byte aligned).
"""
from __future__ import annotations

import threading

import numpy as np

from ..errors import DeviceError

_lock = threading.Lock()
_configs: dict[str, object] = {}


def device_config(driver: str):
    """The `iree.runtime.Config` (instance + device) for a driver, created on first use."""
    import iree.runtime as rt

    with _lock:
        config = _configs.get(driver)
        if config is None:
            try:
                config = rt.Config(driver)
            except Exception as e:      # the driver is missing or has no usable device
                raise DeviceError(f"cannot open IREE device '{driver}': {_first_line(e)}") from None
            _configs[driver] = config
        return config


def driver_available(driver: str) -> tuple[bool, str]:
    """Whether a driver can open a device here, and if not, why."""
    try:
        device_config(driver)
        return True, ""
    except DeviceError as e:
        return False, str(e)


def to_host(device, device_array) -> np.ndarray:
    """Copy an `iree.runtime.DeviceArray` into a fresh numpy array."""
    import iree.runtime as rt

    view = device_array._buffer_view
    dtype = device_array.dtype
    buffer = view.get_buffer()
    mappable = (buffer.memory_type() & int(rt.MemoryType.HOST_VISIBLE)
                and buffer.allowed_usage() & int(rt.BufferUsage.MAPPING_SCOPED))
    if mappable:
        return np.array(device_array.to_host(), copy=True)
    staging = device.allocator.allocate_buffer(
        memory_type=int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=buffer.byte_length())
    semaphore = device.create_semaphore(0)
    device.queue_copy(buffer, staging, wait_semaphores=rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=rt.HalFence.create_at(semaphore, 1))
    rt.HalFence.create_at(semaphore, 1).wait()
    raw = rt.HalElementType.map_to_dtype(view.element_type)
    mapped = staging.map()
    host = np.array(mapped.asarray(tuple(view.shape), raw), copy=True)
    return host if host.dtype == dtype else host.astype(dtype)


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
