"""shlo-split-complex-constants: complex<f64> constants that IREE 3.13 must materialize (a
splat failed to compile, a non-splat one killed the compiler with SIGFPE) as stablehlo.complex
of two f64 constants. The constants' own bits are the oracle."""
import jax
import jax.numpy as jnp
import numpy as np

import shlo

TEXT = """
func.func @main(%a: tensor<complex<f64>>) -> (tensor<complex<f64>>, tensor<3xcomplex<f64>>,
                                               tensor<2x2xcomplex<f64>>, tensor<complex<f64>>) {
  %s = stablehlo.constant dense<(0x7FF8000000000001, -0.1)> : tensor<complex<f64>>
  %w = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0), (5.0, 0xFFF0000000000000)]> : tensor<3xcomplex<f64>>
  %z = stablehlo.constant dense<(0.0, -0.0)> : tensor<2x2xcomplex<f64>>
  return %s, %w, %z, %a : tensor<complex<f64>>, tensor<3xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<complex<f64>>
}"""


def test_returned_constants_keep_every_bit(ctx):
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu", cache=False)
    s, w, z, a = (np.asarray(r) for r in exe(np.complex128(3 + 4j)))
    np.testing.assert_array_equal(s.reshape(1).view(np.uint64),
                                  [0x7FF8000000000001, np.float64(-0.1).view(np.uint64)])
    np.testing.assert_array_equal(w, [1 + 2j, 3 + 4j, complex(5, -np.inf)])
    np.testing.assert_array_equal(z.view(np.uint64).reshape(4, 2), [[0, 1 << 63]] * 4)
    assert a == 3 + 4j


def test_jax_complex128_constants_and_loops_compile(ctx):
    """A large constant (printed as hex bytes), a splat, and jax's complex128 cholesky, whose
    loop starts from a complex<f64> zero matrix."""
    big = (np.arange(200) + 1j * np.arange(200)[::-1] / 7).astype(np.complex128)
    spd = np.array([[4, 1 - 1j, 0], [1 + 1j, 3, 0.5j], [0, -0.5j, 2]], np.complex128)
    fn = jax.jit(lambda x: (jnp.asarray(big) * x, jnp.full((5,), 1 + 2j, jnp.complex128),
                            jnp.linalg.cholesky(spd * x)))
    with jax.enable_x64(True):
        text = fn.lower(np.float64(1.0)).as_text()
        want = [np.asarray(r) for r in fn(np.float64(1.0))]
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(np.float64(1.0))
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12, atol=1e-12)


def test_complex64_zeros_updated_at_a_traced_index(ctx):
    """`dynamic_update_slice(zeros(c64), x, i)` failed to compile on the CPU ('arith.constant'
    op attribute 'value' failed to satisfy constraint), also without shlo's passes: the
    broadcast zero is split by parts; a non-splat destination, a scatter and a loop's initial
    value compiled already and stay. jax's own results are the oracle (bit-exact)."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(256) + 1j * rng.standard_normal(256)).astype(np.complex64)
    dense = (np.arange(4096 * 256).reshape(4096, 256) * (1 - 2j)).astype(np.complex64)
    cases = [
        lambda x, i: jax.lax.dynamic_update_slice(jnp.zeros((4096, 256), jnp.complex64),
                                                  x[None], (i, 0)),
        lambda x, i: jnp.full((4096, 256), 1 - 1j, jnp.complex64).at[i].set(x),
        lambda x, i: jax.lax.dynamic_update_slice(jnp.asarray(dense), x[None], (i, 0)),
        lambda x, i: jax.lax.fori_loop(0, 3, lambda k, c: c.at[i + k].set(x * k),
                                       jnp.zeros((64, 256), jnp.complex64)),
    ]
    for fn in cases:
        text = jax.jit(fn).lower(x, np.int32(0)).as_text()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)
        for i in (0, 7, 4095):
            np.testing.assert_array_equal(np.asarray(exe(x, np.int32(i))),
                                          np.asarray(jax.jit(fn)(x, np.int32(i))))
