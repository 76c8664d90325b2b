"""Shared fixtures: one shlo context per test session, device availability, tool paths."""
import functools
import gc
import os
import random
import sys

import pytest

BIN = os.path.dirname(sys.executable)
# StableHLO's interpreter tests: the shared material next to the repository, or
# $SHLO_CONFORMANCE_SUITE; tests that read them skip, saying so, where they are not
CONFORMANCE_SUITE = os.environ.get("SHLO_CONFORMANCE_SUITE") or os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "conformance", "stablehlo-interpret")


def conformance_suite_or_skip():
    if not os.path.isdir(CONFORMANCE_SUITE):
        pytest.skip(f"no conformance suite at {os.path.normpath(CONFORMANCE_SUITE)} "
                    "(set SHLO_CONFORMANCE_SUITE)")


TARGET_NAMES = ("cpu", "vulkan", "cuda", "hip")


def _target_of(params: dict) -> str:
    """The target a parametrized case runs on ('' when no parameter names one)."""
    for value in params.values():
        if isinstance(value, str) and value.partition(":")[0] in TARGET_NAMES:
            return value.partition(":")[0]
    return ""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The quick tier (`make test`, docs/testing.md): a parametrized test runs its first case on
    each target; its other cases are marked `slow`, for `make test-all`. Tests marked
    `every_case` (sweeps that compile little) run every case in both."""
    first: set = set()
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is None or item.get_closest_marker("every_case"):
            continue
        key = (item.path, item.cls, item.originalname, _target_of(spec.params))
        if key in first:
            item.add_marker(pytest.mark.slow)
        else:
            first.add(key)


def pytest_collection_finish(session):
    """What collection made (jax, IREE, every test module: about 210K objects) lives to the end:
    gc.freeze() leaves it out of every later collection, so that the full gc.collect() with
    which release_vulkan closes a device costs ~0 instead of ~0.1 s CPU after each Vulkan test."""
    gc.freeze()


def pytest_sessionfinish(session):
    """Unfrozen for the interpreter's exit, which frees them (frozen, nanobind reported IREE's
    objects as leaked)."""
    gc.unfreeze()


@pytest.fixture(scope="session")
def ctx():
    import shlo
    return shlo.context()


@pytest.fixture(autouse=True)
def release_vulkan():
    """After each test, close the Vulkan device it opened (devices.release_device): an open
    lavapipe device keeps both cores busy, which made every later compile in the same
    pytest worker about twice as slow."""
    yield
    from shlo.runtime.devices import release_device
    release_device("vulkan")


@functools.lru_cache(maxsize=None)
def _vulkan_status() -> tuple[bool, str]:
    """Whether this process can open a Vulkan device (checked once). The check's device is
    closed again: an open lavapipe device spins both cores, and the test that asked is
    about to compile."""
    from shlo.runtime.devices import driver_available, release_device
    status = driver_available("vulkan")
    release_device("vulkan")
    return status


def vulkan_or_skip():
    ok, why = _vulkan_status()
    if not ok:
        pytest.skip(f"no Vulkan device here: {why}")


def compile_with_vulkan_rules(ctx, text: str, target: str):
    """`text` compiled uncached for `target`: for vulkan as it is, for the cpu with shlo's Vulkan
    rewrites (shlo-legalize-vulkan-ops) in its pipeline, so that a test checks what they
    compute on both; skips where there is no Vulkan device."""
    import shlo
    from shlo.pipelines import default_pipeline
    module = shlo.parse_module(text, context=ctx)
    if target == "vulkan":
        vulkan_or_skip()
        return shlo.compile(module, target="vulkan", cache=False)
    return shlo.compile(module, target=target, cache=False,
                        pipeline=default_pipeline(["shlo-legalize-vulkan-ops"]))


def numpy_pad(x, value, low, high, interior):
    """numpy's stablehlo.pad (negative edges cut)."""
    import numpy as np
    shape = [(n - 1) * (i + 1) + 1 for n, i in zip(x.shape, interior)]
    out = np.full(shape, value, x.dtype)
    out[tuple(slice(None, None, i + 1) for i in interior)] = x
    out = np.pad(out, [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high)],
                 constant_values=value)
    return out[tuple(slice(max(-lo, 0), n - max(-hi, 0))
                     for lo, hi, n in zip(low, high, out.shape))]


def cases_on(target: str, cases) -> list:
    """All `cases` on CPU; on Vulkan a fixed half of them (one seeded draw, in order). A Vulkan
    compile costs about what a CPU one does, and the sweeps' Vulkan runs were a quarter of the
    suite's time; the Vulkan-specific failures the sweeps found have their own regression tests
    (test_legalize_vulkan_ops)."""
    cases = list(cases)
    if target != "vulkan":
        return cases
    keep = sorted(random.Random(0).sample(range(len(cases)), (len(cases) + 1) // 2))
    return [cases[i] for i in keep]


def tool(name: str) -> str:
    return os.path.join(BIN, name)
