"""The check ops of StableHLO test files, as data, and their semantics on the host.

Semantics follow the StableHLO reference interpreter (stablehlo/tests/CheckOps.cpp and
stablehlo-translate's custom_call fallback):

- `eq`: exact. Floats compare as IEEE values: NaN never equals anything, +0 equals -0.
  Complex values compare both parts.
- `almost_eq`: equal values pass, two NaNs pass, a NaN and a number fail; otherwise both
  values must be finite (or one of them zero), have the same sign, and differ by at most
  the absolute tolerance. Complex values check both parts.
- `close`: the ULP distance (bit patterns of magnitudes; across zero the two distances add;
  two NaNs are 0 apart; a non-finite value not bitwise equal to the other is infinitely far)
  must lie within [min, max] ULPs. Complex values take the larger distance of the parts.
- `eq_or_almost` (`custom_call @check.eq`): `eq` for integer and boolean elements, else
  `almost_eq` with tolerance 1e-4.
"""
from __future__ import annotations

import dataclasses

import numpy as np

FAR = 2 ** 64 - 1          # the ULP distance of values that are not comparable in ULPs


@dataclasses.dataclass(frozen=True)
class CheckKind:
    """How one check op compares: what it is called, its comparison and its defaults."""
    name: str
    compare: str                      # eq | almost_eq | close | eq_or_almost
    operands: int                     # SSA operands (1 when the expected value is an attribute)
    tolerance: float = 0.0            # almost_eq
    min_ulp: int = 0                  # close
    max_ulp: int = 0


# The check dialect (ops written `check.NAME`), and the custom_call targets (`@check.NAME`).
# When a `check.expect_close` omits a bound shlo uses min 0 and max 1 (every file of the
# shared suite states its bound).
CHECK_OPS: dict[str, CheckKind] = {k.name: k for k in (
    CheckKind("check.expect_eq", "eq", 2),
    CheckKind("check.expect_eq_const", "eq", 1),
    CheckKind("check.expect_almost_eq", "almost_eq", 2, tolerance=1e-4),
    CheckKind("check.expect_almost_eq_const", "almost_eq", 1, tolerance=1e-4),
    CheckKind("check.expect_close", "close", 2, min_ulp=0, max_ulp=1),
    CheckKind("check.expect_serialized_eq", "eq", 1),
)}

CUSTOM_CALL_CHECKS: dict[str, CheckKind] = {k.name: k for k in (
    CheckKind("check.expect_eq", "eq", 2),
    CheckKind("check.expect_almost_eq", "almost_eq", 2, tolerance=1e-3),
    CheckKind("check.expect_close", "close", 2, min_ulp=0, max_ulp=3),
    CheckKind("check.eq", "eq_or_almost", 2, tolerance=1e-4),
)}


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """The first element where a check fails, and how many fail."""
    index: tuple
    got: str
    want: str
    ulp: int | None
    count: int
    total: int
    reason: str = ""

    def text(self) -> str:
        where = "[" + ", ".join(map(str, self.index)) + "]"
        ulp = "" if self.ulp is None else \
            f", ULP distance {'inf' if self.ulp == FAR else self.ulp}"
        more = f" ({self.count} of {self.total} elements differ)" if self.count > 1 else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"index {where}: got {self.got}, want {self.want}{ulp}{why}{more}"

    def as_json(self) -> dict:
        return {"index": list(self.index), "got": self.got, "want": self.want, "ulp": self.ulp,
                "count": self.count, "total": self.total}


class CheckMisuse(Exception):
    """A check applied to values it cannot compare (shape or element kind); says why."""


def evaluate(kind: CheckKind, got: np.ndarray, want: np.ndarray, *, tolerance=None,
             min_ulp=None, max_ulp=None) -> Mismatch | None:
    """None when `got` passes the check against `want`, else the first mismatch."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise CheckMisuse(f"shape {list(got.shape)} does not match expected {list(want.shape)}")
    if got.dtype != want.dtype:
        raise CheckMisuse(f"element type {got.dtype} does not match expected {want.dtype}")
    compare = kind.compare
    if compare == "eq_or_almost":
        compare = "eq" if _family(want.dtype) in "bi" else "almost_eq"
    tol = kind.tolerance if tolerance is None else float(tolerance)
    if compare == "eq":
        bad = ~equal(got, want)
        return _first(bad, got, want, ulp=_family(got.dtype) in "fc")
    if _family(got.dtype) not in "fc":
        raise CheckMisuse(f"{kind.name} compares floating-point or complex values, "
                          f"got {got.dtype}")
    if compare == "almost_eq":
        return _first(~almost_equal(got, want, tol), got, want, ulp=True,
                      reason=f"tolerance {tol:g}")
    lo = kind.min_ulp if min_ulp is None else int(min_ulp)
    hi = kind.max_ulp if max_ulp is None else int(max_ulp)
    distance = ulp_distance(got, want)
    bad = (distance > hi) | (distance < lo)
    bounds = f"allowed {lo}..{hi} ULPs" if lo else f"allowed {hi} ULPs"
    return _first(bad, got, want, ulp=True, reason=bounds)


def equal(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise exact equality (IEEE for floats: NaN != NaN, +0 == -0)."""
    family = _family(got.dtype)
    if family == "c":
        return (got.real == want.real) & (got.imag == want.imag)
    if family == "f":
        return got.astype(np.float64) == want.astype(np.float64)
    return got == want


def almost_equal(got: np.ndarray, want: np.ndarray, tolerance: float) -> np.ndarray:
    """Elementwise `almost_eq` of the reference interpreter (absolute tolerance)."""
    if _family(got.dtype) == "c":
        return _almost(got.real, want.real, tolerance) & _almost(got.imag, want.imag, tolerance)
    return _almost(got.astype(np.float64), want.astype(np.float64), tolerance)


def _almost(f: np.ndarray, g: np.ndarray, tolerance: float) -> np.ndarray:
    f, g = f.astype(np.float64), g.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        same = f == g
        nan_f, nan_g = np.isnan(f), np.isnan(g)
        # an infinity is only near itself; a zero may be near a small number of its sign
        comparable = (np.isfinite(f) & np.isfinite(g)) | (f == 0) | (g == 0)
        near = (np.signbit(f) == np.signbit(g)) & (np.abs(f - g) <= tolerance)
    return same | (nan_f & nan_g) | (~nan_f & ~nan_g & comparable & near)


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise ULP distance (uint64; FAR for incomparable values), as the reference's."""
    if _family(got.dtype) == "c":
        return np.maximum(ulp_distance(got.real, want.real), ulp_distance(got.imag, want.imag))
    bits_f, bits_g = _bits(got), _bits(want)
    mag_f, mag_g = _bits(np.abs(got)), _bits(np.abs(want))
    neg_f, neg_g = bits_f != mag_f, bits_g != mag_g
    wide_f, wide_g = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(wide_f) & np.isfinite(wide_g)
    apart = np.where(neg_f != neg_g, mag_f + mag_g,
                     np.where(mag_f > mag_g, mag_f - mag_g, mag_g - mag_f))
    both_nan = np.isnan(wide_f) & np.isnan(wide_g)
    out = np.where(finite, apart, np.where(both_nan, np.uint64(0), np.uint64(FAR)))
    return np.where(bits_f == bits_g, np.uint64(0), out)


def _bits(values: np.ndarray) -> np.ndarray:
    width = values.dtype.itemsize
    return np.ascontiguousarray(values).view(np.dtype(f"uint{8 * width}")).astype(np.uint64)


def _first(bad: np.ndarray, got: np.ndarray, want: np.ndarray, *, ulp: bool,
           reason: str = "") -> Mismatch | None:
    bad = np.asarray(bad)
    count = int(np.count_nonzero(bad))
    if count == 0:
        return None
    flat = int(np.flatnonzero(bad.ravel())[0])
    index = tuple(int(i) for i in np.unravel_index(flat, got.shape)) if got.ndim else ()
    g, w = got.ravel()[flat], want.ravel()[flat]
    distance = int(ulp_distance(np.array([g]), np.array([w]))[0]) if ulp else None
    return Mismatch(index, format_value(g), format_value(w), distance, count, got.size, reason)


def format_value(x) -> str:
    """A scalar as the reference prints it: shortest repr for its own precision."""
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (complex, np.complexfloating)):
        return f"({format_value(x.real)}, {format_value(x.imag)})"
    family = _family(np.asarray(x).dtype)
    if family == "f":
        text = str(x)
        return text if any(c in text for c in ".en") else text + ".0"
    return str(int(x)) if family in "i" else str(x)


def _family(dtype: np.dtype) -> str:
    """b(ool), i(nteger), f(loat), c(omplex) for numpy and ml_dtypes dtypes."""
    if dtype.kind in "biufc":
        return "i" if dtype.kind == "u" else dtype.kind
    name = dtype.name
    return "i" if name.startswith(("int", "uint")) else "f"
