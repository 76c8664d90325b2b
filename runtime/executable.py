"""A compiled module: call its functions with numpy arrays, save it, load it back.

Inputs are validated (count, shape, dtype) against the module's own signature
before anything reaches the device; results come back as numpy arrays of the
user's types (ml_dtypes for bf16, f8 and i4). The calling machinery is
`standalone_loader` (which deploys without shlo); this module adds shared
devices, shlo's exceptions, and saving.
"""
from __future__ import annotations

import os

from ..errors import DeviceError, InvocationError
from . import standalone_loader
from .abi import Signature
from .devices import device_config


class Function(standalone_loader.Function):
    """One exported function: numpy arrays in, numpy arrays out, shlo exceptions."""
    ArgumentError = InvocationError
    DeviceFailure = DeviceError


class Executable:
    """A .vmfb plus the device it runs on. Calling it calls `main` (or the only function)."""

    def __init__(self, vmfb: bytes, *, device: str = "local-task", target: str | None = None):
        self.vmfb = bytes(vmfb)
        self.device = device            # a runtime driver; may be changed before a call
        self.target = target
        self._loaded = None
        self._functions: dict[str, Function] = {}
        self._entry: Function | None = None

    def _load(self):
        if self._loaded is None or self._loaded[0] != self.device:
            import iree.runtime as rt

            config = device_config(self.device)
            try:
                vm_module = rt.VmModule.copy_buffer(config.vm_instance, self.vmfb)
                context = rt.SystemContext(vm_modules=[vm_module], config=config)
            except (RuntimeError, ValueError) as e:
                raise DeviceError(self._load_failure(e)) from None
            exports = standalone_loader.exported_functions(vm_module)
            self._loaded = (self.device, config, context.vm_context, exports)
            self._functions, self._entry = {}, None
        return self._loaded

    def _load_failure(self, e: Exception) -> str:
        text = " ".join(str(e).split())[:300]
        if "INCOMPATIBLE" in text or "not found or unavailable" in text:
            return (f"this module cannot run on device '{self.device}'"
                    f"{f' (compiled for {self.target})' if self.target else ''}: the device "
                    f"does not support its executable format: {text}")
        return f"cannot load the module on device '{self.device}': {text}"

    @property
    def signatures(self) -> dict[str, Signature]:
        return {name: self.function(name).signature for name in self._load()[3]}

    @property
    def entry(self) -> str:
        names = list(self._load()[3])
        return "main" if "main" in names or len(names) != 1 else names[0]

    def __call__(self, *args):
        loaded = self._loaded
        if loaded is None or loaded[0] != self.device or self._entry is None:
            self._entry = self.function(self.entry)
        return self._entry(*args)

    def function(self, name: str) -> Function:
        """The callable for an exported function: numpy arrays in, numpy arrays out."""
        _, config, vm_context, exports = self._load()
        function = self._functions.get(name)
        if function is None:
            if name not in exports:
                raise InvocationError(f"module has no function '{name}' "
                                      f"(functions: {', '.join(exports) or 'none'})")
            signature = standalone_loader.parse_reflection(name, exports[name].reflection)
            function = Function(signature, config.device, vm_context, exports[name])
            self._functions[name] = function
        return function

    def save(self, path: str) -> None:
        """Write the .vmfb (atomically: a reader never sees half a file)."""
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(self.vmfb)
        os.replace(tmp, path)


def load(path: str, device: str = "local-task") -> Executable:
    """Load a saved .vmfb for a runtime device (`local-task`, `local-sync`, `vulkan`, `cuda`)."""
    with open(path, "rb") as f:
        return Executable(f.read(), device=device)
