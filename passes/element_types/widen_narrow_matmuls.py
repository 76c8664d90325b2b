"""shlo-widen-narrow-matmuls: a dot_general of bf16 or f16 operands multiplies f32 copies of
them, made in a dispatch of their own, on CPUs without bf16 instructions (and, with
`min-free-size`, the large ones on CPUs with AVX512-BF16).

IREE 3.13's data-tiled bf16 matmul on an AVX2 CPU (no AVX512-BF16) ran 70-100x slower than
XLA: 1024^3 took 1.6 s where XLA took 17 ms, a batched 8x256x512 by 8x512x256 440 ms where
XLA took 6.4 ms; f16 was 2.2x XLA. Converting the operands is not enough, IREE fuses the
conversions back into a bf16 matmul (1.57 s); behind a stablehlo.optimization_barrier the
f32 copies stay, and the f32 matmul took 21 ms (1.26x XLA), 8.8 ms (1.3x) and, for f16,
22 ms (1.2x). The copies now sit behind fusion barriers (`extras.fence`), which keep them
as well without the optimization_barrier's wait on the host. The values are the same: bf16
and f16 values are exact in f32, their products too, and shlo-accumulate-in-f32 has the sums
in f32 already. The cpu target adds the pass where this machine has AVX2 and lacks
AVX512-BF16, and with `types=f16` where it has AVX512-BF16 but not AVX512-FP16: an f16
1024^3 matmul on Zen 5 took 8.5 ms, 5.9 ms widened (XLA 5.3 ms; `cpu_tuning.HOST_PASSES`).
Elsewhere IREE may have the narrow instructions to use, and it is unmeasured there.

With AVX512-BF16 (a Sapphire Rapids class VM with AMX; IREE 3.13 uses no AMX, its bf16 matmul
is the 16x16x2 `vdpbf16ps` tile, at the f32 FMA's rate) widening pays only for matmuls whose
free sizes are both large: `min-free-size=128` widens only those (CPU time, widened / bf16:
512x128x512 0.80, 512x128x384 0.75, 256^3 0.85, 1024^3 0.94; but 64x1024x64 1.15, 32x4096x32
1.68, where converting the long operands costs more than the product; 128 is the break-even:
128^3 1.00, 96x512x512 1.18, 64x512x512 1.31).
"""
from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir

from shlo.errors import PassError
from shlo.dialect.rebuild import arguments
from ..lib import builders as extras
from ..base import Pass
from ..lib.expr import Num, attributes, element_of, with_element
from ..op_rules import apply_rules

NARROW = ("bf16", "f16")


def free_sizes(op: ir.Operation) -> list[int]:
    """The number of elements of each operand of a dot or dot_general that are neither batch
    nor contracted (its M and N; -1 where a free dimension is dynamic)."""
    shapes = [ir.RankedTensorType(v.type).shape for v in op.operands]
    if op.name == "stablehlo.dot":
        used = [{len(shapes[0]) - 1}, {0}]
    else:
        numbers = arguments(op)[1]
        used = [set(numbers.get(f"{side}_batching_dimensions") or ()) |
                set(numbers.get(f"{side}_contracting_dimensions") or ()) for side in ("lhs", "rhs")]
    sizes = []
    for shape, dims in zip(shapes, used):
        free = [shape[d] for d in range(len(shape)) if d not in dims]
        sizes.append(-1 if any(n < 0 for n in free) else math.prod(free))
    return sizes


def _widened(op: ir.Operation, types: frozenset, min_free_size: int = 0):
    if not any(str(element_of(v)) in types for v in op.operands):
        return None
    if min_free_size and any(n < min_free_size for n in free_sizes(op)):
        return None             # a thin product: converting its long operands costs more
    wide = [Num(v).to("f32").value if str(element_of(v)) in types else v for v in op.operands]
    wide = extras.fence(wide)
    result = op.results[0]
    narrow = str(element_of(result)) in types
    f32 = ir.Operation.create(op.name, operands=wide, attributes=attributes(op),
                              results=[with_element(result.type, ir.F32Type.get())
                                       if narrow else result.type]).result
    return [Num(f32).to(element_of(result)).value if narrow else f32]


@dataclasses.dataclass
class WidenNarrowMatmuls(Pass):
    """Multiply f32 copies of bf16/f16 dot_general operands (IREE's bf16 matmul is slow)."""

    NAME = "shlo-widen-narrow-matmuls"
    types: str = "bf16,f16"     # the operand types widened, comma-separated
    min_free_size: int = 0      # widen only where both free sizes (M, N) reach this (0: all)

    def run(self, op: ir.Operation) -> None:
        types = frozenset(t.strip() for t in self.types.split(","))
        if not types <= set(NARROW):
            raise PassError(f"{self.NAME}: types={self.types}: each must be one of "
                            f"{', '.join(NARROW)}")
        if self.min_free_size < 0:
            raise PassError(f"{self.NAME}: min-free-size={self.min_free_size}: must be 0 or more")
        rule = functools.partial(_widened, types=types, min_free_size=self.min_free_size)
        apply_rules(op, {"stablehlo.dot_general": rule, "stablehlo.dot": rule}, self.NAME)


@dataclasses.dataclass
class WidenNarrowConvolutions(Pass):
    """Convolve f32 copies of bf16/f16 convolution operands (IREE's bf16 convolution is slow
    on every CPU measured).

    IREE 3.13 computes a bf16 convolution as a bf16 x bf16 -> f32 loop nest that missed its
    fast convolution paths even with AVX512-BF16: in shlo-bench's cnn_train_bf16 (16x32x32x3
    images, a Rocket Lake VM with AVX512-BF16) the 3x3 convolutions took 7-22 ms each against
    2-5 ms for the same f32 ones. The values are the same as for the matmuls above: the
    copies are exact, the products too, and the sum is in f32 either way."""

    NAME = "shlo-widen-narrow-convolutions"

    def run(self, op: ir.Operation) -> None:
        rule = functools.partial(_widened, types=frozenset(NARROW))
        apply_rules(op, {"stablehlo.convolution": rule}, self.NAME)
