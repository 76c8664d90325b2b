"""Complex elementwise functions over the whole complex plane: every pair (re, im) of +-0, the
smallest subnormal and normal, small, moderate and huge magnitudes up to the largest finite,
+-inf and NaN, for complex<f32> and complex<f64>, against mpmath in ULP of each part and, where
a part is inf or NaN or z = 0, against C99 Annex G (numpy's values), whose branch cuts jax and
XLA follow. The sign of a zero part picks the side of a branch cut (-0 below the negative real
axis for sqrt and log). Signs of zero results are not compared; subnormal inputs may count as
the zeros of their sign (IREE's CPU code flushes them), and so may subnormal results.

One module per target: every function on complex<f32>, and the complex<f64> ones whose edges
were wrong before (their expansions compile slowly); Vulkan gets the complex<f32> slice without
subnormal inputs (lavapipe does not flush them, and its f32 log of a subnormal is wrong).
"""
from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

OPS = {"sqrt": "stablehlo.sqrt", "rsqrt": "stablehlo.rsqrt", "log": "stablehlo.log",
       "log1p": "stablehlo.log_plus_one", "exp": "stablehlo.exponential",
       "expm1": "stablehlo.exponential_minus_one", "sin": "stablehlo.sine",
       "cos": "stablehlo.cosine", "tan": "stablehlo.tan", "tanh": "stablehlo.tanh",
       "sign": "stablehlo.sign", "abs": "stablehlo.abs", "sinh": "chlo.sinh",
       "cosh": "chlo.cosh", "asin": "chlo.asin", "acos": "chlo.acos", "atan": "chlo.atan",
       "asinh": "chlo.asinh", "acosh": "chlo.acosh", "atanh": "chlo.atanh",
       "square": "chlo.square"}
F64_OPS = ["sqrt", "rsqrt", "log", "log1p", "exp", "sinh", "cosh", "tanh", "asin", "acos",
           "atan", "asinh", "acosh", "atanh", "square", "sign", "abs"]
VULKAN_OPS = ["sqrt", "rsqrt", "log", "exp", "tan", "sinh", "asin", "acos", "atan", "asinh",
              "acosh", "atanh", "square", "sign", "abs"]
# max ULP over the grid; 2 where not named. expm1's real part cancels near |e^z| cos b = 1,
# and its sine and cosine kernels are not correctly rounded: XLA is as far off at the same
# points (complex<f32> 6 ULP at 0.5 + i, f64 3-4)
BOUNDS = {("expm1", "c64"): 6, ("sin", "c64"): 3, ("sinh", "c64"): 3,
          ("expm1", "c128"): 4, ("tan", "c128"): 4, ("tanh", "c128"): 4}

MP = {"sqrt": mpmath.sqrt, "rsqrt": lambda z: 1 / mpmath.sqrt(z), "log": mpmath.log,
      "log1p": mpmath.log1p, "exp": mpmath.exp, "expm1": mpmath.expm1, "sin": mpmath.sin,
      "cos": mpmath.cos, "tan": mpmath.tan, "sinh": mpmath.sinh, "cosh": mpmath.cosh,
      "tanh": mpmath.tanh, "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan,
      "asinh": mpmath.asinh, "acosh": mpmath.acosh, "atanh": mpmath.atanh,
      "square": lambda z: z * z, "sign": lambda z: z / abs(z), "abs": abs}
NP = {"sqrt": np.sqrt, "rsqrt": lambda z: 1 / np.sqrt(z), "log": np.log, "log1p": np.log1p,
      "exp": np.exp, "expm1": lambda z: np.exp(z) - 1, "sin": np.sin, "cos": np.cos,
      "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asin": np.arcsin,
      "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
      "atanh": np.arctanh, "square": None, "sign": np.sign, "abs": np.abs}
CUTS = {"sqrt", "rsqrt", "log", "log1p", "asin", "acos", "atan", "asinh", "acosh", "atanh"}
ODD = {"asin", "atan", "asinh", "atanh"}
PARTS = {"c64": np.float32, "c128": np.float64}


def values(part) -> np.ndarray:
    fi = np.finfo(part)
    mags = [0.0, fi.smallest_subnormal, fi.tiny, 1e-20 if part == np.float32 else 1e-200,
            1e-5, 0.5, 1.0, 2.0, 1e5, np.sqrt(fi.max), fi.max / 4, fi.max]
    mags = [float(m) for m in mags]
    return np.array(sorted(set(mags + [-m for m in mags])) + [-0.0, math.inf, -math.inf,
                                                              math.nan], part)


def grid(kind: str, subnormals: bool = True) -> np.ndarray:
    part = PARTS[kind]
    v = values(part)
    if not subnormals:
        v = v[~((v != 0) & (np.abs(v) < np.finfo(part).tiny))]
    re, im = np.meshgrid(v, v, indexing="ij")
    z = np.empty(re.size, np.complex64 if kind == "c64" else np.complex128)
    z.real, z.imag = re.ravel(), im.ravel()
    return z


# --- the oracle ----------------------------------------------------------------------------------

def _square_at_inf(a: float, b: float) -> complex:
    """(a + ib)^2 where a part is inf or NaN, in the extended reals: x^2 - inf^2 = -inf,
    inf^2 - inf^2 = NaN, 2 * 0 * inf = NaN (numpy's a*a - b*b overflows to NaN first)."""
    if math.isnan(a) or math.isnan(b):
        return complex(math.nan, math.nan)
    inf_a, inf_b = math.isinf(a), math.isinf(b)
    re = math.nan if inf_a and inf_b else math.inf if inf_a else -math.inf
    im = math.nan if a == 0 or b == 0 else math.copysign(math.inf, a) * math.copysign(1, b)
    return complex(re, im)


def _annex_g(name: str, a: float, b: float) -> complex:
    """C99 Annex G's value (numpy's, in complex128) where a part is inf or NaN or z = 0."""
    z = np.complex128(complex(a, b))
    if name == "square":
        return _square_at_inf(a, b) if not (math.isfinite(a) and math.isfinite(b)) else 0j
    with np.errstate(all="ignore"):
        w = complex(NP[name](z))
        if name == "rsqrt" and np.isinf(np.sqrt(z)):    # 1/(inf + i inf) is 0, not NaN
            s = np.sqrt(z)
            return complex(math.copysign(0.0, s.real), math.copysign(0.0, -s.imag))
    return w


def _float(v) -> float:
    return float(v) if abs(v) < mpmath.mpf(2) ** 1100 else math.copysign(math.inf, v)


def oracle(name: str, a: float, b: float) -> complex:
    """f(a + ib): Annex G at infinities, NaNs and 0; mpmath elsewhere, the sides of the branch
    cuts taken by symmetry (f(conj z) = conj f(z), f(-z) = -f(z)) and a perturbation of a
    zero part towards the upper half plane (kept only where the value jumps there)."""
    if name in CUTS and not math.isnan(b) and math.copysign(1, b) < 0:
        return oracle(name, a, -b).conjugate()
    if name in ODD and not math.isnan(a) and math.copysign(1, a) < 0:
        return -oracle(name, -a, -b)
    if not (math.isfinite(a) and math.isfinite(b)) or (a == 0 and b == 0):
        return _annex_g(name, a, b)
    ea = int(mpmath.log(abs(a), 2)) if a else 0
    eb = int(mpmath.log(abs(b), 2)) if b else 0
    with mpmath.workprec(300 + (2 * max(abs(ea), abs(eb)) if name in CUTS else 0)):
        w = mpmath.mpc(MP[name](mpmath.mpc(a, b)))
        if not (mpmath.isfinite(w.real) and mpmath.isfinite(w.imag)):
            return _annex_g(name, a, b)
        if name in CUTS and (a == 0 or b == 0):
            tiny = mpmath.ldexp(1, (eb if a == 0 else ea) - 200)
            w1 = mpmath.mpc(MP[name](mpmath.mpc(a or tiny, b or tiny)))
            limit = max(abs(w), mpmath.ldexp(1, -40)) * 2.0 ** -50
            w = mpmath.mpc(w.real if abs(w.real - w1.real) <= limit else w1.real,
                           w.imag if abs(w.imag - w1.imag) <= limit else w1.imag)
        return complex(_float(w.real), _float(w.imag))


def _flushed(x: float, part) -> float:
    return math.copysign(0.0, x) if abs(x) < np.finfo(part).tiny else x


def ulps(got: float, want: float, part) -> float:
    """ULP distance in `part`; NaN only matches NaN; results below the smallest normal may be
    flushed; the sign of a zero is not compared."""
    got, want = part(got), part(want)
    if math.isnan(want) or math.isnan(got):
        return 0 if math.isnan(want) and math.isnan(got) else math.inf
    if math.isinf(want) or math.isinf(got):
        return 0 if want == got else math.inf
    tiny = np.finfo(part).tiny
    if abs(float(want) - float(got)) < tiny:
        return 0
    bits = np.int32 if part == np.float32 else np.int64

    def key(v):
        i = int(np.array(v, part).view(bits))
        return i if i >= 0 else -(i & ~(1 << (8 * np.dtype(part).itemsize - 1)))
    return abs(key(got) - key(want))


def error(name: str, z: complex, got, part) -> float:
    """The larger part's ULP error of `got` against f(z), or against f(flushed z)."""
    best = math.inf
    for a, b in {(z.real, z.imag), (_flushed(z.real, part), _flushed(z.imag, part))}:
        want = complex(oracle(name, float(a), float(b)))
        g = complex(got)
        if name == "abs":
            e = ulps(g.real, abs(want) if not math.isnan(want.real) else want.real, part)
        else:
            # Annex G leaves the sign of an infinite part beside a NaN unspecified
            if math.isnan(want.real) and math.isinf(want.imag):
                g, want = complex(g.real, abs(g.imag)), complex(want.real, abs(want.imag))
            if math.isnan(want.imag) and math.isinf(want.real):
                g, want = complex(abs(g.real), g.imag), complex(abs(want.real), want.imag)
            e = max(ulps(g.real, want.real, part), ulps(g.imag, want.imag, part))
        best = min(best, e)
    return best


# --- the programs --------------------------------------------------------------------------------

def function_text(fname: str, name: str, kind: str, n: int) -> str:
    ct = "complex<f32>" if kind == "c64" else "complex<f64>"
    res = ct[8:-1] if name == "abs" else ct
    op = OPS[name]
    if op.startswith("chlo"):
        body = f"{op} %z : tensor<{n}x{ct}> -> tensor<{n}x{res}>"
    elif name == "abs":
        body = f"{op} %z : (tensor<{n}x{ct}>) -> tensor<{n}x{res}>"
    else:
        body = f"{op} %z : tensor<{n}x{ct}>"
    return (f"func.func @{fname}(%z: tensor<{n}x{ct}>) -> tensor<{n}x{res}> {{\n"
            f"  %0 = {body}\n  return %0 : tensor<{n}x{res}>\n}}")


CPU_CASES = [(n, "c64") for n in OPS] + [(n, "c128") for n in F64_OPS]


def _compile(ctx, cases, target, subnormals=True):
    texts = [function_text(f"{n}_{k}", n, k, grid(k, subnormals).size) for n, k in cases]
    return shlo.compile(shlo.parse_module("\n".join(texts), context=ctx), target=target)


@pytest.fixture(scope="module")
def cpu_program(ctx):
    return _compile(ctx, CPU_CASES, "cpu")


def check(program, name, kind, subnormals=True):
    part = PARTS[kind]
    z = grid(kind, subnormals)
    got = np.asarray(program.function(f"{name}_{kind}")(z))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errors = [error(name, zi, gi, part) for zi, gi in zip(z, got)]
    worst = int(np.argmax(np.nan_to_num(errors, posinf=1e300)))
    bound = BOUNDS.get((name, kind), 2)
    assert errors[worst] <= bound, (
        f"{name}({z[worst]!r}) = {got[worst]!r}, want "
        f"{oracle(name, float(z[worst].real), float(z[worst].imag))!r}: "
        f"{errors[worst]} ULP > {bound}; {sum(e > bound for e in errors)} such points")


@pytest.mark.parametrize("name,kind", CPU_CASES, ids=[f"{n}-{k}" for n, k in CPU_CASES])
@pytest.mark.every_case
def test_edges_on_cpu(cpu_program, name, kind):
    check(cpu_program, name, kind)


@pytest.fixture(scope="module")
def vulkan_program(ctx):
    vulkan_or_skip()
    return _compile(ctx, [(n, "c64") for n in VULKAN_OPS], "vulkan", subnormals=False)


@pytest.mark.parametrize("name", VULKAN_OPS)
def test_edges_on_vulkan(vulkan_program, name):
    check(vulkan_program, name, "c64", subnormals=False)


def test_oracle_branch_sides():
    """The oracle itself: the signed zero picks the side of each cut (C99 Annex G)."""
    assert oracle("sqrt", -4.0, -0.0) == -2j
    assert oracle("log", -1.0, -0.0).imag == -math.pi
    assert oracle("asinh", -0.0, 2.0).real < 0 < oracle("asinh", 0.0, 2.0).real
    assert oracle("atanh", 2.0, -0.0).imag == -math.pi / 2
    assert oracle("acosh", -0.5, -0.0).imag < 0
    assert oracle("square", 3.0, math.inf) == complex(-math.inf, math.inf)
