"""Vulkan quirk rewrites that expand an op into others: complex windows on real and imaginary
parts, ffts behind barriers, grouped convolutions per group (ui8/ui16 ones in i32),
convolutions of few outputs as products over their windows, convolution operands computed
from narrow numbers behind barriers, complex<f32> constants by parts,
roots of signed zeros, x - x of floats, unit dimensions of strided slices (docs/iree_gaps.md)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from shlo.dialect.rebuild import arguments
from ...base import binary_body, constant_text, is_splat_constant, reads_narrow_values
from ...dispatch.few_output_convolutions import window_matmuls
from ...element_types.split_complex_constants import split_constant
from ...expand.expand_fft import irfft_through_ifft, split_native_fft
from ...lib.builders import FUSION_BARRIER, fence, fusion_barrier, in_control_flow
from ...lib.elementwise import ELEMENTWISE_OPS
from ...lib.expr import (Num, attributes, complex_, element_of, imag, is_complex, is_float,
                         real, real_element, select)
from ...op_rules import CANONICAL
from ..legalize_gpu_ops import MIN_MAX, propagate_nan

FEW_OUTPUTS = 4      # output positions of convolutions computed as one dot_general each


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


def complex_window(op: ir.Operation):
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


# IREE's own fft of more points than this gave wrong outputs from index 65535 on (lavapipe's
# 65535-iteration loop limit; docs/iree_gaps.md#vk-fft-fused-read-batched-fft-read-by-real-or-imag):
# such ffts are split four-step
LONGEST_FFT = 65536


def fenced_fft(op: ir.Operation):
    """IREE's own fft (1-D): its result behind a fusion barrier; an IRFFT through the complex
    IFFT; one of more than LONGEST_FFT points as ffts of at most that many (four-step)."""
    lengths = list(ir.DenseI64ArrayAttr(op.attributes["fft_length"]))
    if len(lengths) != 1 or not ir.RankedTensorType(op.results[0].type).has_static_shape:
        return None
    fft_type = enum_name(op.attributes["fft_type"])
    if lengths[0] > LONGEST_FFT:
        return [split_native_fft(op.operands[0], fft_type, lengths[0], LONGEST_FFT)]
    if fft_type == "IRFFT":
        return [irfft_through_ifft(op.operands[0], lengths[0])]
    users = [use.owner.name for use in op.results[0].uses]
    if users and all(name == FUSION_BARRIER for name in users):
        return None
    fft = stablehlo.fft(op.operands[0], fft_type=fft_type, fft_length=lengths)
    return [fusion_barrier(fft)]


def _split(value: ir.Value, dimension: int, groups: int) -> list[ir.Value]:
    """`value` cut into `groups` equal slices along `dimension` (a static size)."""
    shape = ir.RankedTensorType(value.type).shape
    if ir.ShapedType.is_dynamic_size(shape[dimension]):
        raise ValueError(f"_split: dimension {dimension} of {value.type} is dynamic; "
                         "callers check static sizes first")
    size = shape[dimension] // groups
    slices = []
    for g in range(groups):
        start = [0] * len(shape)
        limit = list(shape)
        start[dimension], limit[dimension] = g * size, (g + 1) * size
        slices.append(stablehlo.slice(value, start_indices=start, limit_indices=limit))
    return slices


_VIEWS = ("stablehlo.slice", "stablehlo.reshape", "stablehlo.transpose")


def _computed_from_narrow(value: ir.Value) -> bool:
    """Whether `value` (static, 16 to 64 bits) is computed from narrower numbers (booleans, 8
    or 16 bits; booleans and 8 for a 16-bit value) in a dispatch IREE could fuse into its reader: not through a
    fusion barrier (slices, reshapes and transposes of one are looked through)."""
    t = ir.RankedTensorType(value.type)
    width = getattr(t.element_type.maybe_downcast(), "width", 32)
    if not t.has_static_shape or width < 16:
        return False
    source = value
    while not isinstance(source.owner, ir.Block) and source.owner.name in _VIEWS:
        source = source.owner.operands[0]
    if isinstance(source.owner, ir.Block) or source.owner.name in (FUSION_BARRIER,
                                                                  "stablehlo.constant"):
        return False
    return reads_narrow_values(value, below=min(width, 32), booleans=True)


def _widened_fenced(value: ir.Value) -> ir.Value:
    """`value` behind a fusion barrier when it is computed from 8- or 16-bit numbers."""
    return fusion_barrier(value) if _computed_from_narrow(value) else value


def fence_narrow_convolution_inputs(op: ir.Operation) -> None:
    """A convolution's 16/32/64-bit operands computed from narrower numbers (an i32 convert
    of bf16, an i16 convert of i8) behind fusion barriers: fused into the convolution's
    dispatch, the convert raced with the products that read it (lavapipe;
    vk-narrow-convolution-input). Not inside loops and branches (no fusion barriers there)."""
    if in_control_flow(op.operation.parent):
        return
    for i, operand in enumerate(op.operands):
        if _computed_from_narrow(operand):
            with ir.InsertionPoint(op), op.location:
                op.operands[i] = fusion_barrier(operand)


def grouped_convolution(op: ir.Operation):
    """A convolution with feature_group_count > 1 (but depthwise) or batch_group_count > 1 as
    the spec defines it: one convolution per group over slices, concatenated. Operands
    computed from 8- or 16-bit numbers are read behind fusion barriers before they are sliced
    (fused into the groups' slices, the converts came out wrong)."""
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
    result = ir.RankedTensorType(op.results[0].type)
    out_dimension = dims["output_feature_dimension"]
    if any(ir.ShapedType.is_dynamic_size(ir.RankedTensorType(v.type).shape[d]) for v, d in (
            (lhs, lhs_dimension), (rhs, dims["kernel_output_feature_dimension"]))) or \
            result.is_dynamic_dim(out_dimension):
        return None
    lhs_parts = _split(_widened_fenced(lhs), lhs_dimension, groups)
    rhs_parts = _split(_widened_fenced(rhs), dims["kernel_output_feature_dimension"], groups)
    shape = list(result.shape)
    shape[out_dimension] //= groups
    part_type = ir.RankedTensorType.get(shape, result.element_type)
    attrs[attr] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)
    parts = [ir.Operation.create("stablehlo.convolution", results=[part_type],
                                 operands=[lhs_part, rhs_part], attributes=attrs).result
             for lhs_part, rhs_part in zip(lhs_parts, rhs_parts)]
    return [stablehlo.concatenate(parts, dimension=out_dimension)]


def few_output_convolution(op: ir.Operation):
    """A convolution with rhs dilation or padding, or with one output position, at most
    FEW_OUTPUTS output positions and a window of 2 or more (no groups, lhs dilation or
    reversal) as one dot_general per output position over its window, each window a strided
    slice behind a fusion barrier: IREE made such a convolution a reduction over a strided load
    of the window that lavapipe read unstrided, and its SPIR-V compile of one output position
    over an [o, 0, i, 1] kernel crashed (SIGSEGV)."""
    attrs = attributes(op)
    dilated = "rhs_dilation" in attrs and any(
        int(v) != 1 for v in ir.DenseI64ArrayAttr(attrs["rhs_dilation"]))
    padded = "padding" in attrs and any(
        int(v) != 0 for v in ir.DenseIntElementsAttr(attrs["padding"]))
    result = ir.RankedTensorType(op.results[0].type)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    one_output = result.has_static_shape and dims["kernel_output_feature_dimension"] == 0 and \
        all(result.shape[d] == 1 for d in dims["output_spatial_dimensions"])   # [o, 0, i, 1]
    if not (dilated or padded or one_output):
        return None
    return window_matmuls(op, 0, FEW_OUTPUTS, 2, integers=True)


def _unsigned(element: ir.Type) -> bool:
    element = element.maybe_downcast()
    return isinstance(element, ir.IntegerType) and element.is_unsigned


def unsigned_grouped_convolution(op: ir.Operation):
    """A grouped (or depthwise) convolution of unsigned integers computed on signless operands
    of 32 bits (ui8/ui16/ui32) or 64 (ui64), converted behind fusion barriers, and wrapped
    back to its type (exact: products and sums wrap alike): IREE's SPIR-V code gave zeros or
    wrong values for some of its results."""
    attrs = attributes(op)
    if (ir.IntegerAttr(attrs["feature_group_count"]).value == 1
            and ir.IntegerAttr(attrs["batch_group_count"]).value == 1) or not all(
            _unsigned(element_of(v)) for v in (*op.operands, op.results[0])):
        return None
    result = ir.RankedTensorType(op.results[0].type)
    width = max(32, *(ir.IntegerType(element_of(v)).width
                      for v in (*op.operands, op.results[0])))
    wide_type = ir.IntegerType.get_signless(width)
    lhs, rhs = fence([Num(v).to(wide_type).value for v in op.operands])
    wide = ir.Operation.create("stablehlo.convolution", results=[
        ir.RankedTensorType.get(result.shape, wide_type)], operands=[lhs, rhs],
        attributes=attrs).result
    return [Num(wide).to(result.element_type).value]


def complex_f32_constant(op: ir.Operation):
    """A complex<f32> constant as stablehlo.complex of two f32 constants (IREE's SPIR-V
    backend could not materialize a non-splat complex<f32> constant)."""
    return split_constant(op, "complex<f32>")


def signed_zero_root(op: ir.Operation):
    """sqrt(x) and rsqrt(x) of real floats with x = +-0 taken apart: select(x == 0, x or 1 / x,
    op(x)), so that the compiler cannot take the root's result for non-negative (the sign of
    sqrt(-0) = -0 and rsqrt(-0) = -inf was lost to an abs or is_finite read after it)."""
    x = op.operands[0]
    if CANONICAL in op.attributes or not is_float(element_of(x)):
        return None
    root = ir.Operation.create(op.name, results=[x.type], operands=[x]).result
    root.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    zero = Num(x).like(0)
    at_zero = Num(x) if op.name == "stablehlo.sqrt" else Num(x).like(1) / Num(x)
    return [select(Num(x).eq(zero), at_zero, Num(root)).value]


# region-free, side-effect-free ops that CSE makes one value when name, attributes and
# operands agree
_PURE = ELEMENTWISE_OPS | {f"stablehlo.{name}" for name in (
    "constant", "broadcast_in_dim", "reshape", "transpose", "slice", "iota", "concatenate",
    "pad", "reverse")}


def _form(value: ir.Value, depth: int = 4) -> tuple[int, object]:
    """(sign, key) of `value`: values of one key are one value up to the sign (negations
    taken out of negate, multiply and divide), as a shader compiler sees them after CSE
    (pure ops of the same name, attributes and operand keys, `depth` ops back)."""
    owner = value.owner
    if depth == 0 or isinstance(owner, ir.Block):
        return 1, value
    op = owner.operation
    if op.name == "stablehlo.negate":
        sign, key = _form(op.operands[0], depth - 1)
        return -sign, key
    if op.name == "stablehlo.constant":     # a splat by its text (complex ones included)
        return 1, (constant_text(op) if is_splat_constant(op) else value)
    if op.name == "stablehlo.reshape":      # a chain of reshapes is one (seed 140 program 21)
        source = op.operands[0]
        while isinstance(source.owner, (ir.Operation, ir.OpView)) and \
                source.owner.name == "stablehlo.reshape":
            source = source.owner.operands[0]
        if source.type == value.type:
            return _form(source, depth - 1)
        sign, key = _form(source, depth - 1)
        return sign, ("stablehlo.reshape", str(value.type), key)
    if op.name not in _PURE:
        return 1, value
    forms = [_form(v, depth - 1) for v in op.operands]
    sign = 1
    if op.name in ("stablehlo.multiply", "stablehlo.divide"):
        for each, _ in forms:
            sign *= each
        forms = [(1, key) for _, key in forms]
    return sign, (op.name, str(value.type), ir.OpResult(value).result_number,
                  tuple(sorted((k, str(a)) for k, a in attributes(op).items())), tuple(forms))


def _nan_or_zero(x: Num) -> Num:
    """x - x of a real float x: |x| * 0 (NaN for +-inf and NaN, else +0) with the zero read
    from memory, where the shader cannot fold the product."""
    zero, = fence([x.like(0.0).value])
    return abs(x) * Num(zero)


def self_difference(op: ir.Operation):
    """x - x and x + (-x) of floats (x one value, or computed alike up to negations) as
    |x| * 0 with the 0 read from memory (per part for complex x): NaN for +-inf and NaN, not
    the 0 that Vulkan's shader compiler folds them to."""
    if not is_float(element_of(op.results[0])) and not is_complex(element_of(op.results[0])):
        return None
    a, b = op.operands
    (sa, ka), (sb, kb) = _form(a), _form(b)
    if ka != kb or (sa == sb) != (op.name == "stablehlo.subtract"):
        return None
    if is_complex(element_of(a)):
        return [complex_(_nan_or_zero(real(Num(a))), _nan_or_zero(imag(Num(a)))).value]
    return [_nan_or_zero(Num(a)).value]


_SUMS = ("stablehlo.add", "stablehlo.subtract")


def _terms(value: ir.Value) -> list:
    """The keys of the two terms of a sum or difference `value` (else none)."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name not in _SUMS:
        return []
    return [_form(v)[1] for v in owner.operation.operands]


def fence_error_free_sum(op: ir.Operation) -> None:
    """(a + b) - a, (a - b) + b, a - (a + b), ... of floats: the sum or difference of a
    term the other operand is also (up to sign) computed in a dispatch of its own, so the
    shader reads it from memory and cannot fold the whole to b (Knuth's two-sum error term
    was 0 on Vulkan)."""
    if not is_float(real_element(element_of(op.results[0]))):
        return
    a, b = op.operands
    for inner, other in ((a, b), (b, a)):
        if _form(other)[1] in _terms(inner) and \
                ir.RankedTensorType(inner.type).has_static_shape:
            with ir.InsertionPoint(op), op.location:
                fenced, = fence([inner])
            op.operands[list(op.operands).index(inner)] = fenced
            return


def unit_strided_slice(op: ir.Operation):
    """A slice with a stride above 1 along a dimension it takes one element of, with stride
    1 there (the same elements; IREE's SPIR-V backend failed to compile the strided form
    fused with other slices: "failed to legalize unresolved ... materialization")."""
    t = ir.RankedTensorType(op.results[0].type)
    strides = list(ir.DenseI64ArrayAttr(op.attributes["strides"]))
    if not any(n == 1 and s != 1 for n, s in zip(t.shape, strides)):
        return None
    starts = list(ir.DenseI64ArrayAttr(op.attributes["start_indices"]))
    limits = list(ir.DenseI64ArrayAttr(op.attributes["limit_indices"]))
    for d, n in enumerate(t.shape):
        if n == 1 and strides[d] != 1:
            strides[d], limits[d] = 1, starts[d] + 1
    return [stablehlo.slice(op.operands[0], start_indices=starts, limit_indices=limits,
                            strides=strides, result_type=t)]


def nan_min_max_reduce(op: ir.Operation):
    """A static-shape float max/min reduce that is NaN where a reduced element is
    (`propagate_nan`), its computed input read from behind a fusion barrier first (an f32
    convert of bf16 fused with the reduce and its NaN flags' `or` reduce overflowed shared
    memory) outside loops and branches (there the barrier would be an optimization_barrier,
    which made transformer_decode's Vulkan command buffer copy out of its bindings' range)."""
    x = op.operands[0]
    body = binary_body(op)
    if CANONICAL in op.attributes or len(op.operands) != 2 or body is None or \
            body.name not in MIN_MAX or not is_float(element_of(x)) or \
            not ir.RankedTensorType(x.type).has_static_shape:
        return None
    if not isinstance(x.owner, ir.Block) and x.owner.name != FUSION_BARRIER and \
            not in_control_flow(op.operation.parent):
        with ir.InsertionPoint(op), op.location:
            op.operands[0] = fusion_barrier(x)
    return propagate_nan(op)

