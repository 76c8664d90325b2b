"""shlo-legalize-vulkan-ops: rewrite the ops IREE 3.13's SPIR-V backend rejects or computes
wrongly on Vulkan into forms it gets right, with the spec's semantics.

Measured on Mesa's lavapipe (`vulkan:llvmpipe`); the CPU computes all of these correctly, so
the Vulkan target adds this pass to shlo's default pipeline (`TargetKind.passes`) and the CPU
keeps the original ops:

* `iota` of bf16 fails to compile (a 32-bit to 16-bit spirv.Bitcast; so does a float
  convert to bf16 in a dispatch that reads no tensor): iota counts in f32, and the value is
  rounded to bf16 on its bits (the top 16 bits of the f32 plus the round-to-nearest-even
  carry: shlo-round-narrow-float-converts' `to_bf16_on_bits`, which integer -> bf16
  converts use on every target);
* an `iota` of rank 2 or more inside a reduce's dispatch fails to compile at some sizes
  ("failed to legalize operation 'memref.alloc' ... memref<16xindex, Workgroup>": the row
  of a 16x16 or 64x64 matrix picked by `sum(where(iota == j, x, 0), axis=0)`, the pattern of
  shlo's LAPACK decompositions), and so does a 1-D one at lengths 16, 48 and 64: an iota
  becomes a broadcast of a 1-D iota, which becomes a constant (up to 4096 elements);
* `dot_general` with a bf16 result fails to compile (the same bitcast, from the f32
  accumulator), and so, from about 64x64 by 64x192, do bf16 operands and an f32 product
  rounded to bf16 in the matmul's dispatch (vector.bitcast of vector<4xbf16>): operands are
  widened to f32 behind fusion barriers (exact), the product is f32, rounded to bf16 on the
  bits once, and an f32 product that is rounded to bf16 is stored first (behind a
  `compute_barrier.end`, a consumer barrier);
* a `reduce` whose operand is a bf16 -> f32 convert (batch norm's mean of bf16 activations)
  took minutes to compile with the convert fused in: the widened operand goes behind a
  fusion barrier;
* `reduce` over bf16 values fails to compile (the same bitcast): operands, inits and body
  compute in f32 (a more accurate accumulation, as XLA's bf16 reductions) and each result
  is rounded to bf16 on the bits once;
* a min or max `reduce` over signed integers pads its vectors with the unsigned identity
  when the length is not a multiple of its width: jnp.min of 24 positive int32 gave -1, and
  jnp.max of negative ones 0 (unsigned integers and floats are right): it reduces the values
  moved to unsigned order (x xor the sign bit, bitcast) and moves the result back;
* an f64 `convolution` whose operand is computed in its dispatch (a broadcast 3-D input)
  gave wrong values, and so did an f64 `dot_general` with a one-hot operand computed in its
  dispatch (shlo's Jacobi rotations in f64 eigh and svd): their computed operands go behind
  a fusion barrier;
* arithmetic with a constant float zero is folded inexactly by Mesa's shader compiler (the
  SPIR-V keeps `x * 0.0`; the driver makes it 0): x * 0, x / 0 and 0 / x gave 0 for every x
  (infinities and NaN included: jnp.nan_to_num(x / 0.0) was 0), x + 0 kept a -0, 0 - x gave
  -0 for x = 0: a zero constant (through broadcasts, reshapes, converts and transposes) that
  multiply, divide, add or subtract reads goes behind a fusion barrier, so the shader reads
  it from memory;
* a sum of negated values fails to compile ("Failed to get an identity value for the
  reduction operation": IREE folds the negate into the combiner; jax's gradient of
  log_softmax): it is the negation of the sum of the values (with the init negated too),
  which is exact;
* `count_leading_zeros` of 8-, 16- and 64-bit integers fails to legalize (SPIR-V counts 32
  bits): 8 and 16 bits count zero-extended to 32 bits, less the 32 - N zeros that adds; 64
  bits count the two 32-bit halves, clz(high) or 32 + clz(low) when the high half is zero;
* unsigned `divide` and `remainder` of every width fail to compile ("bitwidth emulation is not
  implemented yet on unsigned op"): by a constant power of two 2^k they are a shift right by
  k and a mask (IREE narrowed the wide division below back to an unsigned one there: jax's
  searchsorted, digitize and histogram halve a ui32 in a loop); otherwise 8 and 16 bits
  divide in i32, 32 bits in i64 (signed division of zero-extended values is exact), 64 bits
  as 2 ((a >> 1) / b) in i64, corrected by one when a - q b >= b, and a divisor of 2^63 or
  more goes into a once or not at all;
* signed `remainder` of the most negative integer is wrong (Rem(-2^31, 3) gives 2, not -2):
  the dividend -2^N moves to -2^N + |divisor|, which has the same remainder (both are <= 0,
  and their magnitudes differ by |divisor|); for divisor -2^N, |divisor| wraps to -2^N and the
  dividend to 0, whose remainder 0 is the right one;
* float `remainder` below f64 is inexact (Mesa computes x - y trunc(x / y): -0.437 for
  fmod(-15.27, -2.47) in f16, want -0.441; +0 for fmod(-2.5, -2.5)): it takes the exact f64
  fmod of shlo-expand-f64-math (f16/bf16/f32 values and their remainders are exact in f64),
  unrolled to 13 steps (enough for f32 exponents; IREE's Vulkan runtime fails on a function
  with two of its while loops: "transient buffer has already been queued for deallocation"),
  unless the target has no f64 (`f64=false`, set by such targets), where it stays IREE's;
* `reduce_window` over complex values with a product or a max/min body (jnp.cumprod,
  cummax, cummin of complex64) kills the compiler (SIGSEGV; a complex sum compiles): it runs
  over the real and imaginary parts as a two-operand window whose body computes on (re, im)
  pairs (real, imag, complex, add, subtract, multiply and select map onto the parts);
* IREE's own `fft` (1-D, power-of-two length) of a batch fails to compile at length 32
  and more when `real` or `imag` reads its result ("'vector.transfer_read' op with rank > 1
  should be broken down"; `abs` compiles, as does length 16), and so does its IRFFT, which
  takes the real part inside: every such fft's result goes behind a fusion barrier,
  and an IRFFT is the real part of the complex IFFT of the Hermitian extension
  (shlo-expand-fft's `irfft_through_ifft`);
* a `reduce_window` (overlapping windows) whose input is computed from 8- or 16-bit numbers
  in the same dispatch (bf16/f16 -> f32 converts, which shlo-accumulate-in-f32 writes for
  every narrow-float sum window; i8 -> f32) reads wrong values (an f16 2x2 window sum off by
  1e5): such inputs go through a fusion barrier, so the window reads them from memory;
* a `reduce` that keeps its operand's innermost dimension (`x - mean(x, axis=0)`,
  softmax over axis 0, x * argmax(x, axis=0)), or whose users broadcast its result along
  other dimensions than it came from (the signs of a matrix's diagonal scaling its columns,
  in shlo's SVD), gives wrong values from 16 rows on when those users are fused into its
  dispatch (IREE's own pipeline alone too): its results go through a fusion barrier, so the
  users read them from memory;
* `convolution` with feature_group_count > 1 (other than depthwise: one input feature per
  group) or batch_group_count > 1 gives zeros: it becomes the spec's own definition, one
  convolution per group over slices of lhs and rhs, concatenated along the output feature
  dimension.

The fences are fusion barriers (`chlo_stablehlo_extras.fusion_barrier`): the value gets a
dispatch of its own, with no wait on the host. They were optimization barriers until
2026-11-27, which also made jax's eigvals of a 12x12 come back NaN here.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import constant_values, element_dtype
from ..lib.expr import (Num, attributes, clone_retyped, complex_, element_of, float_info, imag,
    is_complex, is_float, real, real_element, select, shift_right_logical, with_element)
from ..lib.builders import FUSION_BARRIER, fusion_barrier
from ..custom_calls.cumulative_window import is_identity
from ..expand.expand_fft import irfft_through_ifft
from ..base import binary_body, nested_ops
from ..lib.elementwise import ELEMENTWISE_OPS
from ..op_rules import CANONICAL, RulesPass, apply_rules
from ..element_types.round_narrow_float_converts import to_bf16_on_bits


def _iota(op: ir.Operation):
    """bf16 counts in f32, rounded on the bits; an iota of rank 2 or more is a broadcast of a
    1-D iota (the n-D one in a reduce's dispatch fails to compile)."""
    t = ir.RankedTensorType(op.results[0].type)
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    if t.rank > 1 and t.has_static_shape:
        line = stablehlo.iota(iota_dimension=0, result_type=ir.RankedTensorType.get(
            [t.shape[dimension]], t.element_type))
        return [stablehlo.broadcast_in_dim(line, broadcast_dimensions=[dimension],
                                           result_type=t)]
    if str(t.element_type) != "bf16":
        return None
    counted = Num(stablehlo.iota(iota_dimension=dimension,
                                 result_type=with_element(t, ir.F32Type.get())))
    return [to_bf16_on_bits(counted).value]


def _consumer_barrier(value: ir.Value) -> ir.Value:
    """`iree_tensor_ext.compute_barrier.end`: the value, unchanged, with none of its consumers
    fused into its producer's dispatch (a `compute_barrier.start` keeps consumers apart from
    producers of elementwise values, but IREE 3.13 still fused a truncf into a matmul's)."""
    return ir.Operation.create("iree_tensor_ext.compute_barrier.end", results=[value.type],
                               operands=[value]).result


def _bf16_dot(op: ir.Operation):
    """A dot_general with bf16 operands or result: the product of the operands widened to f32
    (exact; each widening a dispatch of its own) in f32, rounded to bf16 once where the result
    is bf16 (`_fence_bf16_rounded_product` then stores the f32 product first)."""
    result = ir.RankedTensorType(op.results[0].type)
    operands = list(op.operands)
    if not result.has_static_shape or "bf16" not in (
            str(result.element_type), *(str(element_of(v)) for v in operands)):
        return None
    operands = [fusion_barrier(Num(v).to("f32").value) if str(element_of(v)) == "bf16" else v
                for v in operands]
    wide = ir.Operation.create("stablehlo.dot_general",
                               results=[with_element(result, ir.F32Type.get())],
                               operands=operands, attributes=attributes(op)).result
    if str(result.element_type) == "f32":
        return [wide]
    if str(result.element_type) != "bf16":
        return [Num(wide).to(str(result.element_type)).value]
    return [to_bf16_on_bits(Num(wide)).value]


def _f32_for_bf16(t: ir.Type) -> ir.Type:
    shaped = ir.RankedTensorType(t)
    return with_element(shaped, ir.F32Type.get()) if str(shaped.element_type) == "bf16" else t


def _bf16_reduce(op: ir.Operation):
    """A reduce over bf16 values: in f32 (operands, inits and body), each result rounded to
    bf16 once."""
    if not any(str(element_of(v)) == "bf16" for v in op.operands):
        return None
    wide = [Num(v).to("f32").value if str(element_of(v)) == "bf16" else v for v in op.operands]
    half = len(wide) // 2
    body = op.regions[0].blocks[0]
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]

    def cloned_body(*args):
        return clone_retyped(body, args, _f32_for_bf16)

    results = stablehlo.reduce(wide[:half], wide[half:], dimensions=dimensions, body=cloned_body)
    results = results if isinstance(results, (list, tuple)) else [results]
    return [to_bf16_on_bits(Num(r)).value if str(element_of(old)) == "bf16" else r
            for r, old in zip(results, op.results)]


def _signed_min_max_reduce(op: ir.Operation):
    """A min or max reduce over signed integers: over unsigned ones of the same width, the
    values moved by 2^(N-1) (x xor the sign bit, which keeps their order), and back."""
    if len(op.operands) != 2:
        return None
    element = element_of(op.operands[0])
    if not isinstance(element, ir.IntegerType) or not element.is_signless or element.width < 8:
        return None
    combine = binary_body(op)
    if combine is None or combine.name not in ("stablehlo.minimum", "stablehlo.maximum"):
        return None
    sign = -(1 << (element.width - 1))
    unsigned = ir.IntegerType.get_unsigned(element.width)
    moved = [(Num(v) ^ sign).bitcast(unsigned).value for v in op.operands]
    combine_unsigned = (stablehlo.minimum if combine.name == "stablehlo.minimum"
                        else stablehlo.maximum)
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    result = stablehlo.reduce([moved[0]], [moved[1]], dimensions=dimensions,
                              body=lambda a, b: combine_unsigned(a, b))
    return [(Num(result).bitcast(element) ^ sign).value]


def sum_of_negation(op: ir.Operation):
    """A sum of negated values: the negation of their sum (exact: rounding to nearest is
    symmetric). IREE folds the negate into the sum's combiner, and a subtraction has no
    identity: "Failed to get an identity value for the reduction operation" (jax's gradient
    of log_softmax)."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    producer, combine = x.owner, binary_body(op)
    if (isinstance(producer, ir.Block) or producer.name != "stablehlo.negate"
            or combine is None or combine.name != "stablehlo.add"):
        return None
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    total = stablehlo.reduce([producer.operands[0]], [stablehlo.negate(init)],
                             dimensions=dimensions, body=lambda a, b: stablehlo.add(a, b))
    return [stablehlo.negate(total)]


def _reduce(op: ir.Operation):
    return _bf16_reduce(op) or _signed_min_max_reduce(op) or sum_of_negation(op)


def _pairs_body(body: ir.Block, args: list[ir.Value]) -> list[ir.Value]:
    """A one-complex-operand window body evaluated on (re, im) pairs: `args` are (re1, im1,
    re2, im2); real, imag, complex, add, subtract, multiply and select of complex values map
    onto the parts, every other op is cloned on real values (`_splittable` says the body has
    no other op on complex values)."""
    env: dict = {body.arguments[0]: (Num(args[0]), Num(args[1])),
                 body.arguments[1]: (Num(args[2]), Num(args[3]))}
    def lookup(v: ir.Value):
        if v not in env and is_complex(element_of(v)):  # a complex value from outside
            env[v] = (real(Num(v)), imag(Num(v)))
        return env.get(v, v)

    for inner in body.operations:
        operands = [lookup(v) for v in inner.operands]
        if inner.name == "stablehlo.return":
            return [operands[0][0].value, operands[0][1].value]
        if not any(isinstance(v, tuple) for v in operands) and not any(
                is_complex(element_of(r)) for r in inner.results):
            clone = ir.Operation.create(inner.name, results=[r.type for r in inner.results],
                                        operands=operands, attributes=attributes(inner))
            env.update(zip(inner.results, clone.results))
            continue
        if inner.name == "stablehlo.real":
            value = operands[0][0]
        elif inner.name == "stablehlo.imag":
            value = operands[0][1]
        elif inner.name == "stablehlo.complex":
            value = (Num(operands[0]), Num(operands[1]))
        elif inner.name in ("stablehlo.add", "stablehlo.subtract"):
            (ar, ai), (br, bi) = operands
            value = (ar + br, ai + bi) if inner.name == "stablehlo.add" else (ar - br, ai - bi)
        elif inner.name == "stablehlo.multiply":
            (ar, ai), (br, bi) = operands
            value = (ar * br - ai * bi, ar * bi + ai * br)
        else:                                           # select
            p, (ar, ai), (br, bi) = operands
            value = (select(Num(p), ar, br), select(Num(p), ai, bi))
        env[inner.results[0]] = value.value if isinstance(value, Num) else value
    raise ValueError("a window body without a stablehlo.return")


_PAIR_OPS = {"stablehlo.real", "stablehlo.imag", "stablehlo.complex", "stablehlo.add",
             "stablehlo.subtract", "stablehlo.multiply", "stablehlo.select",
             "stablehlo.return"}


def _splittable(body: ir.Block) -> bool:
    """Every op of the body that touches complex values is one _pairs_body maps."""
    def touches_complex(o):
        return any(is_complex(element_of(v)) for v in (*o.operands, *o.results))
    return all(o.name in _PAIR_OPS or not touches_complex(o) for o in body.operations)


def _complex_window(op: ir.Operation):
    """A reduce_window over complex values (cumulative products, maxima, minima): the same
    window over the real and imaginary parts, its body on (re, im) pairs."""
    body = op.regions[0].blocks[0]
    if (len(op.operands) != 2 or not is_complex(element_of(op.operands[0]))
            or not _splittable(body)):
        return None
    x, init = Num(op.operands[0]), Num(op.operands[1])
    _, kw = arguments(op)
    kw.pop("result_type", None)
    kw["body"] = lambda *args: _pairs_body(body, list(args))
    re, im = stablehlo.reduce_window([real(x).value, imag(x).value],
                                     [real(init).value, imag(init).value], **kw)
    return [complex_(Num(re), Num(im)).value]


def _fft(op: ir.Operation):
    """IREE's own fft (1-D, power-of-two length): its result behind a barrier, so that no
    consumer fuses into it; an IRFFT through the complex IFFT."""
    lengths = list(ir.DenseI64ArrayAttr(op.attributes["fft_length"]))
    if len(lengths) != 1 or not ir.RankedTensorType(op.results[0].type).has_static_shape:
        return None
    fft_type = enum_name(op.attributes["fft_type"])
    if fft_type == "IRFFT":
        return [irfft_through_ifft(op.operands[0], lengths[0])]
    users = [use.owner.name for use in op.results[0].uses]
    if users and all(name == FUSION_BARRIER for name in users):
        return None
    fft = stablehlo.fft(op.operands[0], fft_type=fft_type, fft_length=lengths)
    return [fusion_barrier(fft)]


def _reads_narrow_values(value: ir.Value, depth: int = 8) -> bool:
    """Whether the ops computing `value` (followed back `depth` ops) read 8- or 16-bit
    numbers (booleans aside). Each value is looked at once: the producers form a DAG."""
    seen, frontier = set(), [value]
    for _ in range(depth):
        operands = [v for value in frontier if not isinstance(value.owner, ir.Block)
                    for v in value.owner.operands if v not in seen]
        seen.update(operands)
        for v in operands:
            t = v.type.maybe_downcast()
            if isinstance(t, ir.RankedTensorType) and 1 < getattr(t.element_type, "width", 32) < 32:
                return True
        frontier = operands
    return False


def _fence_narrow_window_inputs(window: ir.Operation) -> None:
    """A reduce_window's inputs computed from 8- or 16-bit numbers (the f32 converts of
    shlo-accumulate-in-f32, x.astype(f32) before a pooling) go through a barrier: fused into
    the window's dispatch they read wrong values on Vulkan."""
    window = window.operation
    half = len(window.operands) // 2
    inputs = [v for v in list(window.operands)[:half]
              if ir.RankedTensorType(v.type).has_static_shape and _reads_narrow_values(v)]
    if not inputs:
        return
    with ir.InsertionPoint(window), window.location:
        fenced = [fusion_barrier(v) for v in inputs]
    for old, new in zip(inputs, fenced):
        for i in range(half):
            if window.operands[i] == old:
                window.operands[i] = new


def _moves_dimensions(result: ir.Value, kept: list[int]) -> bool:
    """Whether a broadcast_in_dim reached from a reduce's `result` (through elementwise ops and
    broadcasts) puts one of its dimensions at another position than the reduce's operand has
    it (`kept`: the operand dimension of each of the result's): the diagonal of a matrix
    scaling its columns, where the reduction ran over rows."""
    pending = [(result, list(kept))]
    while pending:
        value, where = pending.pop()
        for use in value.uses:
            user = use.owner.operation
            if user.name == "stablehlo.broadcast_in_dim":
                dims = list(ir.DenseI64ArrayAttr(user.attributes["broadcast_dimensions"]))
                placed = [None] * ir.RankedTensorType(user.results[0].type).rank
                for source, target in zip(where, dims):
                    placed[target] = source
                if any(d is not None and d != position for position, d in enumerate(placed)):
                    return True
                pending.append((user.results[0], placed))
            elif user.name in ELEMENTWISE_OPS and len(user.results) == 1 and (
                    user.results[0].type.shape == value.type.shape):
                pending.append((user.results[0], where))
    return False


def _fence_widened_bf16_inputs(reduce: ir.Operation) -> None:
    """A reduce reads its bf16 -> f32 converted inputs from memory: the convert fused into a
    sum over the outer dimension (batch norm's mean of a [4, 16, 16, 32] bf16 activation,
    a 1024x32 column sum) took minutes to compile for lavapipe (cnn_train_bf16 over 400 s)."""
    for i, operand in enumerate(list(reduce.operands)[:len(reduce.operands) // 2]):
        producer = operand.owner
        if (isinstance(producer, ir.Block) or producer.name != "stablehlo.convert"
                or str(element_of(producer.operands[0])) != "bf16"
                or not ir.RankedTensorType(operand.type).has_static_shape):
            continue
        with ir.InsertionPoint(reduce), reduce.location:
            reduce.operands[i] = fusion_barrier(operand)


def _fence_reduce(reduce: ir.Operation) -> None:
    _fence_widened_bf16_inputs(reduce)
    _fence_reduce_results(reduce)


def _fence_reduce_results(reduce: ir.Operation) -> None:
    """The results of a reduce go through a barrier when it keeps its operand's innermost
    dimension (a sum over axis 0 of a matrix), or when its users broadcast them along other
    dimensions than they came from (a row reduction scaling columns): IREE fuses those users
    into the reduction's dispatch, where they read wrong values on Vulkan. A row reduction
    broadcast back along its rows (softmax, layernorm) stays fused; it is right."""
    reduce = reduce.operation
    operand = ir.RankedTensorType(reduce.operands[0].type)
    dimensions = list(ir.DenseI64ArrayAttr(reduce.attributes["dimensions"]))
    results = [r for r in reduce.results if ir.RankedTensorType(r.type).has_static_shape]
    if operand.rank < 2 or len(results) < len(reduce.results):
        return
    kept = [d for d in range(operand.rank) if d not in dimensions]
    if operand.rank - 1 in dimensions and not any(_moves_dimensions(r, kept) for r in results):
        return
    if not any(len(list(r.uses)) for r in results):
        return
    uses = [[(use.owner, use.operand_number) for use in r.uses] for r in results]
    with ir.InsertionPoint.after(reduce), reduce.location:
        fenced = [fusion_barrier(v) for v in results]
    for new, users in zip(fenced, uses):
        for user, index in users:
            user.operands[index] = new


# A 1-D iota up to this length becomes a constant (a longer one stays an iota).
IOTA_CONSTANT_LIMIT = 4096


def _iota_as_constant(iota: ir.Operation) -> None:
    """A short 1-D iota becomes a constant, so that a reduce's dispatch reads it from memory:
    computed in the dispatch (jnp.argmax's index, `min(where(x > 0, iota, n))`) it fails to
    compile at some lengths ("failed to legalize operation 'memref.alloc' ...
    memref<16xindex, Workgroup>", lengths 16, 48 and 64). (An optimization barrier instead
    also compiled, but next to the reduce barriers below it made IREE's Vulkan runtime fail
    on jax's LU of a wide matrix: "binding table slot requires a buffer".)"""
    iota = iota.operation
    t = ir.RankedTensorType(iota.results[0].type)
    if t.rank != 1 or not t.has_static_shape or t.shape[0] > IOTA_CONSTANT_LIMIT:
        return
    dtype = element_dtype(t.element_type)
    if dtype is None or is_complex(t.element_type):     # (complex constants do not compile)
        return
    with ir.InsertionPoint(iota), iota.location:
        counted = stablehlo.constant(np.arange(t.shape[0]).astype(dtype), result_type=t)
    iota.results[0].replace_all_uses_with(counted)
    iota.erase()


def _count_leading_zeros(op: ir.Operation):
    x = op.operands[0]
    element = element_of(x)
    if not isinstance(element, ir.IntegerType) or element.width not in (8, 16, 64):
        return None
    u32 = ir.IntegerType.get_unsigned(32)
    bits = Num(x).bitcast(ir.IntegerType.get_unsigned(element.width))
    if element.width < 32:      # zero-extended to 32 bits, which adds 32 - N leading zeros
        count = Num(stablehlo.count_leading_zeros(bits.to(u32).value)) - (32 - element.width)
        return [count.to(ir.IntegerType.get_unsigned(element.width)).bitcast(element).value]
    high = shift_right_logical(bits, 32).to(u32)
    low = (bits & 0xFFFFFFFF).to(u32)
    count_high = Num(stablehlo.count_leading_zeros(high.value))
    count_low = Num(stablehlo.count_leading_zeros(low.value))
    count = select(high.eq(0), count_low + 32, count_high)
    return [count.to(element).value]


def _unsigned_quotient(op: ir.Operation):
    """Unsigned divide and remainder: 8 and 16 bits in i32, 32 bits in i64 (zero-extended,
    signed division is exact there), 64 bits by halving the dividend (below)."""
    a, b = (Num(v) for v in op.operands)
    element = a.element
    if not isinstance(element, ir.IntegerType) or not element.is_unsigned:
        return None
    divide = op.name == "stablehlo.divide"
    power = _power_of_two(b.value)
    if power is not None and power < element.width:     # jax's binary search: (lo + hi) // 2
        return [(shift_right_logical(a, power) if divide else a & ((1 << power) - 1)).value]
    if element.width < 64:
        wide = "i32" if element.width < 32 else "i64"
        a, b = a.to(wide), b.to(wide)
        out = a / b if divide else a % b
        return [out.to(element).value]
    quotient, remainder = _divide_u64(a, b)
    return [(quotient if divide else remainder).value]


def _power_of_two(value: ir.Value) -> int | None:
    """k when `value` is the constant 2^k everywhere (a splat, or a broadcast or an integer
    convert of one: jax writes 2 as convert(2 : i32) : ui32)."""
    while isinstance(value, ir.OpResult) and (
            value.owner.name == "stablehlo.broadcast_in_dim"
            or value.owner.name == "stablehlo.convert"
            and isinstance(element_of(value.owner.operands[0]), ir.IntegerType)):
        value = value.owner.operands[0]
    values = constant_values(value)
    if values is None or values.size == 0 or not (values == values.flat[0]).all():
        return None
    v = int(values.flat[0])
    return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None


def _divide_u64(a: Num, b: Num) -> tuple[Num, Num]:
    """(a / b, a % b) for ui64 in signed i64 division: q = 2 ((a >> 1) / b), corrected by one
    when a - q b >= b; a divisor of 2^63 or more goes into a once or not at all."""
    i64 = ir.IntegerType.get_signless(64)
    big = b >= (1 << 63)
    divisor = select(big, b.like(1), b).bitcast(i64)      # below 2^63: positive
    half = shift_right_logical(a, 1).bitcast(i64)
    q = Num(stablehlo.shift_left((half / divisor).value, half.like(1).value)).bitcast(a.element)
    r = a - q * b
    over = r >= b
    q, r = select(over, q + 1, q), select(over, r - b, r)
    once = a >= b
    q_big = select(once, a.like(1), a.like(0))
    return select(big, q_big, q), select(big, select(once, a - b, a), r)


def _signed_remainder(op: ir.Operation):
    lhs, rhs = (Num(v) for v in op.operands)
    element = lhs.element
    if (CANONICAL in op.attributes or not isinstance(element, ir.IntegerType)
            or element.is_unsigned or element.width == 1):
        return None
    most_negative = lhs.like(-(1 << (element.width - 1)))
    dividend = select(lhs.eq(most_negative), lhs + abs(rhs), lhs)
    remainder = stablehlo.remainder(dividend.value, rhs.value)
    remainder.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [remainder]


def _float_remainder(op: ir.Operation):
    x, y = (Num(v) for v in op.operands)
    if not is_float(x.element) or float_info(x.element).bits > 32:
        return None
    from ..numerics import f64_math             # (it builds on chlo_expr, like this module)
    return [f64_math.fmod_narrow(x.to("f64"), y.to("f64")).to(x.element).value]


def _remainder(op: ir.Operation):
    return _unsigned_quotient(op) or _signed_remainder(op)


def _remainder_with_f64(op: ir.Operation):
    return _remainder(op) or _float_remainder(op)


def _split(value: ir.Value, dimension: int, groups: int) -> list[ir.Value] | None:
    """`value` cut into `groups` equal slices along `dimension` (None: a dynamic size)."""
    shape = ir.RankedTensorType(value.type).shape
    if ir.ShapedType.is_dynamic_size(shape[dimension]):
        return None
    size = shape[dimension] // groups
    slices = []
    for g in range(groups):
        start = [0] * len(shape)
        limit = list(shape)
        start[dimension], limit[dimension] = g * size, (g + 1) * size
        slices.append(stablehlo.slice(value, start_indices=start, limit_indices=limit))
    return slices


def _grouped_convolution(op: ir.Operation):
    attrs = attributes(op)
    features = ir.IntegerAttr(attrs["feature_group_count"]).value
    batches = ir.IntegerAttr(attrs["batch_group_count"]).value
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    lhs, rhs = op.operands
    lhs_shape = ir.RankedTensorType(lhs.type).shape
    if batches > 1:
        groups, lhs_dimension, attr = batches, dims["input_batch_dimension"], "batch_group_count"
    elif features > 1 and lhs_shape[dims["input_feature_dimension"]] != features:
        groups, attr = features, "feature_group_count"
        lhs_dimension = dims["input_feature_dimension"]
    else:
        return None
    lhs_parts = _split(lhs, lhs_dimension, groups)
    rhs_parts = _split(rhs, dims["kernel_output_feature_dimension"], groups)
    result = ir.RankedTensorType(op.results[0].type)
    out_dimension = dims["output_feature_dimension"]
    if lhs_parts is None or rhs_parts is None or result.is_dynamic_dim(out_dimension):
        return None
    shape = list(result.shape)
    shape[out_dimension] //= groups
    part_type = ir.RankedTensorType.get(shape, result.element_type)
    attrs[attr] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)
    parts = [ir.Operation.create("stablehlo.convolution", results=[part_type],
                                 operands=[lhs_part, rhs_part], attributes=attrs).result
             for lhs_part, rhs_part in zip(lhs_parts, rhs_parts)]
    return [stablehlo.concatenate(parts, dimension=out_dimension)]


def _fence_f64_operands(op: ir.Operation) -> None:
    """An f64 (or complex<f64>) convolution or dot_general reads its computed operands from
    memory: a 3-D f64 convolution of a broadcast input (two depth planes, SAME) gave wrong
    values on lavapipe, and so did an f64 matmul with a one-hot operand fused into its dispatch
    (A @ onehot of [10, 10] x [10, 5], the one-hot an iota compared with a run-time index:
    shlo's Jacobi rotations, jax's f64 eigh and svd at 9 and 12 rows); f32 and unfused
    operands are right. (Fenced by optimization barriers, the matmuls' operands made lavapipe
    lose the device in shlo's f64 triangular solves under parallel tests.)"""
    if str(real_element(element_of(op.results[0]))) != "f64":
        return
    for i, operand in enumerate(op.operands):
        producer = operand.owner
        if (isinstance(producer, ir.Block) or producer.name in (FUSION_BARRIER,
                                                                 "stablehlo.constant")
                or not ir.RankedTensorType(operand.type).has_static_shape):
            continue
        with ir.InsertionPoint(op), op.location:
            op.operands[i] = fusion_barrier(operand)


# what a float zero constant is seen through
_ZERO_PRESERVING = ("stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert",
                    "stablehlo.transpose")


def _is_float_zero(value: ir.Value) -> bool:
    """Whether `value` is a float zero splat constant, maybe broadcast, reshaped or converted."""
    while not isinstance(value.owner, ir.Block) and value.owner.name in _ZERO_PRESERVING:
        value = value.owner.operands[0]
    return is_float(element_of(value)) and is_identity(value, "stablehlo.add")


def _fence_zero_operands(op: ir.Operation) -> None:
    """A float zero constant that arithmetic reads goes behind a fusion barrier, so that the
    shader reads it from memory and Mesa cannot fold x * 0 to 0 (x = inf or NaN gives NaN),
    x / 0 or 0 / x to 0, or drop the sign of a zero (x + 0, 0 - x)."""
    if not is_float(element_of(op.results[0])):
        return
    for i, operand in enumerate(op.operands):
        if ir.RankedTensorType(operand.type).has_static_shape and _is_float_zero(operand):
            with ir.InsertionPoint(op), op.location:
                op.operands[i] = fusion_barrier(operand)


# op name -> what the pass does to each such op after the rules (the ops they leave)
_SHAPING = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.broadcast_in_dim")


def _rounded_to_bf16(value: ir.Value, depth: int = 12) -> bool:
    """Whether elementwise users of the value (seen through reshapes, transposes and
    broadcasts) compute a bf16 value from it: a convert, or rounding on the bits."""
    seen, frontier = set(), [value]
    for _ in range(depth):
        users = []
        for v in frontier:
            for use in v.uses:
                user = use.owner
                if (user.name not in ELEMENTWISE_OPS and user.name not in _SHAPING) or len(
                        user.results) != 1:
                    continue
                if str(element_of(user.results[0])) == "bf16":
                    return True
                if user.operation not in seen:
                    seen.add(user.operation)
                    users.append(user.results[0])
        if not users:
            return False
        frontier = users
    return False


def _fence_bf16_rounded_product(op: ir.Operation) -> None:
    """A dot_general or convolution whose f32 result is converted to bf16 (jax's bf16 matmuls
    after shlo-accumulate-in-f32) stores the f32 result behind a consumer barrier: the
    truncf fused into a matmul's dispatch fails to compile (vector.bitcast of vector<4xbf16>
    to vector<2xf32>, a 64x64 @ 64x192)."""
    result = op.results[0]
    if str(element_of(result)) != "f32" or not ir.RankedTensorType(
            result.type).has_static_shape or not _rounded_to_bf16(result):
        return
    with ir.InsertionPoint.after(op), op.location:
        fenced = _consumer_barrier(result)
    result.replace_all_uses_except(fenced, fenced.owner.operation)


def _fence_product(op: ir.Operation) -> None:
    _fence_f64_operands(op)
    _fence_bf16_rounded_product(op)


_AFTER_RULES = {"stablehlo.convolution": _fence_product,
                "stablehlo.dot_general": _fence_product,
                # Mesa's shader compiler folds these inexactly when an operand is a constant
                # zero: x * 0 -> 0, x / 0 -> 0, 0 / x -> 0, x + 0 -> x, 0 - x -> -x
                **{name: _fence_zero_operands for name in (
                    "stablehlo.multiply", "stablehlo.divide", "stablehlo.add",
                    "stablehlo.subtract")},
                "stablehlo.reduce_window": _fence_narrow_window_inputs,
                "stablehlo.iota": _iota_as_constant,
                "stablehlo.reduce": _fence_reduce}


@dataclasses.dataclass
class LegalizeVulkanOps(RulesPass):
    """Rewrite iota, bf16 dot_general, bf16 and signed min/max reduce, complex product
    windows, ffts, clz, unsigned division, remainder and grouped convolutions for Vulkan."""

    NAME = "shlo-legalize-vulkan-ops"
    f64: bool = True            # the target computes f64 (float remainder goes through it)
    RULES = {
        "stablehlo.iota": _iota,
        "stablehlo.count_leading_zeros": _count_leading_zeros,
        "stablehlo.divide": _unsigned_quotient,
        "stablehlo.remainder": _remainder,
        "stablehlo.convolution": _grouped_convolution,
        "stablehlo.dot_general": _bf16_dot,
        "stablehlo.reduce": _reduce,
        "stablehlo.reduce_window": _complex_window,
        "stablehlo.fft": _fft,
    }

    def run(self, op: ir.Operation) -> None:
        rules = dict(self.RULES)
        if self.f64:
            rules["stablehlo.remainder"] = _remainder_with_f64
        apply_rules(op, rules, self.NAME)
        for found in nested_ops(op, "stablehlo."):
            rewrite = _AFTER_RULES.get(found.name)
            if rewrite is not None:
                rewrite(found)
