"""shlo-legalize-chlo's math ops on IREE's CPU backend against mpmath, in ULP of the result type:
every op on f64, f32, f16, bf16 and 8-bit floats, the complex ones on complex<f32/f64>.

Grids, oracle and ULP distance come from the accuracy harness (shlo.tools.chlo_accuracy), on
fewer points; inputs and exact results that are subnormal in the computing type are left out
(IREE's CPU code flushes them to zero). The bounds are the harness's measurements
(docs/chlo_accuracy.md) with a little room; most are far below the C++ lowering's errors.
One compiled module for the whole file.
"""
import numpy as np
import pytest

import shlo
from shlo.tools.chlo_accuracy import (_ops, boundary_dtype, function_text, make_case,
                                      ulp_distance, DTYPES)

REAL = ["f64", "f32", "f16", "bf16", "f8E4M3FN", "f8E5M2"]
COMPLEX = ["complex<f32>", "complex<f64>"]
# (op, type) -> (max ULP, 99th percentile ULP). None: every type of the op's row.
BOUNDS = {
    "erf": {"f64": (3, 2), "f32": (4, 2), None: (8, 0)},     # f64 p99: 1 (AVX-512), 1.6 (AVX2)
    "erfc": {"f64": (10, 2), "f32": (8, 2), None: (1, 0)},
    "erf_inv": {"f64": (4, 2), "f32": (4, 2), None: (8, 0)},
    # lgamma and digamma keep an absolute error near their negative roots: large ULP counts
    # on a handful of points, hence the loose maxima and the tight 99th percentiles
    "lgamma": {"f64": (600, 20), "f32": (1500, 40), "f16": (16, 1), "bf16": (2e4, 1),
               None: (2, 0)},
    "digamma": {"f64": (400, 8), "f32": (300, 10), "f16": (4, 1), None: (16, 1)},
    "bessel_i1e": {"f64": (6, 3), "f32": (9, 3), "complex<f32>": (2e6, 1),
                   "complex<f64>": (5e15, 3), None: (8, 0)},
    "sinh": {"complex<f64>": (10, 2), None: (3, 1)},
    "cosh": {"complex<f64>": (10, 2), None: (3, 2)},
    "tan": {"complex<f64>": (16, 2), None: (3, 2)},
    "atan": {None: (3, 2)},
    "atanh": {None: (3, 2)},
    "asin": {None: (3, 2)},
    "acos": {None: (3, 2)},
    "asinh": {None: (3, 2)},
    "acosh": {None: (3, 2)},
    "square": {None: (1, 1)},
    # zeta (and polygamma through it) sums q^-x by the target's pow, exp(-x log q): its error
    # grows with |x log q| (IREE, measured; the C++ lowering has the same), and f32 terms that
    # underflow to subnormals are flushed, which zeroes e.g. zeta(10, 6900) = 3e-36
    "polygamma": {"f64": (1000, 350), "f32": (120, 45)},
    "zeta": {"f64": (1000, 400), "f32": (1e8, 60)},
}
SPECS = _ops()
CASES = [(op, t) for op in BOUNDS for t in (REAL if not SPECS[op].first else ["f64", "f32"])]
CASES += [(op, t) for op in BOUNDS if SPECS[op].complex for t in COMPLEX]
POINTS = {"f64": 500, "f32": 500, "complex<f32>": 600, "complex<f64>": 600}


def bound(op, t):
    table = BOUNDS[op]
    top, p99 = table.get(t, table.get(None))
    if t.startswith("f8"):
        # IREE rounds f32 -> f8 values just below the smallest normal to 0 instead of up to
        # it (measured): 8 ULP at that one boundary, whatever the lowering computes
        top = max(top, 8)
    return top, p99


@pytest.fixture(scope="module")
def cases():
    return {(op, t): make_case(SPECS[op], t, POINTS.get(t, 0), max_points=1200)
            for op, t in CASES}


@pytest.fixture(scope="module")
def program(ctx, cases):
    texts = [function_text(f"f{i}", op, t, cases[op, t].want.size, len(cases[op, t].args))
             for i, (op, t) in enumerate(CASES)]
    return shlo.compile(shlo.parse_module("\n".join(texts), context=ctx), target="cpu")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{o}-{t}" for o, t in CASES])
@pytest.mark.slow
def test_ulp_error_against_mpmath(program, cases, index):
    op, t = CASES[index]
    case = cases[op, t]
    got = program.function(f"f{index}")(*[a.astype(boundary_dtype(t)) for a in case.args])
    with np.errstate(all="ignore"):
        got = np.asarray(got).astype(DTYPES[t])
    errors = ulp_distance(got, case.want)
    worst = int(np.argmax(np.nan_to_num(errors, posinf=1e300)))
    inputs = ", ".join(repr(a[worst]) for a in case.args)
    top, p99 = bound(op, t)
    assert errors.max() <= top, (f"{op}({inputs}) = {got[worst]!r}, want "
                                 f"{case.want[worst]!r}: {errors[worst]} ULP > {top}")
    assert np.percentile(errors, 99) <= p99
