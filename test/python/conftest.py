"""Shared fixtures: one shlo context per test session, device availability, tool paths."""
import os
import sys

import pytest

BIN = os.path.dirname(sys.executable)


@pytest.fixture(scope="session")
def ctx():
    import shlo
    return shlo.context()


def vulkan_or_skip():
    from shlo.runtime.devices import driver_available
    ok, why = driver_available("vulkan")
    if not ok:
        pytest.skip(f"no Vulkan device here: {why}")


def tool(name: str) -> str:
    return os.path.join(BIN, name)
