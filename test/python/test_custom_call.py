"""shlo-expand-custom-calls: a registered Python decomposition replaces the call and runs on
CPU and Vulkan (checked against numpy); an unknown target and a decomposition of the wrong
type are errors naming the target; token I/O reads shlo's host queues. One module."""
import numpy as np
import pytest
from iree.compiler import ir

import shlo
from shlo.dialect import stablehlo
from shlo.passes.custom_calls.expand_custom_calls import (register_custom_call,
    unregister_custom_call)
from shlo.passes.pipeline import run_pipeline
from shlo.pipelines.cpu_tuning import NO_AGGRESSIVE_FUSION, module_flags

from conftest import vulkan_or_skip

TEXT = """func.func @main(%x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %0 = stablehlo.custom_call @test.softplus(%x) : (tensor<5xf32>) -> tensor<5xf32>
  %1:2 = stablehlo.custom_call @test.sum_and_product(%x, %y) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  %2 = stablehlo.add %0, %1#1 : tensor<5xf32>
  return %2, %1#0 : tensor<5xf32>, tensor<5xf32>
}"""
X = np.linspace(-2, 2, 5, dtype=np.float32)
Y = np.arange(5, dtype=np.float32)


@pytest.fixture(scope="module", autouse=True)
def registered():
    register_custom_call("test.softplus",
                         lambda op, x: stablehlo.log_plus_one(stablehlo.exponential(x)))
    register_custom_call("test.sum_and_product",
                         lambda op, a, b: [stablehlo.add(a, b), stablehlo.multiply(a, b)])
    yield
    unregister_custom_call("test.softplus")
    unregister_custom_call("test.sum_and_product")


def _check(exe):
    first, second = exe(X, Y)
    np.testing.assert_allclose(first, np.log1p(np.exp(X)) + X * Y, rtol=1e-6)
    np.testing.assert_allclose(second, X + Y, rtol=1e-6)


def test_cpu_runs_the_decompositions(ctx):
    _check(shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu"))


def test_vulkan_runs_the_decompositions(ctx):
    vulkan_or_skip()
    _check(shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan"))


def test_unknown_target_is_named(ctx):
    text = TEXT.replace("@test.softplus", "@test.unknown")
    with pytest.raises(shlo.Error, match="no decomposition for target 'test.unknown'"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")


def test_wrong_result_type_is_named(ctx):
    register_custom_call("test.wrong", lambda op, x: stablehlo.convert(
        x, result_type=ir.RankedTensorType.get([5], ir.F64Type.get())))
    try:
        text = TEXT.replace("@test.softplus", "@test.wrong")
        with pytest.raises(shlo.Error, match="decomposition of 'test.wrong' returned "
                                             "tensor<5xf64>; the call's results are tensor<5xf32>"):
            shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    finally:
        unregister_custom_call("test.wrong")


def test_an_expansion_asks_for_cpu_flags(ctx):
    """register_custom_call(..., cpu_flags=...): the expansion leaves them on the module
    (shlo.cpu_flags) and the cpu target's per-module flags include them."""
    register_custom_call("test.softplus_flagged", lambda op, x: stablehlo.log_plus_one(
        stablehlo.exponential(x)), cpu_flags=NO_AGGRESSIVE_FUSION)
    try:
        text = TEXT.replace("@test.softplus", "@test.softplus_flagged")
        module = shlo.parse_module(text, context=ctx)
        run_pipeline(module, "builtin.module(shlo-expand-custom-calls)")
        assert "shlo.cpu_flags" in str(module)
        assert module_flags(module.operation) == NO_AGGRESSIVE_FUSION
        plain = shlo.parse_module(TEXT, context=ctx)
        run_pipeline(plain, "builtin.module(shlo-expand-custom-calls)")
        assert module_flags(plain.operation) == ()
        _check(shlo.compile(shlo.parse_module(text, context=ctx), target="cpu"))
    finally:
        unregister_custom_call("test.softplus_flagged")


def test_token_io_reads_the_host_queue_and_names_the_op_when_it_is_empty(ctx):
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %s = stablehlo.add %r#0, %x : tensor<4xf32>
  return %s : tensor<4xf32>
}"""
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    x, fed = np.arange(4, dtype=np.float32), np.full(4, 0.5, np.float32)
    np.testing.assert_array_equal(shlo.run_parallel(exe, [(x,)], infeed=[[fed]])[0], x + fed)
    with pytest.raises(shlo.InvocationError, match="stablehlo.infeed: the infeed queue of "
                                                   "process 0 .* is empty"):
        exe(x)


# --- jax's ApproxTopK (shlo.passes.custom_calls.approx_top_k): XLA's CPU fallback, an exact sort + slice ----

_X = np.random.default_rng(3).standard_normal((16, 300)).astype(np.float32)


@pytest.mark.parametrize("how", ["max", "min", "max_dimension_0", "max_not_aggregated",
                                 "min_bf16"])
def test_approx_top_k_matches_xla(ctx, how):
    import jax
    import ml_dtypes
    kwargs = {"max_dimension_0": {"reduction_dimension": 0},
              "max_not_aggregated": {"aggregate_to_topk": False}}.get(how, {})
    approx = jax.lax.approx_min_k if how.startswith("min") else jax.lax.approx_max_k
    x = _X.astype(ml_dtypes.bfloat16) if how.endswith("bf16") else _X
    fn = jax.jit(lambda x: approx(x, 7, **kwargs))
    text = fn.lower(x).as_text()
    assert "@ApproxTopK" in text
    (values, indices), (want_values, want_indices) = (
        [np.asarray(r) for r in rs] for rs in (
            shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(x), fn(x)))
    np.testing.assert_array_equal(values, want_values)
    if how.endswith("bf16"):
        # many ties: which of equal values comes first is the implementation's (XLA's sort
        # is not stable here, shlo's keeps the lower index first)
        axis = 0 if how == "max_dimension_0" else 1
        np.testing.assert_array_equal(np.take_along_axis(x, indices, axis), values)
        assert all(len(set(row)) == len(row) for row in indices.tolist())
    else:
        np.testing.assert_array_equal(indices, want_indices)


@pytest.mark.parametrize("what", ["top_k", "approx_max_k"])
@pytest.mark.every_case
def test_top_k_with_symbolic_k_runs_at_every_size(ctx, what):
    """stablehlo.dynamic_top_k / dynamic_approx_top_k: k a run-time value (jax under shape
    polymorphism); one compile serves every size."""
    import jax
    from jax import export, lax
    b, = export.symbolic_shape("b")
    if what == "top_k":
        spec, fn = jax.ShapeDtypeStruct((4, b), np.float32), lambda x: lax.top_k(
            x, x.shape[-1] - 1)
    else:
        spec, fn = jax.ShapeDtypeStruct((3, b + 4), np.float32), lambda x: lax.approx_max_k(
            x, x.shape[-1] - 4)
    text = export.export(jax.jit(fn))(spec).mlir_module()
    assert f"stablehlo.dynamic_{'top_k' if what == 'top_k' else 'approx_top_k'}" in text
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    for n in (5, 9, 40):
        x = np.random.default_rng(n).standard_normal((4 if what == "top_k" else 3, n))
        x = x.astype(np.float32)
        for g, w in zip(exe(x), fn(x)):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_dynamic_rng_bit_generator_specialized_matches_xla(ctx):
    """@stablehlo.dynamic_rng_bit_generator (jax's rbg bits under shape polymorphism): with
    specialize=True it is the static rng_bit_generator (before, it stayed an error that
    asked to specialize). jax's stored export and XLA's outputs are the oracle."""
    back_compat = pytest.importorskip(
        "jax._src.internal_test_util.export_back_compat_test_data."
        "stablehlo_dynamic_rng_bit_generator")
    data = back_compat.data_2023_06_17
    text = data["mlir_module_text"]
    assert "@stablehlo.dynamic_rng_bit_generator" in text
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", specialize=True)
    got = exe(*[np.asarray(a) for a in data["inputs"]])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(data["expected_outputs"][0]))
    with pytest.raises(shlo.Error, match="dynamic_rng_bit_generator.*specialize"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)
