"""shlo-accurate-math against mpmath, in ULP: f32 sin/cos/tan over the whole f32 range
(Payne-Hanek past 2^12), cbrt (IREE's own was 10 ULP off, NaN for inf), atan2, every f16
and bf16 value, the complex<f32> functions and (Vulkan's exp-log=true) f32
exp/expm1/log1p/logistic/tanh (tanh also at 98K points), pow through f64, on IREE's CPU
backend and a subset on Vulkan; fast_math=True leaves the pass out.

Subnormal inputs and exact results are left out (IREE flushes them to zero), and complex
points with a part below 1e-15 (whose squares would be subnormal inside the kernels).
"""
import math
import re

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.tools.chlo_accuracy import all_values, complex_grid, real_grid, without_subnormals

import ulp_oracles
from conftest import vulkan_or_skip


MP = ulp_oracles.mp()


def _real(fn):
    def f(*xs):
        if any(math.isnan(x) for x in xs):
            return math.nan
        try:
            v = float(fn(*[MP.mpf(x) for x in xs]))
        except (ValueError, ZeroDivisionError):
            return math.nan
        # mpmath has no -0: a function with f(0) = 0 here is odd, so f(-0) = -0
        return math.copysign(v, xs[0]) if v == 0 and len(xs) == 1 and xs[0] == 0 else v
    return f


def _trig(fn):
    return lambda x: math.nan if math.isinf(x) else _real(fn)(x)


def _log1p(x):
    return math.nan if x < -1 else -math.inf if x == -1 else float(MP.log1p(x))


def _cbrt(x):
    """The real cube root (mpmath's cbrt of a negative number is complex)."""
    if math.isnan(x) or x == 0 or math.isinf(x):
        return x
    return math.copysign(float(MP.cbrt(MP.mpf(abs(x)))), x)


# op -> (oracle on Python floats, max ULP)
REAL = {"sine": (_trig(MP.sin), 2), "cosine": (_trig(MP.cos), 2), "tan": (_trig(MP.tan), 4),
        "cbrt": (_cbrt, 1)}
# shlo-accurate-math{exp-log=true} (the Vulkan target's): op -> (oracle, max ULP); the CPU
# keeps IREE's own, which are within IREE_CPU_BOUND (4 ULP just below exp's overflow)
EXP_LOG = {"exponential": (_real(MP.exp), 1), "exponential_minus_one": (_real(MP.expm1), 1),
           "log_plus_one": (_real(_log1p), 2),
           "logistic": (_real(lambda x: 1 / (1 + MP.exp(-x))), 2), "tanh": (_real(MP.tanh), 1)}
IREE_CPU_BOUND = 4
NARROW = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}
COMPLEX = {
    "exponential": (MP.exp, 2), "exponential_minus_one": (MP.expm1, 3), "log": (MP.log, 2),
    "log_plus_one": (MP.log1p, 2), "sine": (MP.sin, 2), "cosine": (MP.cos, 3),
    "tan": (MP.tan, 5), "tanh": (MP.tanh, 5), "sqrt": (MP.sqrt, 2),
    "rsqrt": (lambda z: 1 / MP.sqrt(z), 4),
}
ENTIRE = ("exponential", "exponential_minus_one", "sine", "cosine", "tan", "tanh")


def _oracle_complex(fn, z):
    scale = abs(int(MP.log(abs(z), 2))) if z != 0 else 0
    with MP.workprec(200 + 2 * scale):
        return complex(fn(MP.mpc(z)))


def _signed_zeros(x: np.ndarray) -> np.ndarray:
    """x with both +0 and -0 (np.unique in the grids keeps one zero)."""
    return np.concatenate([x[x != 0], np.array([-0.0, 0.0], x.dtype)])


def _cases():
    cases = []
    x32 = _signed_zeros(real_grid(np.float32, 700, points=(
        1e20, 1e30, 3.4e38, 6434.0, 4096.0, 4095.75, 16367173 * 2.0 ** 72, -1e-7, 33.0)))
    for op, (oracle, bound) in REAL.items():
        want = np.array([oracle(float(v)) for v in x32])
        args, want = without_subnormals([x32], want, np.dtype(np.float32))
        cases.append((op, "f32", args, want.astype(np.float32), bound))
        for name, dtype in NARROW.items():
            x = _signed_zeros(all_values(dtype))
            want = np.array([oracle(float(v)) for v in x.astype(np.float64)])
            args, want = without_subnormals([x], want, np.dtype(np.float32))
            with np.errstate(all="ignore"):
                cases.append((op, name, args, want.astype(dtype), 1))
    x32 = _signed_zeros(real_grid(np.float32, 700, points=(
        1e-7, -3e-8, 0.4, -0.4, 88.7, 88.8, -103.9, -1.0, 0.55, 9.0109, 9.011, -9.1)))
    for op, (oracle, bound) in EXP_LOG.items():
        want = np.array([oracle(float(v)) for v in x32])
        args, want = without_subnormals([x32], want, np.dtype(np.float32))
        cases.append((op, "f32", args, want.astype(np.float32), bound))
    base = _signed_zeros(real_grid(np.float32, 24, points=(3.0, 10.0, 0.1, 1.5, -2.0, -1e38)))
    ys, xs = [a.ravel() for a in np.meshgrid(base, base)]
    want = np.array([ulp_oracles.atan2(float(a), float(b)) for a, b in zip(ys, xs)])
    args, want = without_subnormals([ys, xs], want, np.dtype(np.float32))
    cases.append(("atan2", "f32", args, want.astype(np.float32), 3))
    for name, dtype, bound in (("f32", np.dtype(np.float32), 1), ("f16", NARROW["f16"], 1)):
        base = real_grid(np.float32, 40, points=(2.0, 3.0, 10.0, 0.5, -2.0, 1e-3))[::3]
        with np.errstate(all="ignore"):
            base = _signed_zeros(np.unique(base.astype(dtype)))
        xs, ys = [a.ravel() for a in np.meshgrid(base, base)]
        want = np.array([ulp_oracles.power(float(a), float(b)) for a, b in zip(xs, ys)])
        args, want = without_subnormals([xs, ys], want, np.dtype(np.float32))
        with np.errstate(all="ignore"):
            cases.append(("power", name, args, want.astype(dtype), bound))
    z = complex_grid(np.dtype(np.complex64), 1200)
    z = z[(np.abs(z.real) > 1e-15) & (np.abs(z.imag) > 1e-15)]
    for op, (oracle, bound) in COMPLEX.items():
        zz = z[(np.abs(z.real) < 80) & (np.abs(z.imag) < 1e4)] if op in ENTIRE else z
        want = np.array([_oracle_complex(oracle, complex(v)) for v in zz])
        args, want = without_subnormals([zz], want, np.dtype(np.float32))
        with np.errstate(all="ignore"):
            cases.append((op, "complex<f32>", args, want.astype(np.complex64), bound))
    return cases


CASES = _cases()
IDS = [f"{op}-{t}" for op, t, *_ in CASES]
BOUNDARY = {"f16": np.float16, "bf16": np.float32}     # bf16 crosses as f32, converted inside


def _function(i, op, type_name, args):
    t = f"tensor<{args[0].size}x{type_name}>"
    if type_name == "bf16":
        b = f"tensor<{args[0].size}xf32>"
        return (f"func.func @f{i}(%a0: {b}) -> {b} {{\n"
                f"  %x = stablehlo.convert %a0 : ({b}) -> {t}\n"
                f"  %r = stablehlo.{op} %x : {t}\n"
                f"  %o = stablehlo.convert %r : ({t}) -> {b}\n  return %o : {b}\n}}")
    return ulp_oracles.function_text(i, op, type_name, args)


@pytest.fixture(scope="module")
def module_text():
    return "\n".join(_function(i, op, t, args) for i, (op, t, args, _, _) in enumerate(CASES))


@pytest.fixture(scope="module")
def cpu(ctx, module_text):
    return shlo.compile(shlo.parse_module(module_text, context=ctx), target="cpu")


def _check(exe, index, bound=None):
    op, type_name, args, want, default_bound = CASES[index]
    inputs = [a.astype(BOUNDARY[type_name]) if type_name in BOUNDARY else a for a in args]
    ulp_oracles.assert_ulp(exe.function(f"f{index}")(*inputs), want,
                           default_bound if bound is None else bound, op, type_name, args,
                           signed_zeros=True)


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
@pytest.mark.every_case
def test_cpu_ulp_error_against_mpmath(cpu, index):
    op, type_name = CASES[index][:2]
    _check(cpu, index, IREE_CPU_BOUND if op in EXP_LOG and type_name == "f32" else None)


def test_exp_log_kernels_on_cpu(ctx):
    """The exp-log=true kernels, which only the Vulkan target uses, checked on the CPU too."""
    chosen = [i for i, (op, t, *_) in enumerate(CASES) if op in EXP_LOG and t == "f32"]
    text = "\n".join(_function(i, *CASES[i][:3]) for i in chosen)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu",
                       pipeline="builtin.module(shlo-accurate-math{exp-log=true})")
    for index in chosen:
        _check(exe, index)


# Vulkan: the real kernels (Payne-Hanek's 64-bit integers and table gather included), the
# exp-log ones (Mesa's own exp is 44 ULP off, its log1p 7.7e6), and complex ones.
VULKAN = ("sine-f32", "cosine-f32", "tan-f32", "cbrt-f32", "atan2-f32", "sine-f16",
          "exponential-f32", "exponential_minus_one-f32", "log_plus_one-f32", "logistic-f32",
          "tanh-f32", "power-f32",
          "log-complex<f32>", "sqrt-complex<f32>", "exponential-complex<f32>")


def test_vulkan_ulp_error_against_mpmath(ctx):
    vulkan_or_skip()
    chosen = [IDS.index(name) for name in VULKAN]
    text = "\n".join(_function(i, *CASES[i][:3]) for i in chosen)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="vulkan")
    for index in chosen:
        _check(exe, index)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_tanh_over_the_whole_range(ctx, target):
    """f32 tanh at 98K points from the smallest subnormal to the largest finite value (and
    every f16 and bf16 value) against numpy in f64: within 1 ULP on Vulkan (shlo's kernel;
    Mesa's own saturated at 1 - 2^-22 past |x| = 8), 4 on the CPU (IREE's own), and
    exactly +-1 where tanh rounds to it, +-0 for +-0, NaN for NaN on both."""
    if target == "vulkan":
        vulkan_or_skip()
    grids = {"f32": real_grid(np.float32, 1 << 15, points=(9.0109, 9.011, 8.0, 0.55)),
             "f16": all_values(NARROW["f16"]), "bf16": all_values(NARROW["bf16"])}
    text = "\n".join(_function(i, "tanh", t, [g]) for i, (t, g) in enumerate(grids.items()))
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    for i, (type_name, x) in enumerate(grids.items()):
        arg = x.astype(BOUNDARY.get(type_name, x.dtype))
        got = np.asarray(exe.function(f"f{i}")(arg)).astype(x.dtype)
        with np.errstate(all="ignore"):
            want = np.tanh(x.astype(np.float64)).astype(x.dtype)
        bound = 4 if target == "cpu" and type_name == "f32" else 1
        keep = ~(np.abs(x.astype(np.float64)) < np.finfo(np.float32).tiny) | (x == 0)
        ulp_oracles.assert_ulp(got[keep], want[keep], bound, "tanh", type_name, [x[keep]])
        exact = (np.abs(want) == 1) | (want == 0) | np.isnan(want)
        wrong = exact & ~((got == want) & (np.signbit(got) == np.signbit(want)))
        wrong &= ~(np.isnan(got) & np.isnan(want))
        assert not wrong.any(), (f"tanh on {type_name}: {int(wrong.sum())} of the exact "
                                 f"results differ, e.g. tanh({x[wrong][0]!r}) = "
                                 f"{got[wrong][0]!r}, want {want[wrong][0]!r}")


def _chlo_module(functions) -> str:
    """One `func.func @f<i>` per (op, type name, size) applying chlo.<op>."""
    out = []
    for i, (op, type_name, size) in enumerate(functions):
        t = f"tensor<{size}x{type_name}>"
        out.append(f"func.func @f{i}(%a: {t}) -> {t} {{\n  %r = chlo.{op} %a : {t} -> {t}\n"
                   f"  return %r : {t}\n}}")
    return "\n".join(out)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_digamma_near_its_root(ctx, target):
    """digamma at 64K points within 1/4 of its positive root 1.4616 (where shlo takes the Taylor
    series) and the 4001 floats nearest it, f32 and f64, within 4 ULP of scipy (which has its
    own series there). Vulkan was 8.4e8 ULP off in f32: Mesa folded `(x - hi) - lo` of two
    constants into `x - (hi + lo)`, dropping lo; the series is now about hi."""
    if target == "vulkan":
        vulkan_or_skip()
    import scipy.special
    grids = {}
    for name, dtype in (("f32", np.float32), ("f64", np.float64)):
        hi = dtype(1.4616321449683623)
        steps = np.arange(-2000, 2001).astype(dtype) * np.spacing(hi)
        grids[name] = np.concatenate([np.linspace(1.2117, 1.7115, 1 << 16).astype(dtype),
                                      hi + steps])
    exe = shlo.compile(_chlo_module([("digamma", t, g.size) for t, g in grids.items()]),
                       target=target)
    for i, (type_name, x) in enumerate(grids.items()):
        want = scipy.special.digamma(x.astype(np.float64)).astype(x.dtype)
        ulp_oracles.assert_ulp(exe.function(f"f{i}")(x), want, 4, "digamma", type_name, [x])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_erfc_near_its_underflow(ctx, target):
    """erfc at 64K points of each sign approaching where it underflows (f32 9.19, f64 26.5),
    within 8 ULP of scipy (f32) and mpmath (f64: scipy's and XLA's exp(-x*x) are 500 ULP off
    there) where the result is normal. The CPU (FTZ/DAZ) returned 0 for f32 9.1914..9.1945
    (8.9e6 ULP; XLA's CPU is right there): a product of the scaling was subnormal though the
    result is not."""
    if target == "vulkan":
        vulkan_or_skip()
    import scipy.special
    grids = {"f32": np.linspace(8.5, 9.3, 1 << 16).astype(np.float32),
             "f64": np.linspace(25.5, 26.6, 1 << 16)}
    grids = {t: np.concatenate([g, -g]) for t, g in grids.items()}
    exe = shlo.compile(_chlo_module([("erfc", t, g.size) for t, g in grids.items()]),
                       target=target)
    for i, (type_name, x) in enumerate(grids.items()):
        if type_name == "f64":
            want = np.array([float(MP.erfc(MP.mpf(float(v)))) for v in x])
        else:
            want = scipy.special.erfc(x.astype(np.float64)).astype(x.dtype)
        got = np.asarray(exe.function(f"f{i}")(x))
        normal = np.abs(want) >= np.finfo(x.dtype).tiny
        ulp_oracles.assert_ulp(got[normal], want[normal], 8, "erfc", type_name, [x[normal]])


# f(-0) = -0 for these odd functions (C99, numpy, XLA); f32/f16/bf16 and f64 on both targets
ODD_AT_ZERO = [("stablehlo", op) for op in ("sine", "tan", "tanh", "exponential_minus_one",
                                            "log_plus_one", "cbrt", "sign", "sqrt")] + \
              [("chlo", op) for op in ("asin", "atan", "sinh", "asinh", "atanh", "erf", "erf_inv",
                                       "tan")]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_odd_functions_keep_negative_zero(ctx, target):
    """sin(-0) = -0 and the like (sqrt(-0) = -0 too, by IEEE 754); sine and tan gave +0 on
    both targets (sin_cos's reduction -0 - k p1 with k = -0 is +0)."""
    if target == "vulkan":
        vulkan_or_skip()
    functions, names = [], []
    for type_name in ("f32", "f16", "bf16", "f64"):
        b = "f32" if type_name == "bf16" else type_name
        t, bt = f"tensor<2x{type_name}>", f"tensor<2x{b}>"
        for dialect, op in ODD_AT_ZERO:
            apply = (f"stablehlo.{op} %x : {t}" if dialect == "stablehlo"
                     else f"chlo.{op} %x : {t} -> {t}")
            cast_in = f"  %x = stablehlo.convert %a : ({bt}) -> {t}\n" if b != type_name else ""
            out = f"  %o = stablehlo.convert %r : ({t}) -> {bt}\n" if b != type_name else ""
            text = (f"func.func @f{len(functions)}(%a: {bt}) -> {bt} {{\n{cast_in}  %r = "
                    f"{apply}\n{out}  return {'%o' if out else '%r'} : {bt}\n}}")
            functions.append(text.replace("%x", "%a") if not cast_in else text)
            names.append((type_name, f"{dialect}.{op}"))
    exe = shlo.compile("\n".join(functions), target=target)
    wrong = []
    for i, (type_name, op) in enumerate(names):
        dtype = BOUNDARY.get(type_name, np.float64 if type_name == "f64" else np.float32)
        got = np.asarray(exe.function(f"f{i}")(np.array([-0.0, 0.0], dtype)))
        if not ((got == 0).all() and np.signbit(got[0]) and not np.signbit(got[1])):
            wrong.append(f"{op} on {type_name}: (-0, +0) -> {got.tolist()}")
    assert not wrong, "; ".join(wrong)


def test_no_inaccurate_op_reaches_iree(ctx, module_text):
    from shlo.passes.numerics.accurate_math import EXPANSIONS
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(module_text, context=ctx)
    run_pipeline(module, "builtin.module(shlo-accurate-math)")
    left = [line.strip() for line in str(module).splitlines()
            for op, (real, cplx) in EXPANSIONS.items() if f"{op} " in line and (
                (cplx and "complex<f32>" in line)
                or (real and re.search(r"x(f32|f16|bf16)>", line)))]
    assert not left, f"still in the module after shlo-accurate-math: {left}"


def test_fast_math_leaves_the_pass_out(ctx):
    from shlo.passes.numerics.accurate_math import without_accurate_math
    from shlo.pipelines import DEFAULT
    assert "shlo-accurate-math" in DEFAULT
    assert "shlo-accurate-math" not in without_accurate_math(DEFAULT)
    text = ("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = stablehlo.sine %x : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}")
    x = np.array([0.5, -1.0, 2.0, 100.0], np.float32)
    accurate = shlo.compile(text, target="cpu")
    fast = shlo.compile(text, target="cpu", fast_math=True)
    assert accurate.vmfb != fast.vmfb
    want = np.sin(x.astype(np.float64))
    np.testing.assert_allclose(accurate(x), want, rtol=2e-7)
    np.testing.assert_allclose(fast(x), want, rtol=1e-4)      # IREE's own: looser


def test_the_vulkan_target_asks_for_the_exp_log_kernels():
    from shlo.pipelines import DEFAULT, with_pass_options
    from shlo.pipelines.targets import get_target
    vulkan, cpu = get_target("vulkan"), get_target("cpu")
    assert "shlo-accurate-math{exp-log=true}" in with_pass_options(DEFAULT, vulkan.pass_options)
    assert "shlo-accurate-math{" not in with_pass_options(DEFAULT, cpu.pass_options)
    mine = "builtin.module(shlo-accurate-math{exp-log=false}, cse)"     # the user's wins
    assert with_pass_options(mine, vulkan.pass_options) == mine
    no_f64 = get_target("vulkan:vp_android_baseline_2022")
    assert "shlo-accurate-math{exp-log=true f64=false}" in with_pass_options(
        DEFAULT, no_f64.pass_options)
