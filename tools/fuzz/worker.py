"""The fuzzer's child process: compiles and runs one program per request on a target (shlo
for cpu/vulkan), the StableHLO reference interpreter or XLA. Requests and replies are
pickled dicts, length-prefixed, on stdin and stdout; a compiler or runtime that dies takes
only this process with it (`Worker` in the parent notices and starts a new one).

Test targets: `fake-swap:<a>:<b>` runs the reference interpreter on the program with op
`a` replaced by op `b` (a planted miscompilation); `fake-crash:<op>` aborts the process
when the program contains `op` (`any`: always). `batch:<target>` compiles several programs
as one module (one compile and one device for all: 2-3x faster) and runs each.

shlo's targets run each program twice with the same inputs: the second call's outputs come
back too (`repeat`) when they differ from the first's, so that state a call leaves behind
(IREE's memoized command buffers: docs/iree_gaps.md, vk-memoized-command-buffers) is checked
against the oracles as well.
"""
from __future__ import annotations

import dataclasses
import os
import pickle
import re
import struct
import sys
import traceback
from typing import Any


def _interpreter(text: str, inputs: list) -> list:
    """The reference interpreter's results (CHLO legalized by jaxlib's own C++ pass)."""
    import numpy as np
    from jaxlib.mlir.passmanager import PassManager

    from shlo.tools.conformance_reference import jaxlib_context
    jir, stablehlo, ctx = jaxlib_context()
    with ctx, jir.Location.unknown():
        module = jir.Module.parse(text)
        if "chlo." in text:
            PassManager.parse("builtin.module(func.func(chlo-legalize-to-stablehlo))").run(
                module.operation)
        attrs = [jir.DenseElementsAttr.get(np.ascontiguousarray(a), shape=list(a.shape),
                                           signless=a.dtype.kind != "u") for a in inputs]
        return [np.array(r, copy=True) for r in stablehlo.eval_module(module, attrs)]


_XLA: dict[str, Any] = {}


def _xla(text: str, inputs: list) -> list:
    import jax
    import numpy as np
    from jax._src.lib import xla_client
    from jax.extend import backend
    if "backend" not in _XLA:
        _XLA["backend"] = backend.get_backend("cpu")
    be = _XLA["backend"]
    exe = be.compile_and_load(text, be.devices()[:1], xla_client.CompileOptions())
    with jax.enable_x64(True):      # 64-bit inputs stay 64-bit (only here: a test process's
        args = [jax.device_put(a, be.devices()[0]) for a in inputs]   # jax keeps its mode)
        return [np.asarray(o) for o in exe.execute(args)]


@dataclasses.dataclass
class TargetRun:
    """A program's outputs on a target, and its second call's when they differ."""
    outputs: list
    repeat: list | None = None


def _same(a: list, b: list) -> bool:
    """Whether two calls' outputs are the same values (float and complex NaNs alike)."""
    import numpy as np
    return all(x.shape == y.shape and x.dtype == y.dtype and
               np.array_equal(x, y, equal_nan=x.dtype.kind in "fc") for x, y in zip(a, b))


def _twice(function, args) -> TargetRun:
    import numpy as np
    calls = []
    for _ in range(2):
        out = function(*args)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        calls.append([np.array(o, copy=True) for o in out])
    return TargetRun(calls[0], None if _same(*calls) else calls[1])


def _shlo(text: str, target: str, inputs: list) -> TargetRun:
    import shlo
    from shlo.runtime.devices import release_device
    exe = shlo.compile(text, target=target, cache=False)
    try:
        return _twice(exe, inputs)
    finally:
        if target == "vulkan":      # an open lavapipe device keeps two threads spinning
            del exe
            release_device("vulkan")


def merge(texts: list) -> str:
    """One module of the programs `texts`, their functions renamed `<name>_p<i>` (program i's
    entry point: `main_p<i>`)."""
    bodies = []
    for i, text in enumerate(texts):
        names = re.findall(r"func\.func (?:private )?@([\w.$-]+)", text)
        body = text[text.index("{") + 1:text.rindex("}")]
        for name in sorted(set(names), key=len, reverse=True):
            body = re.sub(rf"@{re.escape(name)}\b", f"@{name}_p{i}", body)
        bodies.append(body)
    return "module {\n" + "\n".join(bodies) + "\n}\n"


def _shlo_batch(texts: list, target: str, inputs: list) -> list:
    """Several programs compiled as one module for `target` (one compile, one device) and run
    one by one: per program {"ok": True, "outputs": [...], "repeat": [...] or None} or
    {"ok": False, "error": ...}."""
    import shlo
    from shlo.runtime.devices import release_device
    exe = shlo.compile(merge(texts), target=target, cache=False)
    results = []
    try:
        for i, args in enumerate(inputs):
            try:
                run = _twice(exe.function(f"main_p{i}"), args)
                results.append({"ok": True, "outputs": run.outputs, "repeat": run.repeat})
            except Exception as e:      # noqa: BLE001 - this program's run failed
                results.append({"ok": False, "error": _one_line(e)})
    finally:
        if target == "vulkan":
            del exe
            release_device("vulkan")
    return results


def _one_line(e: Exception) -> str:
    lines = [line for line in str(e).splitlines() if line.strip()]
    return f"{type(e).__name__}: {lines[0] if lines else ''}"


def handle(request: dict) -> list | TargetRun:
    kind, text, inputs = request["kind"], request["text"], request["inputs"]
    if kind.startswith("batch:"):
        return _shlo_batch(text, kind.split(":", 1)[1], inputs)
    if kind == "reference":
        return _interpreter(text, inputs)
    if kind == "xla":
        return _xla(text, inputs)
    if kind.startswith("fake-swap:"):
        _, a, b = kind.split(":")
        return _interpreter(text.replace(f"stablehlo.{a} ", f"stablehlo.{b} "), inputs)
    if kind.startswith("fake-crash:"):
        op = kind.split(":")[1]
        if op == "any" or f"stablehlo.{op} " in text:
            os.abort()
        return _interpreter(text, inputs)
    return _shlo(text, kind, inputs)


def _read(stream):
    head = stream.read(8)
    if len(head) < 8:
        return None
    (n,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(n))


def _write(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def serve() -> None:
    # replies go to a private copy of stdout; whatever the compiler prints goes to stderr
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    while (request := _read(requests)) is not None:
        try:
            out = handle(request)
            reply = {"ok": True, "outputs": out.outputs, "repeat": out.repeat} \
                if isinstance(out, TargetRun) else {"ok": True, "outputs": out}
        except Exception as e:      # a clean failure: reported, the worker goes on
            reply = {"ok": False, "error": _one_line(e),
                     "traceback": traceback.format_exc()[-4000:]}
        _write(replies, reply)


if __name__ == "__main__":
    serve()
