"""shlo-compile: legalize an .mlir file with shlo's pipeline, then compile it with IREE to a .vmfb.

    shlo-compile model.mlir --target cpu -o model.vmfb
    shlo-compile model.mlir --target vulkan --pipeline=legalize-chlo -o m.vmfb
    shlo-compile model.mlir --target cuda:sm_90a --dump-dir ir/ -o model.vmfb

Targets: cpu[:CPU | :TRIPLE[:CPU]], vulkan[:GPU], cuda[:sm_XX], hip[:gfxNNN], vmvx
(`--list-targets` prints them). `--dump-dir` writes the IR of every stage:
the input, each top-level pass of shlo's pipeline, the module as IREE receives
it, and each IREE compilation phase, numbered in order.
"""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="shlo-compile", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("input", nargs="?", help="input .mlir (text or bytecode), or - for stdin")
    p.add_argument("--target", default="cpu", help="cpu (default), vulkan, cuda:sm_80, ...")
    p.add_argument("-o", dest="output", help="output .vmfb")
    p.add_argument("--pipeline", default="default",
                   help="named pipeline (default, legalize-chlo, none) or pipeline text")
    p.add_argument("--iree-flag", action="append", default=[],
                   help="extra flag for IREE (repeatable), e.g. --iree-flag=--iree-opt-level=O3")
    p.add_argument("--demote-f64", action="store_true",
                   help="compute f64 in f32 (never done without this flag)")
    p.add_argument("--fast-math", action="store_true",
                   help="keep IREE's own sin/cos/tan/atan2 and complex<f32> functions: faster, "
                        "inaccurate (leaves out shlo-accurate-math)")
    p.add_argument("--dump-dir", help="write the IR of every stage here")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk compile cache")
    p.add_argument("--list-targets", action="store_true", help="print the targets and exit")
    args = p.parse_args(argv)

    if args.list_targets:
        return _list_targets()
    if not args.input or not args.output:
        p.error("an input file and -o OUTPUT are required")

    import shlo
    from shlo.pipelines.targets import get_target
    from shlo.runtime.compiler import compile_module, isolate_by_default

    try:
        target = get_target(args.target, args.iree_flag, demote_f64=args.demote_f64)
        module = shlo.read_module(args.input)
        vmfb = compile_module(module, target, pipeline=args.pipeline, cache=not args.no_cache,
                              dump_dir=args.dump_dir, source_name=args.input,
                              fast_math=args.fast_math, isolate=isolate_by_default(True))
    except shlo.Error as e:
        print(f"shlo-compile: {e}", file=sys.stderr)
        return 1
    try:
        shlo.Executable(vmfb).save(args.output)
    except OSError as e:
        print(f"shlo-compile: cannot write '{args.output}': {e.strerror}", file=sys.stderr)
        return 1
    return 0


def _list_targets() -> int:
    import textwrap

    from shlo.pipelines.targets import KINDS, variant_names

    for kind in KINDS.values():
        default = f" (default {kind.name}:{kind.default_variant})" if kind.default_variant else ""
        print(f"{kind.name:<7} {kind.description}{default}")
        names = variant_names(kind) if kind.variants else (
            ["host", "CPU (e.g. znver4, x86-64-v3)", "TRIPLE (e.g. aarch64-linux-gnu)",
             "TRIPLE:CPU"] if kind.variants is None else [])
        if names:
            print(textwrap.fill(", ".join(names), width=100, initial_indent=" " * 8,
                                subsequent_indent=" " * 8))
    return 0


if __name__ == "__main__":
    sys.exit(main())
