"""Run a .vmfb compiled by shlo with nothing but `iree-base-runtime` and numpy installed.

Copy this one file next to your model; it imports only numpy, ml_dtypes (a
dependency of iree-base-runtime) and iree.runtime, never shlo or the compiler:

    import numpy as np, standalone_loader
    model = standalone_loader.load("model.vmfb", device="local-task")   # or vulkan, cuda
    y = model(np.ones((2, 3), np.float32))          # calls `main`; model.function("f") others

    python standalone_loader.py model.vmfb --device vulkan x.npy w.npy -o y.npy

Signatures come from the .vmfb's reflection data: IREE's declaration of what
it compiled, plus `shlo.signature`, the user's own types where shlo changed the
boundary (i4/ui4 travel as bytes, f64 demoted on request). Arguments are
checked (count, shape, dtype) before they reach the device; results come back
as numpy arrays, read through a staging buffer where the device memory is not
mappable (Vulkan). shlo's own runtime (shlo.runtime) is built on this file.
"""
from __future__ import annotations

import dataclasses
import os
import re
import time

import iree.runtime as rt
import ml_dtypes
import numpy as np
from iree.runtime.dtypes import map_dtype_to_hal_element_type

# MLIR element type name -> numpy dtype (what the caller exchanges).
ELEMENT_DTYPES = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64),
    "si8": np.dtype(np.int8), "si16": np.dtype(np.int16), "si32": np.dtype(np.int32),
    "si64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8), "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    # no IREE element type: these travel as their bytes (shlo's boundary bitcasts them)
    "f8E4M3": np.dtype(ml_dtypes.float8_e4m3), "f8E3M4": np.dtype(ml_dtypes.float8_e3m4),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    "i4": np.dtype(ml_dtypes.int4), "ui4": np.dtype(ml_dtypes.uint4),
    "si4": np.dtype(ml_dtypes.int4),
    "i2": np.dtype(ml_dtypes.int2), "ui2": np.dtype(ml_dtypes.uint2),
    "si2": np.dtype(ml_dtypes.int2),
    "complex<f32>": np.dtype(np.complex64), "complex<f64>": np.dtype(np.complex128),
}
_ELEMENT_NAMES = {v: k for k, v in reversed(list(ELEMENT_DTYPES.items()))}
_AS_BYTES = frozenset(ELEMENT_DTYPES[e] for e in ("f8E4M3", "f8E3M4", "f8E4M3B11FNUZ"))

_TENSOR = r"tensor<(?:[0-9?]+x)*\w+(?:<[^>]*>)?>"
_TENSOR_PARTS = re.compile(r"tensor<((?:[0-9?]+x)*)(\w+(?:<[^>]*>)?)>")
_DECLARED = re.compile(rf"%(input|output)\d+: ({_TENSOR}|[^\s,)]+)"
                       rf"(?: \{{iree\.abi\.encoding = ({_TENSOR})\}})?")


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    shape: tuple            # ints, or None for a dynamic dimension
    element: str            # MLIR element type name
    dtype: np.dtype | None  # None when numpy has no equivalent

    def __str__(self):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"{dims}{self.element}"

    def accepts(self, array: np.ndarray) -> bool:
        return (array.dtype == self.dtype and array.ndim == len(self.shape)
                and all(d is None or d == n for d, n in zip(self.shape, array.shape)))


@dataclasses.dataclass(frozen=True)
class Value:
    """One argument or result: the caller's type, and the dtype IREE's buffer holds."""
    spec: TensorSpec
    transport: np.dtype | None

    def to_device(self, array: np.ndarray) -> np.ndarray:
        return _convert(array, self.transport)

    def to_user(self, array: np.ndarray) -> np.ndarray:
        return _convert(array, self.spec.dtype)


@dataclasses.dataclass(frozen=True)
class Signature:
    name: str
    inputs: tuple[Value, ...]
    outputs: tuple[Value, ...]

    def __str__(self):
        return (f"@{self.name}({', '.join(str(v.spec) for v in self.inputs)}) -> "
                f"({', '.join(str(v.spec) for v in self.outputs)})")


def parse_reflection(name: str, reflection: dict) -> Signature:
    """A function's Signature from its reflection dict (IREE's declaration, shlo's signature)."""
    declared: dict[str, list[tuple[TensorSpec, TensorSpec]]] = {"input": [], "output": []}
    for kind, compiled, encoding in _DECLARED.findall(reflection.get("iree.abi.declaration", "")):
        declared[kind].append((tensor_spec(compiled), tensor_spec(encoding or compiled)))
    user = reflection.get("shlo.signature")
    if user:
        args, _, results = user.partition("->")
        user_types = {"input": _specs(args), "output": _specs(results)}
    else:
        user_types = {k: [encoded for _, encoded in v] for k, v in declared.items()}

    def values(kind):
        # Unsigned values travel in signless buffers of the same width (`iree.abi.encoding`).
        return tuple(Value(spec, encoded.dtype if encoded.dtype is not None else compiled.dtype)
                     for (compiled, encoded), spec in zip(declared[kind], user_types[kind]))
    return Signature(name, values("input"), values("output"))


def tensor_spec(text: str) -> TensorSpec:
    """`tensor<2x?xf32>` -> TensorSpec((2, None), 'f32', float32); other types keep their name."""
    m = _TENSOR_PARTS.fullmatch(text)
    if not m:
        return TensorSpec((), text, None)
    dims, element = m.groups()
    shape = tuple(None if d == "?" else int(d) for d in dims.split("x") if d)
    return TensorSpec(shape, element, ELEMENT_DTYPES.get(element))


def _specs(text: str) -> list[TensorSpec]:
    return [tensor_spec(t) for t in re.findall(_TENSOR, text)]


def describe(array: np.ndarray) -> str:
    """`3x3xf32` for an array, in the same spelling as a TensorSpec."""
    element = _ELEMENT_NAMES.get(array.dtype, str(array.dtype))
    return "".join(f"{d}x" for d in array.shape) + element


def _convert(array: np.ndarray, dtype: np.dtype | None) -> np.ndarray:
    if dtype is None or array.dtype == dtype:
        return array
    if array.dtype.itemsize == dtype.itemsize and (array.dtype in _AS_BYTES or dtype in _AS_BYTES
                                                   or array.dtype.kind in "iu" and dtype.kind in "iu"):
        return array.view(dtype)                       # ui8 <-> i8, f8 <-> i8 buffers: same bits
    return array.astype(dtype)                         # i4 <-> i8, f64 <-> f32 (demoted)


def validate(signature: Signature, args, error=ValueError) -> list[np.ndarray]:
    """Check count, shapes and dtypes; numpy arrays must match exactly, Python values may cast.

    Raises `error` with a one-line message: `main: argument 0 expects 2x3xf32, got 3x3xf32`.
    """
    name = signature.name
    if len(args) != len(signature.inputs):
        raise error(f"{name}: expects {len(signature.inputs)} argument"
                    f"{'s' if len(signature.inputs) != 1 else ''}, got {len(args)}")
    arrays = []
    for i, (arg, value) in enumerate(zip(args, signature.inputs)):
        spec = value.spec
        if spec.dtype is None or value.transport is None:
            raise error(f"{name}: argument {i} has type {spec}, whose element type has no numpy "
                        f"equivalent")
        if isinstance(arg, np.generic):
            arg = np.asarray(arg)
        elif not isinstance(arg, np.ndarray):
            converted = _from_python(arg, spec.dtype)
            if converted is None:
                raise error(f"{name}: argument {i} expects {spec}, got {type(arg).__name__} "
                            f"{_short(arg)}")
            arg = converted
        if not spec.accepts(arg):
            raise error(f"{name}: argument {i} expects {spec}, got {describe(arg)}")
        arrays.append(arg if arg.flags.c_contiguous else np.ascontiguousarray(arg))
    return arrays


def _from_python(value, dtype: np.dtype) -> np.ndarray | None:
    """Python numbers and lists, when no value changes kind or overflows (int -> float ok)."""
    try:
        raw = np.asarray(value)
        if raw.dtype.kind not in "biufc" or not np.can_cast(raw.dtype, dtype, "same_kind"):
            return None
        array = raw.astype(dtype)
        if raw.dtype.kind in "biu" and not np.array_equal(array.astype(raw.dtype), raw):
            return None
        return array
    except (TypeError, ValueError, OverflowError):
        return None


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_HOST_VISIBLE = int(rt.MemoryType.HOST_VISIBLE)
_MAPPING_SCOPED = int(rt.BufferUsage.MAPPING_SCOPED)


def upload(device, array: np.ndarray, element_type):
    """A device buffer view holding a copy of a C-contiguous array."""
    return device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL, allowed_usage=rt.BufferUsage.DEFAULT,
        device=device, buffer=array, element_type=element_type)


def download(device, view, dtype: np.dtype) -> np.ndarray:
    """A numpy array of `dtype` (the buffer's own type) holding a buffer view's contents.

    Maps the buffer when it is host-visible (no copy: the array keeps the mapping,
    and so the buffer, alive); otherwise copies it into a staging buffer first
    (importing a numpy allocation fails on Vulkan's software driver: host
    pointers must be 4096-byte aligned), and from there into numpy's own memory, so
    that results do not keep the device open (an open device on Mesa's software
    driver keeps two threads spinning).
    """
    shape = list(view.shape)
    buffer = view.get_buffer()
    if (buffer.memory_type() & _HOST_VISIBLE == _HOST_VISIBLE
            and buffer.allowed_usage() & _MAPPING_SCOPED):
        # mapped flat, then reshaped: IREE 3.13's asarray of another rank returns a reshape
        # that alone keeps the mapping alive, so a view of it (result.reshape(-1), result[0])
        # read freed memory once the result itself was gone (docs/iree_gaps.md,
        # rt-mapped-result-views); the flat array is the base of every view of the result
        return view.map().asarray([int(np.prod(shape, dtype=np.int64))], dtype).reshape(shape)
    staging = device.allocator.allocate_buffer(
        memory_type=int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=buffer.byte_length())
    semaphore = device.create_semaphore(0)
    device.queue_copy(buffer, staging, wait_semaphores=rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=rt.HalFence.create_at(semaphore, 1))
    rt.HalFence.create_at(semaphore, 1).wait()
    return staging.map().asarray(shape, dtype).copy()


def context_binder(driver: str):
    """For a CUDA device just opened on this thread, a function that makes its CUDA context
    current on the thread that calls it; None for other drivers.

    IREE's CUDA device makes the device's (primary) context current on the thread that
    opens it, and on no other: a call from another thread (a thread pool, shlo's
    run_parallel) failed with CUDA_ERROR_INVALID_CONTEXT. Cheap when it is current already.
    """
    if not driver.startswith("cuda"):
        return None
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    context = ctypes.c_void_p()
    if cuda.cuCtxGetCurrent(ctypes.byref(context)) != 0 or not context.value:
        return None

    def bind() -> None:
        current = ctypes.c_void_p()
        if cuda.cuCtxGetCurrent(ctypes.byref(current)) != 0 or current.value != context.value:
            cuda.cuCtxSetCurrent(context)
    return bind


class Invoker:
    """`VmContext.invoke` of one function, run so that the calling thread, while it waits,
    does not take the CPU of the local-task worker that is about to release it.

    IREE's local-task wait ends in a spin (`pause`) until the worker that signalled the
    call's fence has finished signalling it. Linux wakes the caller on that worker's CPU and
    lets it preempt the worker, so with as many workers as cores the caller can spin for a
    whole scheduler slice while the worker it waits for cannot run, and some calls take up to
    twice as long (docs/iree_gaps.md#runtimestandalone_loader). A SCHED_BATCH thread does not
    preempt when it wakes up. The switch there and back costs two system calls, so only a
    function whose previous call took
    LONG_CALL_S or more switches, and only from SCHED_OTHER (a real-time or idle caller
    keeps its policy).
    """
    LONG_CALL_S = 1e-3
    # (None where os has no sched_param: the scheduler calls below exist only where it does)
    _PARAM = os.sched_param(0) if hasattr(os, "sched_param") else None

    def __init__(self, vm_context, vm_function, driver: str):
        self._vm_context, self._vm_function = vm_context, vm_function
        self._may_switch = driver.split(":")[0] == "local-task" and hasattr(os, "SCHED_BATCH")
        self._long = False

    def __call__(self, arg_list, ret_list) -> None:
        if not self._may_switch:
            self._vm_context.invoke(self._vm_function, arg_list, ret_list)
            return
        patient = self._long and self._to_batch()
        try:
            start = time.perf_counter()
            self._vm_context.invoke(self._vm_function, arg_list, ret_list)
            self._long = time.perf_counter() - start >= self.LONG_CALL_S
        finally:
            if patient:
                os.sched_setscheduler(0, os.SCHED_OTHER, self._PARAM)  # type: ignore[arg-type]

    def _to_batch(self) -> bool:
        """Make the calling thread SCHED_BATCH if it is SCHED_OTHER; whether it did."""
        try:
            if os.sched_getscheduler(0) != os.SCHED_OTHER:
                return False
            os.sched_setscheduler(0, os.SCHED_BATCH, self._PARAM)  # type: ignore[arg-type]
            return True
        except OSError:         # a sandbox that forbids it: wait as before
            self._may_switch = self._long = False
            return False


class Function:
    """One exported function bound to a device: validate, upload, invoke, download.

    Calls go straight to the VM (`VmContext.invoke` with buffer views, through `Invoker`),
    without iree.runtime's generic argument packer. Subclasses pick the exception types.
    `bind` (`context_binder`) runs first on every call, on the calling thread.
    """
    ArgumentError: type = ValueError
    DeviceFailure: type = RuntimeError

    def __init__(self, signature: Signature, device, vm_context, vm_function, bind=None,
                 driver: str = ""):
        self.signature = signature
        self.__name__ = signature.name
        self._device, self.driver = device, driver
        self._invoker = Invoker(vm_context, vm_function, driver)
        self._bind = bind
        self._list, self._view = rt.VmVariantList, rt.HalBufferView
        self._element_types = [map_dtype_to_hal_element_type(v.transport)
                               if v.transport is not None else None for v in signature.inputs]

    def __call__(self, *args):
        arrays = validate(self.signature, args, self.ArgumentError)
        if self._bind is not None:
            self._bind()
        arg_list = self._list(len(arrays))
        for array, value, element_type in zip(arrays, self.signature.inputs, self._element_types):
            arg_list.push_ref(upload(self._device, value.to_device(array), element_type))
        outputs = self.signature.outputs
        ret_list = self._list(len(outputs))
        try:
            self._invoker(arg_list, ret_list)
        except (RuntimeError, ValueError) as e:
            message = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise self.DeviceFailure(f"{self.signature.name}: the device failed: {message}") \
                from None
        results, seen = [], set()
        for i, value in enumerate(outputs):
            if value.transport is None:
                raise self.ArgumentError(f"{self.signature.name}: result {i} has type "
                                         f"{value.spec}, whose element type has no numpy "
                                         f"equivalent")
            array = value.to_user(download(self._device, ret_list.get_as_object(i, self._view),
                                           value.transport))
            address = array.__array_interface__["data"][0]
            if address in seen and array.nbytes:     # the same buffer returned twice
                array = array.copy()
            seen.add(address)
            results.append(array)
        return results[0] if len(results) == 1 else tuple(results)

    def __repr__(self):
        return f"<function {self.signature}>"


def exported_functions(vm_module) -> dict:
    """Name -> VmFunction of a module's exports (IREE's internal `__` functions left out)."""
    return {name: vm_module.lookup_function(name) for name in vm_module.function_names
            if not name.startswith("__")}


class Module:
    """A loaded .vmfb: `module(*arrays)` calls `main` (or the only function)."""

    def __init__(self, vmfb: bytes, device: str = "local-task"):
        # the module's own device, closed with it (not iree.runtime's process-wide cached one:
        # an open Vulkan device on Mesa's software driver keeps two threads spinning)
        self.config = rt.Config(device=rt.get_device(device, cache=False))
        self._bind, self.driver = context_binder(device), device
        vm_module = rt.VmModule.copy_buffer(self.config.vm_instance, vmfb)
        self._context = rt.SystemContext(vm_modules=[vm_module], config=self.config)
        self._exports = exported_functions(vm_module)
        self._functions: dict[str, Function] = {}

    def function(self, name: str) -> Function:
        if name not in self._exports:
            raise KeyError(f"module has no function '{name}' (functions: "
                           f"{', '.join(self._exports) or 'none'})")
        if name not in self._functions:
            vm_function = self._exports[name]
            self._functions[name] = Function(parse_reflection(name, vm_function.reflection),
                                             self.config.device, self._context.vm_context,
                                             vm_function, self._bind, self.driver)
        return self._functions[name]

    def __call__(self, *args):
        names = list(self._exports)
        return self.function("main" if "main" in names or len(names) != 1 else names[0])(*args)


def load(path: str, device: str = "local-task") -> Module:
    """Load a .vmfb for a runtime device (`local-task`, `local-sync`, `vulkan`, `cuda`, `hip`)."""
    with open(path, "rb") as f:
        return Module(f.read(), device)


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description="Run a function of a .vmfb on .npy inputs.")
    p.add_argument("vmfb")
    p.add_argument("inputs", nargs="*", help=".npy files, one per argument")
    p.add_argument("--device", default="local-task")
    p.add_argument("--function", default="main")
    p.add_argument("-o", dest="outputs", action="append", default=[],
                   help=".npy file per result (default: print them)")
    args = p.parse_args(argv)
    results = load(args.vmfb, args.device).function(args.function)(
        *[np.load(path, allow_pickle=False) for path in args.inputs])
    results = results if isinstance(results, tuple) else (results,)
    for i, array in enumerate(results):
        if i < len(args.outputs):
            np.save(args.outputs[i], array, allow_pickle=False)
        else:
            print(f"result[{i}]: {describe(array)}\n{array}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
