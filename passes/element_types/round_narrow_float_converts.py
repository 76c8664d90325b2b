"""shlo-round-narrow-float-converts: round to 8-bit and 4-bit floats in the source type first.

IREE converts f32 (and f16, bf16, f64) values that lie just below a narrow float's smallest
normal number to 0 instead of rounding them up to it, for every f8 type and f4E2M1FN
(docs/iree_gaps.md#shlo-round-narrow-float-converts): a silently wrong result wherever a model
quantizes to f8. This pass rounds the value to the
target's grid in the source's own type (round-to-nearest-even at the target's quantum for
the value's binade, the subnormal quantum below the smallest normal), so the conversion that
follows only ever meets values it represents exactly. NaN, infinities and values beyond the
target's range go through unchanged, to IREE's conversion as before. An f64 source is
rounded in f64 and then narrowed to f32 exactly (IREE cannot truncate f64 to f8 at all).

The other direction: IREE compiles a conversion from an 8-, 6- or 4-bit float only to f32
(to f16 and f64 it fails on CPU and Vulkan, to bf16 on Vulkan), and it converts the
f8E4M3FN byte 0xFF (a NaN, its sign bit set) to -480.0 (0x7F and the other 254 bytes convert
right). Such a conversion goes through f32, and from f8E4M3FN selects NaN for both NaN
bytes. Arithmetic directly on f8E4M3FN values, which IREE widens itself, still reads 0xFF as
-480.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import constant_values, element_dtype
from ..lib.expr import (Num, float_info, is_float, round_even, select, shift_right_logical,
    with_element)
from ..base import nested_ops
from ..op_rules import CANONICAL, Rule, RulesPass, apply_rules

# source float type -> (width, explicit mantissa bits, exponent bias)
FLOAT_LAYOUTS = {"f32": (32, 23, 127), "f64": (64, 52, 1023)}


def _needs_rounding(op: ir.Operation) -> bool:
    source = ir.RankedTensorType(op.operands[0].type).element_type
    target = ir.RankedTensorType(op.results[0].type).element_type
    if not (is_float(source) and is_float(target)) or CANONICAL in op.attributes:
        return False
    info = float_info(target)
    # 8 bits or fewer, signed (f8E8M0FNU is powers of two only: no grid to round to)
    return info.bits <= 8 and info.has_negative and float_info(source).bits > info.bits


def round_to_grid(x: Num, target: ir.Type) -> Num:
    """x rounded to `target`'s values (within its exponent range), still in x's type."""
    width, mantissa, bias = FLOAT_LAYOUTS[str(x.element)]
    info = float_info(target)
    m = info.mantissa_bits
    emin = int(round(math.log2(info.tiny)))
    bits = x.bitcast(f"i{width}")
    biased = Num(stablehlo.shift_right_logical(bits.value, bits.like(mantissa).value)) \
        & ((1 << (width - 1 - mantissa)) - 1)
    unbiased = biased - bias
    exponent = select(unbiased < emin, biased.like(emin), unbiased)
    # the quantum 2^(exponent - m), built from its bit pattern
    quantum = Num(stablehlo.shift_left((exponent - m + bias).value, bits.like(mantissa).value))
    quantum = quantum.bitcast(x.element)
    rounded = round_even(x / quantum) * quantum
    keep = x.ne(x)                                  # NaN, and values past twice the range
    if float(info.max) * 2 < float_info(x.element).max:
        keep = keep | (abs(x) > float(info.max) * 2)
    return select(keep, x, rounded)


def on_grid(x: Num, target: ir.Type) -> Num:
    """x (f32 or f64) as the value converting it to `target` (a float of 8 bits or fewer)
    gives, still in x's type: rounded to the grid; past the range +-inf where the type has
    infinities, NaN where it has NaN only, else +-max (the 6- and 4-bit floats saturate)."""
    info = float_info(target)
    rounded = round_to_grid(x, target)
    past = abs(rounded) > info.max
    if info.has_inf:
        return select(past, select(rounded > 0, x.like(math.inf), x.like(-math.inf)), rounded)
    if info.has_nan:
        return select(past, x.like(math.nan), rounded)
    return select(rounded > info.max, x.like(info.max),
                  select(rounded < -info.max, x.like(-info.max), rounded))


def _bits_of(value: float, target: ir.Type) -> int:
    """The bit pattern ml_dtypes gives `value` (inf or NaN) in an 8-bit float type."""
    return int(np.array([value]).astype(element_dtype(target)).view(np.uint8)[0])


def narrow_float_bits(x: Num, target: ir.Type) -> Num:
    """The bits (i32, 0-255) of x (f32, f64, f16 or bf16; an 8-bit float is decoded first,
    `float_from_narrow_bits`) converted to `target`, an 8-bit float with a sign:
    round to nearest even, +-inf past the range where the type has infinities, NaN where it
    has none (the FN/FNUZ types), NaN's sign kept where the type has a negative NaN, no
    negative zero in the FNUZ types. Integer operations only, apart from the rounding to the
    grid: for backends that cannot truncate f32 to an 8-bit float (IREE's LLVMGPU)."""
    info = float_info(target)
    m = info.mantissa_bits
    wide = x if str(x.element) in FLOAT_LAYOUTS else x.to("f32")     # f16, bf16: exact
    y = round_to_grid(wide, target).to("f32")       # exact: on the grid, or beyond the range
    negative = y.bitcast("i32") < 0
    a = abs(y)
    bits = a.bitcast("i32")
    shift = Num(stablehlo.shift_right_logical(bits.value, bits.like(23).value))
    normal = Num(stablehlo.shift_left((shift + (1 - int(math.log2(info.tiny)) - 127)).value,
                                      bits.like(m).value)) | Num(stablehlo.shift_right_logical(
                                          (bits & 0x7FFFFF).value, bits.like(23 - m).value))
    subnormal = (a * (1 / info.smallest)).to("i32")  # a multiple of the subnormal quantum
    code = select(a >= info.tiny, normal, subnormal)
    nan, overflow = y.ne(y), a > info.max
    if info.has_inf:
        code = select(overflow, bits.like(_bits_of(math.inf, target)), code)
        code = select(nan, bits.like(_bits_of(math.nan, target)), code)
    elif info.has_negative_zero:                    # FN: no inf, so NaN past the range
        code = select(nan | overflow, bits.like(_bits_of(math.nan, target)), code)
    if not info.has_negative_zero:                  # FNUZ: 0x80 is the one NaN, -0 is 0
        signed = select(negative & code.ne(0), code | 0x80, code)
        return select(nan | overflow, bits.like(0x80), signed)
    return select(negative, code | 0x80, code)


def float_from_narrow_bits(x: Num) -> Num:
    """x, an 8-bit float with a sign, as f32 (exact), decoded from its bits with integer
    operations: for backends that cannot extend an 8-bit float inside a dispatch (IREE's
    LLVMGPU)."""
    info = float_info(x.element)
    m = info.mantissa_bits
    bits = x.bitcast("ui8").to("i32")
    code, negative = bits & 0x7F, (bits & 0x80).ne(0)
    exponent = Num(stablehlo.shift_right_logical(code.value, code.like(m).value))
    fraction = code & ((1 << m) - 1)
    normal = Num(stablehlo.shift_left((exponent - (1 - int(math.log2(info.tiny))) + 127).value,
                                      code.like(23).value)) | Num(stablehlo.shift_left(
                                          fraction.value, code.like(23 - m).value))
    magnitude = select(exponent.eq(0), fraction.to("f32") * info.smallest,
                       normal.bitcast("f32"))
    top = (1 << (7 - m)) - 1                        # the all-ones exponent
    if info.has_inf:
        magnitude = select(exponent.eq(top), select(fraction.eq(0), magnitude.like(math.inf),
                                                    magnitude.like(math.nan)), magnitude)
    elif info.has_negative_zero:                    # FN: only S.1111.111 is NaN
        magnitude = select(code.eq(0x7F), magnitude.like(math.nan), magnitude)
    else:                                           # FNUZ: 0x80 is NaN, no negative zero
        return select(bits.eq(0x80), magnitude.like(math.nan),
                      select(negative, -magnitude, magnitude))
    return select(negative, -magnitude, magnitude)


def _to_narrow(op: ir.Operation):
    if not _needs_rounding(op):
        return None
    x = Num(op.operands[0])
    target_type = op.results[0].type
    target = ir.RankedTensorType(target_type).element_type
    wide = x if str(x.element) in FLOAT_LAYOUTS else x.to("f32")      # f16/bf16: exact in f32
    # on the grid, an f64 value is exact in f32 too (and IREE cannot truncate f64 to f8)
    on_grid = round_to_grid(wide, target).to("f32")
    result = stablehlo.convert(on_grid.value, result_type=target_type)
    result.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [result]


def narrow_to_f32(x: Num) -> Num:
    """A float of 8 bits or fewer as f32 (exact), with NaN for both f8E4M3FN NaN bytes
    (IREE reads 0xFF as -480)."""
    wide = stablehlo.convert(x.value, result_type=with_element(x.type, ir.F32Type.get()))
    wide.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    out = Num(wide)
    if str(x.element) == "f8E4M3FN":
        out = select((x.bitcast("ui8") & 0x7F).eq(0x7F), out.like(math.nan), out)
    return out


def _from_narrow(op: ir.Operation):
    """A conversion from a float of 8 bits or fewer to a wider float: through f32 (the only
    target IREE compiles; every such value is exact in f32 and in the wider types)."""
    x = Num(op.operands[0])
    target = ir.RankedTensorType(op.results[0].type).element_type
    if (CANONICAL in op.attributes or not (is_float(x.element) and is_float(target))
            or float_info(x.element).bits > 8 or float_info(target).bits <= 8):
        return None
    if str(target) == "f32" and str(x.element) != "f8E4M3FN":
        return None                                     # IREE's own conversion is right
    return [narrow_to_f32(x).to(target).value]


def to_bf16_on_bits(x: Num) -> Num:
    """x (f32 or f64) as bf16, rounded once to nearest even in integer operations (no float
    truncation to bf16 left to the target, and nothing IREE folds away): an f64 is first put
    on bf16's grid in f64, exact in f32 then; an f32's top half plus the round-to-nearest-even
    carry is the bf16 (a NaN stays a quiet NaN)."""
    if str(x.element) == "f64":
        x = round_to_grid(x, ir.BF16Type.get()).to("f32")
    u = x.bitcast(ir.IntegerType.get_unsigned(32))
    high = shift_right_logical(u, 16)
    rounded = shift_right_logical(u + 0x7FFF + (high & 1), 16)
    top = select(x.ne(x), high | 0x40, rounded)
    return top.to(ir.IntegerType.get_unsigned(16)).bitcast(ir.BF16Type.get())


def exact_for_bf16(x: Num) -> Num:
    """An integer tensor as f64 values that round to bf16 as the integers do: exact below
    2^53; above, the bits below bit 11 become one sticky bit (bf16's half quantum there is
    2^45 or more, so ties and the direction of rounding are kept) and the rest is exact."""
    width = ir.IntegerType(x.element).width
    if width <= 32:
        return x.to("f64")
    unsigned = ir.IntegerType.get_unsigned(64)
    signed = not ir.IntegerType(x.element).is_unsigned
    magnitude = (select(x < 0, -x, x) if signed else x).bitcast(unsigned)  # (-2^63: 2^63)
    sticky = (magnitude & ((1 << 64) - 0x800)) | select((magnitude & 0x7FF).ne(0),
                                                       magnitude.like(0x800), magnitude.like(0))
    wide = select(magnitude >= (1 << 53), sticky, magnitude).to("f64")
    return select(x < 0, -wide, wide) if signed else wide


def _integer_to_bf16(op: ir.Operation):
    """An integer -> bf16 convert, rounded once, in ops every target compiles: IREE's CPU
    code calls __truncsfbf2, which it does not link, on CPUs without AVX512-BF16, and SPIR-V
    fails on the 32- to 16-bit bitcast. A constant is converted here (IREE evaluates the bit
    operations on a constant at compile time, and fails to in a module with run-time sizes;
    docs/iree_gaps.md#shlo-round-narrow-float-converts)."""
    x = Num(op.operands[0])
    target = ir.RankedTensorType(op.results[0].type).element_type
    if str(target) != "bf16" or not isinstance(x.element, ir.IntegerType):
        return None
    values = constant_values(x.value)
    if values is not None and (x.element.width < 64 or not x.element.is_unsigned):
        rounded = np.array([_int_to_bf16(int(v)) for v in values.ravel()]).reshape(values.shape)
        return [stablehlo.constant(rounded, result_type=op.results[0].type)]
    return [to_bf16_on_bits(exact_for_bf16(x)).value]


def _int_to_bf16(v: int) -> float:
    """An integer rounded to bf16's 8 significant bits, to nearest even, exactly."""
    n = abs(v)
    shift = max(n.bit_length() - 8, 0)
    q, r = divmod(n, 1 << shift)
    if shift and (r > 1 << (shift - 1) or r == 1 << (shift - 1) and q & 1):
        q += 1
    return float(q << shift) * (-1 if v < 0 else 1)


def _convert(op: ir.Operation):
    return _from_narrow(op) or _to_narrow(op) or _integer_to_bf16(op)


RULES: dict[str, Rule] = {"stablehlo.convert": _convert}


@dataclasses.dataclass
class RoundNarrowFloatConverts(RulesPass):
    """Round values to an 8- or 4-bit float's grid before converting to it (IREE flushes
    values just below the smallest normal to zero)."""

    NAME = "shlo-round-narrow-float-converts"
    RULES = RULES

    def run(self, op: ir.Operation) -> None:
        apply_rules(op, RULES, self.NAME)
        for converted in nested_ops(op, "stablehlo.convert"):
            if CANONICAL in converted.attributes:
                del converted.attributes[CANONICAL]
