"""JAX's linear algebra as lowered for the CPU: LAPACK custom calls (potrf, trsm, getrf, geqrf,
orgqr) decomposed by shlo.passes.lapack_calls, in modules whose custom calls carry Shardy
attributes (shlo.shardy drops them). jax.jit on the CPU is the oracle; CPU and Vulkan."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

RNG = np.random.default_rng(0)
_M = RNG.standard_normal((5, 5)).astype(np.float32)
SPD = _M @ _M.T + 5 * np.eye(5, dtype=np.float32)
B = RNG.standard_normal((5, 3)).astype(np.float32)

CASES = {
    "cholesky": (jnp.linalg.cholesky, [SPD]),
    "cholesky_batched": (jnp.linalg.cholesky, [np.stack([SPD, 2 * SPD])]),
    "cholesky_not_positive_definite": (jnp.linalg.cholesky, [-SPD]),      # NaNs, as jax
    "solve_lower": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
                    [np.tril(SPD), B]),
    "solve_upper_transposed": (lambda a, b: jax.scipy.linalg.solve_triangular(
        a, b, lower=False, trans=1), [np.triu(SPD), B]),
    "solve_unit_diagonal": (lambda a, b: jax.scipy.linalg.solve_triangular(
        a, b, lower=True, unit_diagonal=True), [np.tril(SPD), B]),
    "cho_solve": (lambda a, b: jax.scipy.linalg.cho_solve(
        jax.scipy.linalg.cho_factor(a, lower=True), b), [SPD, B]),
    "solve": (jnp.linalg.solve, [_M, B]),
    "inv": (jnp.linalg.inv, [_M]),
    "det": (jnp.linalg.det, [_M]),
    "det_singular": (jnp.linalg.det, [_M * (np.arange(5) != 2)]),          # a zero column
    "lu_permutation": (lambda a: jax.scipy.linalg.lu(a)[0], [_M]),
    "lu_factor_batched": (lambda a: jax.scipy.linalg.lu_factor(a)[0], [np.stack([_M, 2 * _M.T])]),
    "lu_pivots": (lambda a: jax.scipy.linalg.lu_factor(a)[1], [_M]),
    "lu_tall": (lambda a: jax.scipy.linalg.lu_factor(a)[0],
                [RNG.standard_normal((6, 4)).astype(np.float32)]),
    "lu_wide": (lambda a: jax.scipy.linalg.lu_factor(a)[0],
                [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "qr_q": (lambda a: jnp.linalg.qr(a)[0], [RNG.standard_normal((6, 3)).astype(np.float32)]),
    "qr_r": (lambda a: jnp.linalg.qr(a)[1], [RNG.standard_normal((6, 3)).astype(np.float32)]),
    "qr_wide_r": (lambda a: jnp.linalg.qr(a)[1], [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "qr_complete_batched": (lambda a: jnp.linalg.qr(a, mode="complete")[0],
                            [RNG.standard_normal((2, 5, 3)).astype(np.float32)]),
    "qr_zero_column": (lambda a: jnp.linalg.qr(a)[1], [_M * (np.arange(5) != 1)]),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", list(CASES))
def test_jax_linalg_lowered_for_the_cpu(ctx, target, name):
    if target == "vulkan":
        vulkan_or_skip()
    fn, args = CASES[name]
    text = jax.jit(fn).lower(*args).as_text()
    assert "lapack_" in text and "sdy." in text           # what this test is about
    got = np.asarray(shlo.compile(shlo.parse_module(text, context=ctx), target=target)(*args))
    np.testing.assert_allclose(got, np.asarray(jax.jit(fn)(*args)), rtol=1e-4, atol=1e-4)


def test_other_lapack_calls_stay_a_clear_error(ctx):
    text = jax.jit(jnp.linalg.eigh).lower(SPD).as_text()
    with pytest.raises(shlo.Error, match="no decomposition for target 'lapack_ssyevd_ffi'"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)


SHARDED = """
module {
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2]>}> : () -> ()
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = "sdy.sharding_constraint"(%a) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.add %0, %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}"""


def test_shardy_annotations_are_dropped(ctx):
    module = shlo.parse_module(SHARDED, context=ctx)
    assert "sdy" not in str(module)
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(shlo.compile(module, target="cpu", cache=False)(x), 2 * x)


def test_per_device_and_custom_form_shardy_ops_are_parse_errors(ctx):
    manual = SHARDED.replace('"sdy.sharding_constraint"', '"sdy.manual_computation"')
    with pytest.raises(shlo.ParseError, match="sdy.manual_computation.*single-device"):
        shlo.parse_module(manual, context=ctx)
    custom = SHARDED.replace('"sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2]>}> '
                             ': () -> ()', 'sdy.mesh @mesh = <["x"=2]>')
    with pytest.raises(shlo.ParseError, match="sdy.mesh.*single-device programs") as info:
        shlo.parse_module(custom, context=ctx)
    assert "\n" not in str(info.value)                    # one line
