"""shlo's passes keep the MLIR bindings' reference counts of their own types.

IREE 3.13's bindings drop a reference to `ir.Operation`'s type each time `.block` is read on
an op that has no parent (a top-level `builtin.module`); once the count reaches 0 the type is
freed while in use, and the process crashes later, in a pass or at exit (docs/iree_gaps.md
#py-block-of-top-level-op). shlo-read-barrier-results climbed to the module that way for
every reader outside a barrier's block: jax.random.gamma's module crashed its second compile.
"""
import gc
import sys

import jax
import numpy as np
import pytest
from iree.compiler import ir

import shlo
from shlo.passes.pipeline import run_pipeline
from shlo.pipelines import DEFAULT, target_pipeline
from shlo.pipelines.targets import get_target

TYPES = [name for name, value in vars(ir).items() if isinstance(value, type)]

# a barrier in a loop body on a value the loop itself reads, outside the barrier's block
BARRIER_IN_LOOP = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = stablehlo.while(%i = %x) : tensor<4xf32>
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %b = stablehlo.optimization_barrier %x : tensor<4xf32>
      %s = stablehlo.add %i, %b : tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }
  return %w : tensor<4xf32>
}
"""


def _counts() -> dict:
    gc.collect()
    return {name: sys.getrefcount(getattr(ir, name)) for name in TYPES}


def _changed(before: dict, after: dict) -> dict:
    return {name: (before[name], after[name]) for name in TYPES if before[name] != after[name]}


def test_read_barrier_results_keeps_operation_type_alive(ctx):
    run_pipeline(shlo.parse_module(BARRIER_IN_LOOP, context=ctx), "builtin.module("
                 "shlo-read-barrier-results)")
    before = _counts()
    for _ in range(20):
        run_pipeline(shlo.parse_module(BARRIER_IN_LOOP, context=ctx), "builtin.module("
                     "shlo-read-barrier-results)")
    assert _changed(before, _counts()) == {}


@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_default_pipeline_keeps_binding_type_counts(ctx, target):
    """The whole pipeline on jax.random.gamma's module (loops, barriers, rng): a second run
    leaves every binding type's reference count as the first left it."""
    with jax.enable_x64(True):
        f = jax.jit(lambda k, a: jax.random.gamma(k, a, (256, 4), dtype=np.float32))
        text = f.lower(jax.random.PRNGKey(0), np.ones(4, np.float32)).as_text()
    pipeline = target_pipeline(DEFAULT, get_target(target))
    run_pipeline(shlo.parse_module(text, context=ctx), pipeline)       # (imports, caches)
    before = _counts()
    run_pipeline(shlo.parse_module(text, context=ctx), pipeline)
    assert _changed(before, _counts()) == {}
