"""The decomposition of `cu_threefry2x32_ffi` and `hip_threefry2x32_ffi`: the Threefry-2x32
hash behind jax.random, as jax lowers it for CUDA and ROCm (registered with
shlo-expand-custom-calls).

threefry2x32(k1, k2, x1, x2) -> (y1, y2), all ui32 of one shape (jax broadcasts them before
the call): Salmon et al.'s Threefry with 20 rounds in 5 groups of 4, each round
x1 += x2; x2 = rotl(x2, r) ^ x1 with rotations (13, 15, 26, 6) and (17, 29, 16, 24) in turn,
and after each group the key schedule (k1, k2, k1 ^ k2 ^ 0x1BD11BDA, rotating) added with the
group's number, as jax's own lowering for other platforms (jax/_src/random/threefry2x32.py,
unrolled): elementwise ops that fuse into one dispatch.
"""
from __future__ import annotations

from iree.compiler import ir

from ..lib.expr import Num, shift_left, shift_right_logical
from .registry import register_custom_call

ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
PARITY = 0x1BD11BDA


def _rotate_left(x: Num, bits: int) -> Num:
    return shift_left(x, x.like(bits)) | shift_right_logical(x, x.like(32 - bits))


def threefry2x32(k1: Num, k2: Num, x1: Num, x2: Num) -> tuple[Num, Num]:
    keys = [k1, k2, k1 ^ k2 ^ k1.like(PARITY)]
    x1, x2 = x1 + keys[0], x2 + keys[1]
    for group in range(5):
        for r in ROTATIONS[group % 2]:
            x1 = x1 + x2
            x2 = _rotate_left(x2, r) ^ x1
        x1 = x1 + keys[(group + 1) % 3]
        x2 = x2 + keys[(group + 2) % 3] + x2.like(group + 1)
    return x1, x2


def threefry_call(op: ir.Operation, k1: ir.Value, k2: ir.Value, x1: ir.Value, x2: ir.Value):
    return [y.value for y in threefry2x32(*(Num(v) for v in (k1, k2, x1, x2)))]


for _prefix in ("cu", "hip"):
    register_custom_call(f"{_prefix}_threefry2x32_ffi", threefry_call)
