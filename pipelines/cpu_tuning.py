"""Per-module IREE flags and shlo passes for the cpu target (and compile retries for every
target), chosen from what the module holds, as entries with ids.

`MODULE_RULES`: flags a module gets when it holds a matching op (`module_flags`, `tuned`).
`RETRIES`: a compile error's text -> flags and shlo passes to compile again with, once, and
once more where the same error comes back and the entry has a `then` step (`retry_with`).
`HOST_PASSES`: shlo passes the cpu target adds when it compiles for this machine and its CPU
features match (`host_passes`). Each id is a section of docs/iree_gaps.md (why, evidence,
when measured); flags the user gave come last and win (IREE takes the last value of a
repeated flag). shlo's cpu defaults are `CPU_DEFAULT_FLAGS` in shlo.pipelines.targets.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable

from iree.compiler import ir

from ..dialect.rebuild import arguments
from ..dialect.types import num_bits, num_elements
from ..passes.base import binary_body, defined_by

NO_AGGRESSIVE_FUSION = ("--iree-dispatch-creation-enable-aggressive-fusion=false",)
NO_DATA_TILING = ("--iree-opt-data-tiling=false",)
NO_CONST_EXPR_HOISTING = ("--iree-opt-const-expr-hoisting=false",)
NO_MULTI_USE_FUSION = ("--iree-dispatch-creation-fuse-multi-use=false",)
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


def _thin_sides(op: ir.Operation, numbers: dict, below: int = SMALL_FREE_SIZE) -> list[int]:
    """The operands (0: lhs, 1: rhs) of a dot_general (`numbers`: its dimension numbers, as
    `arguments` reads them) whose free (neither batch nor contracting) dimensions are static
    and hold fewer than `below` elements."""
    thin = []
    for index, side in enumerate(("lhs", "rhs")):
        shape = ir.RankedTensorType(op.operands[index].type).shape
        used = set(numbers.get(f"{side}_batching_dimensions") or ()) | \
            set(numbers.get(f"{side}_contracting_dimensions") or ())
        free = [shape[d] for d in range(len(shape)) if d not in used]
        if all(size >= 0 for size in free) and math.prod(free) < below:
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


def _thin_products_in_loops(module_op: ir.Operation) -> bool:
    """Whether a while loop's body holds a matrix product with a side of at most
    SMALL_FREE_SIZE free elements (or a sum of broadcast products, `_reduced_product_matrix`):
    data tiling would repack its matrix on every trip, whatever its size. A loop whose carried
    values all start from constants is left out (jax.random.multivariate_normal's Cholesky of
    a constant covariance, which IREE computes when the module loads: without data tiling that
    initializer failed at run time)."""
    found = []

    def visit(op):
        if op.name == "stablehlo.dot_general":
            _, numbers = arguments(op)
            if _thin_sides(op, numbers, SMALL_FREE_SIZE + 1):
                found.append(op)
        elif op.name == "stablehlo.reduce" and _reduced_product_matrix(op) is not None:
            found.append(op)
        return ir.WalkResult.ADVANCE if not found else ir.WalkResult.INTERRUPT

    def visit_loops(op):
        if op.name == "stablehlo.while" and not all(_from_constants(v) for v in op.operands):
            for inner in op.regions[1].blocks[0].operations:
                inner.operation.walk(visit)
        return ir.WalkResult.ADVANCE if not found else ir.WalkResult.INTERRUPT
    module_op.walk(visit_loops)
    return bool(found)


# Ops whose values, computed from constants alone, are index arithmetic that IREE fuses into
# their consumers for free (`_only_index_constants`).
_INDEX_OPS = frozenset("stablehlo." + name for name in (
    "iota", "broadcast_in_dim", "reshape", "slice", "convert", "pad", "concatenate", "compare",
    "select", "clamp", "add", "subtract", "multiply", "divide", "remainder", "and", "or", "not",
    "xor", "shift_left", "shift_right_logical", "shift_right_arithmetic", "maximum", "minimum",
    "negate", "reduce"))
_LAYOUT_OPS = frozenset(("stablehlo.constant", "stablehlo.broadcast_in_dim",
                         "stablehlo.reshape", "stablehlo.convert"))
_BARRIER_OPS = frozenset(("iree_tensor_ext.compute_barrier.start",
                          "iree_tensor_ext.compute_barrier.end"))
_CONTROL_FLOW = frozenset(("stablehlo.while", "stablehlo.if", "stablehlo.case"))
INDEX_CONSTANT_ELEMENTS = 1 << 20


def _only_index_constants(module_op: ir.Operation) -> bool:
    """Whether every value the module computes from constants alone is integer index
    arithmetic (`_INDEX_OPS` on integers and booleans, reduces by one such op included; at
    most INDEX_CONSTANT_ELEMENTS elements in all) and there is some (an iota, a mask), no
    matrix product or convolution reads one (IREE packs a constant weight for data tiling
    once, when the module loads) and the module has no control flow (IREE failed to compile
    loops without hoisting: eigh)."""
    derived: set = set()
    elements, computed, ok = 0, False, True

    def from_constants(value: ir.Value) -> bool:
        owner = value.owner
        return isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation in derived

    def index_op(op: ir.Operation) -> bool:
        if op.name != "stablehlo.reduce":
            return op.name in _INDEX_OPS
        combine = binary_body(op)
        return combine is not None and combine.name in _INDEX_OPS

    def visit(op):
        nonlocal elements, computed, ok
        name = op.name
        if name in _CONTROL_FLOW or name in ("stablehlo.dot_general", "stablehlo.convolution") \
                and any(from_constants(v) for v in op.operands):
            ok = False
        elif name in ("stablehlo.constant", "stablehlo.iota") or name in _BARRIER_OPS and \
                all(from_constants(v) for v in op.operands):
            derived.add(op)
        elif op.operands and all(from_constants(v) for v in op.operands):
            if not index_op(op):
                ok = False
            else:
                derived.add(op)
                if name not in _LAYOUT_OPS:
                    # float values (moe_layer's padded zeros) are left out
                    ok = all(_integral(v.type) for v in op.results)
                    computed = True
                    values = op.operands if name == "stablehlo.reduce" else op.results
                    elements += sum(num_elements(ir.RankedTensorType(v.type).shape) or 0
                                    for v in values)
        return ir.WalkResult.ADVANCE if ok else ir.WalkResult.INTERRUPT
    module_op.walk(visit)
    return ok and computed and elements <= INDEX_CONSTANT_ELEMENTS


def _integral(t: ir.Type) -> bool:
    """Whether a tensor type holds integers or booleans."""
    try:
        element = ir.RankedTensorType(t).element_type
    except ValueError:
        return False
    return isinstance(element, (ir.IntegerType, ir.IndexType))


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


@dataclasses.dataclass(frozen=True)
class ModuleRule:
    """Flags a module gets when it holds an op named `op` that `which` accepts (None: every
    such op; for "builtin.module", `which` judges the whole module)."""

    id: str
    op: str
    flags: tuple[str, ...]
    what: str
    which: Callable[[ir.Operation], bool] | None = None


MODULE_RULES: tuple[ModuleRule, ...] = (
    ModuleRule("cpu-scatter-stack", "stablehlo.scatter", NO_AGGRESSIVE_FUSION,
               "O2/O3 fuse scatter index math into a dispatch over the stack limit"),
    ModuleRule("cpu-large-matmul-tiles", "stablehlo.dot_general", LARGE_MATMUL_TILES,
               "IREE's 256 KiB of operands per workgroup streams a large matmul's K from L3 in "
               "16x16 tiles", _has_large_operand),
    ModuleRule("cpu-small-batched-matmul", "stablehlo.dot_general", NO_DATA_TILING,
               "IREE's data tiling miscompiles some small batched matmuls", _is_small_batched),
    ModuleRule("cpu-thin-matvec", "builtin.module", NO_DATA_TILING,
               "data tiling repacks a matrix-vector product's whole matrix on every call",
               _only_thin_products),
    ModuleRule("cpu-loop-thin-products", "builtin.module", NO_DATA_TILING,
               "data tiling repacks a thin matrix product's matrix on every trip of a loop",
               _thin_products_in_loops),
    ModuleRule("cpu-head-split-transpose", "stablehlo.dot_general", NO_TRANSPOSE_PROPAGATION,
               "IREE moves a head split into the projection's matmul, which it then neither "
               "data-tiles nor vectorizes along the rows", _relaid_out_by_a_transpose),
    ModuleRule("cpu-index-constants", "builtin.module", NO_CONST_EXPR_HOISTING,
               "IREE hoists iotas and masks computed from constants into executables of their "
               "own, which run once but each cost a compile", _only_index_constants),
)


@dataclasses.dataclass(frozen=True)
class Retry:
    """A second compile for a compile error that contains one of `errors`: `flags` added and
    `passes` run on the module first; `then` flags added where that gives the same error again.
    `targets`: the target kinds it applies to ("*": every target)."""

    id: str
    errors: tuple[str, ...]
    flags: tuple[str, ...]
    passes: tuple[str, ...]
    what: str
    targets: tuple[str, ...]
    then: tuple[str, ...] = ()
    then_what: str = ""


O0 = ("--iree-opt-level=O0",)
_LOOP_RESULTS = ("shlo-barrier-loop-results{every-loop=true}",)
_CPU = ("cpu",)

# Entries of one target are tried in table order; the first whose error text matches and whose
# flags and passes are not applied yet gives the retry.
RETRIES: tuple[Retry, ...] = (
    Retry("any-stream-circular", ("circular dependency: input operation uses partition output",),
          NO_AGGRESSIVE_FUSION, _LOOP_RESULTS,
          "IREE's stream partitioning fails on some aggressive fusions and on some loops' "
          "consumers", ("*",)),
    Retry("any-region-successor", ("but region successor needs",), (), _LOOP_RESULTS,
          "IREE's stream conversion fails on a loop carrying a value only its condition reads",
          ("*",)),
    Retry("cpu-use-before-def", ("does not dominate this use",), NO_AGGRESSIVE_FUSION, (),
          "a fused dispatch reads a value before it is computed (jax's value_and_grad of a "
          "cross-entropy)", _CPU),
    Retry("cpu-stack-limit", ("exceeded stack allocation limit",), NO_AGGRESSIVE_FUSION, (),
          "a fused dispatch needs more stack than IREE allows", _CPU,
          then=NO_MULTI_USE_FUSION,
          then_what="a data-tiled matmul fused with a consumer of several results (a VAE's "
                    "sigmoid read by two logs: three unpacks, 58 KB of stack)"),
    Retry("cpu-workgroup-relayout", (
        "write affecting operations on global resources are restricted to workgroup "
        "distributed",), NO_AGGRESSIVE_FUSION, (),
        "a fused relayout (data tiling) left outside a workgroup", _CPU,
        then=NO_DATA_TILING + NO_CONST_EXPR_HOISTING,
        then_what="a constant expression hoisted into the initializer, with a data-tiling "
                  "relayout"),
    Retry("cpu-large-vectors", ("One or more operations with large vector sizes",),
          NO_AGGRESSIVE_FUSION, (), "a fused dispatch vectorizes a whole row at once", _CPU,
          then=NO_MULTI_USE_FUSION,
          then_what="a gather's dispatch that also writes the data-tiled operand of a bf16 "
                    "matmul (a second, encoded result)"),
    Retry("cpu-complex-padding", (
        "'vector.transfer_read' op requires valid padding vector elemental type",),
        NO_DATA_TILING, (), "a data-tiled matmul of run-time size fused with complex results "
                            "(an fft over a symbolic batch as DFT matmuls)", _CPU),
    Retry("cpu-bool-pack", ("'linalg.pack' op expected padding_value has",), NO_DATA_TILING, (),
          "data tiling of a matmul whose operand is computed from a boolean argument (i1 "
          "packed as i8)", _CPU),
    Retry("cpu-load-from-buffer", (
        "'iree_codegen.load_from_buffer' op buffer and tensor shapes must be compatible",),
        NO_DATA_TILING, (), "data tiling of a matmul whose operand is a padded, reshaped "
                            "argument, beside a constant expression (threefry bits)", _CPU),
    Retry("cpu-delinearize", (
        "'affine.delinearize_index' op no basis element may be statically non-positive",),
        NO_DATA_TILING, (), "data tiling of a matmul of run-time size fed by a softmax "
                            "(attention over a symbolic length)", _CPU),
    Retry("cpu-codegen-failure", ("failed to run translation of source executable to target "
                                  "executable",), NO_AGGRESSIVE_FUSION, (),
          "IREE's codegen fails on a fused dispatch without saying why (a data-tiled matmul "
          "fused with the two results of its operand's producer)", _CPU,
          then=NO_MULTI_USE_FUSION, then_what="the same fusion made without aggressive "
          "fusion"),
    Retry("cuda-o2-retry", ("does not dominate this use", "op failed to distribute",
                            "failed to apply fusion + hoisting patterns"), O0, (),
          "IREE's LLVMGPU pipeline fails on some dispatches at O2", ("cuda",)),
    Retry("cuda-shared-memory", ("bytes of shared memory",), NO_AGGRESSIVE_FUSION, (),
          "a fused scatter keeps its whole operand in shared memory (shlo-bench's "
          "scatter_add_1M: 4 MiB)", ("cuda",)),
)


@dataclasses.dataclass(frozen=True)
class HostPass:
    """A shlo pass (with its options) for a cpu target compiling for a CPU that has every
    feature of `needs` and none of `lacks` (as /proc/cpuinfo names them)."""

    id: str
    pass_: str
    needs: frozenset[str]
    lacks: frozenset[str]
    what: str


HOST_PASSES: tuple[HostPass, ...] = (
    HostPass("cpu-avx2-convolutions", "shlo-convolution-to-dots", frozenset({"avx2"}),
             frozenset({"avx512f"}), "IREE's direct convolution is slow on AVX2, its matmuls "
                                     "are not"),
    HostPass("cpu-avx2-bf16-matmuls", "shlo-widen-narrow-matmuls", frozenset({"avx2"}),
             frozenset({"avx512_bf16"}),
             "IREE's bf16 matmul without bf16 instructions is 70-100x XLA"),
    HostPass("cpu-avx512bf16-wide-matmuls",
             "shlo-widen-narrow-matmuls{types=bf16 min-free-size=128}",
             frozenset({"avx512_bf16", "amx_bf16"}), frozenset(),
             "IREE's bf16 matmul (vdpbf16ps tiles, no AMX) is slower than its f32 one where "
             "both free sizes are large"),
    HostPass("cpu-f16-matmuls", "shlo-widen-narrow-matmuls{types=f16}",
             frozenset({"avx2", "avx512_bf16"}), frozenset({"avx512_fp16"}),
             "IREE's f16 matmul without f16 instructions is 1.6x XLA"),
)


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
    return tuple(h.pass_ for h in HOST_PASSES if h.needs <= features and not h.lacks & features)


@functools.cache
def retries_fingerprint() -> str:
    """A short digest of every retry entry, for the compile cache's key (computed from the same
    text as before the entries had ids, so cached compiles stay valid)."""
    import hashlib
    first = {e: (r.flags, r.passes, r.what) for r in RETRIES if "cuda" not in r.targets
             for e in r.errors}
    second = {e: (r.then, r.then_what) for r in RETRIES if r.then for e in r.errors}
    cuda = {e: (r.flags, r.passes, r.what) for r in RETRIES if "cuda" in r.targets
            for e in r.errors}
    anywhere = {e for r in RETRIES if "*" in r.targets for e in r.errors}
    text = repr((sorted(first.items()), sorted(second.items()), sorted(cuda.items()),
                 sorted(anywhere)))
    return "retries=" + hashlib.sha256(text.encode()).hexdigest()[:16]


def retry_with(target):
    """A function from a compile error's text to (flags, passes) to compile again with
    ((), () for no retry): the RETRIES entries for the target's kind, in table order."""
    kind = target.kind.name
    rules = [r for r in RETRIES if "*" in r.targets or kind in r.targets]

    def plan(message: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        applied = set(target.extra_flags)
        for rule in rules:
            if not any(text in message for text in rule.errors):
                continue
            if rule.passes or not set(rule.flags) <= applied:
                return rule.flags, rule.passes
            if rule.then and not set(rule.then) <= applied:
                return rule.then, ()
        return (), ()
    return plan


def module_flags(module_op: ir.Operation) -> tuple[str, ...]:
    """The extra cpu flags MODULE_RULES give a module (in table order, each once), then those
    its custom-call expansions asked for (`register_custom_call(..., cpu_flags=...)`)."""
    from ..passes.custom_calls.registry import CPU_FLAGS_ATTR
    matched: set[int] = set()

    def visit(op):
        for index, rule in enumerate(MODULE_RULES):
            if op.name == rule.op and index not in matched and (
                    rule.which is None or rule.which(op)):
                matched.add(index)
        return ir.WalkResult.ADVANCE
    module_op.walk(visit)
    flags: list[str] = []
    for index, rule in enumerate(MODULE_RULES):
        if index in matched:
            flags += [f for f in rule.flags if f not in flags]
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
    return dataclasses.replace(target, extra_flags=extra + target.extra_flags)
