"""Inputs where a textbook formula loses everything, found by StableHLO's tests; mpmath is the
oracle. zeta(4, q) for q near 3e9 (f32) or 1e77 (f64) is far above the smallest normal,
though q^-4 is not (stablehlo/tests/chlo/zeta_underflow.mlir); complex tanh and tan next to a
pole, where cos 2x + cosh 2y cancels (StableHLO's testdata for tanh of complex64)."""
import mpmath
import numpy as np

import shlo

TEXT = """
func.func @zeta_f32(%s: tensor<2xf32>, %q: tensor<2xf32>) -> tensor<2xf32> {
  %0 = chlo.zeta %s, %q : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @zeta_f64(%s: tensor<2xf64>, %q: tensor<2xf64>) -> tensor<2xf64> {
  %0 = chlo.zeta %s, %q : tensor<2xf64>, tensor<2xf64> -> tensor<2xf64>
  return %0 : tensor<2xf64>
}
func.func @tanh(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.tanh %z : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @sinh(%x: tensor<SINH_Nxf32>) -> tensor<SINH_Nxf32> {
  %0 = chlo.sinh %x : tensor<SINH_Nxf32> -> tensor<SINH_Nxf32>
  return %0 : tensor<SINH_Nxf32>
}
func.func @cosh(%x: tensor<SINH_Nxf32>) -> tensor<SINH_Nxf32> {
  %0 = chlo.cosh %x : tensor<SINH_Nxf32> -> tensor<SINH_Nxf32>
  return %0 : tensor<SINH_Nxf32>
}
func.func @tan(%z: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = chlo.tan %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
"""
mpmath.mp.prec = 200
# f32 sinh and cosh: the whole range, the series/exp switch at 1, the switch to e^x / 2 at 9,
# and the last binade before overflow (IREE's exp is 4 ULP off there)
SINH_X = np.concatenate([np.linspace(-89.5, 89.5, 4096), np.linspace(0.5, 1.5, 2048),
                         np.linspace(8.0, 10.0, 2048), np.linspace(-89.42, -88.0, 2048),
                         np.geomspace(1e-30, 1.0, 1024)]).astype(np.float32)
TEXT = TEXT.replace("SINH_N", str(SINH_X.size))


def _ulps(got, want, dtype):
    ints = np.int32 if dtype == np.float32 else np.int64
    return np.abs(np.asarray(got, dtype).view(ints).astype(np.int64)
                  - np.asarray(want, dtype).view(ints).astype(np.int64))


def test_zeta_of_a_huge_q_does_not_underflow(ctx):
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")
    for dtype, qs in ((np.float32, [3.037000576e9, 2.0e9]), (np.float64, [1.0e77, 3.0e60])):
        s, q = np.array([4.0, 4.0], dtype), np.array(qs, dtype)
        got = exe.function(f"zeta_{np.dtype(dtype).name.replace('float', 'f')}")(s, q)
        want = np.array([float(mpmath.zeta(4, mpmath.mpf(float(v)))) for v in q], dtype)
        assert (np.asarray(got) > 0).all()
        assert _ulps(got, want, dtype).max() <= 4, (got, want)


def test_complex_tanh_and_tan_next_to_a_pole(ctx):
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")
    z = np.array([0.054970283 + 4.716878j, 1e-3 + 1.5707964j, -2e-4 - 7.85398j], np.complex64)
    for name, fn in (("tanh", mpmath.tanh), ("tan", mpmath.tan)):
        w = z if name == "tanh" else (z * 1j).astype(np.complex64)     # tan's pole on the real axis
        got = np.asarray(exe.function(name)(w))
        want = np.array([complex(fn(mpmath.mpc(float(v.real), float(v.imag)))) for v in w],
                        np.complex64)
        for part in (np.real, np.imag):
            assert _ulps(part(got), part(want), np.float32).max() <= 4, (name, got, want)


def test_f32_sinh_and_cosh_within_two_ulp(ctx):
    """f32 sinh and cosh were 5 ULP off near |x| = 0.87 (sinh's expm1 formula on negative x)
    and 4 near overflow (IREE's f32 exp); XLA's are 24 ULP off near 88.7."""
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")
    for name, fn in (("sinh", mpmath.sinh), ("cosh", mpmath.cosh)):
        got = np.asarray(exe.function(name)(SINH_X))
        with np.errstate(over="ignore"):
            want = np.array([float(fn(mpmath.mpf(float(v)))) for v in SINH_X]).astype(np.float32)
        errors = _ulps(got, want, np.float32)
        worst = int(np.argmax(errors))
        assert errors[worst] <= 2, (name, SINH_X[worst], got[worst], want[worst])
