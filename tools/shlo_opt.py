"""shlo-opt: an mlir-opt-compatible driver running shlo's Python passes beside the wheel's C++ passes.

    shlo-opt in.mlir --pass-pipeline='builtin.module(func.func(shlo-legalize-chlo),cse)'
    shlo-opt --shlo-legalize-chlo --canonicalize - -o out.mlir
"""
from __future__ import annotations

import argparse
import sys

DRIVER_HELP = """Each unrecognised --NAME[=OPTIONS] flag adds the pass NAME (a shlo pass or any
C++ pass of the wheel) to the pipeline, in order; OPTIONS as 'key=value key2=value2'."""


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shlo-opt", description=__doc__.splitlines()[0],
                                epilog=DRIVER_HELP)
    p.add_argument("input", nargs="?", default="-", help="input .mlir file, or - for stdin")
    p.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    p.add_argument("--pass-pipeline", default=None,
                   help="textual pipeline, e.g. 'builtin.module(func.func(cse))'")
    p.add_argument("--allow-unregistered-dialect", action="store_true")
    p.add_argument("--mlir-print-op-generic", action="store_true")
    p.add_argument("--mlir-print-debuginfo", action="store_true")
    p.add_argument("--emit-bytecode", action="store_true")
    p.add_argument("--list-passes", action="store_true", help="list shlo's passes and exit")
    p.add_argument("--version", action="store_true")
    return p


def _pass_flags(extra: list[str]) -> list[str]:
    """`--shlo-legalize-chlo`, `--canonicalize=max-iterations=2` -> pipeline elements."""
    steps = []
    for flag in extra:
        if not flag.startswith("--") or len(flag) == 2:
            raise SystemExit(f"shlo-opt: unknown argument '{flag}'")
        name, eq, options = flag[2:].partition("=")
        steps.append(f"{name}{{{options}}}" if eq else name)
    return steps


def main(argv: list[str] | None = None) -> int:
    args, extra = _arg_parser().parse_known_args(argv)
    if args.version:
        from iree.compiler.version import VERSION
        print(f"shlo-opt (shlo 0.1.0, IREE compiler {VERSION})")
        return 0
    if args.list_passes:
        return _list_passes()
    try:
        steps = _pass_flags(extra)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 1
    if steps and args.pass_pipeline is not None:
        print("shlo-opt: use --pass-pipeline or pass flags, not both", file=sys.stderr)
        return 1
    pipeline = args.pass_pipeline if args.pass_pipeline is not None else (
        f"builtin.module({','.join(steps)})" if steps else "")

    import shlo
    from shlo.passes.pipeline import run_pipeline

    try:
        ctx = shlo.context(allow_unregistered_dialects=args.allow_unregistered_dialect)
        module = shlo.read_module(args.input, context=ctx)
        if pipeline:
            run_pipeline(module, pipeline, source_name=args.input)
    except shlo.Error as e:
        print(str(e), file=sys.stderr)
        return 1
    if args.emit_bytecode:
        data = shlo.module_bytecode(module)
    else:
        data = shlo.print_module(module, generic=args.mlir_print_op_generic,
                                 debuginfo=args.mlir_print_debuginfo).encode()
    return _write(args.output, data)


def _write(path: str, data: bytes) -> int:
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        print(f"shlo-opt: cannot write '{path}': {e.strerror}", file=sys.stderr)
        return 1
    return 0


def _list_passes() -> int:
    from shlo.passes.registry import PASSES, pass_class
    for name in sorted(PASSES):
        cls = pass_class(name)
        print(f"  --{name}  {cls.summary()}")
        for field in cls.option_fields():
            print(f"      {field.name.replace('_', '-')}={field.type}  (default {field.default})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
