"""With SHLO_VERIFY_EACH=0, in-process compiles run IREE phase by phase, most phases without
IREE's verification after every pass (runtime.compiler._execute_by_phase): the same .vmfb as
one verified run, and a failure compiles again verified pass by pass, so that IREE's own
diagnostics choose the retry. By default every pass is verified: unverified, a module IREE
makes invalid mid-phase crashed the process (fuzz seed 98 program 518)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from shlo.pipelines.targets import get_target
from shlo.runtime import compiler
from shlo.runtime.executable import Executable

MLP = """func.func @main(%x: tensor<128x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>)
    -> tensor<128x128xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
      : (tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<128x128xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<128x128xf32>
  %2 = stablehlo.add %0, %1 : tensor<128x128xf32>
  %3 = stablehlo.tanh %2 : tensor<128x128xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.reduce(%3 init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<128x128xf32>, tensor<f32>) -> tensor<128xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<128xf32>) -> tensor<128x128xf32>
  %6 = stablehlo.divide %3, %5 : tensor<128x128xf32>
  return %6 : tensor<128x128xf32>
}"""


HERE = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")


@pytest.fixture(autouse=True)
def by_phase(request, monkeypatch):
    """Phase by phase, except in the tests of the default."""
    if "default" not in request.node.name:
        monkeypatch.setenv("SHLO_VERIFY_EACH", "0")


def test_the_default_verifies_every_pass(ctx, attempts, monkeypatch):
    monkeypatch.delenv("SHLO_VERIFY_EACH", raising=False)
    compiler.compile_module(shlo.parse_module(MLP, context=ctx), get_target("cpu"),
                            cache=False, isolate=False)
    assert [each for each, _ in attempts] == [True]


CRASH = """
import shlo
try:
    shlo.compile(open({path!r}).read(), target="cpu", cache=False)
    print("compiled")
except shlo.CompileError as e:
    print("error:", str(e).splitlines()[0])
"""


def test_a_module_iree_makes_invalid_is_a_compile_error_by_default():
    """Seed 98 program 518 (a scatter of its operand's own view, i64): IREE's front end makes
    it invalid ("expected rank to be smaller or equal to the other rank"). Verified pass by
    pass (the default) that is a CompileError; phase by phase the next pass crashed the
    process (SIGSEGV), so the compile runs in a child that pytest survives."""
    path = os.path.join(HERE, "scatter_of_own_view_crash_cpu", "program.mlir")
    env = {k: v for k, v in os.environ.items() if k != "SHLO_VERIFY_EACH"}
    done = subprocess.run([sys.executable, "-c", CRASH.format(path=path)], text=True,
                          capture_output=True, timeout=600, env=env)
    assert done.returncode == 0 and "error:" in done.stdout and "rank" in done.stdout, \
        (done.returncode, done.stdout, done.stderr[-1000:])


@pytest.fixture
def attempts(monkeypatch):
    """Records (verify_each, the target's extra flags) of each IREE compile; `force` sets
    verify_each for all of them."""
    class Attempts(list):
        force = None
    seen = Attempts()
    original = compiler.compile_to_vmfb

    def spy(module_op, target, **kw):
        if seen.force is not None:
            kw["verify_each"] = seen.force
        seen.append((kw["verify_each"], target.extra_flags))
        return original(module_op, target, **kw)
    monkeypatch.setattr(compiler, "compile_to_vmfb", spy)
    return seen


@pytest.mark.parametrize("target,flags", [("cpu", []), ("vulkan", []),
                                          ("cpu", ["--iree-global-opt-propagate-transposes=false"])])
@pytest.mark.every_case
def test_a_compile_by_phase_is_the_vmfb_of_one_verified_run(ctx, target, flags, attempts):
    """32K-element matmul, tanh and row sums: by phase (in process, or in two children for a
    process-global flag), the bytes of IREE's one run with every pass verified; numpy's
    values."""
    if target == "vulkan":
        vulkan_or_skip()
    vmfbs = []
    for force in (None, True):
        attempts.force = force
        vmfbs.append(compiler.compile_module(shlo.parse_module(MLP, context=ctx),
                                             get_target(target, flags), cache=False,
                                             isolate=False))
    assert [each for each, _ in attempts] == [False, True]
    assert vmfbs[0] == vmfbs[1]
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((128, 256)) * 0.1).astype(np.float32)
    w = (rng.standard_normal((256, 128)) * 0.1).astype(np.float32)
    b = rng.standard_normal(128).astype(np.float32)
    t = np.tanh(x.astype(np.float64) @ w + b)
    got = Executable(vmfbs[0], device=get_target(target).driver)(x, w, b)
    np.testing.assert_allclose(got, t / t.sum(axis=1, keepdims=True), rtol=2e-4, atol=1e-6)


@pytest.mark.parametrize("isolate", [False, True])
@pytest.mark.every_case
def test_a_failure_outside_codegen_compiles_again_verified_and_takes_irees_retry(ctx, isolate,
                                                                                 attempts):
    """jax's value_and_grad of a cross-entropy: IREE's dispatch creation makes a use before its
    definition; unverified, stream partitioning fails on it ("failed to schedule execution
    partitions"), which no retry matches. Compiled again with every pass verified, IREE names
    it ("does not dominate this use") and cpu-use-before-def's retry compiles it. numpy is
    the oracle (test_legalize_vulkan_ops' shapes: larger ones compile at once). In a child
    (`isolate`) the verified run is the child's own, so the retry is the second attempt."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    rng = np.random.default_rng(9)
    w = (rng.standard_normal((16, 32)) * 0.3).astype(np.float32)
    x = rng.standard_normal((12, 16)).astype(np.float32)
    y = rng.integers(0, 32, 12).astype(np.int32)

    def loss(w, x, y):
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, 32) * jax.nn.log_softmax(x @ w), axis=-1))
    text = jax.jit(jax.value_and_grad(loss)).lower(w, x, y).as_text()
    value, grad = shlo.compile(shlo.parse_module(text, context=ctx), "cpu", cache=False,
                               isolate=isolate)(w, x, y)
    retry = ("--iree-dispatch-creation-enable-aggressive-fusion=false",)
    assert attempts == ([(False, ()), (False, retry)] if isolate else
                        [(False, ()), (True, ()), (True, retry)])
    logits = x.astype(np.float64) @ w
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(value, -np.mean(np.log(p[np.arange(12), y])), rtol=1e-5)
    np.testing.assert_allclose(grad, x.T.astype(np.float64) @ (p - np.eye(32)[y]) / 12,
                               atol=1e-6)


def test_codegen_stays_verified_pass_by_pass(ctx, attempts):
    """jnp.fft of a symbolic batch as DFT matmuls: IREE's data tiling makes an invalid
    vector.transfer_read in codegen (unverified, `iree-compile --verify=false` crashed on
    8-point ffts: SIGSEGV). Codegen's passes stay verified one by one: IREE's own error,
    cpu-complex-padding's retry at once, no second compile. numpy's fft is the oracle."""
    jax = pytest.importorskip("jax")
    from jax import export
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(jax.numpy.fft.fft))(
        jax.ShapeDtypeStruct((b, 256), np.complex64)).mlir_module()
    exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu", cache=False)
    assert attempts == [(False, ()), (False, ("--iree-opt-data-tiling=false",))]
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((64, 256)) + 1j * rng.standard_normal((64, 256))).astype(np.complex64)
    np.testing.assert_allclose(exe(x), np.fft.fft(x.astype(np.complex128)), rtol=1e-4, atol=2e-3)
