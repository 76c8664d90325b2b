"""shlo-legalize-gpu-ops: the quirks of IREE's LLVMGPU backends (CUDA, ROCm), as a table.

Each entry rewrites ops IREE rejects or computes wrongly on CUDA/ROCm into forms it gets
right, with the spec's semantics; docs/iree_gaps.md explains each id with its evidence. The
CUDA and HIP targets add this pass to their default pipeline (`TargetKind.passes`);
`disable=id,...` switches entries off.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..base import binary_body
from ..element_types.round_narrow_float_converts import (float_from_narrow_bits,
                                                         narrow_float_bits, on_grid)
from ..lib.builders import optimization_barrier
from ..lib.expr import (Num, attributes, clone_retyped, const, element_of, float_info, is_float,
                        is_nan, select, with_element)
from ..op_rules import CANONICAL
from .common import sum_of_negation
from .quirks import Quirk, QuirksPass

MIN_MAX = ("stablehlo.maximum", "stablehlo.minimum")
# ops whose body combines scalars: their own max/min are handled with the whole op
_BODY_OWNERS = ("stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter",
                "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.all_reduce",
                "stablehlo.reduce_scatter")


def _float_operands(op: ir.Operation) -> bool:
    return all(is_float(element_of(v)) for v in op.operands)


def _in_body(op: ir.Operation) -> bool:
    parent = op.parent
    return parent is not None and parent.name in _BODY_OWNERS


def _nan_where_nan(result: ir.Value, nan: Num) -> ir.Value:
    """`result`, with NaN wherever `nan` (an i1 tensor of its shape) is true."""
    result.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    quiet = Num(stablehlo.constant(float("nan"), result_type=ir.RankedTensorType.get(
        [], element_of(result))))
    filled = stablehlo.broadcast_in_dim(quiet.value, broadcast_dimensions=[],
                                        result_type=result.type)
    return select(nan, Num(filled), Num(result)).value


def _min_max(op: ir.Operation):
    """Elementwise float maximum/minimum: NaN where either operand is NaN."""
    if CANONICAL in op.attributes or _in_body(op) or not _float_operands(op):
        return None
    a, b = (Num(v) for v in op.operands)
    return [_nan_where_nan(op.clone().result, is_nan(a) | is_nan(b))]


def _broadcast_like(value: ir.Value, like: ir.Value) -> Num:
    if ir.RankedTensorType(value.type).rank == ir.RankedTensorType(like.type).rank:
        return Num(value)
    return Num(stablehlo.broadcast_in_dim(value, broadcast_dimensions=[], result_type=
                                          ir.RankedTensorType.get(
                                              ir.RankedTensorType(like.type).shape,
                                              element_of(value))))


def _clamp(op: ir.Operation):
    """Float clamp(min, operand, max): NaN where any of the three is NaN."""
    if CANONICAL in op.attributes or not _float_operands(op):
        return None
    low, x, high = op.operands
    nan = is_nan(Num(x)) | is_nan(_broadcast_like(low, x)) | is_nan(_broadcast_like(high, x))
    return [_nan_where_nan(op.clone().result, nan)]


def _min_max_combiner(op: ir.Operation) -> bool:
    if len(op.operands) != 2 or not is_float(element_of(op.operands[0])):
        return False
    combine = binary_body(op)
    return combine is not None and combine.name in MIN_MAX


def _reduce(op: ir.Operation):
    """A max/min reduce over floats: NaN where a reduced element (or the init) is NaN."""
    if CANONICAL in op.attributes or not _min_max_combiner(op):
        return None
    x, init = op.operands
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    nan = Num(stablehlo.reduce([is_nan(Num(x)).value], [is_nan(Num(init)).value],
                               dimensions=dimensions, body=lambda p, q: stablehlo.or_(p, q)))
    return [_nan_where_nan(op.clone().result, nan)]


def _reduce_window(op: ir.Operation):
    """A max/min reduce_window over floats: NaN where its window holds a NaN (or the init is
    one, padding included). The NaN flags are i32 0/1 under a max window (an i1 `or` window
    of cumulative shape fails to compile: 'arith.ori' op requires the same type)."""
    if CANONICAL in op.attributes or not _min_max_combiner(op):
        return None
    (inputs, inits), kw = arguments(op)
    kw.pop("result_type", None)
    kw["body"] = lambda p, q: stablehlo.maximum(p, q)
    i32 = ir.IntegerType.get_signless(32)
    flags = [select(is_nan(Num(v)), Num(const(1, v, i32)), 0).value for v in (inputs[0], inits[0])]
    nan = Num(stablehlo.reduce_window([flags[0]], [flags[1]], **kw)) > 0
    return [_nan_where_nan(op.clone().result, nan)]


_NAN_RULES = {"stablehlo.maximum": _min_max, "stablehlo.minimum": _min_max,
              "stablehlo.clamp": _clamp, "stablehlo.reduce": _reduce,
              "stablehlo.reduce_window": _reduce_window}


def propagate_nan(op: ir.Operation):
    """Float max/min, clamp, and max/min reduce and reduce_window: NaN where an input is."""
    return _NAN_RULES[op.name](op)


def _negated_sum(op: ir.Operation):
    return None if CANONICAL in op.attributes else sum_of_negation(op)


def _sliced(value: ir.Value) -> bool:
    """Whether `value` is a slice of a larger tensor, maybe reshaped (by reshape, transpose or
    a broadcast_in_dim that only adds unit dimensions)."""
    while not isinstance(value.owner, ir.Block):
        op = value.owner
        if op.name in ("stablehlo.slice", "stablehlo.dynamic_slice"):
            return True
        if op.name not in ("stablehlo.reshape", "stablehlo.transpose",
                           "stablehlo.broadcast_in_dim") or not _same_size(op):
            return False
        value = op.operands[0]
    return False


def _same_size(op: ir.Operation) -> bool:
    before, after = (ir.RankedTensorType(v.type) for v in (op.operands[0], op.results[0]))
    return (before.has_static_shape and after.has_static_shape
            and math.prod(before.shape) == math.prod(after.shape))


def fence_sliced_gather_operand(gather: ir.Operation) -> None:
    """A gather's operand that is a slice behind an optimization barrier (its own buffer)."""
    operand = gather.operands[0]
    if _sliced(operand):
        with ir.InsertionPoint(gather), gather.location:
            gather.operands[0] = optimization_barrier([operand])[0]


def _is_signed_8_bit_float(element: ir.Type) -> bool:
    """An 8-bit float with a sign (f8E8M0FNU is shlo-legalize-e8m0's)."""
    return is_float(element) and float_info(element).bits == 8 and float_info(element).has_negative


def f8_convert(op: ir.Operation):
    """A conversion from or to an 8-bit float, made from and into its bits
    (`float_from_narrow_bits`, `narrow_float_bits`)."""
    target, source = element_of(op.results[0]), element_of(op.operands[0])
    if not (is_float(source) and is_float(target)):
        return None
    x = Num(op.operands[0])
    if _is_signed_8_bit_float(source):
        x = float_from_narrow_bits(x)
        if not _is_signed_8_bit_float(target):
            return [x.to(target).value]
    elif not _is_signed_8_bit_float(target):
        return None
    bits = narrow_float_bits(x, target).to("ui8")
    return [stablehlo.bitcast_convert(bits.value, result_type=op.results[0].type)]


def f8_operands(op: ir.Operation):
    """A dot_general, convolution or compare of 8-bit floats: of their f32 values (exact; the
    products too, and dot_general and convolution accumulate in f32 anyway), its 8-bit float
    result converted from f32."""
    if not any(_is_signed_8_bit_float(element_of(v)) for v in op.operands):
        return None
    f32 = ir.F32Type.get()
    operands = [stablehlo.convert(v, result_type=with_element(v.type, f32))
                if _is_signed_8_bit_float(element_of(v)) else v for v in op.operands]
    result = op.results[0]
    narrow = _is_signed_8_bit_float(element_of(result))
    wide = ir.Operation.create(op.name, operands=operands, attributes=attributes(op),
                               results=[with_element(result.type, f32) if narrow
                                        else result.type]).result
    return [stablehlo.convert(wide, result_type=result.type) if narrow else wide]


def f8_region_op(op: ir.Operation):
    """An op with a body (reduce, reduce_window, scatter, sort, ...) over 8-bit floats: on
    their f32 values, the body in f32 with each 8-bit float result of its ops put back on the
    type's grid (`on_grid`: the body computes as in the 8-bit type), the results converted
    back."""
    if not op.regions or not any(_is_signed_8_bit_float(element_of(v))
                                 for v in [*op.operands, *op.results]):
        return None
    f32 = ir.F32Type.get()

    def wide(t: ir.Type) -> ir.Type:
        return with_element(t, f32) if _is_signed_8_bit_float(
            ir.RankedTensorType(t).element_type) else t

    def rounded(inner: ir.Operation, operands: list):
        if inner.name == "stablehlo.constant" or not any(
                _is_signed_8_bit_float(element_of(r)) for r in inner.results):
            return None
        new = ir.Operation.create(inner.name, results=[wide(r.type) for r in inner.results],
                                  operands=operands, attributes=attributes(inner))
        return [on_grid(Num(r), element_of(old)).value if r.type != old.type else r
                for r, old in zip(new.results, inner.results)]

    operands = [stablehlo.convert(v, result_type=wide(v.type)) if wide(v.type) != v.type else v
                for v in op.operands]
    if op.name == "stablehlo.scatter":      # not fused with the decoding (gpu-f8-bodies)
        operands = optimization_barrier(operands)
    new = ir.Operation.create(op.name, results=[wide(r.type) for r in op.results],
                              operands=operands, attributes=attributes(op),
                              regions=len(op.regions))
    for old_region, region in zip(op.regions, new.regions):
        body = old_region.blocks[0]
        block = region.blocks.append(*[wide(a.type) for a in body.arguments],
                                     arg_locs=[a.location for a in body.arguments])
        with ir.InsertionPoint(block):
            stablehlo.return_(clone_retyped(body, list(block.arguments), wide,
                                            None if op.name == "stablehlo.scatter" else rounded))
    return [stablehlo.convert(r, result_type=old.type) if r.type != old.type else r
            for r, old in zip(new.results, op.results)]


def _word_of_booleans(flags: ir.Value, first: int, count: int) -> ir.Value:
    """The i32 whose bit k is flags[..., first + k] (k < count <= 32): shifts, an `or` reduce
    (an i64 one would fail alike, docs/iree_gaps.md gpu-bool-bitcast)."""
    t = ir.RankedTensorType(flags.type)
    i32 = ir.IntegerType.get_signless(32)
    last = t.rank - 1
    part = stablehlo.slice(flags, start_indices=[0] * last + [first],
                           limit_indices=list(t.shape[:-1]) + [first + count],
                           strides=[1] * t.rank)
    wide = ir.RankedTensorType.get(list(t.shape[:-1]) + [count], i32)
    position = stablehlo.iota(iota_dimension=last, result_type=wide)
    bits = stablehlo.shift_left(stablehlo.convert(part, result_type=wide), position)
    zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], i32))
    word = stablehlo.reduce([bits], [zero], dimensions=[last],
                            body=lambda a, b: stablehlo.or_(a, b))
    return word[0] if isinstance(word, (list, tuple)) else word


def bits_from_booleans(op: ir.Operation):
    """A bitcast_convert of i1 values into a wider type: element k of the last dimension is
    bit k (the spec's little-endian order), assembled from 32-bit words."""
    source = ir.RankedTensorType(op.operands[0].type)
    result = ir.RankedTensorType(op.results[0].type)
    width = source.shape[-1] if source.rank else 0
    if str(source.element_type) != "i1" or not source.has_static_shape or width < 8:
        return None
    integer = ir.RankedTensorType.get(result.shape, ir.IntegerType.get_signless(width))
    words = [Num(_word_of_booleans(op.operands[0], first, min(32, width - first))).to(
        integer.element_type) for first in range(0, width, 32)]
    if len(words) == 2:                                  # 64 bits: high << 32 | low
        low = words[0] & 0xFFFFFFFF                     # (the convert sign-extended it)
        words = [low | Num(stablehlo.shift_left(words[1].value, words[1].like(32).value))]
    word = words[0].value
    return [word if word.type == result else
            stablehlo.bitcast_convert(word, result_type=result)]


def f64_sign(op: ir.Operation):
    """An f64 sign as selects: 1 above zero, -1 below, x * 0 for +-0 and NaN (their sign and
    NaN kept; a subnormal flushed to zero reads as zero there too)."""
    x = Num(op.operands[0])
    if str(x.element) != "f64":
        return None
    return [select(x > 0, x.like(1.0), select(x < 0, x.like(-1.0), x * 0.0)).value]


_GPU = ("cuda", "hip")
_BODIES = ("stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter",
           "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.map",
           "stablehlo.all_reduce", "stablehlo.reduce_scatter")

# Entries of one op apply in table order: the first rule that does not decline rewrites the
# op; then every fence runs on it.
GPU_QUIRKS: tuple[Quirk, ...] = (
    Quirk("gpu-f8-convert", "a conversion from or to an 8-bit float made from and into its "
          "bits", ("stablehlo.convert",), _GPU, rule=f8_convert),
    Quirk("gpu-f8-operands", "dot_general, convolution and compare of 8-bit floats on f32 "
          "copies", ("stablehlo.dot_general", "stablehlo.convolution", "stablehlo.compare"),
          _GPU, rule=f8_operands),
    Quirk("gpu-f8-bodies", "an op with a body over 8-bit floats in f32, body results put back "
          "on the type's grid", _BODIES, _GPU, rule=f8_region_op),
    Quirk("gpu-nan-min-max", "float max/min, clamp and max/min reductions and windows: NaN "
          "where an input is NaN", ("stablehlo.maximum", "stablehlo.minimum",
                                    "stablehlo.clamp", "stablehlo.reduce",
                                    "stablehlo.reduce_window"), _GPU, rule=propagate_nan),
    Quirk("gpu-negated-sum", "a sum of negated values as the negation of their sum",
          ("stablehlo.reduce",), _GPU, rule=_negated_sum),
    Quirk("gpu-sliced-gather", "a gather's sliced operand behind an optimization barrier",
          ("stablehlo.gather",), _GPU, fence=fence_sliced_gather_operand),
    Quirk("gpu-bool-bitcast", "a bitcast_convert of booleans assembled from 32-bit words",
          ("stablehlo.bitcast_convert",), _GPU, rule=bits_from_booleans),
    Quirk("gpu-f64-sign", "an f64 sign as selects", ("stablehlo.sign",), _GPU, rule=f64_sign),
)


@dataclasses.dataclass
class LegalizeGpuOps(QuirksPass):
    """Rewrite the ops IREE's CUDA and ROCm backends reject or compute wrongly (GPU_QUIRKS)."""

    NAME = "shlo-legalize-gpu-ops"
    QUIRKS = GPU_QUIRKS
