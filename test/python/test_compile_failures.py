"""Updates of buffers computed from control flow (shlo-copy-overlapping-updates), at 128K-196K
elements, on cpu and vulkan, against numpy: IREE 3.13 failed to compile a computed value
written into a pad, dynamic_update_slice or concatenate whose other operand came from a while
("operand #1 does not dominate this use";
docs/iree_gaps.md#fence-control-flow-updates-updates-of-values-after-control-flow)."""
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo

N = 65536
REGRESSIONS = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")

# d: column sums of y (a dispatch IREE does not fuse into the update), computed before c, which
# a while loop of k trips halves; b is the loop result's first element, e = b + iota
HEAD = f"""
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %d0 = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<4x{N}xf32>, tensor<f32>) -> tensor<{N}xf32>
  %d = stablehlo.reshape %d0 : (tensor<{N}xf32>) -> tensor<1x{N}xf32>
  %c = stablehlo.add %x, %x : tensor<1x{N}xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:3 = stablehlo.while(%i = %i0, %n = %k, %v = %c) : tensor<i32>, tensor<i32>, tensor<1x{N}xf32>
  cond {{
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }} do {{
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %h = stablehlo.constant dense<0.5> : tensor<1x{N}xf32>
    %v1 = stablehlo.multiply %v, %h : tensor<1x{N}xf32>
    stablehlo.return %i1, %n, %v1 : tensor<i32>, tensor<i32>, tensor<1x{N}xf32>
  }}
  %t = stablehlo.slice %w#2 [0:1, 0:1] : (tensor<1x{N}xf32>) -> tensor<1x1xf32>
  %b = stablehlo.reshape %t : (tensor<1x1xf32>) -> tensor<f32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<2x{N}xf32>
  %io = stablehlo.iota dim = 1 : tensor<2x{N}xf32>
  %e = stablehlo.add %bb, %io : tensor<2x{N}xf32>"""

ARGS = f"%x: tensor<1x{N}xf32>, %y: tensor<4x{N}xf32>, %k: tensor<i32>"

PROGRAMS = {
    # pad(d, b): the padding value's splat is the destination
    "pad": f"""func.func @main({ARGS}) -> tensor<3x{N}xf32> {{{HEAD}
  %r = stablehlo.pad %d, %b, low = [1, 0], high = [1, 0], interior = [0, 0]
    : (tensor<1x{N}xf32>, tensor<f32>) -> tensor<3x{N}xf32>
  return %r : tensor<3x{N}xf32>
}}""",
    # dynamic_update_slice(e, d, 1, 0)
    "dynamic_update_slice": f"""func.func @main({ARGS}) -> tensor<2x{N}xf32> {{{HEAD}
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %e, %d, %one, %zero
    : (tensor<2x{N}xf32>, tensor<1x{N}xf32>, tensor<i32>, tensor<i32>) -> tensor<2x{N}xf32>
  return %r : tensor<2x{N}xf32>
}}""",
    # concatenate(e, d)
    "concatenate": f"""func.func @main({ARGS}) -> tensor<3x{N}xf32> {{{HEAD}
  %r = stablehlo.concatenate %e, %d, dim = 0
    : (tensor<2x{N}xf32>, tensor<1x{N}xf32>) -> tensor<3x{N}xf32>
  return %r : tensor<3x{N}xf32>
}}""",
}


def _expected(kind, x, y, k):
    d = y.sum(axis=0, keepdims=True)
    b = np.float32(2 * x[0, 0] * 0.5 ** k)
    e = b + np.arange(N, dtype=np.float32)[None, :].repeat(2, axis=0)
    edge = np.full((1, N), b, np.float32)
    if kind == "pad":
        return np.concatenate([edge, d, edge])
    if kind == "dynamic_update_slice":
        return np.concatenate([e[:1], d])
    return np.concatenate([e, d])


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("kind", sorted(PROGRAMS))
def test_update_of_a_value_after_control_flow(kind, target):
    """Right on each call, for 3, 0 (the loop's operand), 5 and 1 trips (on vulkan the calls
    after the first rely on the target compiling without memoized command buffers)."""
    _target(target)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, N)).astype(np.float32)
    y = rng.integers(-8, 8, (4, N)).astype(np.float32)
    exe = shlo.compile(PROGRAMS[kind], target=target, cache=False)
    for k in (3, 0, 5, 1):
        got = np.asarray(exe(x, y, np.array(k, np.int32)))
        np.testing.assert_array_equal(got, _expected(kind, x, y, k), err_msg=f"{k} trips")


def test_pad_by_a_loop_value_on_later_calls():
    """A pad of y[0:1] by the first element of a while loop's result (read through
    shlo-barrier-loop-results' optimization_barrier) padded with the first call's value on
    every later call on vulkan (131072 of 196608 wrong), also without shlo's passes: IREE's
    memoized command buffer recorded the fill once; the vulkan target compiles without
    memoization (pipelines.targets, NO_MEMOIZATION)."""
    _target("vulkan")
    text = PROGRAMS["pad"].replace("%r = stablehlo.pad %d, %b,", f"""%s = stablehlo.slice %y [0:1, 0:{N}] : (tensor<4x{N}xf32>) -> tensor<1x{N}xf32>
  %r = stablehlo.pad %s, %b,""")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, N)).astype(np.float32)
    y = rng.integers(-8, 8, (4, N)).astype(np.float32)
    exe = shlo.compile(text, target="vulkan", cache=False)
    for k in (3, 0, 5, 1):
        b = np.float32(2 * x[0, 0] * 0.5 ** k)
        edge = np.full((1, N), b, np.float32)
        got = np.asarray(exe(x, y, np.array(k, np.int32)))
        np.testing.assert_array_equal(got, np.concatenate([edge, y[:1], edge]),
                                      err_msg=f"{k} trips")


def cond_then_concatenate(x, y, p, i):
    """The cond's result first, a convert computed before it second."""
    z = i.astype(jnp.float32)
    u = x + y
    r = jax.lax.cond(p, lambda: u + x, lambda: u * x)
    return jnp.concatenate([r, z])


def computed_from_the_cond(x, y, p, i):
    """A sine of the cond's result, with a convert and an argument."""
    z = i.astype(jnp.float32)
    u = x + y
    r = jax.lax.cond(p, lambda: u + x, lambda: u * x)
    return jnp.concatenate([jnp.sin(r), z, x])


def read_before_the_cond(x, y, p, i):
    """The convert is read before the cond too."""
    z = i.astype(jnp.float32)
    u = x + z
    r = jax.lax.cond(p, lambda: u + y, lambda: u * y)
    return jnp.concatenate([r, z])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_concatenates_of_a_cond_match_xla(target):
    """jax programs that concatenate a `lax.cond`'s result (or a value computed from it) with
    a convert computed before the cond (fuzz seed 98 program 746): IREE 3.13 failed to compile
    them on cpu and vulkan ('operand #0 does not dominate this use'; the convert of an argument
    was taken for a view of it, and a value read twice went unfenced). Both branches, 65536
    elements, against XLA."""
    _target(target)
    rng = np.random.default_rng(746)
    x, y = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    i = rng.integers(-1000, 1000, N).astype(np.int32)
    for f in (cond_then_concatenate, computed_from_the_cond, read_before_the_cond):
        exe = shlo.compile(jax.jit(f).lower(x, y, np.bool_(True), i).as_text(), target=target)
        for p in (True, False):
            args = (x, y, np.bool_(p), i)
            np.testing.assert_allclose(np.asarray(exe(*args)), np.asarray(jax.jit(f)(*args)),
                                       rtol=2e-6, atol=0, err_msg=f"{f.__name__} p={p}")


SELECT_AND_SCATTER = """func.func @main(%x: tensor<{n}xf32>, %s: tensor<{m}xf32>) -> tensor<{n}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %z) <{{window_dimensions = array<i64: 2>,
      window_strides = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>}}> ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }}, {{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }}) : (tensor<{n}xf32>, tensor<{m}xf32>, tensor<f32>) -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("n", [65537])
def test_select_and_scatter_of_pairs(n, target):
    """A select_and_scatter of windows of 2 (stride 1) over f32[n] (its expansion slices
    iota[1:n], which vulkan failed to compile read at that offset: vk-sliced-iota), against
    numpy."""
    _target(target)
    rng = np.random.default_rng(1)
    x = rng.integers(0, 50, n).astype(np.float32)       # ties: GE selects the first
    s = rng.standard_normal(n - 1).astype(np.float32)
    exe = shlo.compile(SELECT_AND_SCATTER.format(n=n, m=n - 1), target=target, cache=False)
    chosen = np.where(x[:-1] >= x[1:], np.arange(n - 1), np.arange(1, n))
    want = np.zeros(n, np.float64)
    np.add.at(want, chosen, s.astype(np.float64))
    np.testing.assert_allclose(np.asarray(exe(x, s)), want, rtol=1e-6, atol=1e-6)


def test_complex_convolution_of_padded_parts_vulkan():
    """The shape of seed 65 program 995 at 64K elements: a complex convolution whose operands
    are zero-padded views of complex(x, x), their parts read through select(is_finite) and a
    clamp; the real and imaginary parts, equal, were fenced apart and IREE then failed to
    compile the dispatch that yields both (vk-complex-part-of-view); against XLA (jax)."""
    import jax
    from jax import lax
    _target("vulkan")
    src = open(os.path.join(REGRESSIONS, "complex_conv_of_padded_values_vulkan",
                            "program.mlir")).read()
    text = (src.replace("tensor<2x1x", "tensor<256x1x").replace("tensor<2x1xf32>", "tensor<256x1xf32>")
            .replace("tensor<2xcomplex", "tensor<256xcomplex")
            .replace("high = [178]", "high = [65280]").replace("tensor<180x", "tensor<65536x")
            .replace("3x6x2x5x", "16x64x2x32x").replace("high = [18]", "high = [-236]")
            .replace("3x2x6x2x", "30x2x64x15x"))
    x = np.random.default_rng(0).standard_normal((256, 1)).astype(np.float32)
    c = (x + 1j * x).astype(np.complex64).reshape(-1)
    lhs = np.pad(c, (0, 65280)).reshape(16, 64, 2, 32)
    rhs = c[:20].reshape(5, 1, 2, 2).transpose(3, 0, 1, 2)      # [W, I, O, H] -> [H, W, I, O]
    want = lax.conv_general_dilated(lhs, rhs, (2, 1), [(0, 0), (2, 0)], lhs_dilation=(2, 1),
                                    dimension_numbers=("HNCW", "HWIO", "WCNH"),
                                    feature_group_count=2)
    got = shlo.compile(text, target="vulkan", cache=False)(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(jax.device_get(want)), rtol=1e-5,
                               atol=1e-4)
