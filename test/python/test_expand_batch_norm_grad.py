"""shlo-expand-batch-norm-grad against numpy's transcription of the spec's formula (in float64)
for several shapes and feature_index values, f32, f64, f16 and bf16, on CPU and on Vulkan, and
against the numerical gradient of batch normalization (f32/f64), an oracle independent of the
formula.
The reference interpreter does not implement batch_norm_grad (it aborts: "unsupported at the
moment"), so it cannot serve. One module for the file.
"""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
          "bf16": ml_dtypes.bfloat16}
# (element type, operand shape, feature_index, epsilon)
CASES = [
    ("f32", (2, 3, 4), 1, 1e-3),
    ("f32", (5, 3), 0, 1e-5),
    ("f32", (4, 2, 3, 5), 3, 1e-3),
    ("f32", (2, 2, 2), 2, 0.0),          # the spec's example shapes
    ("f32", (7,), 0, 0.5),
    ("f64", (2, 3, 4), 1, 1e-3),
    ("f64", (3, 6, 2), 0, 1e-2),
    ("f64", (4, 2, 3, 5), 2, 1e-3),
    ("f16", (4, 3, 2), 1, 1e-3),
    ("bf16", (3, 4), 1, 1e-3),
]
TOLERANCE = {"f32": 1e-5, "f64": 1e-12, "f16": 4e-3, "bf16": 3e-2}


def _tensor(shape, t):
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{t}>"


def _function(i, case):
    t, shape, feature, eps = case
    x, f = _tensor(shape, t), _tensor((shape[feature],), t)
    return (f"func.func @bn{i}(%x: {x}, %scale: {f}, %mean: {f}, %var: {f}, %dy: {x})"
            f" -> ({x}, {f}, {f}) {{\n"
            f"  %0:3 = \"stablehlo.batch_norm_grad\"(%x, %scale, %mean, %var, %dy) "
            f"{{epsilon = {eps:e} : f32, feature_index = {feature} : i64}} : "
            f"({x}, {f}, {f}, {f}, {x}) -> ({x}, {f}, {f})\n"
            f"  return %0#0, %0#1, %0#2 : {x}, {f}, {f}\n}}")


TEXT = "\n".join(_function(i, c) for i, c in enumerate(CASES))


def _inputs(i, case):
    t, shape, feature, _ = case
    rng = np.random.default_rng(i)
    dtype = DTYPES[t]
    axes = tuple(d for d in range(len(shape)) if d != feature)
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    scale = rng.standard_normal(shape[feature]).astype(dtype)
    # half the features at their batch statistics, the others at arbitrary ones
    mean = np.where(np.arange(shape[feature]) % 2 == 0,
                    x.astype(np.float64).mean(axes), rng.standard_normal(shape[feature]))
    var = np.where(np.arange(shape[feature]) % 2 == 0,
                   x.astype(np.float64).var(axes), rng.uniform(0.5, 2.0, shape[feature]))
    dy = rng.standard_normal(shape).astype(dtype)
    return [x, scale, mean.astype(dtype), var.astype(dtype), dy]


def _spec_formula(x, scale, mean, var, dy, feature, eps, dtype):
    """The spec's batch_norm_grad decomposition, transcribed to numpy in float64 (epsilon
    first rounded to the element type, as constant(epsilon, element_type(operand)) does)."""
    x, scale, mean, var, dy = (np.asarray(a, np.float64) for a in (x, scale, mean, var, dy))
    eps = float(np.asarray(eps, np.float32).astype(dtype))
    axes = tuple(d for d in range(x.ndim) if d != feature)
    shape = [1] * x.ndim
    shape[feature] = -1
    scale_b, mean_b, var_b = (a.reshape(shape) for a in (scale, mean, var))
    centered = x - mean_b
    stddev = np.sqrt(var_b + eps)
    normalized = centered / stddev
    n = x.size / x.shape[feature]
    i1 = dy * n
    i2 = dy.sum(axes, keepdims=True)
    i3 = (dy * centered).sum(axes, keepdims=True)
    i5 = i3 * centered / (var_b + eps)
    grad_operand = scale_b / stddev / n * (i1 - i2 - i5)
    return [grad_operand, (dy * normalized).sum(axes), dy.sum(axes)]


def _check(exe, i):
    case = CASES[i]
    t, shape, feature, eps = case
    args = _inputs(i, case)
    got = exe.function(f"bn{i}")(*args)
    want = _spec_formula(*args, feature, eps, DTYPES[t])
    for name, g, w in zip(("grad_operand", "grad_scale", "grad_offset"), got, want):
        assert np.asarray(g).dtype == DTYPES[t]
        # the sums cancel: compare against the size of the result, not each element
        tol = TOLERANCE[t] * max(1.0, float(np.abs(w).max()))
        np.testing.assert_allclose(np.asarray(g, np.float64), w, rtol=TOLERANCE[t], atol=tol,
                                   err_msg=f"{name} of {case}")


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


@pytest.mark.parametrize("i", range(len(CASES)),
                         ids=[f"{t}-{'x'.join(map(str, s))}-f{f}" for t, s, f, _ in CASES])
@pytest.mark.every_case
def test_batch_norm_grad_matches_the_spec_formula(cpu, i):
    _check(cpu, i)


@pytest.mark.slow
def test_vulkan_matches_the_spec_formula(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for i in range(len(CASES)):
        _check(exe, i)


def _batch_norm_gradients(x, scale, dy, feature, eps):
    """The gradient of <dy, batch_norm_training(x, scale)> (normalize by the batch mean and
    biased variance, then scale) with respect to x and scale, by central differences in
    float64: what batch_norm_grad computes when mean and variance are the batch statistics."""
    axes = tuple(d for d in range(x.ndim) if d != feature)
    shape = [1] * x.ndim
    shape[feature] = -1

    def objective(x, scale):
        mean = x.mean(axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axes, keepdims=True)
        return float((dy * scale.reshape(shape) * (x - mean) / np.sqrt(var + eps)).sum())

    def derivative(f, v):
        h = 1e-6
        out = np.empty(v.size)
        for j in range(v.size):
            step = np.zeros(v.size)
            step[j] = h
            step = step.reshape(v.shape)
            out[j] = (f(v + step) - f(v - step)) / (2 * h)
        return out.reshape(v.shape)

    return [derivative(lambda v: objective(v, scale), x),
            derivative(lambda v: objective(x, v), scale)]


def test_gradient_of_batch_norm_training_agrees(cpu):
    """An oracle independent of the spec's formula: with mean and variance at the batch
    statistics, grad_operand and grad_scale are the gradient of the forward normalization
    (the reference interpreter does not implement batch_norm_grad)."""
    for i, case in enumerate(CASES):
        t, shape, feature, eps = case
        if t not in ("f32", "f64"):
            continue
        x, scale, _, _, dy = _inputs(i, case)
        axes = tuple(d for d in range(len(shape)) if d != feature)
        x64 = x.astype(np.float64)
        mean, var = x64.mean(axes).astype(x.dtype), x64.var(axes).astype(x.dtype)
        eps_t = float(np.asarray(eps, np.float32).astype(x.dtype))
        want = _batch_norm_gradients(x64, scale.astype(np.float64), dy.astype(np.float64),
                                     feature, eps_t)
        got = cpu.function(f"bn{i}")(x, scale, mean, var, dy)
        # f32 statistics are rounded: allow their rounding's effect
        tol = {"f32": 1e-4, "f64": 1e-7}[t]
        for g, w in zip(got[:2], want):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1.0, np.abs(w).max()),
                                       err_msg=f"{case}")


def test_a_dynamic_operand_is_a_clear_error(ctx):
    text = ("func.func @main(%x: tensor<?x3xf32>, %s: tensor<3xf32>, %dy: tensor<?x3xf32>)"
            " -> tensor<?x3xf32> {\n"
            "  %0:3 = \"stablehlo.batch_norm_grad\"(%x, %s, %s, %s, %dy) {epsilon = 1.0e-3 : f32,"
            " feature_index = 1 : i64} : (tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>,"
            " tensor<3xf32>, tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>)\n"
            "  return %0#0 : tensor<?x3xf32>\n}")
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(text, context=ctx)
    with pytest.raises(shlo.Error, match=r"batch_norm_grad needs a static operand shape"):
        run_pipeline(module, "builtin.module(func.func(shlo-expand-batch-norm-grad))")
