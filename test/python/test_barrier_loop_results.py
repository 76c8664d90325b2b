"""shlo-barrier-loop-results: jax's gammainc and betainc in one f64 program stopped IREE 3.13
twice (a loop's condition-only flag dropped between its regions, then a circular dependency in
stream scheduling); with the loops' results behind a barrier it compiles. scipy and XLA are
the oracles."""
import jax
import numpy as np
import scipy.special
from jax import lax

import shlo
from conftest import vulkan_or_skip


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


def test_vulkan_loop_updating_a_buffer_read_after_it_compiles_through_the_retry(ctx):
    """IREE's stream partitioning failed on this program for Vulkan ("circular dependency:
    input operation uses partition output"), as it does on CPU, where shlo already compiled
    it again with barriers after its loops; Vulkan now takes the same retry."""
    vulkan_or_skip()

    def program(a, u):
        b = a * 2.0
        return lax.fori_loop(0, 3, lambda k, x: lax.dynamic_update_slice(x, u, (k * 3,)), b) + b
    rng = np.random.default_rng(2)
    a, u = rng.standard_normal(64).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    fn = jax.jit(program)
    got = shlo.compile(shlo.parse_module(fn.lower(a, u).as_text(), context=ctx),
                       target="vulkan")(a, u)
    np.testing.assert_allclose(got, np.asarray(fn(a, u)), rtol=1e-6)
