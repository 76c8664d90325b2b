"""XlaBuilder collectives, tokens and host I/O (AllGather, AllReduce, AllToAll, RaggedAllToAll,
CollectiveBroadcast, CollectivePermute, CrossReplicaSum, ReduceScatter, AfterAll, CreateToken,
Infeed, Outfeed, Send, Recv, CustomCall).

These need several replicas or a host channel, so each is built and its module verified (and
lowered to the StableHLO op the seeds name); then each is compiled for CPU and Vulkan with
one replica: `ON_ONE_DEVICE` records which ones IREE runs there (checked against the
one-replica semantics) and where the others raise a shlo.Error (docs/xla_ops.md).
"""
import numpy as np
import pytest

import shlo
from shlo import xla
from conftest import vulkan_or_skip
from xla_suite import binary_computation, rng

R = rng(2)
F32, I32 = np.float32, np.int32
X = R.standard_normal((4, 6)).astype(F32)
ADD = binary_computation("add", xla.Add)
ONE = [[0]]


def param(b, x, n=0):
    return xla.Parameter(b, n, xla.Shape.array_shape(x.dtype, list(x.shape)), f"p{n}")


def ragged_all_to_all(b):
    x = param(b, np.zeros(6, F32))
    out = param(b, np.zeros(6, F32), 1)
    offsets = [xla.Constant(b, np.array([v], I32)) for v in (0, 1, 2)]
    return xla.RaggedAllToAll(x, offsets[0], xla.Constant(b, np.array([3], I32)), out,
                              offsets[1], xla.Constant(b, np.array([3], I32)), ONE)


def after_all(b):
    x = param(b, X)
    t = xla.AfterAll(b, [xla.CreateToken(b), xla.CreateToken(b)])
    xla.Outfeed(x, xla.Shape.array_shape(F32, [4, 6]), "")
    return xla.AfterAll(b, [t])


X6, OUT6 = np.arange(1, 7, dtype=F32), np.zeros(6, F32)
# name -> (build(b) -> root, StableHLO op in the module, inputs, one-replica oracle or None)
OPS = {
    "all_gather": (lambda b: xla.AllGather(param(b, X), 1, 1, ONE), "stablehlo.all_gather",
                   [X], lambda x: x),
    "all_reduce": (lambda b: xla.AllReduce(param(b, X), ADD, ONE), "stablehlo.all_reduce",
                   [X], lambda x: x),
    "all_reduce_callable": (lambda b: xla.AllReduce(param(b, X), lambda p, q: xla.Max(p, q), ONE),
                            "stablehlo.all_reduce", [X], lambda x: x),
    "cross_replica_sum": (lambda b: xla.CrossReplicaSum(param(b, X), ONE),
                          "stablehlo.all_reduce", [X], lambda x: x),
    "all_to_all": (lambda b: xla.AllToAll(param(b, X), 1, 0, 1, ONE), "stablehlo.all_to_all",
                   [X], lambda x: x),
    "reduce_scatter": (lambda b: xla.ReduceScatter(param(b, X), ADD, 0, 1, ONE),
                       "stablehlo.reduce_scatter", [X], lambda x: x),
    "collective_broadcast": (lambda b: xla.CollectiveBroadcast(param(b, X), ONE),
                             "stablehlo.collective_broadcast", [X], lambda x: x),
    "collective_permute": (lambda b: xla.CollectivePermute(param(b, X), [(0, 0)]),
                           "stablehlo.collective_permute", [X], lambda x: x),
    # one replica: output[1:4] = input[0:3] (input offset 0, size 3, output offset 1)
    "ragged_all_to_all": (ragged_all_to_all, None, [X6, OUT6],
                          lambda x, out: np.concatenate([out[:1], x[:3], out[4:]])),
    "after_all_create_token_outfeed": (after_all, "stablehlo.after_all", [X], None),
    "infeed": (lambda b: xla.Infeed(b, xla.Shape.array_shape(F32, [4, 6]), ""),
               "stablehlo.infeed", [], None),
    "outfeed": (lambda b: xla.Outfeed(param(b, X), xla.Shape.array_shape(F32, [4, 6]), "cfg"),
                "stablehlo.outfeed", [X], None),
    "send": (lambda b: xla.Send(param(b, X), xla.ChannelHandle(handle=5)), "stablehlo.send",
             [X], None),
    "recv": (lambda b: xla.Recv(b, xla.Shape.array_shape(F32, [4, 6]), xla.ChannelHandle(6)),
             "stablehlo.recv", [], None),
    "custom_call": (lambda b: xla.CustomCall(b, "my_kernel", [param(b, X)],
                                             xla.Shape.array_shape(F32, [4, 6])),
                    "stablehlo.custom_call", [X], None),
}

# What each does on one device (CPU and Vulkan alike, measured): True = runs and matches the
# one-replica oracle (shlo-single-process-collectives gives each collective its meaning for a
# group of one); otherwise the stage that raises the shlo.Error ("pass": shlo's pipeline
# rejects a returned token and custom calls with no registered decomposition, naming the op;
# "host": a plain call has an empty infeed queue and nobody sends to its recv, which the
# host runtime reports naming the op).
ON_ONE_DEVICE = {
    "all_gather": True, "all_reduce": True, "all_reduce_callable": True,
    "cross_replica_sum": True, "reduce_scatter": True, "collective_permute": True,
    "all_to_all": True, "collective_broadcast": True, "ragged_all_to_all": True,
    "after_all_create_token_outfeed": "pass", "infeed": "host", "outfeed": "pass",
    "send": "pass", "recv": "host", "custom_call": "pass",
}


def build(name):
    b = xla.XlaBuilder(name)
    root = OPS[name][0](b)
    return b.build(root)


@pytest.mark.parametrize("name", OPS)
@pytest.mark.every_case
def test_builds_and_verifies(name):
    computation = build(name)
    assert computation.module.operation.verify()
    text = computation.as_text()
    op = OPS[name][1]
    if op is not None:
        assert op in text, text
    if name != "custom_call":
        assert "custom_call" not in text, text


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", OPS)
def test_one_device(name, target):
    """Runs and matches one-replica semantics, or fails with a one-line shlo.Error at the
    stage recorded in ON_ONE_DEVICE."""
    if target == "vulkan":
        vulkan_or_skip()
    computation = build(name)
    _, _, inputs, oracle = OPS[name]
    expected = ON_ONE_DEVICE[name]
    if expected is True:
        got = shlo.compile(computation.module, target=target)(*inputs)
        np.testing.assert_allclose(got, oracle(*inputs), rtol=1e-6)
        return
    error = {"compile": shlo.CompileError, "pass": shlo.PassError,
             "host": shlo.InvocationError}.get(expected, shlo.DeviceError)
    with pytest.raises(error) as info:
        shlo.compile(computation.module, target=target)(*inputs)
    assert len(str(info.value).splitlines()) == 1 and str(info.value).strip()
