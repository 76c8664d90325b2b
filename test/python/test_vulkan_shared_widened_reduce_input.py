"""vk-shared-widened-reduce: two reductions of one value widened from booleans or 8-bit
integers (`(m.sum(), m.mean())`, `jnp.var(m)` of bool[65536]): IREE copied the widening into
each reduction's dispatch unfused and the call never returned on lavapipe. Each program runs
in a child process (a hang fails the test at its timeout, not the suite) against XLA."""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import vulkan_or_skip

PROGRAMS = {    # name: (function source, argument source)
    "sum_and_mean": ("lambda m: (m.sum(), jnp.mean(m))", "np.ones(65536, bool)"),
    "variance": ("lambda m: jnp.var(m)", "rng.random(65536) > 0.3"),
    "bytes_summed_twice": ("lambda x: (lambda v: (v.sum(), v.astype(jnp.float32).sum()))"
                           "(x.astype(jnp.int32))", "rng.integers(-100, 100, 65536, np.int8)"),
    "bytes_of_booleans": ("lambda m: (m.astype(jnp.int8).sum(dtype=jnp.int32), "
                          "m.astype(jnp.int8).astype(jnp.float32).sum())",
                          "rng.random(65536) > 0.5"),
    "rows_and_columns": ("lambda m: (m.sum(), m.sum(0), m.mean(1))",
                         "rng.random((4096, 1024)) > 0.5"),
}
CHILD = """
import numpy as np, jax, jax.numpy as jnp, shlo.jax
rng = np.random.default_rng(0)
f, x = {function}, {argument}
got = jax.tree.leaves(shlo.jax.jit(f, target="vulkan")(x))
want = jax.tree.leaves(jax.jit(f, backend="cpu")(x))
for g, w in zip(got, want):
    np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-4)  # f32 sums: order
print("agrees")
"""


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_two_reductions_of_a_widened_value(name):
    vulkan_or_skip()
    function, argument = PROGRAMS[name]
    code = textwrap.dedent(CHILD).format(function=function, argument=argument)
    try:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=240, env=os.environ)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: no result in 240 s (the hang)")
    assert child.returncode == 0 and "agrees" in child.stdout, child.stderr[-2000:]
