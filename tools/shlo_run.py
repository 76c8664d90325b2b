"""shlo-run: run a function of a .vmfb (or of an .mlir, compiled first) like iree-run-module.

    shlo-run model.vmfb --device local-task --input=2x3xf32=1,2,3,4,5,6 --input=@b.npy
    shlo-run model.mlir --target vulkan --function main --output=@result.npy

Inputs (one per argument, in order; iree-run-module's syntax):
    2x3xf32=1,2,3,4,5,6   2x2xi32=[1 2][3 4]   f32=2.5   4xi32=7 (splat)
    2x3xf32=@raw.bin (raw little-endian contents)   @file.npy (one or more arrays)
    1,2,3 or 2.5 (no type: read as the function's argument type)
Outputs (one per result, in order): `-` print (the default for every result),
`@file.npy` write, `+file.npy` append, `@file.bin`/`+file.bin` raw contents, `` ignore.
Values print as iree-run-module prints them: `2x2xf32=[1 2][3 4]`.
Several processes (a module for replicas x partitions, see shlo.run_parallel):
    shlo-run m.mlir --num-replicas 2 --input=4xf32=1,2,3,4 --input=4xf32=5,6,7,8
takes the inputs of process 0, then process 1, ...; prints each process's results and
outfeed; outputs apply to process 0's results, then process 1's, ... Under MPI, one process
per rank (rank r is process r; rank 0 compiles an .mlir and sends the others the .vmfb):
    mpiexec -n 2 shlo-run m.mlir --num-replicas 2 --input=4xf32=1,2,3,4 --input=4xf32=5,6,7,8
takes the same arguments; each rank runs its process and prints (or writes) its own results.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from typing import Any

import numpy as np

# The device a target's code runs on, and the target an .mlir is compiled for on a device.
TARGET_FOR_DEVICE = {"local-task": "cpu", "local-sync": "cpu", "vulkan": "vulkan", "cuda": "cuda",
                     "hip": "hip"}


def parse_input(text: str, spec=None) -> list[np.ndarray]:
    """The arrays an `--input` names (a .npy file may hold several); `spec` types untyped values."""
    from shlo.errors import InvocationError
    from shlo.runtime.abi import ELEMENT_DTYPES

    if text.startswith("@"):
        return _read_npy(text[1:])
    head, eq, values = text.partition("=")
    if not eq:                                     # untyped: the function's argument type
        if spec is None or spec.dtype is None or None in spec.shape:
            raise InvocationError(f"--input={text}: expected SHAPExTYPE=VALUES (e.g. "
                                  f"2x3xf32=1,2,3,4,5,6) or @file.npy")
        shape, dtype, values = tuple(spec.shape), spec.dtype, text
    else:
        *dims, element = head.split("x") if head else [""]
        dtype = ELEMENT_DTYPES.get(_element_alias(element))
        if dtype is None or not all(d.isdigit() for d in dims):
            raise InvocationError(f"--input={text}: expected SHAPExTYPE=VALUES (e.g. "
                                  f"2x3xf32=1,2,3,4,5,6) or @file.npy")
        shape = tuple(int(d) for d in dims)
    if values.startswith("@"):
        return [_read_raw(text, values[1:], shape, dtype)]
    items = [v for v in re.split(r"[\s,\[\]]+", values) if v]
    try:
        flat = np.array([_scalar(v, dtype) for v in items]).astype(dtype)
    except (ValueError, TypeError, OverflowError) as e:
        raise InvocationError(f"--input={text}: bad value: {e}") from None
    size = int(np.prod(shape))
    if flat.size == 1:
        return [np.full(shape, flat[0], dtype=dtype)]
    if flat.size != size:
        raise InvocationError(f"--input={text}: {flat.size} values for shape "
                              f"{'x'.join(map(str, shape)) or 'scalar'} ({size} elements)")
    return [flat.reshape(shape)]


def _element_alias(name: str) -> str:
    # iree-run-module spells complex types by their total width: cf64 = complex<f32>.
    return {"cf64": "complex<f32>", "cf128": "complex<f64>"}.get(name, name)


def _read_npy(path: str) -> list[np.ndarray]:
    from shlo.errors import InvocationError
    arrays = []
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            while f.tell() < size:
                arrays.append(np.load(f, allow_pickle=False))
    except (OSError, ValueError) as e:
        raise InvocationError(f"--input=@{path}: cannot read .npy file: {e}") from None
    if not arrays:
        raise InvocationError(f"--input=@{path}: the file holds no array")
    return arrays


def _read_raw(text: str, path: str, shape, dtype) -> np.ndarray:
    from shlo.errors import InvocationError
    try:
        flat = np.fromfile(path, dtype=dtype)
    except OSError as e:
        raise InvocationError(f"--input={text}: cannot read '{path}': {e.strerror}") from None
    if flat.size != int(np.prod(shape)):
        raise InvocationError(f"--input={text}: '{path}' holds {flat.size} elements, "
                              f"the shape needs {int(np.prod(shape))}")
    return flat.reshape(shape)


def _scalar(v: str, dtype: np.dtype):
    """One value, read as its element type reads it (so `-0` stays a negative zero in f32)."""
    low = v.lower()
    if dtype == np.bool_:
        if low not in ("true", "false", "1", "0"):
            raise ValueError(f"'{v}' is not a boolean (true, false, 1, 0)")
        return low in ("true", "1")
    if dtype.kind == "c":
        return complex(v)
    if dtype.kind in "iu" or str(dtype) in ("int4", "uint4"):
        return int(v, 0)
    return float(v)


def format_result(array: np.ndarray, max_elements: int = 1024) -> str:
    """iree-run-module's spelling: `2x2xf32=[1 2][3 4]`, %G floats, i1 as bytes, elided past N."""
    from shlo.runtime.abi import describe

    budget = [max_elements]

    def value(x) -> str:
        if array.dtype == np.bool_:
            return "01" if x else "00"
        if array.dtype.kind == "c":
            return f"{x.real:G}{x.imag:+G}j"
        if array.dtype.kind in "iub" or str(array.dtype) in ("int4", "uint4"):
            return str(int(x))
        return f"{float(x):G}"

    def row(a) -> str:                     # returns text; stops at the budget with "..."
        parts: list[str] = []
        for x in a:
            if budget[0] <= 0:
                return " ".join(parts) + "..."
            budget[0] -= 1
            parts.append(value(x))
        return " ".join(parts)

    def nested(a) -> str:
        if a.ndim == 1:
            return row(a)
        out = ""
        for x in a:
            if budget[0] <= 0:
                break
            out += "[" + nested(x) + "]"
        return out

    body = value(array[()]) if array.ndim == 0 else nested(array)
    return f"{describe(array)}={body}"


def write_output(spec: str, array: np.ndarray, max_elements: int) -> None:
    """Handle one `--output`: `-` print, `@`/`+` write or append .npy or raw bytes, `` ignore."""
    if spec == "":
        return
    if spec == "-":
        print(format_result(array, max_elements))
        return
    mode = {"@": "wb", "+": "ab"}.get(spec[:1])
    if mode is None:
        from shlo.errors import InvocationError
        raise InvocationError(f"--output={spec}: expected -, @FILE or +FILE (.npy or raw)")
    with open(spec[1:], mode) as f:
        if spec.endswith(".npy"):
            np.save(f, array, allow_pickle=False)
        else:
            f.write(np.ascontiguousarray(array).tobytes())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="shlo-run", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("module", nargs="?", help=".vmfb, or .mlir to compile for --target first")
    p.add_argument("--module", dest="module_flag", help="iree-run-module's spelling of MODULE")
    p.add_argument("--device", help="local-task | local-sync | vulkan | cuda | hip "
                                    "(default: the target's)")
    p.add_argument("--target", help="target to compile an .mlir for (default: the device's, "
                                    "else cpu)")
    p.add_argument("--function", default=None, help="function to run (default: main)")
    p.add_argument("--input", action="append", default=[], help="an input, in order (repeatable)")
    p.add_argument("--output", action="append", default=[], help="what to do with each result")
    p.add_argument("--output_max_element_count", "--output-max-element-count", type=int,
                   default=1024, help="print at most this many elements per result")
    p.add_argument("--demote-f64", action="store_true", help="compile f64 as f32 (.mlir only)")
    p.add_argument("--iree-flag", action="append", default=[], help="extra IREE flag (.mlir only)")
    p.add_argument("--num-replicas", type=int, default=1, help="replicas to run (processes)")
    p.add_argument("--num-partitions", type=int, default=1, help="partitions per replica")
    args = p.parse_args(argv)
    path = args.module or args.module_flag
    if not path:
        p.error("a .vmfb or .mlir module is required")

    import shlo

    device = args.device.split("://")[0] if args.device else None
    processes = args.num_replicas * args.num_partitions
    comm = _mpi_world() if processes > 1 else None
    try:
        executable = _executable(path, args, device, comm)
        name = args.function or executable.entry
        function = executable.function(name)
        specs = [v.spec for v in function.signature.inputs]
        inputs: list = []
        for text in args.input:
            spec = specs[len(inputs) % len(specs)] if specs else None
            inputs.extend(parse_input(text, spec))
        per = len(specs)
        per_process = [inputs[i * per:(i + 1) * per] for i in range(processes)] if per else \
            [[]] * processes
        if comm is not None:            # under mpiexec: this rank's process only
            from shlo.runtime import distributed
            me = comm.Get_rank()
            run = distributed.run(executable, *per_process[me] if me < processes else [],
                                  num_replicas=args.num_replicas,
                                  num_partitions=args.num_partitions, function=name)
            ranks, runs, outfeed = [me], [run], [distributed.last_outfeed()[0]]
        elif processes == 1 and not executable.calls_host:
            ranks, runs, outfeed = [0], [function(*inputs)], None
        else:
            runs = shlo.run_parallel(executable, per_process, num_replicas=args.num_replicas,
                                     num_partitions=args.num_partitions,
                                     programs=[name] * processes)
            ranks, outfeed = list(range(processes)), runs.outfeed
        results = [r if isinstance(r, tuple) else (r,) for r in runs]
        if len(args.output) > len(results[0]) * processes:
            raise shlo.InvocationError(f"{len(args.output)} --output given for "
                                       f"{len(results[0]) * processes} results")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            _report(name, ranks, results, outfeed, args, processes)
        _in_rank_order(comm, lambda: (sys.stdout.write(out.getvalue()), sys.stdout.flush()))
    except shlo.Error as e:
        return _fail(f"{e}", comm)
    except OSError as e:
        return _fail(f"{e.filename or path}: {e.strerror}", comm)
    return 0


def _report(name, ranks, results, outfeed, args, processes) -> None:
    """Print (or write) the results and outfeed of `ranks` (processes, in order)."""
    if ranks[0] == 0:
        print(f"EXEC @{name}")
    outputs = iter(args.output[ranks[0] * len(results[0]):])
    for k, (process, arrays) in enumerate(zip(ranks, results)):
        if processes > 1:
            print(f"process {process}:")
        for i, array in enumerate(arrays):
            spec = next(outputs, "-")
            if spec == "-":
                print(f"result[{i}]: hal.buffer_view")
            write_output(spec, array, args.output_max_element_count)
        for j, item in enumerate(outfeed[k] if outfeed else []):
            for array in item:
                print(f"outfeed[{j}]: hal.buffer_view")
                write_output("-", array, args.output_max_element_count)


def _in_rank_order(comm, write) -> None:
    """Call `write` on every rank, rank 0 first (each waits for the one before it)."""
    if comm is not None and comm.Get_rank() > 0:
        comm.recv(source=comm.Get_rank() - 1, tag=_TURN)
    write()
    if comm is not None and comm.Get_rank() + 1 < comm.Get_size():
        comm.send(None, dest=comm.Get_rank() + 1, tag=_TURN)


_TURN = 7301            # (the tag of the turn to print)


def _mpi_world():
    """The MPI world when mpiexec (or srun) started several ranks of shlo-run, else None."""
    from shlo.runtime.mpi_env import launched_by_mpi
    if not launched_by_mpi():
        return None
    from shlo.runtime import distributed
    comm = distributed.world()
    return comm if comm.Get_size() > 1 else None


def _executable(path: str, args, device: str | None, comm):
    """The module to run: a .vmfb loaded, or an .mlir compiled (under MPI by rank 0 alone,
    its .vmfb sent to the others)."""
    import shlo
    from shlo.runtime.compiler import isolate_by_default

    if path.endswith(".vmfb"):
        return shlo.load(path, device=device or "local-task")
    target = args.target or TARGET_FOR_DEVICE.get(device or "", "cpu")
    built: Any = None           # (vmfb, device, None) or (None, None, (error type, message))
    if comm is None or comm.Get_rank() == 0:
        try:
            executable = shlo.compile(shlo.read_module(path), target=target,
                                      flags=args.iree_flag, demote_f64=args.demote_f64,
                                      isolate=isolate_by_default(True))
            if device:
                executable.device = device
            if comm is None:
                return executable
            built = (executable.vmfb, executable.device, None)
        except (shlo.Error, OSError) as e:
            if comm is None:
                raise
            built = (None, None, (type(e), str(e) if isinstance(e, shlo.Error) else
                                  f"{e.filename or path}: {e.strerror}"))
    if comm is not None:
        built = comm.bcast(built, root=0)
    vmfb, on, error = built
    if error is not None:           # rank 0 reports it; the others stop quietly
        if comm.Get_rank() == 0:
            print(f"shlo-run: {error[1]}", file=sys.stderr, flush=True)
        sys.exit(1)
    return shlo.Executable(vmfb, device=on, target=target)


def _fail(message: str, comm) -> int:
    if comm is None:
        print(f"shlo-run: {message}", file=sys.stderr)
        return 1
    from shlo.runtime import distributed
    # (aborts every rank; fail prints its error with str(), so a str serves)
    distributed.fail(f"shlo-run: {message}", comm)  # type: ignore[arg-type]
    return 1


if __name__ == "__main__":
    sys.exit(main())
