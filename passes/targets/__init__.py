"""Per-target rewrites: the ops a backend of IREE (Vulkan/SPIR-V, CUDA/ROCm) rejects or
computes wrongly, rewritten before IREE."""
