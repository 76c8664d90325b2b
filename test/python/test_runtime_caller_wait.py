"""standalone_loader.Invoker: a thread that calls a long local-task function waits as
SCHED_BATCH (so it cannot preempt the worker that releases it), and gets its policy back.

Each case runs in a thread of its own, so the test process's main thread keeps its policy
whatever happens. Which calls count as long is set through `Invoker.LONG_CALL_S` (0: every
call, infinity: none), so that no case depends on how fast the machine is.
"""
import os
import threading

import numpy as np
import pytest

import shlo
from shlo.runtime.standalone_loader import Invoker

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="no SCHED_BATCH here")


LONG, SHORT = 0.0, float("inf")         # Invoker.LONG_CALL_S: every call is long, or none


class RecordingContext:
    """A stand-in for VmContext: each invoke records the caller's policy."""

    def __init__(self, fail: bool = False):
        self.fail, self.policies = fail, []

    def invoke(self, function, arg_list, ret_list):
        self.policies.append(os.sched_getscheduler(0))
        if self.fail:
            raise RuntimeError("the device failed")


def in_thread(fn):
    """fn() on a new thread; its result, and the thread's policy after it."""
    out = {}

    def run():
        try:
            out["result"] = fn()
        except Exception as e:      # noqa: BLE001 - handed to the test
            out["result"] = e
        out["policy"] = os.sched_getscheduler(0)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return out["result"], out["policy"]


def calls(driver: str, threshold: float, count: int = 3, fail: bool = False):
    context = RecordingContext(fail)
    invoker = Invoker(context, None, driver)
    invoker.LONG_CALL_S = threshold

    def run():
        errors = []
        for _ in range(count):
            try:
                invoker([], [])
            except RuntimeError as e:
                errors.append(str(e))
        return errors
    errors, after = in_thread(run)
    return context.policies, after, errors


def test_long_local_task_calls_wait_as_batch():
    policies, after, _ = calls("local-task", LONG)
    # the first call has no history; every later one follows a long call
    assert policies == [os.SCHED_OTHER, os.SCHED_BATCH, os.SCHED_BATCH]
    assert after == os.SCHED_OTHER


def test_short_calls_keep_their_policy():
    policies, after, _ = calls("local-task", SHORT)
    assert policies == [os.SCHED_OTHER] * 3 and after == os.SCHED_OTHER


@pytest.mark.parametrize("driver", ["local-sync", "vulkan", "cuda"])
def test_other_drivers_keep_their_policy(driver):
    policies, after, _ = calls(driver, LONG)
    assert policies == [os.SCHED_OTHER] * 3 and after == os.SCHED_OTHER


def test_a_failed_call_restores_the_policy():
    policies, after, errors = calls("local-task", LONG, fail=True)
    assert errors == ["the device failed"] * 3
    # a failed call says nothing about the next one's length: it waits as before
    assert policies == [os.SCHED_OTHER] * 3 and after == os.SCHED_OTHER


def test_a_caller_of_another_policy_keeps_it():
    context = RecordingContext()
    invoker = Invoker(context, None, "local-task")
    invoker.LONG_CALL_S = LONG

    def run():
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        for _ in range(3):
            invoker([], [])
    _, after = in_thread(run)
    assert context.policies == [os.SCHED_IDLE] * 3 and after == os.SCHED_IDLE


def test_executable_calls_switch_only_around_long_calls(monkeypatch):
    """A real local-task Executable: with every call counted long, the second call's wait is
    wrapped in SCHED_BATCH and back, and the results are numpy's."""
    exe = shlo.compile("""
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
       : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}""", target="cpu")
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((64, 64)).astype(np.float32) for _ in range(2))
    monkeypatch.setattr(Invoker, "LONG_CALL_S", 0.0)
    switches = []
    real = os.sched_setscheduler

    def recording(pid, policy, param):
        switches.append(policy)
        real(pid, policy, param)
    monkeypatch.setattr(os, "sched_setscheduler", recording)
    results, after = in_thread(lambda: [exe(a, b) for _ in range(2)])
    for r in results:
        np.testing.assert_allclose(r, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)
    assert switches == [os.SCHED_BATCH, os.SCHED_OTHER]
    assert after == os.SCHED_OTHER


def test_a_sandbox_that_forbids_the_switch_waits_as_before(monkeypatch):
    """Where sched_setscheduler fails (a seccomp profile), calls go on with the thread's own
    policy, and the invoker stops trying."""
    attempts = []

    def forbidden(pid, policy, param):
        attempts.append(policy)
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(os, "sched_setscheduler", forbidden)
    policies, after, errors = calls("local-task", LONG, count=4)
    assert errors == [] and policies == [os.SCHED_OTHER] * 4 and after == os.SCHED_OTHER
    assert attempts == [os.SCHED_BATCH]         # tried once, then no more
