"""shlo's local-task device: one task worker per physical core, as IREE's default, but none
pinned to a core (each may run on any CPU the process may use); SHLO_PINNED_WORKERS=1 keeps
IREE's pinned workers."""
import glob
import os
import subprocess
import sys

import numpy as np
import pytest

import shlo
from shlo.runtime.devices import physical_cores

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="Linux only")

ADD = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
       "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}")

WORKER_CPUS = """
import glob, sys
import numpy as np
import shlo
exe = shlo.compile(sys.argv[1], target="cpu")
exe.device = "local-task"
exe(np.ones(4, np.float32))
for task in glob.glob("/proc/self/task/*"):
    if open(task + "/comm").read().startswith("iree-worker"):
        print(next(l.split()[1] for l in open(task + "/status") if l.startswith("Cpus_allowed_list")))
"""


def _worker_cpus(pinned: bool) -> list[str]:
    env = dict(os.environ, SHLO_PINNED_WORKERS="1" if pinned else "0")
    out = subprocess.run([sys.executable, "-c", WORKER_CPUS, ADD], env=env, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    return out.split()


def test_workers_unpinned_one_per_core():
    exe = shlo.compile(ADD, target="cpu")
    np.testing.assert_array_equal(exe(np.ones(4, np.float32)), np.full(4, 2, np.float32))
    own = next(line.split()[1] for line in open("/proc/self/status")
               if line.startswith("Cpus_allowed_list"))
    unpinned = _worker_cpus(pinned=False)
    # (under load a full run listed one worker of two after this one small call)
    assert 1 <= len(unpinned) <= physical_cores() and set(unpinned) == {own}
    if len(os.sched_getaffinity(0)) > 1 and physical_cores() > 1:
        assert own not in _worker_cpus(pinned=True)     # IREE's default: a core each


def test_physical_cores():
    assert 1 <= physical_cores() <= len(os.sched_getaffinity(0))
    assert glob.glob("/proc/self/task/*")
