"""shlo-expand-fft: every stablehlo.fft as the 1-D ffts and DFT matmuls IREE can compile.

IREE lowers a `stablehlo.fft` only when it is 1-D, f32/complex<f32> and of a power-of-two
length (docs/iree_gaps.md#shlo-expand-fft). This pass keeps those native ffts, each behind a
fence (`extras.fence`: IREE fuses the real part of a long fft into it and runs out of stack),
an RFFT's input behind one too (IREE made an input it folds to zeros one tensor with the
RFFT's zero imaginary part and failed to compile that), and rewrites the others:

- an n-D fft becomes 1-D ffts along each transformed axis (the axis moved last with a
  transpose, then moved back): FFT/IFFT transform every axis; RFFT is a real 1-D RFFT on the
  last axis followed by complex FFTs on the others; IRFFT is complex IFFTs on the leading axes
  followed by a 1-D IRFFT on the last;
- a native IRFFT of IRFFT_THROUGH_IFFT points or more is the real part of IREE's complex
  IFFT of the Hermitian extension (IREE's own IRFFT kept its unused imaginary half on the
  stack);
- a transform of length 1 is the identity (RFFT: a zero imaginary part, IRFFT: the real
  part); IREE fails to compile some complex ones (a 2x1);
- a 1-D fft IREE cannot lower is a discrete Fourier transform on the real and imaginary parts:
  a dot_general with precomputed cos/sin matrices (twiddles from float64 numpy, angles reduced
  mod n), split four-step (n = n1 * n2: DFTs of n1 and n2 with a twiddle multiply between)
  when n is long and composite, so the matrices stay small; a static one of a prime of
  BLUESTEIN_FROM points or more is a convolution by power-of-two ffts (Bluestein's chirp-z),
  as XLA's ducc computes any length. IRFFT extends the half spectrum
  Hermitianly and keeps the real part of the inverse DFT, which ignores the imaginary parts of
  the k = 0 and k = n/2 terms exactly as numpy and XLA do.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.types import DYN, element_dtype
from shlo.errors import PassError
from ..base import defined_by
from ..lib import builders as extras
from ..lib.expr import Num, const, element_of, imag, real, real_element
from ..op_rules import RulesPass

DENSE_MAX = 64          # a DFT at most this long is one matmul
FACTOR_MAX = 4096       # the longest prime (or dynamic-shape) DFT built as an n x n matrix
# a static prime DFT longer than that is a convolution (Bluestein): two ffts of 2n points or
# more, which at IREE's fft speed (4-7x XLA's) ran 3.7x the matrix's time at 1009 points and
# as fast at 4093 (64 and 16 rows, cpu)
BLUESTEIN_FROM = FACTOR_MAX + 1


# IREE's own IRFFT of this length or more goes through its complex IFFT instead: the last
# stage of its IRFFT keeps the unused imaginary half in the dispatch, on the stack, which
# overflowed the cpu's 32 KiB from 16384 points on (65536 bytes; any batch; seed 44 program
# 359). Shorter ones stay IREE's: at 8192 points the IFFT took 1.53x the time (64 rows, paired)
IRFFT_THROUGH_IFFT = 16384


def _is_native(element: ir.Type, n: int) -> bool:
    """IREE's own lowering handles this 1-D fft: f32 and a power-of-two length."""
    return str(real_element(element)) == "f32" and n >= 1 and n & (n - 1) == 0


# --- tensor plumbing ------------------------------------------------------------------------


def _shape(x: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(x.type).shape)


def _tensor(shape, element: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def _along(x: ir.Value, axis: int, fn) -> ir.Value:
    """fn applied to the last axis of `x` with `axis` moved there, then moved back."""
    rank = len(_shape(x))
    if axis == rank - 1:
        return fn(x)
    perm = [d for d in range(rank) if d != axis] + [axis]
    back = [perm.index(d) for d in range(rank)]
    y = fn(stablehlo.transpose(x, permutation=perm))
    return stablehlo.transpose(y, permutation=back)


def _matrix(values: np.ndarray, element: ir.Type) -> ir.Value:
    return stablehlo.constant(values.astype(element_dtype(element)),
                              result_type=_tensor(values.shape, element))


def _dot_last(x: ir.Value, matrix: ir.Value) -> ir.Value:
    """[..., n] x [n, m] -> [..., m]. Leading run-time sized dimensions are collapsed into one
    first (IREE rejects a dot_general with several run-time free dimensions)."""
    shape = _shape(x)
    rank = len(shape)
    if rank <= 2 or DYN not in shape[:-1]:
        return stablehlo.dot_general(x, matrix, lhs_contracting_dimensions=[rank - 1],
                                     rhs_contracting_dimensions=[0],
                                     precision_config=["HIGHEST", "HIGHEST"])
    element = ir.RankedTensorType(x.type).element_type
    m = _shape(matrix)[1]
    rows = extras.collapse_shape(x, [list(range(rank - 1)), [rank - 1]],
                                 _tensor([DYN, shape[-1]], element))
    product = stablehlo.dot_general(rows, matrix, lhs_contracting_dimensions=[1],
                                    rhs_contracting_dimensions=[0],
                                    precision_config=["HIGHEST", "HIGHEST"])
    return extras.expand_shape(product, [list(range(rank - 1)), [rank - 1]],
                               _tensor([*shape[:-1], m], element),
                               [extras.dim(x, d) for d in range(rank - 1) if shape[d] == DYN])


def _swap_last(x: ir.Value) -> ir.Value:
    rank = len(_shape(x))
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return stablehlo.transpose(x, permutation=perm)


def _twiddles(rows: int, cols: int, n: int, sign: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sign*sin of 2*pi*(j*k mod n)/n for j < rows, k < cols, in float64: angles
    reduced to [0, pi] (conjugate pairs come out exactly conjugate) and exact on quarter
    turns (a length-2 or length-4 DFT is exact, as the spec's examples expect)."""
    r = np.outer(np.arange(rows, dtype=np.int64), np.arange(cols, dtype=np.int64)) % n
    mirror = np.where(2 * r > n, -1.0, 1.0)
    r = np.minimum(r, n - r)
    angle = 2 * np.pi * r / n
    cos, sin = np.cos(angle), np.sin(angle)
    quarter = (4 * r) % n == 0
    turns = (4 * r) // n                      # 0, 1 or 2 quarter turns where exact
    cos = np.where(quarter, np.array([1.0, 0.0, -1.0])[np.minimum(turns, 2)], cos)
    sin = np.where(quarter, np.array([0.0, 1.0, 0.0])[np.minimum(turns, 2)], sin)
    return cos, sign * mirror * sin


# --- the DFT on (real, imaginary) parts, along the last axis --------------------------------


def _split(n: int, static: bool) -> int | None:
    """n1 for a four-step DFT of length n = n1 * n2 (n1 the largest divisor <= sqrt(n)), or
    None when the DFT is one dense matrix (short, prime, or a dynamic shape)."""
    n1 = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return None if n <= DENSE_MAX or n1 == 1 or not static else n1


def largest_matrix(n: int, static: bool) -> int:
    """The longest dense DFT a length-n DFT is built from (a static one of a prime of
    BLUESTEIN_FROM or more is none: a convolution of power-of-two ffts)."""
    n1 = _split(n, static)
    if n1 is None:
        return 0 if static and n >= BLUESTEIN_FROM else n
    return max(largest_matrix(n1, True), largest_matrix(n // n1, True))


def _dft(re: ir.Value, im: ir.Value | None, n: int, inverse: bool, keep: int):
    """The first `keep` outputs of the length-n DFT (inverse: e^{+i...}/n) along the last axis
    of re + i*im (im None: zero)."""
    static = ir.RankedTensorType(re.type).has_static_shape
    n1 = _split(n, static)
    if n1 is None:
        if static and n >= BLUESTEIN_FROM:
            return _bluestein_dft(re, im, n, inverse, keep)
        return _dense_dft(re, im, n, inverse, keep)
    out_re, out_im = _four_step_dft(re, im, n1, n // n1, inverse)
    if keep < n:
        out_re, out_im = (_slice_last(v, keep) for v in (out_re, out_im))
    return out_re, out_im


def _dense_dft(re, im, n: int, inverse: bool, keep: int):
    element = element_of(re)
    cos, sin = _twiddles(n, keep, n, 1 if inverse else -1)
    if inverse:
        cos, sin = cos / n, sin / n
    c, s = _matrix(cos, element), _matrix(sin, element)
    # (a + ib)(C + iS) = (aC - bS) + i(aS + bC)
    out_re, out_im = Num(_dot_last(re, c)), Num(_dot_last(re, s))
    if im is not None:
        out_re = out_re - _dot_last(im, s)
        out_im = out_im + _dot_last(im, c)
    return out_re.value, out_im.value


def _times(a_re: Num, a_im: Num, b_re: Num, b_im: Num) -> tuple[Num, Num]:
    """(a_re + i a_im)(b_re + i b_im) as its real and imaginary parts."""
    return a_re * b_re - a_im * b_im, a_re * b_im + a_im * b_re


def _bluestein_dft(re, im, n: int, inverse: bool, keep: int):
    """The length-n DFT as a convolution (Bluestein): with c[j] = e^{-+i pi j^2 / n} (angles
    from j^2 mod 2n, exact), X[k] = c[k] sum_j x[j] c[j] conj(c[k - j]), the sum a circular
    convolution of m >= 2n - 1 points (a power of two) by ffts; the spectrum of conj(c) is
    computed here, in float64."""
    element = element_of(re)
    m = 1 << (2 * n - 2).bit_length()
    j = np.arange(n, dtype=np.int64)
    chirp = np.exp((1j if inverse else -1j) * np.pi * ((j * j) % (2 * n)) / n)
    kernel = np.zeros(m, np.complex128)
    kernel[:n], kernel[m - n + 1:] = np.conj(chirp), np.conj(chirp[:0:-1])
    batch = _shape(re)[:-1]

    def along_last(values: np.ndarray) -> Num:
        return Num(stablehlo.broadcast_in_dim(
            _matrix(values, element), broadcast_dimensions=[len(batch)],
            result_type=_tensor(batch + [len(values)], element)))
    c_re, c_im = along_last(chirp.real), along_last(chirp.imag)
    a_re, a_im = (Num(re) * c_re, Num(re) * c_im) if im is None else \
        _times(Num(re), Num(im), c_re, c_im)
    zero = _matrix(np.zeros(()), element)
    padded = [stablehlo.pad(v.value, zero, edge_padding_low=[0] * (len(batch) + 1),
                            edge_padding_high=[0] * len(batch) + [m - n],
                            interior_padding=[0] * (len(batch) + 1)) for v in (a_re, a_im)]
    spectrum = Num(extras.fence([_fft_last(stablehlo.complex(*padded), "FFT", m)])[0])
    s_re, s_im = real(spectrum), imag(spectrum)
    spectrum_of_kernel = np.fft.fft(kernel)
    k_re, k_im = along_last(spectrum_of_kernel.real), along_last(spectrum_of_kernel.imag)
    product = stablehlo.complex(*(v.value for v in _times(s_re, s_im, k_re, k_im)))
    convolution = Num(extras.fence([_fft_last(product, "IFFT", m)])[0])
    v_re, v_im = (Num(_slice_last(part.value, keep))
                  for part in (real(convolution), imag(convolution)))
    scale = 1 / n if inverse else 1.0
    w_re, w_im = along_last(chirp.real[:keep] * scale), along_last(chirp.imag[:keep] * scale)
    out_re, out_im = _times(v_re, v_im, w_re, w_im)
    return out_re.value, out_im.value


def _four_step_dft(re, im, n1: int, n2: int, inverse: bool):
    """DFT of length n1*n2: x[n2*j1 + j2] -> X[k1 + n1*k2] by DFTs over j1, a twiddle
    e^{-+2 pi i j2 k1 / n}, and DFTs over j2."""
    n = n1 * n2
    batch = _shape(re)[:-1]

    def split(v):   # [..., n] -> [..., n2 (j2), n1 (j1)]
        return None if v is None else _swap_last(
            stablehlo.reshape(v, result_type=_tensor(batch + [n1, n2], element_of(v))))
    a_re, a_im = _dft(split(re), split(im), n1, inverse, n1)          # [..., j2, k1]
    cos, sin = _twiddles(n2, n1, n, 1 if inverse else -1)
    shape = _tensor(batch + [n2, n1], element_of(re))
    rank = len(batch) + 2
    tc, ts = (stablehlo.broadcast_in_dim(_matrix(t, element_of(re)),
                                         broadcast_dimensions=[rank - 2, rank - 1],
                                         result_type=shape) for t in (cos, sin))
    a_re, a_im = Num(a_re), Num(a_im)
    b_re, b_im = _times(a_re, a_im, tc, ts)
    c_re, c_im = _dft(_swap_last(b_re.value), _swap_last(b_im.value), n2, inverse, n2)
    return _merge(c_re, batch + [n]), _merge(c_im, batch + [n])


def _merge(v: ir.Value, shape: list[int]) -> ir.Value:
    """[..., k1, k2] -> [..., n] indexed k1 + n1*k2."""
    return stablehlo.reshape(_swap_last(v), result_type=_tensor(shape, element_of(v)))


def _slice_last(x: ir.Value, start: int, limit: int | None = None) -> ir.Value:
    shape = _shape(x)
    if limit is None:
        start, limit = 0, start
    if DYN in shape[:-1]:
        sizes = [extras.dim(x, d) if size == DYN else size for d, size in enumerate(shape[:-1])]
        return extras.extract_slice(x, [0] * (len(shape) - 1) + [start], [*sizes, limit - start],
                                    [1] * len(shape), _tensor([*shape[:-1], limit - start],
                                                              element_of(x)))
    return stablehlo.slice(x, start_indices=[0] * (len(shape) - 1) + [start],
                           limit_indices=shape[:-1] + [limit])


# --- 1-D ffts on the last axis --------------------------------------------------------------


def _fft_last(x: ir.Value, fft_type: str, n: int) -> ir.Value:
    """A 1-D fft of `fft_type` and length n on the last axis of x."""
    static = ir.RankedTensorType(x.type).has_static_shape
    if n == 1:                  # one term: FFT and IFFT are the identity
        if fft_type == "RFFT":
            return stablehlo.complex(x, const(0, x))
        return real(Num(x)).value if fft_type == "IRFFT" else x
    if _is_native(element_of(x), n) and static:
        if fft_type == "IRFFT" and n >= IRFFT_THROUGH_IFFT:
            return irfft_through_ifft(x, n)
        return native_fft(x, fft_type, n)
    if fft_type == "RFFT":
        re, im = _dft(x, None, n, False, n // 2 + 1)
    elif fft_type == "IRFFT":
        return _irfft(x, n)
    else:
        re, im = _dft(real(Num(x)).value, imag(Num(x)).value, n, fft_type == "IFFT", n)
    # a barrier: IREE fuses the matmuls into the complex op and cannot vectorize that for f32
    # (not on run-time sizes: IREE rejects a barrier there)
    return stablehlo.complex(*(extras.fence([re, im]) if static else (re, im)))


def _hermitian_extension(x: ir.Value, n: int) -> tuple[ir.Value, ir.Value]:
    """(re, im) of the n-term spectrum whose first n//2 + 1 terms are x's, extended by
    X[n - k] = conj(X[k])."""
    re, im = real(Num(x)).value, imag(Num(x)).value
    mirrored = n - (n // 2 + 1)             # terms k = n//2+1 .. n-1 mirror k = mirrored .. 1
    if mirrored:
        last = len(_shape(x)) - 1

        def extend(v, sign):
            tail = Num(stablehlo.reverse(_slice_last(v, 1, mirrored + 1), dimensions=[last]))
            return stablehlo.concatenate([v, (tail if sign > 0 else -tail).value],
                                         dimension=last)
        re, im = extend(re, 1), extend(im, -1)
    return re, im


def _irfft(x: ir.Value, n: int) -> ir.Value:
    """The real signal of length n whose spectrum's first n//2 + 1 terms are x: the inverse DFT
    of the Hermitian extension, real part."""
    return _dft(*_hermitian_extension(x, n), n, True, n)[0]


def native_fft(x: ir.Value, fft_type: str, n: int) -> ir.Value:
    """IREE's own 1-D fft of length n; an RFFT's real input behind a fence. IREE pairs it with
    a zero imaginary part, and where it folds the input to zeros too (x - x) the two are one
    tensor, which the fft then writes in place twice: "write affecting operations on global
    resources are restricted to workgroup distributed contexts" (cpu and vulkan;
    docs/iree_gaps.md#shlo-expand-fft-zero-rfft-input)."""
    if fft_type == "RFFT" and not _is_fence(x):
        x, = extras.fence([x])
    return stablehlo.fft(x, fft_type=fft_type, fft_length=[n])


def irfft_through_ifft(x: ir.Value, n: int) -> ir.Value:
    """A 1-D IRFFT of length n on the last axis as the real part of IREE's own complex IFFT of
    the Hermitian extension (both normalise by 1/n), the IFFT's result behind a barrier."""
    full = stablehlo.complex(*_hermitian_extension(x, n))
    spectrum, = extras.fence([stablehlo.fft(full, fft_type="IFFT", fft_length=[n])])
    return real(Num(spectrum)).value


def split_native_fft(x: ir.Value, fft_type: str, n: int, longest: int) -> ir.Value:
    """A static 1-D native fft (power of two n) on the last axis as IREE's own complex ffts
    of at most `longest` points, each behind fusion barriers: four-step, n = n1 * n2 (rows
    x[n2*j1 + j2], FFTs of n1 over j1, a twiddle e^(-+2 pi i j2 k1 / n) multiply, FFTs of n2
    over j2, X[k1 + n1*k2]); an RFFT is the FFT of complex(x, 0) sliced to n//2 + 1 bins, an
    IRFFT the real part of the IFFT of the Hermitian extension."""
    if fft_type == "RFFT":
        full = split_native_fft(stablehlo.complex(x, const(0, x)), "FFT", n, longest)
        return _slice_last(full, n // 2 + 1)
    if fft_type == "IRFFT":
        full = stablehlo.complex(*_hermitian_extension(x, n))
        return real(Num(split_native_fft(full, "IFFT", n, longest))).value
    if n <= longest:
        x, = extras.fence([x])
        return extras.fence([stablehlo.fft(x, fft_type=fft_type, fft_length=[n])])[0]
    n1 = 1 << ((n.bit_length() - 1) // 2)
    n2 = n // n1
    batch, element = _shape(x)[:-1], element_of(x)
    rows = _swap_last(stablehlo.reshape(x, result_type=_tensor(batch + [n1, n2], element)))
    a = Num(split_native_fft(rows, fft_type, n1, longest))                # [..., j2, k1]
    cos, sin = _twiddles(n2, n1, n, 1 if fft_type == "IFFT" else -1)
    part = real_element(element)
    rank = len(batch) + 2
    tc, ts = (Num(stablehlo.broadcast_in_dim(
        _matrix(t, part), broadcast_dimensions=[rank - 2, rank - 1],
        result_type=_tensor(batch + [n2, n1], part))) for t in (cos, sin))
    a_re, a_im = real(a), imag(a)
    b = stablehlo.complex(*(v.value for v in _times(a_re, a_im, tc, ts)))
    c = split_native_fft(_swap_last(b), fft_type, n2, longest)            # [..., k1, k2]
    return _merge(c, batch + [n])


# --- the rule -------------------------------------------------------------------------------


def _is_fence(value: ir.Value) -> bool:
    """Whether a value is the result of a barrier `extras.fence` makes."""
    return any(defined_by(value, name) is not None
               for name in (extras.FUSION_BARRIER, "stablehlo.optimization_barrier"))


def _fenced(value: ir.Value) -> bool:
    """Whether a value's only user is a barrier `extras.fence` made."""
    users = [use.owner for use in value.uses]
    return len(users) == 1 and users[0].name in (extras.FUSION_BARRIER,
                                                 "stablehlo.optimization_barrier")


def _expand_fft(op: ir.Operation):
    fft_type = enum_name(op.attributes["fft_type"])
    lengths = list(ir.DenseI64ArrayAttr(op.attributes["fft_length"]))
    x, result = op.operands[0], op.results[0].type
    rt = ir.RankedTensorType(result)
    if len(lengths) == 1 and _is_native(element_of(x), lengths[0]) and lengths[0] > 1 and \
            rt.has_static_shape:
        # (IREE rejects every fft of run-time size: those are DFTs.) IREE fuses a consumer,
        # such as the real part, into its fft and then holds the whole spectrum on the stack:
        # "exceeded stack allocation limit" from 65536 points on. Its result goes behind a fence.
        if _fenced(op.results[0]):
            return None
        if fft_type == "IRFFT" and lengths[0] >= IRFFT_THROUGH_IFFT:
            return [irfft_through_ifft(x, lengths[0])]
        return extras.fence([native_fft(x, fft_type, lengths[0])])
    if rt.has_static_shape and 0 in rt.shape:
        return [stablehlo.constant(0, result_type=result)]
    if 0 in lengths:
        raise PassError(f"stablehlo.fft: fft_length {lengths} has a zero entry on a dynamic "
                        f"shape {rt}")
    for n in lengths:
        size = largest_matrix(n, rt.has_static_shape)
        if size > FACTOR_MAX and not _is_native(element_of(x), n):
            raise PassError(f"stablehlo.fft: a DFT of length {n} on a dynamic shape needs a "
                            f"{size}x{size} matrix; shlo builds at most "
                            f"{FACTOR_MAX}x{FACTOR_MAX} (static shapes have no limit)")
    rank = len(_shape(x))
    axes = list(range(rank - len(lengths), rank))
    last, leading = (axes[-1], lengths[-1]), list(zip(axes[:-1], lengths[:-1]))
    if fft_type in ("FFT", "IFFT"):
        for axis, n in zip(axes, lengths):
            x = _along(x, axis, lambda v, n=n: _fft_last(v, fft_type, n))
        return [x]
    if fft_type == "RFFT":
        x = _fft_last(x, "RFFT", last[1])
        for axis, n in leading:
            x = _along(x, axis, lambda v, n=n: _fft_last(v, "FFT", n))
        return [x]
    for axis, n in leading:
        x = _along(x, axis, lambda v, n=n: _fft_last(v, "IFFT", n))
    return [_fft_last(x, "IRFFT", last[1])]


RULES = {"stablehlo.fft": _expand_fft}


@dataclasses.dataclass
class ExpandFft(RulesPass):
    """Rewrite n-D, f64 and non-power-of-two ffts into 1-D ffts and DFT matmuls IREE lowers."""

    NAME = "shlo-expand-fft"
    RULES = RULES
