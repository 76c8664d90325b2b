"""A compiled module: call its functions with numpy arrays, save it, load it back.

Inputs are validated (count, shape, dtype) against the module's own signature
before anything reaches the device; results come back as numpy arrays of the
user's types (ml_dtypes for bf16, f8 and i4). The calling machinery is
`standalone_loader` (which deploys without shlo); this module adds shared
devices, shlo's exceptions, zero-copy inputs on CPU (`devices.to_device`), and
saving.
"""
from __future__ import annotations

import os
import re

import numpy as np

from ..errors import DeviceError, InvocationError
from . import standalone_loader
from ..host_abi import REFLECTION_KEY
from ..lapack_abi import REFLECTION_KEY as LAPACK_KEY
from .abi import Signature, read_only_inputs, validate
from .devices import (StagingCopies, device_config, forget_device, importable, is_current,
                      thread_binder, to_device)
from .host_module import HostProcess, ProcessGrid, create_host_module
from .lapack_host import create_lapack_module, take_error as take_lapack_error
from .shape_errors import shape_check_error


# How IREE's runtimes report a dispatch with more buffers than they bind: the HAL module,
# the local (CPU) executable loader, Vulkan, CUDA/HIP.
_BINDING_OVERFLOW = re.compile(
    r"binding count (\d+) > (\d+)|dispatch requiring (\d+) bindings exceeds limit of (\d+)"
    r"|declares (\d+) storage buffers, exceeding device limit (\d+)"
    r"|binding(?:_flags)? count (\d+) exceeds maximum of (\d+)")


def binding_overflow(message: str, function: str, device: str) -> str | None:
    """A one-line error for IREE's failure to bind a dispatch of too many buffers (None for
    other failures)."""
    match = _BINDING_OVERFLOW.search(message)
    if match is None:
        return None
    count, limit = [g for g in match.groups() if g is not None]
    return (f"{function}: a dispatch (one fused kernel) of this module binds {count} buffers, "
            f"more than the {limit} that device '{device}' binds; compile it with shlo's default "
            f"pipeline, whose shlo-bound-dispatch-operands pass splits such kernels (its "
            f"max-bindings option, {limit} for this device), or pass the arrays that one op reads "
            f"stacked into fewer arrays")


def empty_binding(message: str, function: str, device: str) -> str | None:
    """A one-line error for IREE's Vulkan runtime refusing a dispatch on an empty tensor of
    run-time size (None for other failures)."""
    if "resolved to an empty buffer range" not in message:
        return None
    cause = message.strip().splitlines()[0].split("; while")[0]
    return (f"{function}: a tensor of this call has a run-time size of 0, and IREE's "
            f"'{device}' runtime cannot run a kernel on an empty buffer ({cause}); compile "
            f"with specialize=True (one compile per argument shapes, where empty tensors are "
            f"known) or call it with no empty run-time sizes")


class Function(standalone_loader.Function):
    """One exported function: numpy arrays in, numpy arrays out, shlo exceptions.

    On CPU drivers aligned inputs are read in place (see `devices.importable`)
    where the module says IREE only reads them (`abi.read_only_inputs`, per input), and
    the others are aligned copies that live for the call; a result
    that is one of those inputs returned unchanged is copied, so results never
    share memory with the caller's arrays.
    """
    ArgumentError = InvocationError
    DeviceFailure = DeviceError

    def __init__(self, signature: Signature, device, vm_context, vm_function, driver: str,
                 on_device_lost=None, host: HostProcess | None = None, bind=None):
        super().__init__(signature, device, vm_context, vm_function, bind, driver)
        self.host = host        # the context's shlo_host process, when the module calls it
        # per input, whether IREE may read the caller's array in place (else it gets a copy)
        self.inputs_in_place = read_only_inputs(vm_function.reflection, len(signature.inputs))
        self._staging = StagingCopies()
        self._on_device_lost = on_device_lost

    def __call__(self, *args):
        if self.host is not None:       # a call on its own: one process, fresh queues
            self.host.reset(ProcessGrid())
        return self.call(*args)

    def call(self, *args):
        """Call with the host state as it is (`run_parallel` sets it up)."""
        inputs = [value.to_device(array) for array, value in zip(
            validate(self.signature, args, self.ArgumentError), self.signature.inputs)]
        arrays = [importable(self.driver, array, in_place, self._staging, index)
                  for index, (array, in_place) in enumerate(zip(inputs, self.inputs_in_place))]
        if self._bind is not None:
            self._bind()
        arg_list = self._list(len(arrays))
        try:
            for array, element_type in zip(arrays, self._element_types):
                arg_list.push_ref(to_device(self.driver, self._device, array, element_type))
        except RuntimeError as e:
            raise self._device_failure(str(e)) from None
        results = tuple(r.copy() if any(np.may_share_memory(r, a) for a in arrays) else r
                        for r in self._invoke(arg_list))
        for index, (array, staged) in enumerate(zip(inputs, arrays)):
            if staged is not array:
                self._staging.keep(index, staged)
        return results[0] if len(results) == 1 else results

    def _invoke(self, arg_list) -> list[np.ndarray]:
        """Run the function on prepared arguments; its results as distinct numpy arrays."""
        ret_list = self._list(len(self.signature.outputs))
        try:
            self._invoker(arg_list, ret_list)
        except (RuntimeError, ValueError, IndexError) as e:
            # raised, not kept in a local: an error held by the frames of its own traceback
            # is a cycle that only gc frees, IREE's objects in those frames with it, in an
            # order that can destroy a released device before its buffers (a segfault)
            raise self._call_error(e, arg_list) from None
        results: list[np.ndarray] = []
        for i, value in enumerate(self.signature.outputs):
            if value.transport is None:
                raise InvocationError(f"{self.signature.name}: result {i} has type {value.spec}, "
                                      f"whose element type has no numpy equivalent")
            view = ret_list.get_as_object(i, self._view)
            try:
                downloaded = standalone_loader.download(self._device, view, value.transport)
            except RuntimeError as e:       # (a device lost while the result is copied)
                raise self._device_failure(str(e)) from None
            array = value.to_user(downloaded)
            if any(np.may_share_memory(array, r) for r in results):   # one buffer returned twice
                array = array.copy()
            results.append(array)
        return results

    def _call_error(self, failure: Exception, arg_list) -> Exception:
        """The error to raise for a failed call: the host's or LAPACK's own, a binding
        overflow or an empty binding, a failed shape check naming the arguments' shapes, else
        a device failure."""
        host_error = (self.host.take_error() if self.host is not None else None) or \
            take_lapack_error()
        if host_error is not None:
            return host_error
        for explain in (binding_overflow, empty_binding):
            known = explain(str(failure), self.signature.name, self.driver)
            if known is not None:
                return DeviceError(known)
        message = (str(failure).strip().splitlines() or [type(failure).__name__])[0]
        return shape_check_error(self.signature, message, arg_list) or \
            self._device_failure(message)

    def _device_failure(self, message: str) -> DeviceError:
        """The error for a failed upload or call. A lost device (VK_ERROR_DEVICE_LOST, e.g.
        a driver fault) stays lost: it is dropped, and the next call opens a new one."""
        message = (message.strip().splitlines() or ["unknown failure"])[0]
        if "DEVICE_LOST" in message and self._on_device_lost is not None:
            self._on_device_lost()
            return DeviceError(f"{self.signature.name}: the '{self.driver}' device was lost "
                               f"({message}); the next call opens a new device")
        return DeviceError(f"{self.signature.name}: the device failed: {message}")


class Executable:
    """A .vmfb plus the device it runs on. Calling it calls `main` (or the only function)."""

    def __init__(self, vmfb: bytes, *, device: str = "local-task", target: str | None = None):
        self.vmfb = bytes(vmfb)
        self.device = device            # a runtime driver; may be changed before a call
        self.target = target
        self._loaded: tuple | None = None     # (device, config, vm context, exports)
        self._functions: dict[str, Function] = {}
        self._entry: Function | None = None

    def _load(self):
        if not self._loaded_here():
            import iree.runtime as rt

            config = device_config(self.device)
            try:
                self._vm_module = rt.VmModule.copy_buffer(config.vm_instance, self.vmfb)
                exports = standalone_loader.exported_functions(self._vm_module)
                self._calls_host = any(REFLECTION_KEY in f.reflection for f in exports.values())
                self._host = HostProcess(ProcessGrid(), 0, config.device) \
                    if self._calls_host else None
                context = self.new_context(config, self._host)
            except (RuntimeError, ValueError, IndexError) as e:
                names = ", ".join(standalone_loader.exported_functions(self._vm_module)) \
                    if getattr(self, "_vm_module", None) is not None else "module"
                raise DeviceError(binding_overflow(str(e), names, self.device)
                                  or self._load_failure(e)) from None
            self._loaded = (self.device, config, context.vm_context, exports)
            self._functions, self._entry = {}, None
        return self._loaded

    def new_context(self, config, host: HostProcess | None):
        """A VM context of the loaded module, with `host` as its shlo_host module (modules
        compiled with host calls need one)."""
        import iree.runtime as rt
        modules = [self._vm_module]
        if host is not None:
            modules.insert(0, create_host_module(host))
        if any(LAPACK_KEY in f.reflection for f in
               standalone_loader.exported_functions(self._vm_module).values()):
            modules.insert(0, create_lapack_module(config.device))     # LAPACK on the host
        return rt.SystemContext(vm_modules=modules, config=config)

    def bind(self, name: str, config, vm_context, host: HostProcess | None,
             on_device_lost=None) -> Function:
        """Function `name` in a VM context of this module (its own, or one of
        `run_parallel`'s)."""
        exports = self._load()[3]
        if name not in exports:
            raise InvocationError(f"module has no function '{name}' "
                                  f"(functions: {', '.join(exports) or 'none'})")
        signature = standalone_loader.parse_reflection(name, exports[name].reflection)
        return Function(signature, config.device, vm_context, exports[name], self.device,
                        on_device_lost=on_device_lost, host=host,
                        bind=thread_binder(self.device, config))

    @property
    def calls_host(self) -> bool:
        """Whether the module calls shlo's host runtime (collectives across processes,
        send/recv, infeed/outfeed): each VM context then needs a shlo_host module."""
        self._load()
        return self._calls_host

    def _loaded_here(self) -> bool:
        """Whether the module is loaded on the current device of `self.device` (a device lost
        under another executable is replaced, and this one moves to the new device too)."""
        loaded = self._loaded
        return loaded is not None and loaded[0] == self.device and is_current(*loaded[:2])

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
        if self._entry is None or not self._loaded_here():
            self._entry = self.function(self.entry)
        return self._entry(*args)

    def function(self, name: str) -> Function:
        """The callable for an exported function: numpy arrays in, numpy arrays out."""
        _, config, vm_context, _ = self._load()
        function = self._functions.get(name)
        if function is None:
            function = self._functions[name] = self.bind(
                name, config, vm_context, self._host, on_device_lost=self._device_lost)
        return function

    def _device_lost(self) -> None:
        """Forget the lost device and everything loaded on it."""
        if self._loaded is not None:
            forget_device(self._loaded[0], self._loaded[1])
        self._loaded, self._entry = None, None
        self._functions.clear()

    def save(self, path: str) -> None:
        """Write the .vmfb (atomically: a reader never sees half a file)."""
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(self.vmfb)
        os.replace(tmp, path)


def load(path: str, device: str | None = None) -> Executable:
    """Load a saved .vmfb for a runtime device (`local-task`, `local-sync`, `vulkan`, `cuda`);
    by default the CPU device `shlo.compile` gives it: `local-sync` for a module of small loops
    or a small loop-free one (`abi.mark_small_loops`), else `local-task`."""
    with open(path, "rb") as f:
        vmfb = f.read()
    if device is None:
        from .abi import one_thread
        device = "local-sync" if one_thread(vmfb) else "local-task"
    return Executable(vmfb, device=device)
