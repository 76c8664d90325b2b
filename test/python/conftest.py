"""Shared fixtures: one shlo context per test session, device availability, tool paths."""
import os
import random
import sys

import pytest

BIN = os.path.dirname(sys.executable)


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


def vulkan_or_skip():
    from shlo.runtime.devices import driver_available
    ok, why = driver_available("vulkan")
    if not ok:
        pytest.skip(f"no Vulkan device here: {why}")


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
