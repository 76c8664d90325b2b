"""IREE target configurations as data: which HAL device, which backend flags, which runtime driver.

A target is named `kind` or `kind:variant`: `cpu` (this machine), `cpu:znver4`,
`cpu:aarch64-linux-gnu` (cross-compiling; `cpu:TRIPLE:CPU` names both),
`vulkan` (= `vulkan:llvmpipe`, right for Mesa's software driver), `vulkan:rdna3`,
`cuda:sm_80` ... `cuda:sm_89`, `cuda:sm_90`/`sm_90a` (Hopper, described by shlo
because IREE 3.13's table lacks it), `hip:gfx942` (compile only here), `vmvx`.
Users append their own flags. Each distinct target gets its own IREE session,
because flags accumulate per session.

Variant names are checked here, against tables measured on IREE 3.13, before
IREE sees them: IREE aborts the whole process on an unknown Vulkan or CUDA
target name.
"""
from __future__ import annotations

import dataclasses
import re

from ..errors import CompileError
from .cpu_tuning import host_passes

# Flags every target shares: the input is StableHLO; f64 demotion is explicit (see Target).
COMMON_FLAGS = ("--iree-input-type=stablehlo",)
DEMOTE_F64_FLAG = "--iree-input-demote-f64-to-f32"

# What a target can do with f64: everything, elementwise arithmetic only (SPIR-V's GLSL.std.450
# has no f64 exp/log/sin/...), or nothing at all (no Float64 capability).
F64_FULL, F64_ARITHMETIC, F64_NONE = "full", "arithmetic", "none"

# ---- variant tables (each name was compiled with IREE 3.13; unknown names abort IREE) ---------

_AMD = ("mi355x mi350x cdna4 gfx950 mi325x mi300x mi300a mi308x cdna3 gfx942 mi250x mi250 mi210 "
        "cdna2 gfx90a mi100 cdna1 gfx908 rx9070xt rx9070 r9700 rx9060xt rx7900xtx rx7900xt "
        "rx7800xt rx7700xt v710 w7900 w7800 w7700 phoenix gfx1103 strix-point gfx1150 strix-halo "
        "gfx1151 rdna4 gfx1200 gfx1201 rdna3 gfx1100 gfx1101 gfx1102 rdna2 gfx1030 gfx1031 "
        "gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 rdna1 gfx1010 gfx1011 gfx1012 gfx1013 "
        "gfx1250").split()
_HIP_REJECTS = set("cdna4 cdna3 rdna4 rdna3 rdna2 rdna1 gfx1102 gfx1030 gfx1031 gfx1032 gfx1033 "
                   "gfx1034 gfx1035 gfx1036 gfx1010 gfx1011 gfx1012 gfx1013".split())
_NVIDIA_IREE = ("sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_89 pascal volta turing "
                "ampere ada a100 rtx3070 rtx3070ti rtx3080 rtx3080ti rtx3090 rtx3090ti rtx4070 "
                "rtx4080 rtx4090").split()
_ARM = ("valhall valhall1 valhall2 valhall3 valhall4 mali-g715 mali-g615 mali-g710 mali-g510 "
        "mali-g310 mali-g78 mali-g77 mali-g57").split()
_ADRENO = re.compile(r"adreno(-\d{3}l?)?$")          # IREE accepts adreno and adreno-NNN[l]

VULKAN_TARGETS = frozenset(["llvmpipe", "vp_android_baseline_2022", *_AMD, *_ARM, *_NVIDIA_IREE])
# Vulkan targets without the Float64 capability (IREE's mobile and baseline-profile tables).
VULKAN_WITHOUT_F64 = frozenset(["vp_android_baseline_2022", *_ARM])
HIP_TARGETS = frozenset(n for n in _AMD if n not in _HIP_REJECTS)

# NVIDIA GPUs that IREE 3.13's table lacks, described by shlo. The description is what IREE
# builds for sm_89 (same mma.sync intrinsics, which Hopper keeps), with Hopper's PTX level and
# its 227 KiB of shared memory per workgroup; it goes into the module as `hal.device.targets`.
CUDA_SHLO_TARGETS = {
    "sm_90": dict(features="+ptx80", shared_memory=232448),
    "sm_90a": dict(features="+ptx80", shared_memory=232448),
}
CUDA_ALIASES = {"hopper": "sm_90", "h100": "sm_90a", "h200": "sm_90a"}
CUDA_TARGETS = frozenset([*_NVIDIA_IREE, *CUDA_SHLO_TARGETS, *CUDA_ALIASES])

_CUDA_MMA = ("NV_MMA_SYNC_F32_16x8x16_F16 NV_MMA_SYNC_F16_16x8x16_F16 NV_MMA_SYNC_F32_16x8x16_BF16 "
             "NV_MMA_SYNC_F32_16x8x32_F8E4M3FN NV_MMA_SYNC_F32_16x8x32_F8E5M2 "
             "NV_WMMA_F32_16x16x16_F16 NV_WMMA_F16_16x16x16_F16").split()


def cuda_device_targets(arch: str) -> str:
    """The `hal.device.targets` attribute text that makes IREE compile PTX for `arch`."""
    spec = CUDA_SHLO_TARGETS[arch]
    gpu = (f'#iree_gpu.target<arch = "{arch}", features = "{spec["features"]}", wgp = <'
           "compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, "
           "subgroup = shuffle|arithmetic, dot = dp4xi8toi32, "
           f"mma = [{', '.join(f'<{m}>' for m in _CUDA_MMA)}], subgroup_size_choices = [32], "
           "max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, "
           f"max_workgroup_memory_bytes = {spec['shared_memory']}, "
           "max_workgroup_counts = [2147483647, 65535, 65535]>>")
    return (f'[#hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", '
            f"{{iree_codegen.target_info = {gpu}}}>]> : !hal.device]")


# First components of LLVM triples: `cpu:X` is a triple when X starts with one of these and a '-'.
_TRIPLE_ARCHS = ("x86_64", "i386", "i686", "aarch64", "arm64", "arm", "armv7", "riscv32", "riscv64",
                 "wasm32", "wasm64", "powerpc64le", "s390x")


@dataclasses.dataclass(frozen=True)
class TargetKind:
    name: str
    driver: str                   # iree.runtime driver that runs what this target compiles
    flags: tuple[str, ...]        # the HAL device and backend
    variant_flag: str             # flag a `kind:variant` sets to the variant
    default_variant: str
    variants: frozenset | None    # the accepted variants; None: any (checked by LLVM)
    f64: str                      # F64_FULL / F64_ARITHMETIC / F64_NONE for the default variant
    description: str
    # options this target sets on passes of shlo's pipeline, e.g. ("shlo-accurate-math",
    # "exp-log=true") where the target's own functions are less accurate than IREE's CPU ones
    pass_options: tuple[tuple[str, str], ...] = ()
    # shlo passes this target adds to the default pipeline: rewrites of ops that its IREE
    # backend rejects or computes wrongly, which other targets keep as they are
    passes: tuple[str, ...] = ()


# The cpu target's optimisation flags, chosen by `python -m shlo.tools.flag_sweep` on the bench
# suite (docs/performance.md): O3 fixes reductions (layernorm 5.0x -> 2.6x XLA), data tiling
# makes matmuls 2.5-4x faster; geomean over the suite 1.86x -> 1.40x XLA. Per-module changes
# (scatter) live in shlo.pipelines.cpu_tuning; user flags come after these and win.
# O3 also strips assertions, which would drop shlo's run-time shape checks (docs/dynamic_shapes.md):
# keep them (they cost nothing in a static module, which has none).
# No compile-time evaluation of constant expressions (const-eval): IREE JIT-compiles and runs a
# second module of them (jax's Adam step: 99 scalar f64 expressions of shlo-accurate-math's
# pow, 7 of 12 s of iree-compile). They are still hoisted and computed once, when the module
# loads; a call runs the same dispatches (docs/performance.md, "Cold compiles").
NO_CONST_EVAL = "--iree-opt-const-eval=false"
# No memoized command buffers on Vulkan: IREE 3.13 records them on a module's first call, and
# on lavapipe later calls then came back wrong, silently (a loop's result concatenated with an
# argument, a cond's value, a pad by a loop's value; jax's bf16 transformer training step of
# the models tier: NaNs from the second call on). The flag is process-global in IREE 3.13, so
# a vulkan module compiles in a child iree-compile (runtime.child_compile; about the CPU of an
# in-process compile). docs/iree_gaps.md#vk-memoized-command-buffers-later-calls-of-modules
NO_MEMOIZATION = "--iree-hal-memoization=false"
# No indirect command buffers on Vulkan (bindings taken from a table at submission): in loops,
# IREE 3.13's indirect command buffers read the wrong buffers on lavapipe, silently or not
# (a lax.scan whose body sorts its row: the carry wrong in 9 of 15 calls; one that sorts the
# carry: "indirect buffer reference slot 0 is out range of the declared binding capacity"
# on every call); direct ones are right, as fast (lstm_scan 0.94x, transformer_decode and
# nbody 1.00x). docs/iree_gaps.md#vk-indirect-command-buffers-loops-that-sort
NO_INDIRECT_COMMAND_BUFFERS = "--iree-hal-indirect-command-buffers=false"
CPU_DEFAULT_FLAGS = ("--iree-opt-level=O3", "--iree-opt-data-tiling",
                     "--iree-opt-strip-assertions=false", NO_CONST_EVAL)

KINDS: dict[str, TargetKind] = {k.name: k for k in (
    TargetKind("cpu", "local-task",
               ("--iree-hal-target-device=local",
                "--iree-hal-local-target-device-backends=llvm-cpu", *CPU_DEFAULT_FLAGS),
               "--iree-llvmcpu-target-cpu", "host", None, F64_FULL,
               "llvm-cpu: this machine's CPU, a named CPU, or a triple to cross-compile for",
               # arg-max/min as two vectorized reduces (11x faster than XLA on CPU); on
               # Vulkan the split pair gave wrong indices or failed to compile from 16
               # elements on, where IREE's own two-operand reduce is right. Attention's
               # softmax divided after its second matmul. top_k as IREE's topk. A long
               # reduce into few results in parts, one per thread and more; sums of squares
               # kept from IREE's scalar contraction code; reductions read along two
               # dimensions fenced (IREE fused them wrongly). Unrolled loop bodies of at most
               # 2200 ops: transformer_decode 8 steps a trip, not 16 (compile CPU 0.7x, run
               # alike), lstm_scan's 24 x 90 kept (fewer ran 1.1-1.4x slower). Stored
               # booleans read beside a product's result read as fenced bytes, products
               # of non-contiguous slices read copies (IREE could not compile either); scans
               # in blocks of 1024
               # (50x more accurate and faster than one chain)
               pass_options=(("shlo-lower-sort", "top-k=true"),
                             ("shlo-expand-custom-calls", "lapack=host"),
                             ("shlo-unroll-scan-loops", "max-ops=2200"),
                             ("shlo-split-long-reduce", "scan-length=1024")),
               passes=("shlo-split-arg-reduce", "shlo-defer-softmax-division",
                       "shlo-guard-square-sums", "shlo-split-long-reduce",
                       "shlo-fence-crossed-reductions", "shlo-swap-transposed-dots",
                       "shlo-fence-transposed-dots", "shlo-unroll-scan-loops",
                       "shlo-few-output-convolutions", "shlo-hwio-convolution-kernels",
                       "shlo-fence-small-reductions", "shlo-widen-narrow-convolutions",
                       "shlo-polyphase-convolutions",
                       "shlo-fence-stored-predicates", "shlo-fence-sliced-products")),
    # const-eval off too (its JIT compiles for the host CPU): transformer_train 13.2 -> 7.9 s
    TargetKind("vulkan", "vulkan", ("--iree-hal-target-device=vulkan", NO_CONST_EVAL,
                                    NO_MEMOIZATION, NO_INDIRECT_COMMAND_BUFFERS),
               "--iree-vulkan-target", "llvmpipe", VULKAN_TARGETS, F64_ARITHMETIC,
               "SPIR-V for Vulkan; llvmpipe matches Mesa's software driver",
               # Mesa: exp 44 ULP off, log1p = log(1 + x) (docs/iree_gaps.md); top_k as
               # IREE's topk: 43 ms against the network's 1254 ms on lavapipe. lavapipe ends
               # a workgroup's loops after 65535 iterations: no reduction longer than 4096;
               # top-k by rank was slower on lavapipe (48 ms against 36, 32x4096, k = 40);
               # IREE's own sort loops n^2 times a row: right only up to 256 elements
               (("shlo-accurate-math", "exp-log=true"), ("shlo-lower-sort", "top-k=true"),
                ("shlo-lower-sort", "top-k-rank=false"),
                ("shlo-lower-sort", "native-max-length=256"),
                ("shlo-split-long-reduce", "threads=false"),
                ("shlo-split-long-reduce", "max-length=4096"),
                # a loop of constants hoisted never compiled (its chunk loops of a scatter)
                ("shlo-barrier-constant-expressions", "loops=true")),
               # HWIO kernels: a padded convolution of a kernel laid out [o, 0, i, 1] was wrong
               # (shlo-fuzz seed 180 program 20: docs/iree_gaps.md#shlo-hwio-convolution-kernels)
               ("shlo-legalize-vulkan-ops", "shlo-fence-reduced-gathers",
                "shlo-fence-vector-dots-beside-gathers", "shlo-hwio-convolution-kernels",
                "shlo-split-long-reduce", "shlo-loop-fusion-barriers")),
    # CUDA and HIP bind at most 16 buffers to a dispatch (IREE_HAL_CUDA/HIP_MAX_DISPATCH_BINDING_COUNT)
    # O2: at IREE's default (O0) jax's LU of 64 or 128 rows came back all zeros on an H200
    # (both: IREE's LLVMGPU backends cannot truncate to f4E2M1FN, so it is computed in f32)
    TargetKind("cuda", "cuda", ("--iree-hal-target-device=cuda", "--iree-opt-level=O2"),
               "--iree-cuda-target", "sm_80", CUDA_TARGETS, F64_FULL,
               "PTX for NVIDIA GPUs: sm_60 .. sm_89 from IREE, sm_90/sm_90a (Hopper) from shlo",
               pass_options=(("shlo-widen-f6", "f4=true"),
                             ("shlo-bound-dispatch-operands", "max-bindings=16")),
               passes=("shlo-legalize-gpu-ops",)),
    TargetKind("hip", "hip", ("--iree-hal-target-device=hip",),
               "--iree-rocm-target", "gfx942", HIP_TARGETS, F64_FULL,
               "AMDGPU code objects for ROCm/HIP (compile only without an AMD GPU)",
               pass_options=(("shlo-widen-f6", "f4=true"),
                             ("shlo-bound-dispatch-operands", "max-bindings=16")),
               passes=("shlo-legalize-gpu-ops",)),
    TargetKind("vmvx", "local-sync",
               ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"),
               "", "", frozenset(), F64_FULL, "IREE's portable VM-based reference backend"),
)}


@dataclasses.dataclass(frozen=True)
class Target:
    kind: TargetKind
    variant: str
    extra_flags: tuple[str, ...] = ()
    demote_f64: bool = False      # the user's explicit opt-in to compute f64 in f32

    @property
    def name(self) -> str:
        return f"{self.kind.name}:{self.variant}" if self.variant else self.kind.name

    @property
    def driver(self) -> str:
        return self.kind.driver

    @property
    def triple(self) -> str | None:
        """The LLVM triple of a cross-compiling CPU target (None: this machine)."""
        if self.kind.name == "cpu" and _is_triple(self.variant.split(":")[0]):
            return self.variant.split(":")[0]
        return None

    @property
    def cpu(self) -> str | None:
        """The CPU name of a CPU target (`host`, `znver4`, `generic`, ...)."""
        if self.kind.name != "cpu":
            return None
        if self.triple:
            return self.variant.split(":")[1] if ":" in self.variant else "generic"
        return self.variant

    @property
    def f64(self) -> str:
        """What this target can compute in f64 (F64_FULL, F64_ARITHMETIC or F64_NONE)."""
        if self.kind.name == "vulkan" and (self.variant in VULKAN_WITHOUT_F64
                                           or _ADRENO.match(self.variant)):
            return F64_NONE
        return self.kind.f64

    @property
    def pass_options(self) -> tuple[tuple[str, str], ...]:
        """Options this target sets on shlo's passes: its kind's, and pow and remainder below
        f64 kept out of f64 where the target has none."""
        no_f64 = ((("shlo-accurate-math", "f64=false"), ("shlo-legalize-vulkan-ops", "f64=false"),
                   ("shlo-expand-constant-powers", "f64=false"))
                  if self.f64 == F64_NONE else ())
        return self.kind.pass_options + no_f64

    @property
    def passes(self) -> tuple[str, ...]:
        """shlo passes this target adds to the default pipeline: its kind's, and those that
        pay on this machine's CPU (shlo.pipelines.cpu_tuning.HOST_PASSES)."""
        return self.kind.passes + host_passes(self)

    @property
    def device_targets(self) -> str | None:
        """A `hal.device.targets` attribute to put on the module (targets IREE lacks)."""
        if self.kind.name == "cuda" and self.variant in CUDA_SHLO_TARGETS:
            return cuda_device_targets(self.variant)
        return None

    @property
    def flags(self) -> tuple[str, ...]:
        variant: tuple[str, ...]
        if self.kind.name == "cpu" and self.triple:
            variant = (f"--iree-llvmcpu-target-triple={self.triple}",
                       f"--iree-llvmcpu-target-cpu={self.cpu}")
        elif self.kind.variant_flag and not self.device_targets:
            variant = (f"{self.kind.variant_flag}={self.variant}",)
        else:
            variant = ()
        demote = (f"{DEMOTE_F64_FLAG}={'true' if self.demote_f64 else 'false'}",)
        return COMMON_FLAGS + demote + self.kind.flags + variant + self.extra_flags


def get_target(spec: str | Target, flags: tuple[str, ...] | list[str] = (), *,
               demote_f64: bool = False) -> Target:
    """Resolve `cpu`, `vulkan:llvmpipe`, `cuda:sm_90`, ... plus user flags into a `Target`."""
    flags = tuple(flags)
    if isinstance(spec, Target):
        target = dataclasses.replace(spec, extra_flags=spec.extra_flags + flags,
                                     demote_f64=spec.demote_f64 or demote_f64)
    else:
        kind_name, _, variant = spec.strip().partition(":")
        kind = KINDS.get(kind_name)
        if kind is None:
            raise CompileError(f"unknown target '{spec}' (targets: {', '.join(KINDS)})")
        if variant and kind.variants is not None and not kind.variants:
            raise CompileError(f"target '{kind_name}' takes no variant, got '{spec}'")
        variant = variant or kind.default_variant
        if kind.name in ("vulkan", "cuda", "hip"):
            variant = variant.lower()
        if kind.variant_flag:
            _check_variant(kind, variant)
        if kind.name == "cuda":
            variant = CUDA_ALIASES.get(variant, variant)
        target = Target(kind, variant, flags, demote_f64)
    for flag in target.extra_flags:
        _check_user_flag(flag)
    return target


def variant_names(kind: TargetKind) -> list[str]:
    """A kind's accepted variants in natural order (`adreno-NNN` stands for its pattern)."""
    names = sorted(kind.variants or (), key=_natural)
    return names + ["adreno", "adreno-NNN[l]"] if kind.name == "vulkan" else names


def _check_variant(kind: TargetKind, variant: str):
    if kind.variants is None:                       # CPU names and triples: LLVM decides
        if not re.fullmatch(r"[\w.\-]+(:[\w.\-]+)?", variant) or (
                ":" in variant and not _is_triple(variant.split(":")[0])):
            raise CompileError(f"target 'cpu:{variant}': expected cpu:CPU, cpu:TRIPLE or "
                               f"cpu:TRIPLE:CPU (e.g. cpu:znver4, cpu:aarch64-linux-gnu)")
        return
    if variant in kind.variants or (kind.name == "vulkan" and _ADRENO.match(variant)):
        return
    raise CompileError(f"unknown {kind.name} target '{variant}' "
                       f"(known: {', '.join(variant_names(kind))})")


def _check_user_flag(flag: str):
    """Flags that name a GPU go through the same tables: IREE aborts on unknown names."""
    for kind in KINDS.values():
        if kind.variant_flag and kind.variants and flag.startswith(kind.variant_flag + "="):
            _check_variant(kind, flag.partition("=")[2].lower())


def _is_triple(text: str) -> bool:
    return "-" in text and text.split("-")[0] in _TRIPLE_ARCHS


def _natural(name: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]
