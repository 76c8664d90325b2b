"""shlo-run: run a function of a .vmfb (or of an .mlir, compiled first) like iree-run-module.

    shlo-run model.vmfb --device local-task --input=2x3xf32=1,2,3,4,5,6 --input=@b.npy
    shlo-run model.mlir --target vulkan --function main --output=@result.npy
"""
from __future__ import annotations

import argparse
import re
import sys

import numpy as np



def parse_input(text: str) -> np.ndarray:
    """`2x3xf32=1,2,3,4,5,6`, `f32=2.5`, `4xi32=7` (splat) or `@file.npy`."""
    from shlo.errors import InvocationError
    from shlo.runtime.abi import ELEMENT_DTYPES

    if text.startswith("@"):
        try:
            return np.load(text[1:], allow_pickle=False)
        except (OSError, ValueError) as e:
            raise InvocationError(f"--input={text}: cannot read .npy file: {e}") from None
    spec, eq, values = text.partition("=")
    *dims, element = spec.split("x") if spec else [""]
    dtype = ELEMENT_DTYPES.get(element)
    if not eq or dtype is None or not all(d.isdigit() for d in dims):
        raise InvocationError(f"--input={text}: expected SHAPExTYPE=VALUES (e.g. 2x3xf32=1,2,3,4,5,6) "
                              f"or @file.npy")
    shape = tuple(int(d) for d in dims)
    items = [v for v in re.split(r"[\s,\[\]]+", values) if v]
    try:
        flat = np.array([_scalar(v) for v in items]).astype(dtype)
    except ValueError as e:
        raise InvocationError(f"--input={text}: bad value: {e}") from None
    size = int(np.prod(shape))
    if flat.size == 1:
        return np.full(shape, flat[0], dtype=dtype)
    if flat.size != size:
        raise InvocationError(f"--input={text}: {flat.size} values for shape {spec} "
                              f"({size} elements)")
    return flat.reshape(shape)


def _scalar(v: str):
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    return complex(v) if "j" in v else float(v) if any(c in v for c in ".eEn") else int(v)


def format_result(array: np.ndarray) -> str:
    """iree-run-module's spelling: `2x2xf32=[1 2][3 4]`."""
    from shlo.runtime.abi import describe

    def nested(a):
        if a.ndim == 0:
            return str(a.item()).lower() if a.dtype == np.bool_ else str(a.item())
        if a.ndim == 1:
            return "[" + " ".join(nested(x) for x in a) + "]"
        return "".join(nested(x) for x in a)
    body = nested(array)
    return f"{describe(array)}={body}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="shlo-run", description=__doc__.splitlines()[0])
    p.add_argument("module", help=".vmfb, or .mlir to compile for --target first")
    p.add_argument("--device", help="local-task | local-sync | vulkan | cuda (default: from target)")
    p.add_argument("--target", default="cpu", help="target to compile an .mlir for")
    p.add_argument("--function", default=None, help="function to run (default: main)")
    p.add_argument("--input", action="append", default=[], help="an input, in order (repeatable)")
    p.add_argument("--output", action="append", default=[],
                   help="@file.npy per result, in order (default: print them)")
    args = p.parse_args(argv)

    import shlo

    try:
        if args.module.endswith(".vmfb"):
            executable = shlo.load(args.module, device=args.device or "local-task")
        else:
            executable = shlo.compile(shlo.read_module(args.module), target=args.target)
            if args.device:
                executable.device = args.device
        inputs = [parse_input(t) for t in args.input]
        name = args.function or executable.entry
        results = executable.function(name)(*inputs)
    except shlo.Error as e:
        print(f"shlo-run: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"shlo-run: cannot read '{args.module}': {e.strerror}", file=sys.stderr)
        return 1
    results = results if isinstance(results, tuple) else (results,)
    if args.output and len(args.output) != len(results):
        print(f"shlo-run: {len(args.output)} --output given for {len(results)} results",
              file=sys.stderr)
        return 1
    print(f"EXEC @{name}")
    for i, array in enumerate(results):
        if args.output:
            np.save(args.output[i].lstrip("@"), array)
        else:
            print(f"result[{i}]: hal.buffer_view")
            print(format_result(array))
    return 0


if __name__ == "__main__":
    sys.exit(main())
