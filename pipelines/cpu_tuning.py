"""Per-module IREE flags for the cpu target, chosen from what the module contains (data).

shlo's cpu defaults (`CPU_DEFAULT_FLAGS` in shlo.pipelines.targets, chosen by
`python -m shlo.tools.flag_sweep`, numbers in docs/performance.md) fit every
workload measured but one: with O2/O3, IREE fuses jax's scatter (its negative
index wrapping) into a dispatch that needs 4 MiB of stack and fails to compile
("exceeded stack allocation limit"). A module with a scatter therefore compiles
without aggressive fusion, which avoids it. A module with a small batched matmul compiles
without data tiling: IREE 3.13's data tiling computed wrong values for some of them (batch
2-3, 3 or 6 rows, after a row normalisation: softmax weights times values). A module whose
every matmul is a matrix-vector product of a few rows, on a matrix that is not a constant (batch-1
inference with the weights as arguments), compiles without data tiling too: it would repack
the whole matrix on every call. A sum of a matrix times a broadcast vector counts as one
(IREE raises it to a matmul). Flags the user gave come last and win (IREE takes the last
value of a repeated flag).

Large matmuls (an operand over 8 MiB) get a larger distribution tile
(`--iree-llvmcpu-matmul-tile-bytes`, 16 MiB instead of 256 KiB): IREE's default cuts a
4096^3 matmul into 65536 workgroups that each stream K from L3. The option is process-global
in IREE 3.13, so such a module compiles in a child iree-compile (shlo.runtime.child_compile).

Some fusion failures cannot be told from the ops a module holds: IREE's stream partitioning
then reports a "circular dependency" (measured: jax's igamma/igammac on f64, whose series
loops shlo expands in f64, and jax's gammainc with betainc in one f64 module), a data-tiling
relayout "restricted to workgroup distributed contexts" (jnp.linalg.eigh's Jacobi loops,
jax.random.multivariate_normal), or
"operations with large vector sizes" (attention written as (exp(s - max) v) / sum, with 256
keys or more). `retry_with` gives what to compile such a module again with (RETRY_RULES:
error text -> flags, and shlo passes to run on the module first); the retry happens once,
only for that error, and once more where the same error comes back and SECOND_RETRIES
has a next step for it.

Some rewrites pay on one kind of CPU only: `host_passes` gives the shlo passes the cpu target
adds to its pipeline when it compiles for this machine (HOST_PASSES: pass -> the CPU features
it needs and those it must lack, read from /proc/cpuinfo).
"""
from __future__ import annotations

import functools
import math

from iree.compiler import ir

from ..dialect.rebuild import arguments
from ..dialect.types import num_bits
from ..passes.base import binary_body, defined_by

NO_AGGRESSIVE_FUSION = ("--iree-dispatch-creation-enable-aggressive-fusion=false",)
NO_DATA_TILING = ("--iree-opt-data-tiling=false",)
NO_CONST_EXPR_HOISTING = ("--iree-opt-const-expr-hoisting=false",)
# Process-global options: a module that gets one compiles in a child iree-compile process
# (shlo.runtime.child_compile).
LARGE_MATMUL_TILES = ("--iree-llvmcpu-matmul-tile-bytes=16777216",)
NO_TRANSPOSE_PROPAGATION = ("--iree-global-opt-propagate-transposes=false",)
LARGE_OPERAND_BYTES = 8 << 20


def _bytes(t: ir.Type) -> int:
    """A static tensor type's size in bytes (0 for a dynamic one)."""
    t = ir.RankedTensorType(t)
    return math.prod(t.shape) * num_bits(t.element_type) // 8 if t.has_static_shape else 0


def _has_large_operand(op: ir.Operation) -> bool:
    """Whether a dot_general reads an operand of more than LARGE_OPERAND_BYTES."""
    return any(_bytes(value.type) > LARGE_OPERAND_BYTES for value in op.operands)


SMALL_FREE_SIZE = 16


def _thin_sides(op: ir.Operation, numbers: dict) -> list[int]:
    """The operands (0: lhs, 1: rhs) of a dot_general (`numbers`: its dimension numbers, as
    `arguments` reads them) whose free (neither batch nor contracting) dimensions are static
    and hold fewer than SMALL_FREE_SIZE elements."""
    thin = []
    for index, side in enumerate(("lhs", "rhs")):
        shape = ir.RankedTensorType(op.operands[index].type).shape
        used = set(numbers.get(f"{side}_batching_dimensions") or ()) | \
            set(numbers.get(f"{side}_contracting_dimensions") or ())
        free = [shape[d] for d in range(len(shape)) if d not in used]
        if all(size >= 0 for size in free) and math.prod(free) < SMALL_FREE_SIZE:
            thin.append(index)
    return thin


def _is_small_batched(op: ir.Operation) -> bool:
    """Whether a dot_general has batch dimensions and a thin side (`_thin_sides`)."""
    _, numbers = arguments(op)
    return bool(numbers.get("lhs_batching_dimensions")) and bool(_thin_sides(op, numbers))


THIN_PRODUCT_BYTES = 1 << 20


def _from_constants(value: ir.Value) -> bool:
    """Whether a value is computed from constants alone (IREE computes it, and packs it for a
    data-tiled matmul, once, when the module loads)."""
    seen, stack = set(), [value]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, (ir.Operation, ir.OpView)):
            return False            # a block argument: the function's input or a loop's value
        op = owner.operation
        if op not in seen:
            seen.add(op)
            stack.extend(op.operands)
    return True


def _reduced_product_matrix(op: ir.Operation) -> ir.Value | None:
    """For a sum over products of a matrix and a vector broadcast along a dimension the sum
    keeps (`(a * x[None, :]).sum(1)`, a matrix-vector product that IREE raises to a matmul),
    the matrix; else None."""
    combine = binary_body(op) if len(op.operands) == 2 else None
    product = defined_by(op.operands[0], "stablehlo.multiply")
    if combine is None or combine.name != "stablehlo.add" or product is None:
        return None
    kept = set(range(ir.RankedTensorType(op.operands[0].type).rank)) - set(
        int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    for vector, matrix in (product.operands, reversed(list(product.operands))):
        spread = defined_by(vector, "stablehlo.broadcast_in_dim")
        if spread is not None and defined_by(matrix, "stablehlo.broadcast_in_dim") is None:
            source = ir.RankedTensorType(spread.operands[0].type).shape
            result = ir.RankedTensorType(spread.results[0].type).shape
            size = {int(d): source[i] for i, d in enumerate(ir.DenseI64ArrayAttr(
                spread.attributes["broadcast_dimensions"]))}
            # the vector is the same along a dimension the sum keeps
            if any(size.get(d, 1) == 1 and result[d] > 1 for d in kept):
                return matrix
    return None


def _only_thin_products(module_op: ir.Operation) -> bool:
    """Whether a module has matrix products and each is a matrix-vector product of few rows
    (a thin side, `_thin_sides`, or a sum of broadcast products, `_reduced_product_matrix`)
    on a matrix of THIN_PRODUCT_BYTES or more that is not computed from constants: data
    tiling would repack that matrix, typically the weights, on every call."""
    matrices: list[list[ir.Value]] = []     # per product, the operands it may repack

    def visit(op):
        if op.name == "stablehlo.dot_general":
            matrices.append([op.operands[1 - side]
                             for side in _thin_sides(op, arguments(op)[1])])
        elif op.name == "stablehlo.reduce":
            matrix = _reduced_product_matrix(op)
            if matrix is not None:
                matrices.append([matrix])
        return ir.WalkResult.ADVANCE
    module_op.walk(visit)
    return bool(matrices) and all(
        any(_bytes(m.type) >= THIN_PRODUCT_BYTES and not _from_constants(m) for m in group)
        for group in matrices)


def _relaid_out_by_a_transpose(op: ir.Operation) -> bool:
    """Whether a dot_general's result reaches a transpose, or an operand comes from one,
    through reshapes alone (attention heads split off a projection, or merged into one)."""
    pending = [op.results[0]]
    while pending:
        for use in pending.pop().uses:
            user = use.owner.operation
            if user.name == "stablehlo.transpose":
                return True
            if user.name == "stablehlo.reshape":
                pending.extend(user.results)
    for value in op.operands:
        while isinstance(value.owner, (ir.Operation, ir.OpView)):
            producer = value.owner.operation
            if producer.name == "stablehlo.transpose":
                return True
            if producer.name != "stablehlo.reshape":
                break
            value = producer.operands[0]
    return False


# (op name, flags added when the module holds such an op, why, which ops count: None for all;
# a "builtin.module" rule's predicate judges the whole module)
MODULE_RULES: tuple[tuple[str, tuple[str, ...], str, object], ...] = (
    ("stablehlo.scatter", NO_AGGRESSIVE_FUSION,
     "O2/O3 fuse scatter index math into a dispatch over the stack limit", None),
    # measured (docs/performance.md): 2048^3 1.72x -> 1.36x XLA, 4096^3 2.49x -> 1.41x;
    # 1024^3, 512^3 and 256x1024x1024 unchanged
    ("stablehlo.dot_general", LARGE_MATMUL_TILES,
     "IREE's 256 KiB of operands per workgroup streams a large matmul's K from L3 in 16x16 "
     "tiles", _has_large_operand),
    # measured 2026-11-26 (docs/performance.md): wrong values for 40 of 360 shapes, all with
    # batch 2-3 and 3 or 6 rows, when the lhs is a row-normalised tensor (softmax weights)
    ("stablehlo.dot_general", NO_DATA_TILING,
     "IREE 3.13's data tiling miscompiles some small batched matmuls", _is_small_batched),
    # measured 2026-11-27 (docs/performance.md): x @ W of 1 row and a 4096x4096 argument W
    # 20.4 -> 4.3 ms (XLA 1.3 ms), 8 rows 20.4 -> 4.5 ms, 2048x2048 0.92-1.09 -> 0.59-0.67 ms;
    # from 64 rows on data tiling wins again, and with a constant W it packs W once
    ("builtin.module", NO_DATA_TILING,
     "data tiling repacks a matrix-vector product's whole matrix on every call",
     _only_thin_products),
    # measured 2026-11-27 (docs/performance.md): a transformer block (jax, 256 tokens, 8 heads)
    # 7.7 -> 5.1 ms (XLA 4.9); the bench suite unchanged with the option on everywhere
    ("stablehlo.dot_general", NO_TRANSPOSE_PROPAGATION,
     "IREE moves a head split into the projection's matmul, which it then neither data-tiles "
     "nor vectorizes along the rows", _relaid_out_by_a_transpose),
)


# IREE error text -> (flags a second compile adds, shlo passes it runs first, why)
RETRY_RULES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "circular dependency: input operation uses partition output": (
        NO_AGGRESSIVE_FUSION, ("shlo-barrier-loop-results{every-loop=true}",),
        "IREE's stream partitioning fails on some aggressive fusions and on some loops' "
        "consumers"),
    "but region successor needs": (
        (), ("shlo-barrier-loop-results{every-loop=true}",),
        "IREE's stream conversion fails on a loop carrying a value only its condition reads"),
    "does not dominate this use": (
        NO_AGGRESSIVE_FUSION, (), "a fused dispatch reads a value before it is computed "
                                  "(jax's value_and_grad of a cross-entropy)"),
    "exceeded stack allocation limit": (
        NO_AGGRESSIVE_FUSION, (), "a fused dispatch needs more stack than IREE allows"),
    "write affecting operations on global resources are restricted to workgroup distributed": (
        NO_AGGRESSIVE_FUSION, (), "a fused relayout (data tiling) left outside a workgroup"),
    "One or more operations with large vector sizes": (
        NO_AGGRESSIVE_FUSION, (), "a fused dispatch vectorizes a whole row at once"),
    "'vector.transfer_read' op requires valid padding vector elemental type": (
        NO_DATA_TILING, (), "a data-tiled matmul of run-time size fused with complex results "
                            "(an fft over a symbolic batch as DFT matmuls)"),
    "'linalg.pack' op expected padding_value has": (
        NO_DATA_TILING, (), "data tiling of a matmul whose operand is computed from a boolean "
                            "argument (i1 packed as i8)"),
    "'affine.delinearize_index' op no basis element may be statically non-positive": (
        NO_DATA_TILING, (), "data tiling of a matmul of run-time size fed by a softmax "
                            "(attention over a symbolic length)"),
}


# shlo pass -> (CPU features the host must have, features it must lack, why)
HOST_PASSES: dict[str, tuple[frozenset, frozenset, str]] = {
    # measured (docs/performance.md): 3x3 56x56x64 1.3-2.0x -> 0.8-0.9x XLA on AVX2; with
    # AVX-512 IREE's direct convolution is 0.62x XLA already
    "shlo-convolution-to-dots": (frozenset({"avx2"}), frozenset({"avx512f"}),
                                 "IREE's direct convolution is slow on AVX2, its matmuls are not"),
    # measured on AVX2: a bf16 1024^3 matmul 1.6 s -> 21 ms (XLA 17 ms), f16 39 -> 22 ms
    "shlo-widen-narrow-matmuls": (frozenset({"avx2"}), frozenset({"avx512_bf16"}),
                                  "IREE's bf16 matmul without bf16 instructions is 70-100x XLA"),
    # measured on Zen 5 (AVX512-BF16, no AVX512-FP16): an f16 1024^3 matmul 8.5 -> 5.9 ms
    # (XLA 5.3 ms); bf16 there is 0.5x XLA as it is
    "shlo-widen-narrow-matmuls{types=f16}": (
        frozenset({"avx2", "avx512_bf16"}), frozenset({"avx512_fp16"}),
        "IREE's f16 matmul without f16 instructions is 1.6x XLA"),
}


@functools.cache
def host_cpu_features() -> frozenset:
    """The CPU feature flags of this machine as Linux lists them (empty when unknown)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.partition(":")[2].split())
    except OSError:
        pass
    return frozenset()


def for_this_machine(target) -> bool:
    """Whether a target compiles for the CPU it runs on (cpu `host`, no CPU flag of the
    user's): its code then depends on that CPU's features."""
    return target.kind.name == "cpu" and target.cpu == "host" and not target.triple and not any(
        f.startswith("--iree-llvmcpu-target-cpu") for f in target.extra_flags)


def host_passes(target, features: frozenset | None = None) -> tuple[str, ...]:
    """The HOST_PASSES a target adds to shlo's default pipeline: a cpu target that compiles
    for this machine gets those whose features match."""
    if not for_this_machine(target):
        return ()
    features = host_cpu_features() if features is None else features
    return tuple(name for name, (need, lack, _why) in HOST_PASSES.items()
                 if need <= features and not lack & features)


# A second retry, where the first one's flags gave the same error again: (flags added to the
# first retry's, why). jax.random.multivariate_normal failed that way: IREE hoists the Cholesky
# factor of its constant covariance into the module's initializer and fails there on a data-
# tiling relayout, aggressive fusion or not. Without data tiling it compiled but failed at run
# time ("indirect buffer reference slot 0 is out range"); without constant-expression hoisting
# too it compiles and runs right.
SECOND_RETRIES: dict[str, tuple[tuple[str, ...], str]] = {
    "write affecting operations on global resources are restricted to workgroup distributed": (
        NO_DATA_TILING + NO_CONST_EXPR_HOISTING,
        "a constant expression hoisted into the initializer, with a data-tiling relayout"),
}


# RETRY_RULES of IREE's target-independent stages (stream partitioning and conversion): they
# apply to every target (measured on Vulkan as on CPU); the others are the CPU backend's.
ANY_TARGET_RETRIES = frozenset({"circular dependency: input operation uses partition output",
                                "but region successor needs"})


# The cuda target compiles at O2 (at O0 jax's LU of 64 or 128 rows came back all zeros on an
# H200); these O2 failures compile again at IREE's default O0, which compiled them (measured
# on jax programs: QR and SVD of 64 rows, jnp.unique, an embedding gradient, a cross-entropy).
O0 = ("--iree-opt-level=O0",)
CUDA_RETRIES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    **{message: (O0, (), "IREE's LLVMGPU pipeline fails on some dispatches at O2")
       for message in ("does not dominate this use", "op failed to distribute",
                       "failed to apply fusion + hoisting patterns")},
    "bytes of shared memory": (NO_AGGRESSIVE_FUSION, (), "a fused scatter keeps its whole "
                               "operand in shared memory (shlo-bench's scatter_add_1M: 4 MiB)"),
}


@functools.cache
def retries_fingerprint() -> str:
    """A short digest of every retry rule, for the compile cache's key."""
    import hashlib
    text = repr((sorted(RETRY_RULES.items()), sorted(SECOND_RETRIES.items()),
                 sorted(CUDA_RETRIES.items()), sorted(ANY_TARGET_RETRIES)))
    return "retries=" + hashlib.sha256(text.encode()).hexdigest()[:16]


def retry_with(target):
    """A function from a compile error's text to (flags, passes) to compile again with
    ((), () for no retry): every RETRY_RULES entry for cpu targets, CUDA_RETRIES for cuda
    targets, ANY_TARGET_RETRIES for all."""
    rules = {text: rule for text, rule in RETRY_RULES.items()
             if target.kind.name == "cpu" or text in ANY_TARGET_RETRIES}
    if target.kind.name == "cuda":
        rules.update(CUDA_RETRIES)

    def plan(message: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        applied = set(target.extra_flags)
        for text, (flags, passes, _why) in rules.items():
            if text not in message:
                continue
            if passes or not set(flags) <= applied:
                return flags, passes
            second = SECOND_RETRIES.get(text) if target.kind.name == "cpu" else None
            if second and not set(second[0]) <= applied:
                return second[0], ()
        return (), ()
    return plan


def module_flags(module_op: ir.Operation) -> tuple[str, ...]:
    """The extra cpu flags MODULE_RULES give a module (in table order, each once), then those
    its custom-call expansions asked for (`register_custom_call(..., cpu_flags=...)`)."""
    from ..passes.custom_calls.registry import CPU_FLAGS_ATTR
    matched: set[int] = set()

    def visit(op):
        for index, (name, _extra, _why, which) in enumerate(MODULE_RULES):
            if op.name == name and index not in matched and (which is None or which(op)):
                matched.add(index)
        return ir.WalkResult.ADVANCE
    module_op.walk(visit)
    flags: list[str] = []
    for index, (_name, extra, _why, _which) in enumerate(MODULE_RULES):
        if index in matched:
            flags += [f for f in extra if f not in flags]
    if CPU_FLAGS_ATTR in module_op.attributes:
        requested = [ir.StringAttr(a).value for a in ir.ArrayAttr(
            module_op.attributes[CPU_FLAGS_ATTR])]
        flags += [f for f in requested if f not in flags]
    return tuple(flags)


def tuned(target, module_op: ir.Operation):
    """`target` with the module's extra flags placed before the user's (cpu targets only)."""
    if target.kind.name != "cpu":
        return target
    extra = module_flags(module_op)
    if not extra:
        return target
    import dataclasses
    return dataclasses.replace(target, extra_flags=extra + target.extra_flags)
