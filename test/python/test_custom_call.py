"""shlo-expand-custom-calls: a registered Python decomposition replaces the call and runs on
CPU and Vulkan (checked against numpy); an unknown target and a decomposition of the wrong
type are errors naming the target; token I/O reads shlo's host queues. One module."""
import numpy as np
import pytest
from iree.compiler import ir

import shlo
from shlo.dialect import stablehlo
from shlo.passes.custom_call import register_custom_call, unregister_custom_call

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
