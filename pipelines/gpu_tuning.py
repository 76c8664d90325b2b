"""Compile configurations for the CUDA targets, as data (docs/gpu.md, "What IREE makes").

`CONFIGS` names each configuration: IREE flags, and options set on shlo's passes.
`python -m shlo.tools.gpu_bench configs` compiles the bench workloads under each one and
compares the PTX (dispatches, tensor-core instructions, shared memory); `tools/gpu_check.sh`
times and checks on a GPU those that change the code (`TIMED`). `default` is what the cuda
target compiles with (pipelines/targets.py). What each changed when last measured, and why
`top-k` is not the default yet: docs/iree_gaps.md, "CUDA compile configurations".
"""
from __future__ import annotations

CONFIGS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "default": ((), ()),
    "O3": (("--iree-opt-level=O3",), ()),
    "vector-distribution": (("--iree-codegen-llvmgpu-use-vector-distribution",), ()),
    "reduction-vector-distribution": (
        ("--iree-codegen-llvmgpu-use-reduction-vector-distribution",), ()),
    "tile-and-fuse-matmul": (("--iree-codegen-llvmgpu-use-tile-and-fuse-matmul",), ()),
    "vectorize-pipeline": (("--iree-codegen-llvmgpu-vectorize-pipeline",), ()),
    "prefetch-2": (("--iree-llvmgpu-prefetch-num-stages=2",), ()),
    "aggressive-fusion": (("--iree-dispatch-creation-enable-aggressive-fusion",), ()),
    "split-reduction": (("--iree-dispatch-creation-enable-split-reduction",), ()),
    "data-tiling": (("--iree-opt-data-tiling",), ()),
    "top-k": ((), (("shlo-lower-sort", "top-k=true"),)),
}
# The configurations whose code differs from the default's: tools/gpu_check.sh times them.
TIMED = ("top-k",)


def config_pipeline(target, name: str) -> str | None:
    """The shlo pipeline text of configuration `name` for `target` (None: the default)."""
    from . import default_pipeline, with_pass_options
    options = CONFIGS[name][1]
    return with_pass_options(default_pipeline(target.passes), options) if options else None
