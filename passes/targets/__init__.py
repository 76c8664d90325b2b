"""Per-target rewrites: the ops a backend of IREE (Vulkan/SPIR-V, CUDA/ROCm) rejects or
computes wrongly, rewritten before IREE. Each workaround is a `quirks.Quirk` entry of its
target's table (legalize_vulkan_ops.VULKAN_QUIRKS, legalize_gpu_ops.GPU_QUIRKS) with an id that
docs/iree_gaps.md explains; vulkan/ holds the Vulkan table's rewrites by concern."""
