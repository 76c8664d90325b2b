"""IREE flag configurations for the CUDA targets, as data (docs/gpu.md, "Compile-side").

`CONFIGS` names the configurations `python -m shlo.tools.gpu_bench configs` compiles side by
side (dispatches, tensor-core instructions, shared memory in the PTX) and `tools/gpu_check.sh`
times on a GPU; `default` is what the cuda target compiles with (pipelines/targets.py).
"""
from __future__ import annotations

CONFIGS: dict[str, tuple[str, ...]] = {
    "default": (),
    "O3": ("--iree-opt-level=O3",),
    "vector-distribution": ("--iree-codegen-llvmgpu-use-vector-distribution",),
    "reduction-vector-distribution": (
        "--iree-codegen-llvmgpu-use-reduction-vector-distribution",),
    "tile-and-fuse-matmul": ("--iree-codegen-llvmgpu-use-tile-and-fuse-matmul",),
    "vectorize-pipeline": ("--iree-codegen-llvmgpu-vectorize-pipeline",),
    "prefetch-2": ("--iree-llvmgpu-prefetch-num-stages=2",),
    "aggressive-fusion": ("--iree-dispatch-creation-enable-aggressive-fusion",),
    "split-reduction": ("--iree-dispatch-creation-enable-split-reduction",),
    "data-tiling": ("--iree-opt-data-tiling",),
}
