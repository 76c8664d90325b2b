"""XlaBuilder Dot, DotGeneral, RaggedDot, ScaledDot, every Conv form (padding kinds, general
dimensions, dilations, feature and batch group counts), Fft (FFT/IFFT/RFFT/IRFFT, 1-D and 2-D),
Cholesky, TriangularSolve and the BatchNorm ops on CPU and Vulkan. Oracles: numpy, and
jax.lax.conv_general_dilated (XLA itself) for the convolutions.
"""
import numpy as np

from shlo import xla
from xla_suite import Case, Suite, build_error, numeric_test, rng

R = rng(5)
F32, I32, C64 = np.float32, np.int32, np.complex64


def normal(*shape):
    return R.standard_normal(shape).astype(F32)


def f32(fn):
    return lambda *a: np.asarray(fn(*[np.asarray(x, np.float64) for x in a]), F32)


def conv_oracle(strides, padding, lhs_dilation=None, rhs_dilation=None, dims=None,
                feature_group_count=1, batch_group_count=1):
    def oracle(lhs, rhs):
        from jax import lax
        out = lax.conv_general_dilated(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation,
                                       dims, feature_group_count, batch_group_count,
                                       precision=lax.Precision.HIGHEST)
        return np.asarray(out, F32)
    return oracle


def conv_case(name, lhs, rhs, build, oracle, **kw):
    return Case(name, (lhs, rhs), lambda b, x, y: build(x, y), oracle, rtol=1e-4, atol=1e-4, **kw)


NHWC = xla.ConvolutionDimensionNumbers(
    input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=[1, 2],
    kernel_output_feature_dimension=3, kernel_input_feature_dimension=2,
    kernel_spatial_dimensions=[0, 1], output_batch_dimension=0, output_feature_dimension=3,
    output_spatial_dimensions=[1, 2])
JAX_NHWC = ("NHWC", "HWIO", "NHWC")


def ragged_dot_oracle(lhs, rhs, group_sizes):
    out, start = np.zeros((lhs.shape[0], rhs.shape[2]), np.float64), 0
    for g, size in enumerate(group_sizes):
        out[start:start + size] = lhs[start:start + size].astype(np.float64) @ rhs[g]
        start += size
    return out.astype(F32)


def spd(n, batch=()):
    a = R.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(F32)


def with_garbage(a, lower):
    """The other triangle is ignored by Cholesky/TriangularSolve: fill it with noise."""
    noise = R.standard_normal(a.shape).astype(F32) * 100
    keep = np.tril(np.ones(a.shape[-2:], bool)) if lower else np.triu(np.ones(a.shape[-2:], bool))
    return np.where(keep, a, noise).astype(F32)


def cholesky_check(lower):
    def check(got, inputs):
        (l,), (a,) = got, inputs
        mask = np.tril if lower else np.triu
        t = mask(a.astype(np.float64))
        want = np.linalg.cholesky(t + np.swapaxes(t, -1, -2) - t * np.eye(a.shape[-1]))
        np.testing.assert_allclose(mask(l), mask(want if lower else np.swapaxes(want, -1, -2)),
                                   rtol=1e-4, atol=1e-5)
    return check


def triangular_solve_oracle(left_side, lower, unit_diagonal, transpose_a):
    def oracle(a, b):
        t = np.tril(a) if lower else np.triu(a)
        t = t.astype(np.float64)
        if unit_diagonal:
            t[..., np.arange(t.shape[-1]), np.arange(t.shape[-1])] = 1
        if transpose_a != "NO_TRANSPOSE":
            t = np.swapaxes(t, -1, -2)
        if left_side:
            return np.linalg.solve(t, b).astype(F32)
        return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)),
                           -1, -2).astype(F32)
    return oracle


def batch_norm_training_oracle(x, scale, offset, eps=1e-3, feature=1):
    axes = tuple(d for d in range(x.ndim) if d != feature)
    shape = [1] * x.ndim
    shape[feature] = -1
    x64 = x.astype(np.float64)
    mean, var = x64.mean(axes), x64.var(axes)
    y = (x64 - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) \
        + offset.reshape(shape)
    return [y.astype(F32), mean.astype(F32), var.astype(F32)]


def batch_norm_inference_oracle(x, scale, offset, mean, var, eps=1e-3, feature=3):
    shape = [1] * x.ndim
    shape[feature] = -1
    y = (x.astype(np.float64) - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) \
        * scale.reshape(shape) + offset.reshape(shape)
    return y.astype(F32)


def batch_norm_grad_oracle(x, scale, mean, var, dy, eps=1e-3, feature=1):
    axes = tuple(d for d in range(x.ndim) if d != feature)
    shape = [1] * x.ndim
    shape[feature] = -1
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    m, v, g = mean.reshape(shape), var.reshape(shape) + eps, scale.reshape(shape)
    c = (dy64 * (x64 - m) / v).mean(axes, keepdims=True)
    d = dy64.mean(axes, keepdims=True)
    dx = g / np.sqrt(v) * (dy64 - d - c * (x64 - m))
    dscale = (dy64 * (x64 - m) / np.sqrt(v)).sum(axes)
    doffset = dy64.sum(axes)
    return [dx.astype(F32), dscale.astype(F32), doffset.astype(F32)]


def tuple_items(result, n):
    return [xla.GetTupleElement(result, i) for i in range(n)]


BN_X = normal(4, 3, 2, 5) * 2 + 1
COMPLEX = (R.standard_normal((3, 8)) + 1j * R.standard_normal((3, 8))).astype(C64)

CASES = [
    # --- dots
    Case("dot_vector_vector", (normal(7), normal(7)), lambda b, x, y: xla.Dot(x, y),
         f32(np.dot), rtol=1e-5, atol=1e-5),
    Case("dot_matrix_vector", (normal(3, 7), normal(7)), lambda b, x, y: xla.Dot(x, y),
         f32(np.dot), rtol=1e-5, atol=1e-5),
    Case("dot_matrix_matrix", (normal(3, 7), normal(7, 5)), lambda b, x, y: xla.Dot(x, y),
         f32(np.dot), rtol=1e-5, atol=1e-5),
    Case("dot_preferred_element_type", (R.integers(-100, 100, (3, 4)).astype(np.int8),
                                        R.integers(-100, 100, (4, 2)).astype(np.int8)),
         lambda b, x, y: xla.Dot(x, y, preferred_element_type="S32"),
         lambda x, y: x.astype(I32) @ y.astype(I32)),
    Case("dot_general_contracting", (normal(2, 3), normal(4, 3)),
         lambda b, x, y: xla.DotGeneral(x, y, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[1])),
         f32(lambda x, y: x @ y.T), rtol=1e-5, atol=1e-5),
    Case("dot_general_batch", (normal(2, 3, 4, 5), normal(2, 3, 6, 4)),
         lambda b, x, y: xla.DotGeneral(x, y, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[3],
             lhs_batch_dimensions=[0, 1], rhs_batch_dimensions=[0, 1])),
         f32(lambda x, y: np.einsum("abkm,abnk->abmn", x, y)), rtol=1e-5, atol=1e-5),
    Case("dot_general_two_contracting_dims", (normal(3, 4, 5), normal(5, 2, 4)),
         lambda b, x, y: xla.DotGeneral(x, y, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[1, 2], rhs_contracting_dimensions=[2, 0])),
         f32(lambda x, y: np.einsum("mkc,cnk->mn", x, y)), rtol=1e-5, atol=1e-5),
    Case("ragged_dot", (normal(7, 4), normal(3, 4, 5), np.array([2, 0, 5], I32)),
         lambda b, x, y, g: xla.RaggedDot(x, y, g, xla.RaggedDotDimensionNumbers(
             dot_dimension_numbers=xla.DotDimensionNumbers(lhs_contracting_dimensions=[1],
                                                           rhs_contracting_dimensions=[1]),
             lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])),
         ragged_dot_oracle, rtol=1e-5, atol=1e-5),
    # block scales of size 2 along the contracting dimension: (lhs * scale) . (rhs * scale)
    Case("scaled_dot", (normal(3, 4), normal(3, 2), normal(4, 5), normal(2, 5)),
         lambda b, x, xs, y, ys: xla.ScaledDot(x, xs, y, ys, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])),
         f32(lambda x, xs, y, ys: (x * np.repeat(xs, 2, 1)) @ (y * np.repeat(ys, 2, 0))),
         rtol=1e-5, atol=1e-5),
    # --- convolutions
    conv_case("conv_valid", normal(2, 3, 7, 6), normal(4, 3, 3, 2),
              lambda x, y: xla.Conv(x, y, [1, 1], xla.Padding.VALID),
              conv_oracle((1, 1), "VALID")),
    conv_case("conv_same_strided", normal(2, 3, 7, 6), normal(4, 3, 3, 2),
              lambda x, y: xla.Conv(x, y, [2, 2], xla.Padding.SAME),
              conv_oracle((2, 2), "SAME")),
    conv_case("conv_with_general_padding", normal(1, 2, 5, 5), normal(3, 2, 2, 3),
              lambda x, y: xla.ConvWithGeneralPadding(x, y, [1, 2], [(2, 1), (-1, 3)]),
              conv_oracle((1, 2), [(2, 1), (-1, 3)])),
    conv_case("conv_with_general_dimensions", normal(2, 6, 5, 3), normal(3, 2, 3, 4),
              lambda x, y: xla.ConvWithGeneralDimensions(x, y, [1, 1], xla.Padding.SAME, NHWC),
              conv_oracle((1, 1), "SAME", dims=JAX_NHWC)),
    conv_case("conv_general", normal(2, 6, 5, 3), normal(3, 2, 3, 4),
              lambda x, y: xla.ConvGeneral(x, y, [2, 1], [(1, 1), (0, 2)], NHWC),
              conv_oracle((2, 1), [(1, 1), (0, 2)], dims=JAX_NHWC)),
    conv_case("conv_general_dilated", normal(1, 2, 6, 5), normal(3, 2, 2, 2),
              lambda x, y: xla.ConvGeneralDilated(x, y, [1, 1], [(1, 0), (0, 1)], [2, 1], [1, 2],
                                                  xla.ConvolutionDimensionNumbers(
                                                      input_batch_dimension=0,
                                                      input_feature_dimension=1,
                                                      input_spatial_dimensions=[2, 3],
                                                      kernel_output_feature_dimension=0,
                                                      kernel_input_feature_dimension=1,
                                                      kernel_spatial_dimensions=[2, 3],
                                                      output_batch_dimension=0,
                                                      output_feature_dimension=1,
                                                      output_spatial_dimensions=[2, 3])),
              conv_oracle((1, 1), [(1, 0), (0, 1)], (2, 1), (1, 2))),
    conv_case("conv_feature_group_count", normal(2, 4, 6, 6), normal(6, 2, 3, 3),
              lambda x, y: xla.Conv(x, y, [1, 1], xla.Padding.VALID, feature_group_count=2),
              conv_oracle((1, 1), "VALID", feature_group_count=2)),
    conv_case("conv_depthwise", normal(1, 6, 5, 5), normal(6, 1, 2, 2),
              lambda x, y: xla.Conv(x, y, [1, 1], xla.Padding.SAME, 6),
              conv_oracle((1, 1), "SAME", feature_group_count=6)),
    conv_case("conv_batch_group_count", normal(4, 3, 5, 5), normal(4, 3, 2, 2),
              lambda x, y: xla.Conv(x, y, [1, 1], xla.Padding.VALID, batch_group_count=2),
              conv_oracle((1, 1), "VALID", batch_group_count=2)),
    conv_case("conv_1d_strided_padded", normal(2, 3, 9), normal(2, 3, 4),
              lambda x, y: xla.ConvWithGeneralPadding(x, y, [3], [(2, 2)]),
              conv_oracle((3,), [(2, 2)])),
    # --- FFT
    Case("fft", (COMPLEX,), lambda b, x: xla.Fft(x, "FFT", [8]),
         lambda x: np.fft.fft(x).astype(C64), rtol=1e-5, atol=1e-5),
    Case("ifft", (COMPLEX,), lambda b, x: xla.Fft(x, "IFFT", [8]),
         lambda x: np.fft.ifft(x).astype(C64), rtol=1e-5, atol=1e-5),
    Case("fft_2d", (COMPLEX.reshape(1, 3, 8)[:, :, :4].copy(),),
         lambda b, x: xla.Fft(x, "FFT", [3, 4]), lambda x: np.fft.fft2(x).astype(C64),
         rtol=1e-5, atol=1e-5),
    Case("rfft", (normal(3, 16),), lambda b, x: xla.Fft(x, "RFFT", [16]),
         lambda x: np.fft.rfft(x).astype(C64), rtol=1e-5, atol=1e-5),
    Case("irfft", (np.fft.rfft(normal(2, 16)).astype(C64),),
         lambda b, x: xla.Fft(x, "IRFFT", [16]), lambda x: np.fft.irfft(x, 16).astype(F32),
         rtol=1e-5, atol=1e-5),
    # --- Cholesky and TriangularSolve (the unread triangle holds noise)
    Case("cholesky_lower", (with_garbage(spd(4), True),), lambda b, a: xla.Cholesky(a, True),
         None, check=cholesky_check(True)),
    Case("cholesky_upper_batched", (with_garbage(spd(3, (2,)), False),),
         lambda b, a: xla.Cholesky(a, lower=False), None, check=cholesky_check(False)),
    Case("triangular_solve_left_lower", (with_garbage(spd(4), True), normal(4, 3)),
         lambda b, a, y: xla.TriangularSolve(a, y, True, True, False, "NO_TRANSPOSE"),
         triangular_solve_oracle(True, True, False, "NO_TRANSPOSE"), rtol=1e-4, atol=1e-5),
    Case("triangular_solve_right_upper_transpose", (with_garbage(spd(4), False), normal(3, 4)),
         lambda b, a, y: xla.TriangularSolve(a, y, left_side=False, lower=False,
                                             unit_diagonal=False, transpose_a="TRANSPOSE"),
         triangular_solve_oracle(False, False, False, "TRANSPOSE"), rtol=1e-4, atol=1e-5),
    Case("triangular_solve_unit_diagonal_adjoint", (with_garbage(spd(3, (2,)), True),
                                                    normal(2, 3, 2)),
         lambda b, a, y: xla.TriangularSolve(a, y, True, True, True, "ADJOINT"),
         triangular_solve_oracle(True, True, True, "ADJOINT"), rtol=1e-4, atol=1e-4),
    # --- batch norm
    Case("batch_norm_training", (BN_X, normal(3), normal(3)),
         lambda b, x, s, o: tuple_items(xla.BatchNormTraining(x, s, o, 1e-3, 1), 3),
         batch_norm_training_oracle, rtol=1e-4, atol=1e-5),
    Case("batch_norm_inference", (BN_X, normal(5), normal(5), normal(5),
                                  np.abs(normal(5)) + 0.5),
         lambda b, x, s, o, m, v: xla.BatchNormInference(x, s, o, m, v, 1e-3, 3),
         batch_norm_inference_oracle, rtol=1e-5, atol=1e-5),
    Case("batch_norm_grad", (BN_X, normal(3), BN_X.mean((0, 2, 3)), BN_X.var((0, 2, 3)),
                             normal(*BN_X.shape)),
         lambda b, x, s, m, v, dy: tuple_items(xla.BatchNormGrad(x, s, m, v, dy, 1e-3, 1), 3),
         batch_norm_grad_oracle, rtol=1e-4, atol=1e-4),
]

SUITE = Suite("linalg", CASES)
test_linalg_conv_fft = numeric_test(SUITE)


def test_dot_general_mismatched_contracting_sizes_raises():
    dnums = xla.DotDimensionNumbers(lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])
    error = build_error([(F32, [2, 3]), (F32, [4, 2])],
                        lambda b, x, y: xla.DotGeneral(x, y, dnums))
    assert "3" in str(error) and "4" in str(error)


def test_conv_feature_group_count_must_divide_raises():
    build_error([(F32, [1, 3, 5, 5]), (F32, [4, 3, 2, 2])], lambda b, x, w: xla.Conv(
        x, w, [1, 1], xla.Padding.VALID, feature_group_count=2))
