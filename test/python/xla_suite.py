"""Harness of the XlaBuilder numeric suites (test_xla_ops_*.py, test_xla_seed_examples.py).

A test file declares its cases as data (`Case`: inputs, a builder function, an independent
numpy oracle); `Suite` puts every case of the file into ONE XlaBuilder whose root is a tuple
of all the cases' results, compiles it once per target and runs it once with every case's
inputs as runtime parameters (constants would be folded by IREE at compile time and the
target would never run a kernel). A case whose building raises keeps its exception; when the
combined module fails to compile or run, the cases are bisected into smaller modules so that
one broken op fails only its own test; a case marked xfail is compiled alone.
"""
from __future__ import annotations

import dataclasses
import traceback
from typing import Any, Callable

import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from shlo import xla

TARGETS = ("cpu", "vulkan")


@dataclasses.dataclass
class Case:
    """One op application: `build(b, *params) -> XlaOp | [XlaOp]`, checked against `oracle`.

    `oracle(*inputs)` returns the expected array (or list of arrays, one per result) computed
    independently with numpy; its dtype is the expected result dtype. `vulkan`/`cpu` is True
    or the reason the case does not run on that target. `seed` is the literal result printed
    in the seeds' worked example, checked against the oracle too (`seed_erratum` says why a
    seed's literal is wrong; the case then tests XLA's real behaviour).
    """
    name: str
    inputs: tuple
    build: Callable
    oracle: Callable
    rtol: float = 1e-6
    atol: float = 0.0
    cpu: Any = True
    vulkan: Any = True
    xfail: str | dict | None = None   # reason, or {target: reason}: a known failure
    seed: Any = None
    seed_erratum: str | None = None
    check: Callable | None = None   # custom check(got_list, inputs) for random results

    def __post_init__(self):
        self.inputs = tuple(np.asarray(x) for x in self.inputs)
        self._expected = None

    def xfail_for(self, target: str) -> str | None:
        return self.xfail.get(target) if isinstance(self.xfail, dict) else self.xfail

    def expected(self) -> list:
        """The oracle's results, computed once (CPU and Vulkan share them)."""
        if self._expected is None:
            self._expected = _as_list(self.oracle(*self.inputs))
        return self._expected


def scalar_shape(dtype):
    return xla.Shape.array_shape(np.dtype(dtype), [])


def shape_of(x: np.ndarray):
    return xla.Shape.array_shape(x.dtype, list(x.shape))


def _as_list(results):
    return list(results) if isinstance(results, (list, tuple)) else [results]


class _Failed:
    def __init__(self, error: BaseException):
        self.error = error


class Suite:
    """The cases of one test file, built into one module per target, compiled and run once."""

    def __init__(self, name: str, cases: list[Case]):
        self.name = name
        self.cases = {c.name: c for c in cases}
        assert len(self.cases) == len(cases), "case names must be unique"
        self._results: dict[str, dict[str, Any]] = {}

    def _runs_on(self, case: Case, target: str):
        return getattr(case, target) is True

    def _build(self, cases: list[Case], name: str):
        b = xla.XlaBuilder(name)
        args, outs, spans, failed = [], [], {}, {}
        for case in cases:
            params = [xla.Parameter(b, len(args) + i, shape_of(x), f"{case.name}_{i}")
                      for i, x in enumerate(case.inputs)]
            args.extend(case.inputs)
            try:
                results = _as_list(case.build(b, *params))
            except Exception as e:  # noqa: BLE001 - the case's test re-raises it
                failed[case.name] = _Failed(e)
                continue
            spans[case.name] = (len(outs), len(results))
            outs.extend(results)
        computation = b.build(xla.Tuple(outs)) if outs else None
        return computation, args, spans, failed

    def _run(self, cases: list[Case], target: str):
        computation, args, spans, results = self._build(cases, f"{self.name}_{target}")
        if computation is None:
            return results
        exe = shlo.compile(computation.module, target=target)
        # copies: a CPU result is a view of IREE's mapped buffer, and these results live in
        # module globals until the interpreter exits, after IREE's bindings (nanobind then
        # reports every such buffer as leaked)
        got = [x.copy() if isinstance(x, np.ndarray) else x for x in _as_list(exe(*args))]
        for name, (start, count) in spans.items():
            results[name] = got[start:start + count]
        return results

    def _run_isolating(self, cases: list[Case], target: str) -> dict[str, Any]:
        """Run the cases in one module; if that fails, bisect so a broken case fails alone."""
        try:
            return self._run(cases, target)
        except Exception as e:  # noqa: BLE001 - the failing case's test re-raises it
            # the failed frames hold the executable, and so its device: drop their locals
            traceback.clear_frames(e.__traceback__)
            if len(cases) == 1:
                e.__suppress_context__ = True    # report the case's own failure only
                return {cases[0].name: _Failed(e)}
            half = len(cases) // 2
            return {**self._run_isolating(cases[:half], target),
                    **self._run_isolating(cases[half:], target)}

    def results(self, target: str, name: str) -> Any:
        """A case's results; cases expected to fail (xfail) are compiled in their own module."""
        case = self.cases[name]
        if case.xfail_for(target):
            key = f"{target}:{name}"
            if key not in self._results:
                self._results[key] = self._run_isolating([case], target)
            return self._results[key][name]
        if target not in self._results:
            cases = [c for c in self.cases.values()
                     if self._runs_on(c, target) and not c.xfail_for(target)]
            self._results[target] = self._run_isolating(cases, target)
        return self._results[target][name]

    def check(self, name: str, target: str):
        """The test body of a case: skip where it cannot run, else compare with the oracle."""
        case = self.cases[name]
        reason = getattr(case, target)
        if reason is not True:
            pytest.skip(f"{name} on {target}: {reason}")
        if target == "vulkan":
            vulkan_or_skip()
        got = self.results(target, name)
        if isinstance(got, _Failed):
            raise got.error
        compare(case, got)


def compare(case: Case, got: list):
    if case.check is not None:
        case.check(got, case.inputs)
        return
    want = case.expected()
    assert len(got) == len(want), f"{case.name}: {len(got)} results, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        where = f"{case.name} result {i}"
        assert g.shape == w.shape, f"{where}: shape {g.shape}, expected {w.shape}"
        assert g.dtype == w.dtype, f"{where}: dtype {g.dtype}, expected {w.dtype}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=where)
        else:
            np.testing.assert_allclose(g.astype(w.dtype), w, rtol=case.rtol, atol=case.atol,
                                       err_msg=where)


def seed_check(case: Case):
    """The seed's printed result agrees with the oracle (or is a documented erratum)."""
    want = case.expected()
    seed = _as_list(case.seed)
    agree = len(seed) == len(want) and all(
        np.asarray(s).shape == np.asarray(w).shape and np.allclose(np.asarray(s, w.dtype), w)
        for s, w in zip(seed, want))
    if case.seed_erratum:
        assert not agree, f"{case.name}: marked as a seed erratum but the seed agrees"
    else:
        assert agree, f"{case.name}: the seed's example result {seed} != oracle {want}"


def params(cases: list[Case]):
    """(case name, target) pairs for parametrize, with strict xfail marks where declared."""
    out = []
    for case in cases:
        for target in TARGETS:
            reason = case.xfail_for(target)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(case.name, target, marks=marks, id=f"{case.name}-{target}"))
    return out


def numeric_test(suite: Suite):
    """The test function of a suite file: one test per (case, target), strict xfails marked;
    every case in the quick tier too (one module per target holds them all)."""
    @pytest.mark.every_case
    @pytest.mark.parametrize("name,target", params(list(suite.cases.values())))
    def test(name, target):
        suite.check(name, target)
    return test


# Small builders of sub-computations shared by the suites.

def binary_computation(name: str, op, dtype=np.float32):
    """A scalar (T, T) -> T XlaComputation built by its own XlaBuilder."""
    b = xla.XlaBuilder(name)
    x = xla.Parameter(b, 0, scalar_shape(dtype), "x")
    y = xla.Parameter(b, 1, scalar_shape(dtype), "y")
    return b.build(op(x, y))


def build_error(shapes, make) -> shlo.Error:
    """The one-line shlo.Error that `make(builder, *params)` raises for parameters of `shapes`
    ((dtype, dims) pairs) on a fresh builder."""
    b = xla.XlaBuilder("bad")
    ps = [xla.Parameter(b, i, xla.Shape.array_shape(dtype, dims), f"p{i}")
          for i, (dtype, dims) in enumerate(shapes)]
    with pytest.raises(shlo.Error) as info:
        make(b, *ps)
    assert len(str(info.value).splitlines()) == 1, str(info.value)
    return info.value


def rng(seed: int = 0):
    return np.random.default_rng(seed)
