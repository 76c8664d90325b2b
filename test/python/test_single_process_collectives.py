"""shlo-single-process-collectives: every collective of a one-process module runs on CPU and
Vulkan and gives the spec's answer for a group of one (the operand, or zeros for a permute
that sends nothing to process 0). The reference interpreter aborts the process on a
collective outside interpreter.run_parallel, so it is not the oracle here. One module."""
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

T = "tensor<2x3xf32>"
GROUP = "replica_groups = dense<[[0]]> : tensor<1x1xi64>"
REDUCER = """({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  })"""
BODIES = {
    "all_reduce": f'"stablehlo.all_reduce"(%x) {REDUCER} {{{GROUP}}}',
    "all_gather": f'"stablehlo.all_gather"(%x) {{all_gather_dim = 1 : i64, {GROUP}}}',
    "all_to_all": (f'"stablehlo.all_to_all"(%x) {{split_dimension = 1 : i64, '
                   f'concat_dimension = 0 : i64, split_count = 1 : i64, {GROUP}}}'),
    "reduce_scatter": f'"stablehlo.reduce_scatter"(%x) {REDUCER} {{scatter_dimension = 1 : i64, {GROUP}}}',
    "collective_permute": '"stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}',
    "collective_permute_to_nobody": '"stablehlo.collective_permute"(%x) {source_target_pairs = dense<> : tensor<0x2xi64>}',
    "collective_broadcast": f'"stablehlo.collective_broadcast"(%x) {{{GROUP}}}',
}


def _function(name):
    return (f"func.func @{name}(%x: {T}) -> {T} {{\n  %0 = {BODIES[name]} : ({T}) -> {T}\n"
            f"  return %0 : {T}\n}}")


TEXT = "\n".join(_function(n) for n in BODIES)
X = np.arange(6, dtype=np.float32).reshape(2, 3) + 1


def _want(name):
    return np.zeros_like(X) if name == "collective_permute_to_nobody" else X


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


@pytest.mark.parametrize("name", list(BODIES))
@pytest.mark.every_case
def test_cpu_matches_one_process(cpu, name):
    np.testing.assert_array_equal(cpu.function(name)(X), _want(name))


def test_vulkan_matches_one_process(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for name in BODIES:
        np.testing.assert_array_equal(exe.function(name)(X), _want(name), err_msg=name)


def test_several_processes_are_left_to_iree(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module('module attributes {mhlo.num_replicas = 2 : i32} {\n'
                               + _function("all_reduce").replace("[[0]]", "[[0, 1]]")
                               .replace("1x1xi64", "1x2xi64") + "\n}", context=ctx)
    run_pipeline(module, "builtin.module(shlo-single-process-collectives)")
    assert "stablehlo.all_reduce" in str(module)
