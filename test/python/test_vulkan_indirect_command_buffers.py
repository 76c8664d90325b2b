"""The vulkan target compiles without IREE's indirect command buffers (pipelines.targets,
NO_INDIRECT_COMMAND_BUFFERS): in loops, IREE 3.13's indirect command buffers read the wrong
buffers on lavapipe. jax scans whose body sorts (shlo-lower-sort's loop of merge steps inside
the scan), several fresh compiles and calls each, against XLA:
- the body sorts the carry: "indirect buffer reference slot 0 is out range of the declared
  binding capacity" at every call;
- the body sorts its row and returns abs(row): the carry (the rows' sum) came back wrong in
  9 of 15 calls, silently, while shlo-barrier-loop-results read the sort's loop through a
  barrier (it no longer does: the loop counts by 7 from 0 to 21).
docs/iree_gaps.md#vk-indirect-command-buffers-loops-that-sort"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo
from shlo.pipelines.targets import NO_INDIRECT_COMMAND_BUFFERS, get_target


def _sorts_its_rows(x):
    def step(c, row):
        return c + row, (jnp.abs(row), jnp.sort(row))
    return jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)


def _sorts_its_carry(x):
    def step(c, row):
        y = c + row
        return y, jnp.sort(y)
    return jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)


def test_the_flag_is_on():
    assert NO_INDIRECT_COMMAND_BUFFERS in get_target("vulkan").flags


@pytest.mark.parametrize("program", [_sorts_its_carry, _sorts_its_rows])
def test_scans_that_sort(program):
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    x = np.random.default_rng(0).integers(-8, 8, (16, 64)).astype(np.float32)
    want = [np.asarray(w) for w in jax.tree.leaves(jax.jit(program)(x))]
    text = jax.jit(program).lower(x).as_text()
    for compile_ in range(2):
        exe = shlo.compile(text, target="vulkan", cache=False)
        for call in range(3):
            for k, (g, w) in enumerate(zip(exe(x), want)):
                np.testing.assert_array_equal(np.asarray(g), w,
                                              err_msg=f"compile {compile_} call {call} result {k}")
