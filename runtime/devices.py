"""Runtime devices: one `iree.runtime.Config` per driver, created once and shared.

Moving arrays onto a device and back (through a staging buffer where device
memory is not mappable, as on Vulkan) is `standalone_loader.upload/download`.
"""
from __future__ import annotations

import threading

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
                cause = e.__cause__ or e    # iree.runtime keeps the driver's own reason there
                raise DeviceError(f"cannot open IREE device '{driver}': {first_line(cause)}") \
                    from None
            _configs[driver] = config
        return config


def driver_available(driver: str) -> tuple[bool, str]:
    """Whether a driver can open a device here, and if not, why."""
    try:
        device_config(driver)
        return True, ""
    except DeviceError as e:
        return False, str(e)


def first_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
