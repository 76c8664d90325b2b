"""Linear algebra: Dot, DotGeneral, RaggedDot, ScaledDot, the Conv family, Fft, Cholesky,
TriangularSolve and the BatchNorm ops.

preferred_element_type: a type at least as wide as the operands' converts the operands first
(so the products accumulate in it); a narrower one converts the result.
"""
from __future__ import annotations

from shlo.dialect import chlo, stablehlo
from shlo.dialect import types as T

from .builder import XlaOp
from .errors import fail
from .numbers import (ConvolutionDimensionNumbers, DotDimensionNumbers,
                      RaggedDotDimensionNumbers, check_fields, enum_name, make_padding,
                      precisions)
from .operands import array, builder_of, ints
from .shapes import dtype


def _widen(values, preferred):
    """(operands, result element type to convert to afterwards or None)."""
    if preferred is None:
        return values, None
    et = T.element_type(dtype(preferred))
    src = T.elem(values[0].type)
    if et == src:
        return values, None
    if T.num_bits(et) >= T.num_bits(src):
        return [stablehlo.convert(v, result_type=T.with_shape(v.type, T.shape(v.type), et))
                for v in values], None
    return values, et


def _narrow(y, et):
    return y if et is None else stablehlo.convert(y, result_type=T.with_shape(
        y.type, T.shape(y.type), et))


def _dot_keywords(op: str, dn: DotDimensionNumbers) -> dict:
    dn = check_fields(op, "dimension_numbers", dn, DotDimensionNumbers)
    return dict(lhs_batching_dimensions=list(dn.lhs_batch_dimensions),
                rhs_batching_dimensions=list(dn.rhs_batch_dimensions),
                lhs_contracting_dimensions=list(dn.lhs_contracting_dimensions),
                rhs_contracting_dimensions=list(dn.rhs_contracting_dimensions))


def DotGeneral(lhs: XlaOp, rhs: XlaOp, dimension_numbers, precision_config=None,
               preferred_element_type=None) -> XlaOp:
    """XLA DotGeneral(lhs, rhs, dimension_numbers, precision_config, preferred_element_type):
    result dimensions are batch, then lhs free, then rhs free."""
    b = builder_of("DotGeneral", lhs, rhs)
    pc = precisions("DotGeneral", precision_config)
    kw = _dot_keywords("DotGeneral", dimension_numbers)
    with b.emit("DotGeneral"):
        (x, y), after = _widen([array("DotGeneral", lhs, "lhs"), array("DotGeneral", rhs, "rhs")],
                               preferred_element_type)
        return b.wrap(_narrow(stablehlo.dot_general(x, y, precision_config=pc, **kw), after))


def Dot(lhs: XlaOp, rhs: XlaOp, precision_config=None, preferred_element_type=None) -> XlaOp:
    """XLA Dot: vector.vector, matrix.vector or matrix.matrix (contracts lhs's last dimension
    with rhs's first)."""
    ranks = [x.shape().rank() if isinstance(x, XlaOp) and x.shape().is_array() else -1
             for x in (lhs, rhs)]
    if any(r not in (1, 2) for r in ranks):
        fail("Dot", f"operands {lhs.shape() if isinstance(lhs, XlaOp) else lhs} and "
             f"{rhs.shape() if isinstance(rhs, XlaOp) else rhs} must be vectors or matrices",
             "Dot takes rank-1 or rank-2 arrays; use DotGeneral for more")
    dn = DotDimensionNumbers((ranks[0] - 1,), (0,))
    return DotGeneral(lhs, rhs, dn, precision_config=precision_config,
                      preferred_element_type=preferred_element_type)


def RaggedDot(lhs: XlaOp, rhs: XlaOp, group_sizes: XlaOp, dimension_numbers,
              precision_config=None, preferred_element_type=None) -> XlaOp:
    """XLA RaggedDot: a dot whose lhs ragged dimension is split into groups of `group_sizes`
    rows, each multiplied with its own slice of rhs's group dimension (chlo.ragged_dot)."""
    b = builder_of("RaggedDot", lhs, rhs, group_sizes)
    dn = check_fields("RaggedDot", "dimension_numbers", dimension_numbers,
                      RaggedDotDimensionNumbers)
    kw = _dot_keywords("RaggedDot", dn.dot_dimension_numbers)
    with b.emit("RaggedDot"):
        (x, y), after = _widen([array("RaggedDot", lhs, "lhs"), array("RaggedDot", rhs, "rhs")],
                               preferred_element_type)
        return b.wrap(_narrow(chlo.ragged_dot(
            x, y, array("RaggedDot", group_sizes, "group_sizes"),
            lhs_ragged_dimensions=ints("RaggedDot", "lhs_ragged_dimensions",
                                       dn.lhs_ragged_dimensions),
            rhs_group_dimensions=ints("RaggedDot", "rhs_group_dimensions",
                                      dn.rhs_group_dimensions),
            precision_config=precisions("RaggedDot", precision_config), **kw), after))


def _expand_scale(op: str, x, scale, what: str):
    """`scale` repeated over blocks to `x`'s shape: each dimension of x is a whole multiple of
    the scale's (XLA's block scaling)."""
    xs, ss = T.shape(x.type), T.shape(scale.type)
    if len(xs) != len(ss) or any(s == 0 or n % s for n, s in zip(xs, ss)):
        fail(op, f"{what} of shape {ss} does not divide the operand's shape {xs} into blocks",
             "each operand dimension is a multiple of the scale's")
    blocks = [n // s for n, s in zip(xs, ss)]
    inter = [d for s, k in zip(ss, blocks) for d in (s, k)]
    wide = stablehlo.broadcast_in_dim(scale, broadcast_dimensions=list(range(0, 2 * len(ss), 2)),
                                      result_type=T.with_shape(scale.type, inter))
    return stablehlo.reshape(wide, result_type=T.with_shape(scale.type, xs))


def ScaledDot(lhs: XlaOp, lhs_scale: XlaOp, rhs: XlaOp, rhs_scale: XlaOp, dimension_numbers,
              precision_config=None, preferred_element_type=None) -> XlaOp:
    """XLA ScaledDot: DotGeneral of lhs * lhs_scale and rhs * rhs_scale, each scale repeated
    over equal blocks of its operand; computed in preferred_element_type (default: the
    scales' type when it is wider than the operands', else the operands')."""
    b = builder_of("ScaledDot", lhs, lhs_scale, rhs, rhs_scale)
    kw = _dot_keywords("ScaledDot", dimension_numbers)
    pc = precisions("ScaledDot", precision_config)
    x, y = array("ScaledDot", lhs, "lhs"), array("ScaledDot", rhs, "rhs")
    sx, sy = array("ScaledDot", lhs_scale, "lhs_scale"), array("ScaledDot", rhs_scale,
                                                               "rhs_scale")
    with b.emit("ScaledDot"):
        if preferred_element_type is None:
            wide = max((x, sx), key=lambda v: T.num_bits(T.elem(v.type)))
            et = T.elem(wide.type)
        else:
            et = T.element_type(dtype(preferred_element_type))
        if T.kind(et) != T.FLOAT:
            fail("ScaledDot", f"computes in a floating-point type, got {et}")
        conv = [stablehlo.convert(v, result_type=T.with_shape(v.type, T.shape(v.type), et))
                if T.elem(v.type) != et else v for v in (x, sx, y, sy)]
        x2 = stablehlo.multiply(conv[0], _expand_scale("ScaledDot", conv[0], conv[1],
                                                       "lhs_scale"))
        y2 = stablehlo.multiply(conv[2], _expand_scale("ScaledDot", conv[2], conv[3],
                                                       "rhs_scale"))
        return b.wrap(stablehlo.dot_general(x2, y2, precision_config=pc, **kw))


def ConvGeneralDilated(lhs: XlaOp, rhs: XlaOp, window_strides, padding, lhs_dilation=None,
                       rhs_dilation=None, dimension_numbers=None, feature_group_count: int = 1,
                       batch_group_count: int = 1, precision_config=None,
                       preferred_element_type=None, window_reversal=None) -> XlaOp:
    """XLA ConvGeneralDilated: the general convolution (stablehlo.convolution); padding is
    (low, high) pairs or xla.Padding; dimension_numbers default to XLA's [b, f, spatial...]."""
    op = "ConvGeneralDilated"
    return _conv(op, lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                 dimension_numbers, feature_group_count, batch_group_count, precision_config,
                 preferred_element_type, window_reversal)


def _conv(op, lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
          feature_group_count, batch_group_count, precision_config, preferred_element_type,
          window_reversal):
    b = builder_of(op, lhs, rhs)
    x, w = array(op, lhs, "lhs"), array(op, rhs, "rhs")
    n = T.rank(x.type) - 2
    if n < 0:
        fail(op, f"lhs {lhs.shape()} needs a batch and a feature dimension")
    dn = ConvolutionDimensionNumbers.default(n) if dimension_numbers is None else \
        check_fields(op, "dimension_numbers", dimension_numbers, ConvolutionDimensionNumbers)
    strides = ints(op, "window_strides", window_strides, optional=True) or [1] * n
    ldil = ints(op, "lhs_dilation", lhs_dilation, optional=True)
    rdil = ints(op, "rhs_dilation", rhs_dilation, optional=True)
    in_sp = [T.shape(x.type)[d] for d in dn.input_spatial_dimensions]
    k_sp = [T.shape(w.type)[d] for d in dn.kernel_spatial_dimensions]
    if len(in_sp) != n or len(k_sp) != n or len(strides) != n:
        fail(op, f"dimension_numbers and window_strides must name {n} spatial dimensions",
             "n spatial dimensions for (n+2)-dimensional operands")
    pad = make_padding(op, padding, in_sp, k_sp, strides, rdil)
    kw = {k: list(v) if isinstance(v, tuple) else v for k, v in dn.as_keywords().items()}
    with b.emit(op):
        (x, w), after = _widen([x, w], preferred_element_type)
        return b.wrap(_narrow(stablehlo.convolution(
            x, w, window_strides=strides, padding=pad, lhs_dilation=ldil, rhs_dilation=rdil,
            window_reversal=None if window_reversal is None else [bool(r) for r in
                                                                  window_reversal],
            feature_group_count=feature_group_count, batch_group_count=batch_group_count,
            precision_config=precisions(op, precision_config), **kw), after))


def _conv_form(name: str, general_padding: bool, general_dims: bool):
    def conv(lhs, rhs, window_strides, padding, *args, **kwargs):
        names = (["dimension_numbers"] if general_dims else []) + [
            "feature_group_count", "batch_group_count", "precision_config",
            "preferred_element_type"]
        if len(args) > len(names):
            fail(name, f"takes at most {4 + len(names)} arguments")
        given = dict(zip(names, args))
        for k in kwargs:
            if k not in names or k in given:
                fail(name, f"unexpected or repeated argument {k!r}")
        given.update(kwargs)
        if general_padding and isinstance(padding, (str, type(None))):
            fail(name, "padding must be (low, high) pairs; Conv and ConvWithGeneralDimensions "
                 "take xla.Padding")
        return _conv(name, lhs, rhs, window_strides, padding, None, None,
                     given.get("dimension_numbers"), given.get("feature_group_count", 1),
                     given.get("batch_group_count", 1), given.get("precision_config"),
                     given.get("preferred_element_type"), None)
    conv.__name__ = conv.__qualname__ = name
    conv.__doc__ = (f"XLA {name}(lhs, rhs, window_strides, padding, "
                    + ("dimension_numbers, " if general_dims else "")
                    + "feature_group_count, batch_group_count, precision_config, "
                    "preferred_element_type): ConvGeneralDilated without dilation"
                    + ("" if general_dims else ", XLA's default dimension numbers") + ".")
    return conv


def Fft(operand: XlaOp, fft_type: str, fft_length) -> XlaOp:
    """XLA Fft(operand, fft_type, fft_length): FFT, IFFT, RFFT or IRFFT over the trailing
    len(fft_length) dimensions (the newest seed misspells fft_type as ftt_type)."""
    b = builder_of("Fft", operand)
    kind = enum_name("Fft", "fft_type", fft_type, ("FFT", "IFFT", "RFFT", "IRFFT"))
    with b.emit("Fft"):
        return b.wrap(stablehlo.fft(array("Fft", operand), fft_type=kind,
                                    fft_length=ints("Fft", "fft_length", fft_length)))


def Cholesky(a: XlaOp, lower: bool = True) -> XlaOp:
    """XLA Cholesky(a, lower): batched; only the `lower` (or upper) triangle is read."""
    b = builder_of("Cholesky", a)
    with b.emit("Cholesky"):
        return b.wrap(stablehlo.cholesky(array("Cholesky", a, "a"), lower=bool(lower)))


def TriangularSolve(a: XlaOp, b: XlaOp, left_side: bool = True, lower: bool = True,
                    unit_diagonal: bool = False, transpose_a="NO_TRANSPOSE") -> XlaOp:
    """XLA TriangularSolve(a, b, left_side, lower, unit_diagonal, transpose_a); transpose_a is
    NO_TRANSPOSE, TRANSPOSE or ADJOINT."""
    builder = builder_of("TriangularSolve", a, b)
    mode = enum_name("TriangularSolve", "transpose_a", transpose_a,
                     ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"))
    with builder.emit("TriangularSolve"):
        return builder.wrap(stablehlo.triangular_solve(
            array("TriangularSolve", a, "a"), array("TriangularSolve", b, "b"),
            left_side=bool(left_side), lower=bool(lower), unit_diagonal=bool(unit_diagonal),
            transpose_a=mode))


def BatchNormTraining(operand, scale, offset, epsilon: float, feature_index: int) -> XlaOp:
    """XLA BatchNormTraining: a tuple (normalized, batch_mean, batch_var)."""
    b = builder_of("BatchNormTraining", operand, scale, offset)
    with b.emit("BatchNormTraining"):
        return b.tuple_of(list(stablehlo.batch_norm_training(
            *[array("BatchNormTraining", v, w) for v, w in
              ((operand, "operand"), (scale, "scale"), (offset, "offset"))],
            epsilon=float(epsilon), feature_index=feature_index)))


def BatchNormInference(operand, scale, offset, mean, variance, epsilon: float,
                       feature_index: int) -> XlaOp:
    """XLA BatchNormInference: normalize with the given mean and variance."""
    b = builder_of("BatchNormInference", operand, scale, offset, mean, variance)
    with b.emit("BatchNormInference"):
        return b.wrap(stablehlo.batch_norm_inference(
            *[array("BatchNormInference", v, w) for v, w in
              ((operand, "operand"), (scale, "scale"), (offset, "offset"), (mean, "mean"),
               (variance, "variance"))],
            epsilon=float(epsilon), feature_index=feature_index))


def BatchNormGrad(operand, scale, batch_mean, batch_var, grad_output, epsilon: float,
                  feature_index: int) -> XlaOp:
    """XLA BatchNormGrad: a tuple (grad_operand, grad_scale, grad_offset)."""
    b = builder_of("BatchNormGrad", operand, scale, batch_mean, batch_var, grad_output)
    with b.emit("BatchNormGrad"):
        return b.tuple_of(list(stablehlo.batch_norm_grad(
            *[array("BatchNormGrad", v, w) for v, w in
              ((operand, "operand"), (scale, "scale"), (batch_mean, "batch_mean"),
               (batch_var, "batch_var"), (grad_output, "grad_output"))],
            epsilon=float(epsilon), feature_index=feature_index)))


OPS = dict(Dot=Dot, DotGeneral=DotGeneral, RaggedDot=RaggedDot, ScaledDot=ScaledDot,
           ConvGeneralDilated=ConvGeneralDilated,
           Conv=_conv_form("Conv", False, False),
           ConvWithGeneralPadding=_conv_form("ConvWithGeneralPadding", True, False),
           ConvWithGeneralDimensions=_conv_form("ConvWithGeneralDimensions", False, True),
           ConvGeneral=_conv_form("ConvGeneral", True, True),
           Fft=Fft, Cholesky=Cholesky, TriangularSolve=TriangularSolve,
           BatchNormTraining=BatchNormTraining, BatchNormInference=BatchNormInference,
           BatchNormGrad=BatchNormGrad)
