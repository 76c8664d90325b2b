"""shlo-expand-f64-math against mpmath, in ULP: every f64 and complex<f64> op it expands, on
IREE's CPU backend (which links no f64 math library) and on Vulkan (no 64-bit GLSL math).

Inputs and exact results that are subnormal are left out: IREE's CPU code flushes them to
zero. sin/cos/tan take the whole f64 range (Cody-Waite below 2^20, Payne-Hanek above; the
worst case for the reduction has its own test). One module for the whole file, compiled once
per target.
"""
import math
import re

import numpy as np
import pytest

import shlo
from shlo.tools.chlo_accuracy import complex_grid, real_grid, without_subnormals

import ulp_oracles
from conftest import vulkan_or_skip


_mp = ulp_oracles.mp


def _real(fn):
    def f(*xs):
        mp = _mp()
        try:
            r = fn(*[mp.mpf(float(x)) for x in xs])
        except (ValueError, ZeroDivisionError):
            return math.nan
        return float(r.real) if isinstance(r, mp.mpc) and r.imag == 0 else (
            math.nan if isinstance(r, mp.mpc) else float(r))
    return f


def _cbrt(x):
    mp = _mp()
    return -mp.cbrt(-x) if x < 0 else mp.cbrt(x)


def _fmod(x, y):
    return math.nan if math.isinf(x) or y == 0 or math.isnan(x) or math.isnan(y) else math.fmod(x, y)


# op -> (oracle on Python floats, argument limit, max ULP)
MP = _mp()
UNARY = {
    "sine": (_real(MP.sin), None, 2), "cosine": (_real(MP.cos), None, 2),
    "tan": (_real(MP.tan), None, 3), "tanh": (_real(MP.tanh), None, 2),
    "exponential": (_real(MP.exp), None, 1), "exponential_minus_one": (_real(MP.expm1), None, 1),
    "log": (_real(MP.log), None, 1), "log_plus_one": (_real(MP.log1p), None, 1),
    "logistic": (_real(lambda x: 1 / (1 + MP.exp(-x))), None, 2),
    "cbrt": (_real(_cbrt), None, 1),
}
BINARY = {"power": (ulp_oracles.power, 1), "atan2": (ulp_oracles.atan2, 1),
          "remainder": (_fmod, 0)}
COMPLEX = {
    "sine": (MP.sin, 2), "cosine": (MP.cos, 3), "tan": (MP.tan, 3), "tanh": (MP.tanh, 3),
    "exponential": (MP.exp, 2), "exponential_minus_one": (MP.expm1, 2), "log": (MP.log, 2),
    "log_plus_one": (MP.log1p, 2), "logistic": (lambda z: 1 / (1 + MP.exp(-z)), 3),
    "sqrt": (MP.sqrt, 2), "rsqrt": (lambda z: 1 / MP.sqrt(z), 4),
    "cbrt": (lambda z: MP.exp(MP.log(z) / 3), 4),
}
ENTIRE = ("sine", "cosine", "tan", "tanh", "exponential", "exponential_minus_one", "logistic")


def _cases():
    cases = []
    for op, (oracle, limit, bound) in UNARY.items():
        x = real_grid(np.float64, 160, limit=limit)
        want = np.array([oracle(v) for v in x])
        args, want = without_subnormals([x], want, np.dtype(np.float64))
        cases.append((op, "f64", args, want, bound))
    base = real_grid(np.float64, 24, points=(3.0, 10.0, 0.1, 1.5, -2.0))
    xs, ys = [a.ravel() for a in np.meshgrid(base, base)]
    for op, (oracle, bound) in BINARY.items():
        want = np.array([oracle(a, b) for a, b in zip(xs, ys)])
        args, want = without_subnormals([xs, ys], want, np.dtype(np.float64))
        cases.append((op, "f64", args, want, bound))
    z = complex_grid(np.dtype(np.complex128), 300)
    for op, (oracle, bound) in COMPLEX.items():
        zz = z[(np.abs(z.real) < 700) & (np.abs(z.imag) < 1e4)] if op in ENTIRE else z
        want = np.array([complex(oracle(MP.mpc(complex(v)))) for v in zz])
        args, want = without_subnormals([zz], want, np.dtype(np.float64))
        cases.append((op, "complex<f64>", args, want, bound))
    return cases


CASES = _cases()
IDS = [f"{op}-{t}" for op, t, *_ in CASES]


_function = ulp_oracles.function_text


@pytest.fixture(scope="module")
def module_text():
    return "\n".join(_function(i, op, t, args) for i, (op, t, args, _, _) in enumerate(CASES))


@pytest.fixture(scope="module")
def cpu(ctx, module_text):
    return shlo.compile(shlo.parse_module(module_text, context=ctx), target="cpu")


def _check(exe, index):
    op, type_name, args, want, bound = CASES[index]
    ulp_oracles.assert_ulp(exe.function(f"f{index}")(*args), want, bound, op, type_name, args)


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
@pytest.mark.slow
def test_cpu_ulp_error_against_mpmath(cpu, index):
    _check(cpu, index)


# Vulkan compiles are slow on the software driver: a subset that covers every kernel
# (exp, expm1, log, log1p, pow, fmod, sin/cos, atan2, complex log/sqrt/tanh).
VULKAN = ("power-f64", "remainder-f64", "tanh-f64", "log_plus_one-f64", "sine-f64",
          "log-complex<f64>", "sqrt-complex<f64>", "tanh-complex<f64>")


@pytest.mark.slow
def test_vulkan_ulp_error_against_mpmath(ctx):
    vulkan_or_skip()
    chosen = [IDS.index(name) for name in VULKAN]
    text = "\n".join(_function(i, *CASES[i][:3]) for i in chosen)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="vulkan")
    for index in chosen:
        _check(exe, index)


def test_no_f64_math_op_reaches_iree(ctx, module_text):
    from shlo.passes.numerics.expand_f64_math import EXPANSIONS
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(module_text, context=ctx)
    run_pipeline(module, "builtin.module(shlo-expand-f64-math)")
    text = str(module)
    # sqrt and the abs of a real value are arithmetic, which the expansions use themselves
    left = [op for op in EXPANSIONS if op + " " in text
            and op not in ("stablehlo.sqrt", "stablehlo.abs")]
    left += re.findall(r"stablehlo\.abs [^\n]*complex", text)
    assert not left, f"still in the module after shlo-expand-f64-math: {left}"


SIN_COS = """func.func @sin_cos(%x: tensor<{n}xf64>) -> (tensor<{n}xf64>, tensor<{n}xf64>) {{
  %s = stablehlo.sine %x : tensor<{n}xf64>
  %c = stablehlo.cosine %x : tensor<{n}xf64>
  return %s, %c : tensor<{n}xf64>, tensor<{n}xf64>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sin_cos_of_huge_arguments(ctx, target):
    """Payne-Hanek over every exponent from 2^20 up, and the f64 closest to a multiple of pi/2
    (6381956970095103 2^797, 2^-61 of a quadrant away), against mpmath at 2000 bits."""
    if target == "vulkan":
        vulkan_or_skip()
    import mpmath
    rng = np.random.default_rng(7)
    exponents = np.arange(20, 1024)
    x = np.ldexp(rng.uniform(1, 2, exponents.size), exponents) * rng.choice([-1, 1], exponents.size)
    x = np.concatenate([[6381956970095103 * 2.0 ** 797, -6381956970095103 * 2.0 ** 797,
                         2.0 ** 20, np.nextafter(2.0 ** 20, 0), 1.7976931348623157e308], x])
    exe = shlo.compile(shlo.parse_module(SIN_COS.format(n=x.size), context=ctx), target=target)
    got_sin, got_cos = (np.asarray(r) for r in exe(x))
    with mpmath.workprec(2000):
        want_sin = np.array([float(mpmath.sin(mpmath.mpf(float(v)))) for v in x])
        want_cos = np.array([float(mpmath.cos(mpmath.mpf(float(v)))) for v in x])
    ulp_oracles.assert_ulp(got_sin, want_sin, 2, "sine", "f64", [x])
    ulp_oracles.assert_ulp(got_cos, want_cos, 2, "cosine", "f64", [x])
