"""shlo-expand-linalg against numpy: triangular_solve in every combination of left_side,
lower, unit_diagonal and transpose_a (batched, f32/f64/complex<f32>), and cholesky (lower and
upper, batched, real and complex), on CPU and on Vulkan. The triangle the op must not read is
filled with garbage, so a solve that reads it fails. One module for the file.
"""
import itertools

import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

DTYPES = {"f32": np.float32, "f64": np.float64, "complex<f32>": np.complex64}
TRANSPOSES = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")
SOLVES = [(t, left, lower, unit, tr)
          for t in DTYPES for left, lower, unit, tr in
          itertools.product((True, False), (True, False), (True, False), TRANSPOSES)
          if t != "f32" or tr != "ADJOINT"]
CHOLESKY = [(t, lower) for t in ("f32", "f64", "complex<f32>") for lower in (True, False)]
BATCH, M, N = (2,), 4, 3


def _random(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _solve_inputs(rng, case):
    t, left, lower, unit, tr = case
    dtype = DTYPES[t]
    a = _random(rng, BATCH + (M, M), dtype)
    a = a + np.eye(M, dtype=dtype) * 4           # well conditioned
    b = _random(rng, BATCH + ((M, N) if left else (N, M)), dtype)
    return a, b


def _solve_oracle(a, b, case):
    """numpy on the triangle the op reads, in float64/complex128."""
    _, left, lower, unit, tr = case
    a = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    tri = np.tril(a) if lower else np.triu(a)
    if unit:
        tri[..., np.arange(M), np.arange(M)] = 1
    op = {"NO_TRANSPOSE": tri, "TRANSPOSE": np.swapaxes(tri, -1, -2),
          "ADJOINT": np.conj(np.swapaxes(tri, -1, -2))}[tr]
    if left:
        return np.linalg.solve(op, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def _spd(rng, t):
    dtype = DTYPES[t]
    x = _random(rng, BATCH + (M, M), dtype)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + np.eye(M) * M).astype(dtype)


def _shape(shape, t):
    return "tensor<" + "x".join(map(str, shape)) + f"x{t}>"


def _solve_function(i, case, batch=BATCH):
    t, left, lower, unit, tr = case
    at = _shape(batch + (M, M), t)
    bt = _shape(batch + ((M, N) if left else (N, M)), t)
    attrs = (f"left_side = {str(left).lower()}, lower = {str(lower).lower()}, "
             f"unit_diagonal = {str(unit).lower()}, transpose_a = #stablehlo<transpose {tr}>")
    return (f"func.func @s{i}(%a: {at}, %b: {bt}) -> {bt} {{\n"
            f"  %0 = \"stablehlo.triangular_solve\"(%a, %b) {{{attrs}}} : ({at}, {bt}) -> {bt}\n"
            f"  return %0 : {bt}\n}}")


def _cholesky_function(i, case):
    t, lower = case
    at = _shape(BATCH + (M, M), t)
    return (f"func.func @c{i}(%a: {at}) -> {at} {{\n"
            f"  %0 = \"stablehlo.cholesky\"(%a) {{lower = {str(lower).lower()}}} : ({at}) -> {at}\n"
            f"  return %0 : {at}\n}}")


TEXT = "\n".join([_solve_function(i, c) for i, c in enumerate(SOLVES)]
                 + [_cholesky_function(i, c) for i, c in enumerate(CHOLESKY)])


def _tolerance(t):
    return 1e-4 if t in ("f32", "complex<f32>") else 1e-11


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


def _check_solve(exe, i):
    case = SOLVES[i]
    rng = np.random.default_rng(i)
    a, b = _solve_inputs(rng, case)
    want = _solve_oracle(a, b, case)
    garbage = _random(rng, a.shape, a.dtype) * 1e3      # the triangle the op must not read
    keep = np.tril(np.ones((M, M), bool)) if case[2] else np.triu(np.ones((M, M), bool))
    if case[3]:
        keep &= ~np.eye(M, dtype=bool)
    a = np.where(keep, a, garbage)
    got = exe.function(f"s{i}")(a, b)
    np.testing.assert_allclose(got, want, rtol=_tolerance(case[0]), atol=_tolerance(case[0]),
                               err_msg=f"triangular_solve {case}")


def _check_cholesky(exe, i):
    t, lower = CHOLESKY[i]
    a = _spd(np.random.default_rng(100 + i), t)
    want = np.linalg.cholesky(a.astype(np.complex128 if t.startswith("complex") else np.float64))
    if not lower:
        want = np.conj(np.swapaxes(want, -1, -2))
    got = exe.function(f"c{i}")(a)
    np.testing.assert_allclose(got, want, rtol=_tolerance(t), atol=_tolerance(t),
                               err_msg=f"cholesky {t} lower={lower}")


@pytest.mark.parametrize("i", range(len(SOLVES)), ids=[
    f"{t}-{'left' if l else 'right'}-{'lower' if lo else 'upper'}-{'unit' if u else 'diag'}-{tr}"
    for t, l, lo, u, tr in SOLVES])
@pytest.mark.slow
def test_triangular_solve_against_numpy(cpu, i):
    _check_solve(cpu, i)


@pytest.mark.parametrize("i", range(len(CHOLESKY)),
                         ids=[f"{t}-{'lower' if lo else 'upper'}" for t, lo in CHOLESKY])
@pytest.mark.every_case
def test_cholesky_against_numpy(cpu, i):
    _check_cholesky(cpu, i)


@pytest.mark.slow
def test_vulkan_against_numpy(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for i in range(len(SOLVES)):
        _check_solve(exe, i)
    for i in range(len(CHOLESKY)):
        _check_cholesky(exe, i)


def test_the_reference_interpreter_agrees(cpu):
    """The spec's own semantics (jaxlib's interpreter) on the f64 combinations, on the first
    matrix of each batch; the interpreter crashes on ADJOINT of a real matrix (the same as
    TRANSPOSE) and on batched solves."""
    pytest.importorskip("jaxlib")
    from reference_oracle import evaluate
    for i, case in enumerate(SOLVES):
        if case[0] != "f64" or case[4] == "ADJOINT":
            continue
        a, b = _solve_inputs(np.random.default_rng(i), case)
        (want,) = evaluate(_solve_function(i, case, batch=()), [a[0], b[0]])
        np.testing.assert_allclose(cpu.function(f"s{i}")(a, b)[0], want, rtol=1e-11,
                                   atol=1e-11, err_msg=f"triangular_solve {case}")
