"""IREE target configurations as data: which HAL device, which backend flags, which runtime driver.

A target is named `kind` or `kind:variant` (`cpu`, `cpu:znver4`, `vulkan`,
`vulkan:rdna3`, `cuda:sm_89`); users append their own flags. Each distinct
target gets its own IREE session, because flags accumulate per session.
"""
from __future__ import annotations

import dataclasses

from ..errors import CompileError

# Flags every target shares: the input is StableHLO, and f64 stays f64 (IREE demotes by default).
COMMON_FLAGS = ("--iree-input-type=stablehlo", "--iree-input-demote-f64-to-f32=false")


@dataclasses.dataclass(frozen=True)
class TargetKind:
    name: str
    driver: str                   # iree.runtime driver that runs what this target compiles
    flags: tuple[str, ...]        # the HAL device and backend
    variant_flag: str             # flag a `kind:variant` sets to the variant
    default_variant: str
    description: str


KINDS: dict[str, TargetKind] = {k.name: k for k in (
    TargetKind("cpu", "local-task",
               ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"),
               "--iree-llvmcpu-target-cpu", "host", "llvm-cpu for this machine's CPU (or a named CPU)"),
    TargetKind("vulkan", "vulkan", ("--iree-hal-target-device=vulkan",),
               "--iree-vulkan-target", "llvmpipe",
               "SPIR-V for Vulkan; llvmpipe matches Mesa's software driver"),
    TargetKind("cuda", "cuda", ("--iree-hal-target-device=cuda",),
               "--iree-cuda-target", "sm_80", "PTX for NVIDIA GPUs (sm_80 .. sm_89)"),
    TargetKind("vmvx", "local-sync",
               ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"),
               "", "", "IREE's portable VM-based reference backend"),
)}


@dataclasses.dataclass(frozen=True)
class Target:
    kind: TargetKind
    variant: str
    extra_flags: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.kind.name}:{self.variant}" if self.variant else self.kind.name

    @property
    def driver(self) -> str:
        return self.kind.driver

    @property
    def flags(self) -> tuple[str, ...]:
        variant = (f"{self.kind.variant_flag}={self.variant}",) if self.kind.variant_flag else ()
        return COMMON_FLAGS + self.kind.flags + variant + self.extra_flags


def get_target(spec: str | Target, flags: tuple[str, ...] | list[str] = ()) -> Target:
    """Resolve `cpu`, `vulkan:llvmpipe`, `cuda:sm_89`, ... plus user flags into a `Target`."""
    if isinstance(spec, Target):
        return dataclasses.replace(spec, extra_flags=spec.extra_flags + tuple(flags))
    kind_name, _, variant = spec.partition(":")
    kind = KINDS.get(kind_name)
    if kind is None:
        raise CompileError(f"unknown target '{spec}' (targets: {', '.join(KINDS)})")
    if variant and not kind.variant_flag:
        raise CompileError(f"target '{kind_name}' takes no variant, got '{spec}'")
    return Target(kind, variant or kind.default_variant, tuple(flags))
