"""shlo-barrier-loop-results: jax's gammainc and betainc in one f64 program stopped IREE 3.13
twice (a loop's condition-only flag dropped between its regions, then a circular dependency in
stream scheduling); with the loops' results behind a barrier it compiles. scipy is the oracle."""
import jax
import numpy as np
import scipy.special

import shlo


def test_gammainc_and_betainc_in_one_f64_program(ctx):
    a = np.linspace(0.5, 5.0, 20)
    x = np.linspace(0.1, 4.0, 20)
    b = np.linspace(0.7, 3.0, 20)

    def fn(a, x, b):
        return (jax.scipy.special.gammainc(a, x),
                jax.scipy.special.betainc(a, b, x / (1 + x)))

    with jax.enable_x64(True):
        text = jax.jit(fn).lower(a, x, b).as_text()
    got_gamma, got_beta = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(a, x, b)
    np.testing.assert_allclose(got_gamma, scipy.special.gammainc(a, x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got_beta, scipy.special.betainc(a, b, x / (1 + x)), rtol=1e-12,
                               atol=1e-14)
