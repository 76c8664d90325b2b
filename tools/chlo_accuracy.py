"""chlo-accuracy: ULP error of shlo's CHLO lowering and of the wheel's C++ one, against mpmath.

    python -m shlo.tools.chlo_accuracy --out docs/chlo_accuracy.md      # the whole table
    python -m shlo.tools.chlo_accuracy --ops erf,lgamma --types f32      # a few rows, printed

For each CHLO op and element type: a grid of inputs (every value of the 8- and 16-bit types;
for f32/f64 a dense log-spaced sweep from the smallest subnormal to the largest finite number,
both signs, plus 0, +-inf, NaN and op-specific points such as poles and roots; complex types
use magnitudes x angles), the op compiled by IREE for the CPU after shlo's
`shlo-legalize-chlo` and, separately, after the wheel's `chlo-legalize-to-stablehlo` (the same
pipeline otherwise), and the error in units in the last place of the result type against
mpmath evaluated at 120 bits and rounded to that type. Complex results count the worse of the
real and imaginary parts.

IREE's CPU code flushes subnormal inputs and results to zero
(docs/iree_gaps.md#toolschlo_accuracy), so device grids leave out subnormal inputs and the
points whose exact result is subnormal in the computing type. The 6-, 4- and some 8-bit
float types cannot cross IREE's function boundary: their functions take and return f32 and
convert inside.

The module also serves the tests (grids, oracle, ULP distance, module text).
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import sys
import time
from collections.abc import Callable

import ml_dtypes
import numpy as np

# the rest of shlo's default pipeline that concerns these ops, after either lowering
_TAIL = "shlo-expand-f64-math, shlo-round-narrow-float-converts, canonicalize, cse"
SHLO_PIPELINE = f"builtin.module(func.func(shlo-legalize-chlo), {_TAIL})"
CPP_PIPELINE = f"builtin.module(func.func(chlo-legalize-to-stablehlo), {_TAIL})"
MP_BITS = 120
TRIG_LIMIT = 4e3     # |argument| bound for ops built on sin/cos: past it the C++ lowering
                     # (IREE's sine and cosine) cannot be accurate, and shlo's f64 reduction
                     # is exact only to 2^20 pi/2

# MLIR element type -> numpy dtype; the narrow types cross IREE's boundary as f32
DTYPES = {
    "f64": np.dtype(np.float64), "f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16), "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    "f8E3M4": np.dtype(ml_dtypes.float8_e3m4), "f8E4M3": np.dtype(ml_dtypes.float8_e4m3),
    "f6E2M3FN": np.dtype(ml_dtypes.float6_e2m3fn), "f6E3M2FN": np.dtype(ml_dtypes.float6_e3m2fn),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
    "complex<f32>": np.dtype(np.complex64), "complex<f64>": np.dtype(np.complex128),
}
NATIVE_BOUNDARY = ("f64", "f32", "f16", "bf16", "complex<f32>", "complex<f64>")
REAL_TYPES = ("f64", "f32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ",
              "f8E4M3B11FNUZ", "f8E3M4", "f8E4M3", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN")
COMPLEX_TYPES = ("complex<f32>", "complex<f64>")
# IREE cannot compile a conversion to a 6-bit float (docs/iree_gaps.md#shlo-widen-f6), so
# these rows evaluate the legalized StableHLO in the reference interpreter instead
REFERENCE_ONLY = ("f6E2M3FN", "f6E3M2FN")


# --- the oracle ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _mp():
    import mpmath
    mpmath.mp.prec = MP_BITS       # once: oracles raise it locally with workprec
    return mpmath


def _real_or_nan(v):
    """mpmath answers outside a real function's domain with complex numbers: that is NaN."""
    mp = _mp()
    if isinstance(v, mp.mpc):
        return v.real if abs(v.imag) == 0 else mp.nan
    return v


def _lgamma(x):
    mp = _mp()
    if x <= 0 and x == mp.floor(x):
        return mp.inf
    return mp.re(mp.loggamma(x))


def _digamma(x):
    mp = _mp()
    if x == 0:
        return -mp.inf
    if x < 0 and x == mp.floor(x):
        return mp.nan
    return mp.digamma(x)


def _polygamma(n, x):
    mp = _mp()
    if n < 0 or n != mp.floor(n):
        return mp.nan
    if n == 0:
        return _digamma(x)
    if x <= 0 and x == mp.floor(x):
        return mp.inf if int(n) % 2 == 1 else mp.nan
    return mp.polygamma(int(n), x)


def _zeta(x, q):
    mp = _mp()
    if x == 1:
        return mp.inf
    if x < 1:
        return mp.nan
    if q <= 0:
        if x != mp.floor(x):
            return mp.nan
        if q == mp.floor(q):
            return mp.inf if int(x) % 2 == 0 else mp.nan
    return mp.zeta(x, q)


def _erfc(x):
    mp = _mp()
    return mp.erfc(x) if x < 40 else mp.mpf(0)


def _bessel_i1e(x):
    mp = _mp()
    if mp.isinf(x):
        return mp.mpf(0) if isinstance(x, mp.mpf) else mp.nan
    if isinstance(x, mp.mpf) and abs(x) > 1e6:     # mpmath's besseli fails on huge x
        a = abs(x)
        series = 1 - 3 / (8 * a) - 15 / (128 * a * a)
        return mp.sign(x) * series / mp.sqrt(2 * mp.pi * a)
    return mp.besseli(1, x) * mp.exp(-abs(mp.re(x)))


def _inverse(fn, low, high):
    """An inverse function, real on [low, high] (NaN outside for real inputs)."""
    def f(x):
        mp = _mp()
        if isinstance(x, mp.mpc):
            return fn(x)
        if not low <= x <= high:
            return mp.nan
        return _real_or_nan(fn(x))
    return f


@dataclasses.dataclass(frozen=True)
class OpSpec:
    """One CHLO op as the harness sees it."""
    name: str
    oracle: Callable
    complex: bool = False            # also defined on complex numbers
    points: tuple = ()               # extra real inputs worth a look (poles, roots, edges)
    first: tuple = ()                # binary ops: the values of the first operand
    limit: float | None = None       # inputs (real and imaginary parts) beyond +-limit are left
    complex_limit: float | None = None   # out (complex inputs only): sin/cos of huge arguments,
                                         # and mpmath's polygamma and zeta, which take minutes there
    positive: bool = False           # only positive inputs (zeta's q, polygamma's x: the series
                                     # XLA and shlo evaluate is for q > 0)


def _ops() -> dict[str, OpSpec]:
    mp = _mp()
    half_ints = tuple(k + 0.5 for k in range(-6, 6))
    integers = tuple(float(k) for k in range(-6, 7))
    specs = [
        OpSpec("erf", mp.erf),
        OpSpec("erfc", _erfc),
        OpSpec("erf_inv", _inverse(mp.erfinv, -1, 1), points=(1.0, -1.0, 0.5, 0.9999)),
        OpSpec("lgamma", _lgamma, points=integers + half_ints + (1.0, 2.0, 2.5)),
        OpSpec("digamma", _digamma, points=integers + half_ints + (1.4616321449683622,)),
        OpSpec("bessel_i1e", _bessel_i1e, complex=True, complex_limit=TRIG_LIMIT),
        OpSpec("sinh", mp.sinh, complex=True, complex_limit=TRIG_LIMIT),
        OpSpec("cosh", mp.cosh, complex=True, complex_limit=TRIG_LIMIT),
        OpSpec("tan", mp.tan, complex=True, limit=TRIG_LIMIT),
        OpSpec("atan", mp.atan, complex=True),
        OpSpec("atanh", _inverse(mp.atanh, -1, 1), complex=True),
        OpSpec("asin", _inverse(mp.asin, -1, 1), complex=True),
        OpSpec("acos", _inverse(mp.acos, -1, 1), complex=True),
        OpSpec("asinh", mp.asinh, complex=True),
        OpSpec("acosh", _inverse(mp.acosh, 1, mp.inf), complex=True),
        OpSpec("square", lambda x: x * x, complex=True),
        OpSpec("polygamma", _polygamma, first=(0.0, 1.0, 2.0, 3.0, 5.0), limit=1e3,
               positive=True),
        OpSpec("zeta", _zeta, first=(1.5, 2.0, 3.0, 4.5, 10.0), positive=True, limit=1e6),
    ]
    return {s.name: s for s in specs}


def oracle(spec: OpSpec, args: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """The op on every element of `args`, evaluated by mpmath, as float64 (or complex128)."""
    mp = _mp()
    out = []
    is_complex = dtype.kind == "c"
    for values in zip(*args):
        mp_args = [mp.mpc(complex(v)) if is_complex else mp.mpf(float(v)) for v in values]
        if any(mp.isnan(a) for a in mp_args):
            out.append(complex("nan+nanj") if is_complex else math.nan)
            continue
        try:
            if is_complex:      # mpmath's complex formulas cancel: give them the exponent range
                scale = max(abs(int(mp.log(abs(a), 2))) for a in mp_args if a != 0) \
                    if any(a != 0 for a in mp_args) else 0
                with mp.workprec(MP_BITS + 2 * scale):
                    r = spec.oracle(*mp_args)
            else:
                r = spec.oracle(*mp_args)
        except (ValueError, ZeroDivisionError, OverflowError):
            r = mp.nan
        if is_complex:
            r = mp.mpc(r)
            out.append(complex(float(r.real), float(r.imag)))
        else:
            out.append(float(_real_or_nan(r)))
    return np.array(out, np.complex128 if is_complex else np.float64)


# --- grids --------------------------------------------------------------------------------------

def all_values(dtype: np.dtype) -> np.ndarray:
    """Every value of an 8- or 16-bit float type (NaN once)."""
    dtype = np.dtype(dtype)
    bits = int(ml_dtypes.finfo(dtype).bits)
    raw = np.arange(1 << bits, dtype=np.uint16 if dtype.itemsize == 2 else np.uint8)
    values = raw.view(dtype)
    wide = values.astype(np.float64)
    finite = values[~np.isnan(wide)]
    return np.concatenate([np.unique(finite), np.array([np.nan]).astype(dtype)])


def real_grid(dtype: np.dtype, n: int, points=(), limit=None) -> np.ndarray:
    """Dense log-spaced magnitudes from the smallest subnormal to the largest finite value,
    both signs, plus 0, +-inf, NaN and `points` (all values for types of <= 16 bits)."""
    dtype = np.dtype(dtype)
    if dtype.itemsize <= 2:
        grid = all_values(dtype)
        if limit is not None:
            grid = grid[~(np.abs(grid.astype(np.float64)) > limit)]
        return grid
    info = ml_dtypes.finfo(dtype)
    tiny, big = float(info.smallest_subnormal), float(info.max)
    mags = np.geomspace(tiny, big, n)
    # a denser sweep of the interesting middle, where most ops bend
    mags = np.concatenate([mags, np.geomspace(1e-4, 1e4, n // 2)])
    extra = np.array([0.0, np.inf, np.nan, big, float(info.tiny), 1.0, 2.0, 0.5, *points])
    grid = np.concatenate([mags, -mags, extra, -extra]).astype(dtype)
    if limit is not None:
        grid = grid[~(np.abs(grid.astype(np.float64)) > limit)]
    return np.unique(grid)


def complex_grid(dtype: np.dtype, n: int) -> np.ndarray:
    """Magnitudes (log-spaced, 4x the smallest normal to a quarter of the largest finite
    value) x angles around the circle. Only finite points off the axes: signed zeros on
    branch cuts and the C99 Annex G special values are conventions, not accuracy."""
    part = np.float32 if dtype == np.complex64 else np.float64
    info = np.finfo(part)
    radii = np.geomspace(float(info.tiny) * 4, float(info.max) / 4, int(math.sqrt(n) * 2))
    count = max(8, int(math.sqrt(n) // 2))
    angles = np.linspace(-math.pi, math.pi, count, endpoint=False) + math.pi / (2 * count)
    z = (radii[:, None] * np.exp(1j * angles[None, :])).ravel().astype(dtype)
    return z[(z.real != 0) & (z.imag != 0) & np.isfinite(z)]


def without_subnormals(args: list[np.ndarray], want: np.ndarray, compute: np.dtype):
    """Drop the points with a subnormal input, or a subnormal exact result (`want` unrounded),
    in the type the device computes in: IREE's CPU code flushes those to zero."""
    tiny = float(np.finfo(compute).tiny)

    def subnormal(a):
        parts = [a.real, a.imag] if a.dtype.kind == "c" else [a]
        bad = np.zeros(a.shape, bool)
        for p in parts:
            w = np.abs(p.astype(np.float64))
            bad |= (w < tiny) & (w != 0)
        return bad

    keep = ~subnormal(want)
    for a in args:
        keep &= ~subnormal(a)
    return [a[keep] for a in args], want[keep]


def without_unencodable(args: list[np.ndarray], want: np.ndarray, dtype: np.dtype):
    """For types with no infinity (f6, f4 and the FN/FNUZ f8s), drop the points whose exact
    result overflows the type: the spec leaves that conversion implementation-defined
    (the reference interpreter gives 0, ml_dtypes NaN or the largest value)."""
    if dtype.kind == "c" or np.isinf(np.array(np.inf).astype(dtype)):
        return args, want
    top = float(ml_dtypes.finfo(dtype).max)
    with np.errstate(invalid="ignore"):
        keep = ~(np.abs(want.astype(np.float64)) > top)
    return [a[keep] for a in args], want[keep]


def compute_dtype(type_name: str) -> np.dtype:
    """The numpy dtype of the type a lowering computes in (narrow floats: f32)."""
    if type_name in ("f64", "complex<f64>"):
        return np.dtype(np.float64)
    return np.dtype(np.float32)


# --- ULP distance -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _ordered_values(dtype: np.dtype) -> np.ndarray:
    values = all_values(dtype).astype(np.float64)
    return np.unique(values[~np.isnan(values)])


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|position(got) - position(want)| among the values of their type (0 when both are NaN,
    inf when only one is). Complex numbers: the worse of the two parts."""
    if got.dtype.kind == "c":
        part = np.float32 if got.dtype == np.complex64 else np.float64
        return np.maximum(ulp_distance(got.real.astype(part), want.real.astype(part)),
                          ulp_distance(got.imag.astype(part), want.imag.astype(part)))
    g, w = got.astype(np.float64), want.astype(np.float64)
    if got.dtype.itemsize >= 4:
        ints = {4: np.int32, 8: np.int64}[got.dtype.itemsize]

        def ordered(a):     # long double holds every int64 exactly
            i = a.view(ints).astype(np.longdouble)
            return np.where(i < 0, np.longdouble(np.iinfo(ints).min) - i, i)
        distance = np.abs(ordered(got) - ordered(want.astype(got.dtype))).astype(np.float64)
    else:
        table = _ordered_values(np.dtype(got.dtype))
        gz, wz = np.where(g == 0, 0.0, g), np.where(w == 0, 0.0, w)
        distance = np.abs(np.searchsorted(table, np.nan_to_num(gz)).astype(np.float64)
                          - np.searchsorted(table, np.nan_to_num(wz)))
    g_nan, w_nan = np.isnan(g), np.isnan(w)
    distance = np.where(g_nan | w_nan, np.inf, distance)
    return np.where(g_nan & w_nan, 0.0, distance)


# --- modules ------------------------------------------------------------------------------------

def function_text(name: str, op: str, type_name: str, n: int, arity: int = 1) -> str:
    """A func.func applying chlo.<op> to tensor<n x type> arguments; types that cannot cross
    IREE's boundary take and return f32 and convert inside."""
    t = f"tensor<{n}x{type_name}>"
    boundary = type_name if type_name in NATIVE_BOUNDARY else "f32"
    bt = f"tensor<{n}x{boundary}>"
    args = ", ".join(f"%a{i}: {bt}" for i in range(arity))
    lines = [f"func.func @{name}({args}) -> {bt} {{"]
    names = []
    for i in range(arity):
        if boundary != type_name:
            lines.append(f"  %x{i} = stablehlo.convert %a{i} : ({bt}) -> {t}")
            names.append(f"%x{i}")
        else:
            names.append(f"%a{i}")
    types = ", ".join([t] * arity)
    lines.append(f"  %r = chlo.{op} {', '.join(names)} : {types} -> {t}")
    result = "%r"
    if boundary != type_name:
        lines.append(f"  %o = stablehlo.convert %r : ({t}) -> {bt}")
        result = "%o"
    lines += [f"  return {result} : {bt}", "}"]
    return "\n".join(lines)


def boundary_dtype(type_name: str) -> np.dtype:
    return DTYPES[type_name] if type_name in NATIVE_BOUNDARY else np.dtype(np.float32)


@dataclasses.dataclass
class Case:
    """The inputs and the exact answers of one (op, type) pair."""
    op: str
    type_name: str
    args: list
    want: np.ndarray


def make_case(spec: OpSpec, type_name: str, n: int, max_points: int | None = None) -> Case:
    """The grid of `spec` on `type_name` (n log-spaced magnitudes for f32/f64), thinned evenly
    to at most `max_points` inputs, with mpmath's answers."""
    dtype = DTYPES[type_name]
    if spec.first:
        n = max(n // len(spec.first), 200)      # the grid repeats for each first operand
    if dtype.kind == "c":
        x = complex_grid(dtype, n)
        limit = spec.complex_limit or spec.limit
        if limit is not None:
            x = x[(np.abs(x.real) <= limit) & (np.abs(x.imag) <= limit)]
    else:
        x = real_grid(dtype, n, spec.points, spec.limit)
        if spec.positive:
            x = x[~(x.astype(np.float64) <= 0)]
    if spec.first:
        firsts = np.array(spec.first).astype(dtype)
        args = [np.repeat(firsts, x.size), np.tile(x, firsts.size)]
    else:
        args = [x]
    if max_points is not None and args[0].size > max_points:
        step = -(-args[0].size // max_points)
        args = [a[::step] for a in args]
    exact = oracle(spec, args, dtype)
    args, exact = without_subnormals(args, exact, compute_dtype(type_name))
    args, exact = without_unencodable(args, exact, dtype)
    if dtype.itemsize == 1 and exact.size % 64:
        # IREE cannot store a sub-byte tensor of odd byte size in a kernel: repeat points up
        # to a multiple of 64 elements (docs/iree_gaps.md#toolschlo_accuracy)
        take = np.arange(-(-exact.size // 64) * 64) % exact.size
        args, exact = [a[take] for a in args], exact[take]
    with np.errstate(all="ignore"):
        return Case(spec.name, type_name, args, exact.astype(dtype))


def run_case(case: Case, pipeline: str, target: str = "cpu", worst: int = 0):
    """Compile the case's op with `pipeline` and return the ULP errors (or the error text);
    `worst` > 0 prints that many of the worst points."""
    import shlo
    n = case.want.size
    text = function_text("main", case.op, case.type_name, n, len(case.args))
    inputs = [a.astype(boundary_dtype(case.type_name)) for a in case.args]
    try:
        if case.type_name in REFERENCE_ONLY:
            got = run_in_reference_interpreter(text, pipeline, inputs)
        else:
            exe = shlo.compile(shlo.parse_module(text, context=shlo.context()), target=target,
                               pipeline=pipeline)
            got = exe(*inputs)
    except (shlo.Error, RuntimeError) as e:
        return str(e).splitlines()[0]
    got = np.asarray(got)
    with np.errstate(all="ignore"):
        got = got.astype(DTYPES[case.type_name])
    errors = ulp_distance(got, case.want)
    for i in np.argsort(-np.nan_to_num(errors, posinf=1e300))[:worst]:
        shown = ", ".join(repr(a[i]) for a in case.args)
        print(f"  {case.op}({shown}) = {got[i]!r}, want {case.want[i]!r}: {errors[i]} ULP",
              file=sys.stderr)
    return errors


def run_in_reference_interpreter(text: str, pipeline: str, inputs) -> np.ndarray:
    """`text`'s @main after `pipeline`, evaluated by the StableHLO reference interpreter."""
    import shlo
    from shlo.passes.pipeline import run_pipeline
    from shlo.tools.conformance_reference import jaxlib_context
    module = shlo.parse_module(text, context=shlo.context())
    run_pipeline(module.operation, pipeline)
    if "chlo." in str(module):
        raise RuntimeError("the pipeline left CHLO ops")
    jir, stablehlo, jctx = jaxlib_context()
    with jctx:
        jmodule = jir.Module.parse(str(module))
        args = [jir.DenseElementsAttr.get(np.ascontiguousarray(a)) for a in inputs]
        try:
            (result,) = stablehlo.eval_module(jmodule, args)
        except Exception as e:
            raise RuntimeError(f"reference interpreter: {' '.join(str(e).split())}") from None
        return np.array(jir.DenseElementsAttr(result))


def summary(errors) -> str:
    if isinstance(errors, str):
        return "fails"
    if errors.size == 0:
        return "-"
    worst = errors.max()
    p99 = np.percentile(errors, 99)
    return f"{_fmt(worst)} / {_fmt(p99)}"


def _fmt(x: float) -> str:
    if not np.isfinite(x):
        return "NaN!"
    return f"{x:.0f}" if x < 1e4 else f"{x:.1e}"


def _verdict(ours, theirs) -> str:
    if isinstance(ours, str):
        return "shlo fails"
    if isinstance(theirs, str):
        return "C++ fails to lower or compile"
    a, b = ours.max(), theirs.max()
    pa, pb = np.percentile(ours, 99), np.percentile(theirs, 99)
    if a == b and pa == pb:
        return "same"
    if a <= b and pa <= pb:
        return "shlo better"
    if a >= b and pa >= pb:
        return "shlo worse"
    return "mixed"


DOC_HEADER = """# shlo-legalize-chlo: accuracy against mpmath, next to the C++ lowering

Generated by `python -m shlo.tools.chlo_accuracy --out docs/chlo_accuracy.md` (IREE 3.13 on
the CPU, this machine: 2-core AVX-512). For each CHLO math op and element type, the op alone
is compiled twice: after shlo's `shlo-legalize-chlo` and after the wheel's C++
`chlo-legalize-to-stablehlo` (the same `shlo-expand-f64-math, shlo-round-narrow-float-converts,
canonicalize, cse` after both, as in shlo's default pipeline, so that f64 sine and cosine link
and conversions to f8/f4 round right; the same IREE flags),
run on the same inputs, and compared with mpmath at 120 bits rounded to the result type.
Errors are in units in the last place of the result type: "max / p99" over the grid.

Grids: every value of the 4-, 6-, 8- and 16-bit types; for f32/f64 a dense log-spaced sweep
from the smallest subnormal to the largest finite value, both signs, plus 0, +-inf, NaN and
op-specific points (poles, roots, branch points); complex types take magnitudes x angles.
Left out, and why:
- inputs, and exact results, that are subnormal in the type computed in: IREE's CPU code
  flushes them to zero (measured for f32 and f64 inputs and f32 results) whatever the
  lowering does;
- for types without infinity (f4, f6, FN/FNUZ f8), exact results beyond the largest finite
  value: the spec leaves that conversion implementation-defined.

Reading the table:
- "C++ fails to lower or compile": the C++ pass rejects the type (erf, erfc, bessel_i1e on
  f8/f6/f4; complex bessel_i1e, which it declares but never lowers).
- The f6 rows run in the StableHLO reference interpreter, not on IREE: IREE 3.13 cannot
  compile a conversion to a 6-bit float at all (`arith.truncf` to f6 is left illegal).
- lgamma and digamma keep an absolute error near their negative roots, where the result
  crosses zero: large ULP counts on a handful of points (the 99th percentile stays small);
  the C++ lowering is far worse there (up to 1e9 ULP).
- zeta and polygamma sum q^-x through the target's pow (exp(-x log q)): error grows with
  |x log q|, in both lowerings.
- f4 and 8-bit grids are padded to a multiple of 64 points by repetition: IREE 3.13 cannot
  store a sub-byte tensor of odd byte size inside a kernel.
"""


def _verdict_counts(rows) -> str:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row[-1]] = counts.get(row[-1], 0) + 1
    parts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
    return f"Rows: {len(rows)} ({parts}).\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="chlo-accuracy", description=__doc__.splitlines()[0])
    p.add_argument("--ops", default="", help="comma-separated op names (default: all)")
    p.add_argument("--types", default="", help="comma-separated element types (default: all)")
    p.add_argument("--points", type=int, default=6000, help="grid size for f32/f64")
    p.add_argument("--out", default="", help="write the markdown table here")
    p.add_argument("--worst", type=int, default=0, help="print the N worst points of each row")
    args = p.parse_args(argv)
    specs = _ops()
    names = [s for s in args.ops.split(",") if s] or list(specs)
    rows = []
    for name in names:
        spec = specs[name]
        types = [t for t in (args.types.split(",") if args.types else REAL_TYPES + COMPLEX_TYPES)
                 if t in REAL_TYPES or spec.complex]
        for type_name in types:
            t0 = time.time()
            case = make_case(spec, type_name, args.points)
            ours = run_case(case, SHLO_PIPELINE, worst=args.worst)
            theirs = run_case(case, CPP_PIPELINE, worst=args.worst)
            row = (name, type_name, case.want.size, summary(ours), summary(theirs),
                   _verdict(ours, theirs))
            rows.append(row)
            print(" | ".join(map(str, row)), f"({time.time() - t0:.1f}s)", file=sys.stderr)
    table = ["| op | type | points | shlo max / p99 ULP | C++ max / p99 ULP | verdict |",
             "|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    text = "\n".join(table)
    if args.out:
        text = DOC_HEADER + "\n" + text + "\n\n" + _verdict_counts(rows)
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
