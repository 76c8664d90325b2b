"""shlo-widen-narrow-matmuls: a dot_general of bf16 or f16 operands multiplies f32 copies of
them, made in a dispatch of their own, on CPUs without bf16 instructions (and, with
`min-free-size`, the large ones on CPUs with AVX512-BF16).

IREE's data-tiled bf16 matmul on an AVX2 CPU (no AVX512-BF16) is far slower than XLA's, and
its f16 one too (docs/iree_gaps.md#shlo-widen-narrow-matmuls). Converting the operands is not
enough, IREE fuses the conversions back into a bf16 matmul; the f32 copies sit behind fusion
barriers (`extras.fence`), which keep them without an optimization_barrier's wait on the
host. The values are the same: bf16
and f16 values are exact in f32, their products too, and shlo-accumulate-in-f32 has the sums
in f32 already. The cpu target adds the pass where this machine has AVX2 and lacks
AVX512-BF16, and with `types=f16` where it has AVX512-BF16 but not AVX512-FP16
(`cpu_tuning.HOST_PASSES`). Elsewhere IREE may have the narrow instructions to use.

With AVX512-BF16 (IREE uses no AMX; its bf16 matmul runs at the f32 FMA's rate) widening pays
only for matmuls whose free sizes are both large: `min-free-size=128` widens only those; for
thin products converting the long operands costs more than the product
(docs/iree_gaps.md#shlo-widen-narrow-matmuls).
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
    """Convolve f32 copies of bf16/f16 convolution operands (IREE's bf16 convolution is slow).

    IREE computes a bf16 convolution as a bf16 x bf16 -> f32 loop nest that misses its
    fast convolution paths even with AVX512-BF16
    (docs/iree_gaps.md#shlo-widen-narrow-convolutions). The values are the same as for the
    matmuls above: the copies are exact, the products too, and the sum is in f32 either way."""

    NAME = "shlo-widen-narrow-convolutions"

    def run(self, op: ir.Operation) -> None:
        rule = functools.partial(_widened, types=frozenset(NARROW))
        apply_rules(op, {"stablehlo.convolution": rule}, self.NAME)
