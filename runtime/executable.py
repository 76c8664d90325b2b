"""A compiled module: call its functions with numpy arrays, save it, load it back.

Inputs are validated (count, shape, dtype) against the module's own signature
before anything reaches the device; results come back as numpy arrays.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvocationError
from .abi import Signature, describe, parse_declaration
from .devices import device_config, to_host


class Executable:
    """A .vmfb plus the device it runs on. Calling it calls `main` (or the only function)."""

    def __init__(self, vmfb: bytes, *, device: str = "local-task", target: str | None = None):
        self.vmfb = bytes(vmfb)
        self.device = device
        self.target = target
        self._loaded = None

    def _load(self):
        if self._loaded is None:
            import iree.runtime as rt

            config = device_config(self.device)
            vm_module = rt.VmModule.copy_buffer(config.vm_instance, self.vmfb)
            context = rt.SystemContext(vm_modules=[vm_module], config=config)
            signatures = {}
            for name in vm_module.function_names:
                if name.startswith("__"):
                    continue
                reflection = vm_module.lookup_function(name).reflection
                signatures[name] = parse_declaration(name, reflection.get("iree.abi.declaration", ""))
            self._loaded = (config, context.modules[vm_module.name], signatures)
        return self._loaded

    @property
    def signatures(self) -> dict[str, Signature]:
        return self._load()[2]

    @property
    def entry(self) -> str:
        names = list(self.signatures)
        if "main" in names or len(names) != 1:
            return "main"
        return names[0]

    def __call__(self, *args):
        return self.function(self.entry)(*args)

    def function(self, name: str):
        """The callable for an exported function: numpy arrays in, numpy arrays out."""
        config, bound, signatures = self._load()
        if name not in signatures:
            raise InvocationError(f"module has no function '{name}' "
                                  f"(functions: {', '.join(signatures) or 'none'})")
        signature = signatures[name]
        entry = bound[name]

        def call(*args):
            arrays = _validate(signature, args)
            import iree.runtime as rt
            device_args = [rt.asdevicearray(config.device, a) for a in arrays]
            results = entry(*device_args)
            if not isinstance(results, (tuple, list)):
                results = (results,) if results is not None else ()
            host = tuple(to_host(config.device, r) for r in results)
            return host[0] if len(host) == 1 else host

        call.__name__ = name
        call.signature = signature
        return call

    def save(self, path: str) -> None:
        """Write the .vmfb (atomically: a reader never sees half a file)."""
        import os
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(self.vmfb)
        os.replace(tmp, path)


def load(path: str, device: str = "local-task") -> Executable:
    """Load a saved .vmfb for a runtime device (`local-task`, `local-sync`, `vulkan`, `cuda`)."""
    with open(path, "rb") as f:
        return Executable(f.read(), device=device)


def _validate(signature: Signature, args) -> list[np.ndarray]:
    name = signature.name
    if len(args) != len(signature.inputs):
        raise InvocationError(f"{name}: expects {len(signature.inputs)} argument"
                              f"{'s' if len(signature.inputs) != 1 else ''}, got {len(args)}")
    arrays = []
    for i, (arg, spec) in enumerate(zip(args, signature.inputs)):
        if not isinstance(arg, np.ndarray):
            try:
                arg = np.asarray(arg, dtype=spec.dtype)
            except (TypeError, ValueError, OverflowError):
                raise InvocationError(f"{name}: argument {i} expects {spec}, got "
                                      f"{type(arg).__name__} {arg!r}") from None
        if spec.dtype is None:
            raise InvocationError(f"{name}: argument {i} has element type {spec.element}, "
                                  f"which has no numpy equivalent")
        if not spec.accepts(arg):
            raise InvocationError(f"{name}: argument {i} expects {spec}, got {describe(arg)}")
        arrays.append(arg if arg.flags.c_contiguous else np.array(arg, order="C"))  # keeps 0-d
    return arrays
