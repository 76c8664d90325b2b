"""shlo-compile: legalize an .mlir file with shlo's pipeline, then compile it with IREE to a .vmfb.

    shlo-compile model.mlir --target cpu -o model.vmfb
    shlo-compile model.mlir --target vulkan --pipeline='builtin.module(shlo-legalize-chlo)' -o m.vmfb
"""
from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="shlo-compile", description=__doc__.splitlines()[0])
    p.add_argument("input", help="input .mlir (text or bytecode), or - for stdin")
    p.add_argument("--target", default="cpu", help="cpu[:CPU] | vulkan[:GPU] | cuda[:sm_XX] | vmvx")
    p.add_argument("-o", dest="output", required=True, help="output .vmfb")
    p.add_argument("--pipeline", default="default",
                   help="named pipeline (default, legalize-chlo, none) or pipeline text")
    p.add_argument("--iree-flag", action="append", default=[],
                   help="extra flag for IREE (repeatable), e.g. --iree-flag=--iree-opt-level=O3")
    p.add_argument("--dump-dir", help="write the IR before and after shlo's pipeline here")
    args = p.parse_args(argv)

    import shlo
    from shlo.passes.pipeline import run_pipeline
    from shlo.pipelines import get_pipeline
    from shlo.pipelines.targets import get_target
    from shlo.runtime.compiler import compile_to_vmfb

    try:
        module = shlo.read_module(args.input)
        target = get_target(args.target, args.iree_flag)
        pipeline = get_pipeline(args.pipeline)
        work = module.operation.clone()
        _dump(args.dump_dir, "0-input.mlir", work)
        if pipeline:
            run_pipeline(work, pipeline, source_name=args.input)
        _dump(args.dump_dir, "1-legalized.mlir", work)
        vmfb = compile_to_vmfb(work, target, original=module, pipeline=pipeline)
    except shlo.Error as e:
        print(str(e), file=sys.stderr)
        return 1
    shlo.Executable(vmfb).save(args.output)
    return 0


def _dump(directory, name, op):
    if directory:
        from shlo.module_io import print_module
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, name), "w") as f:
            f.write(print_module(op))


if __name__ == "__main__":
    sys.exit(main())
