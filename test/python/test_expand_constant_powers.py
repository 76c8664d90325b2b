"""shlo-expand-constant-powers on CPU: f32 x ** c for constant integer and half-integer c
through the cpu pipeline, against numpy's f64 pow rounded once (correctly rounded: every
normal result bit-equal), and C's special values (as XLA's pow gives them)."""
import math

import numpy as np
import pytest

import shlo

EXPONENTS = (-8.0, -3.0, -1.5, -1.0, -0.5, 0.5, 1.5, 2.5, 3.0, 7.5)
N = 1 << 16
TINY = np.float32(1.17549435e-38)


def _module(n: int) -> str:
    body, results = [], []
    for i, c in enumerate(EXPONENTS):
        body.append(f"%c{i} = stablehlo.constant dense<{c}> : tensor<f32>\n"
                    f"%b{i} = stablehlo.broadcast_in_dim %c{i}, dims = [] : "
                    f"(tensor<f32>) -> tensor<{n}xf32>\n"
                    f"%p{i} = stablehlo.power %x, %b{i} : tensor<{n}xf32>")
        results.append(f"%p{i}")
    types = ", ".join([f"tensor<{n}xf32>"] * len(EXPONENTS))
    return (f"func.func @main(%x: tensor<{n}xf32>) -> ({types}) {{\n" + "\n".join(body)
            + f"\nreturn {', '.join(results)} : {types}\n}}")


@pytest.fixture(scope="module")
def powers():
    return shlo.compile(_module(N), target="cpu")


def test_correctly_rounded(powers):
    rng = np.random.default_rng(3)
    q = N // 4
    x = np.concatenate([rng.uniform(0, 4, q), np.exp(rng.uniform(-87, 88, q)),
                        -np.exp(rng.uniform(-87, 88, q)), rng.standard_normal(q) * 10])
    x = x.astype(np.float32)
    for c, got in zip(EXPONENTS, powers(x)):
        with np.errstate(all="ignore"):
            want = np.power(x.astype(np.float64), c).astype(np.float32)
        normal = ~((np.abs(want) < TINY) & (want != 0))      # the CPU flushes subnormals
        np.testing.assert_array_equal(got[normal], want[normal], err_msg=f"x ** {c}")


def test_special_values(powers):
    x = np.zeros(N, np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, -4.0], np.float32)
    x[:special.size] = special
    for c, got in zip(EXPONENTS, powers(x)):
        for value, result in zip(special, got[:special.size]):
            want = np.float32(math.pow(value, c)) if not (value < 0 and c != int(c)) and not (
                value == 0 and c < 0) and not math.isinf(value) and not math.isnan(value) \
                else None
            if value == 0 and c < 0:    # C: +inf, or -inf for -0 and an odd integer
                want = np.float32(-np.inf if (math.copysign(1, value) < 0 and c == int(c)
                                              and int(c) % 2) else np.inf)
            elif math.isnan(value) or (value < 0 and not math.isinf(value) and c != int(c)):
                want = np.float32(np.nan)
            elif math.isinf(value):
                sign = -1 if value < 0 and c == int(c) and int(c) % 2 else 1
                want = np.float32(sign * (np.inf if c > 0 else 0.0))
            np.testing.assert_array_equal(np.array([result]), np.array([want]),
                                          err_msg=f"{value} ** {c}")
            assert np.signbit(result) == np.signbit(want) or np.isnan(want), f"{value} ** {c}"


def test_cpu_pipeline_has_no_f64_pow(ctx):
    from shlo.passes.pipeline import run_pipeline
    from shlo.pipelines import default_pipeline
    from shlo.pipelines.targets import get_target
    module = shlo.parse_module(_module(8), context=ctx)
    run_pipeline(module.operation, default_pipeline(get_target("cpu").passes))
    text = str(module)
    assert "stablehlo.power" not in text and "stablehlo.log" not in text
    assert "stablehlo.sqrt" in text
