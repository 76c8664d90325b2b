"""erf, erfc and erf_inv: Cephes' approximations (f32 and f64 coefficient sets, as in XLA's
chlo lowering) and Giles' erf_inv, with these accuracy fixes over XLA:

* erfc's exp(-x^2) is computed as exp(-m^2) * exp(-(x-m)(x+m)) with m = x rounded to 1/128
  (Cephes' expx2): m^2 is exact, so the result keeps full precision in the tails, and the
  product is formed so that results in the subnormal range are not flushed to zero early;
* f32 erf is Cephes' x T(x^2) below |x| = 1 and 1 - erfc(|x|) from that tail above (XLA
  uses Eigen's rational, 4 ULP);
* erf_inv near +-1 takes log((1-|x|)(1+|x|)) instead of log1p(-x*x), which loses all digits
  of 1-x^2 there.

f16, bf16 and the 8/6/4-bit floats compute in f32 and round; f64 computes in f64.
"""
from __future__ import annotations

from ..lib.expr import Num, exp, float_rule, horner, log, round_even, select, sqrt
from ..numerics.log1p_expm1 import log1p

# --- f32 -----------------------------------------------------------------------------------------
# erf(x) = x * T(x^2) for |x| <= 1 (Cephes erff).
ERF_F32_T = (7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3,
             -2.685381193529856e-2, 1.128358514861418e-1, -3.761262582423300e-1,
             1.128379165726710e+0)
# erfc(x) = exp(-x^2) / x * P(1/x^2) on [1, 2), R(1/x^2) on [2, inf) (Cephes erfcf).
ERFC_F32_P = (2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1,
              -5.824733027278666e-1, 6.210004621745983e-1, -4.944515323274145e-1,
              3.404879937665872e-1, -2.741127028184656e-1, 5.638259427386472e-1)
ERFC_F32_R = (-1.047766399936249e+1, 1.297719955372516e+1, -7.495518717768503e+0,
              2.921019019210786e+0, -1.015265279202700e+0, 4.218463358204948e-1,
              -2.820767439740514e-1, 5.641895067754075e-1)

# --- f64 (Cephes ndtr.c) -----------------------------------------------------------------------
ERF_F64_T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
             7.00332514112805075473e3, 5.55923013010394962768e4)
ERF_F64_U = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2,
             4.59432382970980127987e3, 2.26290000613890934246e4, 4.92673942608635921086e4)
ERFC_F64_P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
              4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
              9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)
ERFC_F64_Q = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
              9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
              1.65666309194161350182e3, 5.57535340817727675546e2)
ERFC_F64_R = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
              6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)
ERFC_F64_S = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
              1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)

# erf_inv (M. Giles, "Approximating the erfinv function"): polynomials in w = -log(1 - x^2).
ERF_INV_F32_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                     0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
ERF_INV_F32_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                     0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
ERF_INV_F64_W625 = (-3.6444120640178196996e-21, -1.685059138182016589e-19,
                    1.2858480715256400167e-18, 1.115787767802518096e-17,
                    -1.333171662854620906e-16, 2.0972767875968561637e-17,
                    6.6376381343583238325e-15, -4.0545662729752068639e-14,
                    -8.1519341976054721522e-14, 2.6335093153082322977e-12,
                    -1.2975133253453532498e-11, -5.4154120542946279317e-11,
                    1.051212273321532285e-09, -4.1126339803469836976e-09,
                    -2.9070369957882005086e-08, 4.2347877827932403518e-07,
                    -1.3654692000834678645e-06, -1.3882523362786468719e-05,
                    0.0001867342080340571352, -0.00074070253416626697512,
                    -0.0060336708714301490533, 0.24015818242558961693, 1.6536545626831027356)
ERF_INV_F64_W16 = (2.2137376921775787049e-09, 9.0756561938885390979e-08,
                   -2.7517406297064545428e-07, 1.8239629214389227755e-08,
                   1.5027403968909827627e-06, -4.013867526981545969e-06,
                   2.9234449089955446044e-06, 1.2475304481671778723e-05,
                   -4.7318229009055733981e-05, 6.8284851459573175448e-05,
                   2.4031110387097893999e-05, -0.0003550375203628474796,
                   0.00095328937973738049703, -0.0016882755560235047313,
                   0.0024914420961078508066, -0.0037512085075692412107,
                   0.005370914553590063617, 1.0052589676941592334, 3.0838856104922207635)
ERF_INV_F64_WBIG = (-2.7109920616438573243e-11, -2.5556418169965252055e-10,
                    1.5076572693500548083e-09, -3.7894654401267369937e-09,
                    7.6157012080783393804e-09, -1.4960026627149240478e-08,
                    2.9147953450901080826e-08, -6.7711997758452339498e-08,
                    2.2900482228026654717e-07, -9.9298272942317002539e-07,
                    4.5260625972231537039e-06, -1.9681778105531670567e-05,
                    7.5995277030017761139e-05, -0.00021503011930044477347,
                    -0.00013871931833623122026, 1.0103004648645343977, 4.8499064014085844221)


def _erf_small_f64(x: Num) -> Num:
    x2 = x * x
    return x * horner(x2, ERF_F64_T) / horner(x2, ERF_F64_U)


def _scaled_exp_neg_square(a: Num, scale: Num) -> Num:
    """exp(-a^2) * scale for a >= 0 without losing digits: with m = a rounded to a multiple of
    1/128, m^2 is exact and a^2 = m^2 + (a-m)(a+m); exp(-m^2/2) is applied twice so that a
    result in the subnormal range is rounded once, at the end. The last product joins two
    normal factors: (half * scale) * half could be subnormal (flushed to 0 on the CPU) where
    the result, times exp(-(a-m)(a+m)) up to 1.07, is normal (f32 erfc near 9.19)."""
    m = round_even(a * 128.0) * (1.0 / 128.0)
    half = exp(m * m * -0.5)
    return (half * scale) * (half * exp(-((a - m) * (a + m))))


def _erfc_tail_f32(a: Num) -> Num:
    """erfc(a) for a >= 1 (0 from a = 10.1 on; the clamp keeps the polynomials finite)."""
    a = select(a > 11.0, a.like(11.0), a)
    r = 1.0 / (a * a)
    poly = select(a < 2.0, horner(r, ERFC_F32_P), horner(r, ERFC_F32_R))
    return _scaled_exp_neg_square(a, poly / a)


def _erfc_tail_f64(a: Num) -> Num:
    """erfc(a) for a >= 1 (0 from a = 27.3 on; the clamp keeps the polynomials finite)."""
    a = select(a > 28.0, a.like(28.0), a)
    ratio = select(a < 8.0, horner(a, ERFC_F64_P) / horner(a, ERFC_F64_Q),
                   horner(a, ERFC_F64_R) / horner(a, ERFC_F64_S))
    return _scaled_exp_neg_square(a, ratio)


def _erfc_signed(x: Num, tail) -> Num:
    """erfc(x) for |x| >= 1 from the tail of |x|: erfc(-a) = 2 - erfc(a)."""
    t = tail(abs(x))
    return select(x < 0.0, 2.0 - t, t)


def erf(x: Num) -> Num:
    if not x.is_f64:
        # Cephes' x T(x^2) below 1; 1 - erfc(|x|) above, where erfc's tail is accurate and
        # the subtraction loses nothing (XLA's Eigen rational reaches 4 ULP near 2.7, and its
        # (x P) / Q flushes tiny x to zero)
        r = x * horner(x * x, ERF_F32_T)
        a = abs(x)
        tail = 1.0 - _erfc_tail_f32(a)
        big = select(x < 0.0, -tail, tail)
        return select(a < 1.0, r, big)
    big = _erfc_signed(x, _erfc_tail_f64)
    return select(abs(x) < 1.0, _erf_small_f64(x), 1.0 - big)


def erfc(x: Num) -> Num:
    if x.is_f64:
        small = 1.0 - _erf_small_f64(x)
        return select(abs(x) < 1.0, small, _erfc_signed(x, _erfc_tail_f64))
    small = 1.0 - x * horner(x * x, ERF_F32_T)
    return select(abs(x) < 1.0, small, _erfc_signed(x, _erfc_tail_f32))


def _one_minus_square_log(x: Num) -> Num:
    """-log(1 - x^2), accurate near |x| = 1 as well as near 0."""
    a = abs(x)
    near_one = -log((1.0 - a) * (1.0 + a))
    return select(a < 0.5, -log1p(-(x * x)), near_one)


def erf_inv(x: Num) -> Num:
    w = _one_minus_square_log(x)
    if not x.is_f64:
        small = w < 5.0
        coefficient = [select(small, w.like(s), b) for s, b in zip(ERF_INV_F32_SMALL, ERF_INV_F32_LARGE)]
        t = select(small, w - 2.5, sqrt(w) - 3.0)
        p = coefficient[0]
        for c in coefficient[1:]:
            p = c + p * t
    else:
        lt625, lt16 = w < 6.25, w < 16.0
        t = select(lt625, w - 3.125, sqrt(w) - select(lt16, w.like(3.25), 5.0))
        p = _piecewise_poly(t, lt625, lt16)
    out = p * x
    return select(abs(x).eq(1.0), x * float("inf"), out)


def _piecewise_poly(t: Num, lt625: Num, lt16: Num) -> Num:
    """Giles' three f64 polynomials (23, 19 and 17 terms) in one Horner pass: each lane picks
    its polynomial's coefficient, the shorter ones starting from zero so their ends align."""
    a, b, c = ERF_INV_F64_W625, ERF_INV_F64_W16, ERF_INV_F64_WBIG
    p = t.like(0.0)
    for i, ca in enumerate(a):
        cb = b[i - 4] if i >= 4 else 0.0
        cc = c[i - 6] if i >= 6 else 0.0
        p = p * t + select(lt625, ca, select(lt16, t.like(cb), cc))
    return p


RULES = {
    "chlo.erf": float_rule(erf, name="erf"),
    "chlo.erfc": float_rule(erfc, name="erfc"),
    "chlo.erf_inv": float_rule(erf_inv, name="erf_inv"),
}
