"""Sharded jax programs for test_distributed, lowered and run by XLA on 4 host devices:
`python distributed_jax_programs.py OUT` writes OUT/matmul.mlir (both operands sharded on a
2x2 mesh), OUT/mlp.mlir (a data-parallel MLP step, batch over 4 devices), OUT/gspmd_mlp.mlir
(a data- and tensor-parallel MLP step on a 2x2 mesh lowered with GSPMD's mhlo.sharding
strings, a sharding constraint inside), OUT/gspmd_shard_map.mlir (a shard_map with psum,
all_gather and ppermute lowered with GSPMD) and
OUT/reference.npz (their inputs <name>_in<k> and XLA's results <name>_out<k>). Run in a
process of its own: the host device count must be set before jax starts.
"""
import os
import sys
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
out = sys.argv[1]
devices = np.array(jax.devices())
rng = np.random.default_rng(0)
mesh = Mesh(devices.reshape(2, 2), ("x", "y"))
S = lambda m, *spec: NamedSharding(m, P(*spec))
# 1: a matmul with both operands sharded (contracting dim over y), result over x
a = rng.standard_normal((64, 128)).astype(np.float32)
b = rng.standard_normal((128, 32)).astype(np.float32)
f = jax.jit(lambda a, b: jnp.tanh(a @ b), in_shardings=(S(mesh, "x", "y"), S(mesh, "y", None)),
            out_shardings=S(mesh, "x", None))
open(f"{out}/matmul.mlir", "w").write(f.lower(a, b).as_text())
ref = {"matmul_in0": a, "matmul_in1": b, "matmul_out0": np.asarray(f(a, b))}
# 2: a data-parallel MLP step (SGD): batch over 4 devices, parameters replicated
line = Mesh(devices, ("data",))
params = [rng.standard_normal((16, 32)).astype(np.float32) * 0.3,
          np.zeros(32, np.float32), rng.standard_normal((32, 4)).astype(np.float32) * 0.3]
x = rng.standard_normal((64, 16)).astype(np.float32)
y = rng.standard_normal((64, 4)).astype(np.float32)
def loss(params, x, y):
    w1, b1, w2 = params
    return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 - y) ** 2)
def step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return [p - 0.1 * g for p, g in zip(params, grads)], value
rep = S(line)
g = jax.jit(step, in_shardings=([rep] * 3, S(line, "data"), S(line, "data")),
            out_shardings=([rep] * 3, rep))
open(f"{out}/mlp.mlir", "w").write(g.lower(params, x, y).as_text())
new, value = g(params, x, y)
ref.update({f"mlp_in{k}": v for k, v in enumerate(params + [x, y])})
ref.update({f"mlp_out{k}": np.asarray(v) for k, v in enumerate(list(new) + [value])})
# 3: GSPMD (no Shardy): batch over x, hidden units over y (transposed device orders)
jax.config.update("jax_use_shardy_partitioner", False)
def tp_loss(params, x, y):
    w1, b1, w2 = params
    h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w1 + b1), S(mesh, "x", "y"))
    return jnp.mean((h @ w2 - y) ** 2)
def tp_step(params, x, y):
    value, grads = jax.value_and_grad(tp_loss)(params, x, y)
    return [p - 0.1 * g for p, g in zip(params, grads)], value
tp = [S(mesh, None, "y"), S(mesh, "y"), S(mesh, "y", None)]
h = jax.jit(tp_step, in_shardings=(tp, S(mesh, "x"), S(mesh, "x")), out_shardings=(tp, S(mesh)))
text = h.lower(params, x, y).as_text()
assert "mhlo.sharding" in text and "sdy" not in text, text[:400]
open(f"{out}/gspmd_mlp.mlir", "w").write(text)
new, value = h(params, x, y)
ref.update({f"gspmd_mlp_in{k}": v for k, v in enumerate(params + [x, y])})
ref.update({f"gspmd_mlp_out{k}": np.asarray(v) for k, v in enumerate(list(new) + [value])})
# 4: a shard_map lowered with GSPMD (@SPMDFullToShardShape ... @SPMDShardToFullShape)
def body(a, b):
    g = jax.lax.all_gather(jax.lax.psum(a, "x"), "y", tiled=True)
    return jax.lax.ppermute(g, "y", [(0, 1), (1, 0)]), b * 2
sm = jax.jit(lambda a, b: jax.shard_map(body, mesh=mesh, in_specs=(P("x", "y"), P("y")),
                                        out_specs=(P(None, "y"), P("y")))(jnp.tanh(a), b))
a, b = rng.standard_normal((64, 48)).astype(np.float32), np.arange(6, dtype=np.float32)
text = sm.lower(a, b).as_text()
assert "SPMDFullToShardShape" in text and "sdy" not in text, text[:400]
open(f"{out}/gspmd_shard_map.mlir", "w").write(text)
ref.update({"gspmd_shard_map_in0": a, "gspmd_shard_map_in1": b})
ref.update({f"gspmd_shard_map_out{k}": np.asarray(v) for k, v in enumerate(sm(a, b))})
np.savez(f"{out}/reference.npz", **ref)
