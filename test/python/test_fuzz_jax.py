"""shlo-fuzz --jax (tools/fuzz/jax_programs.py): whole jax programs are deterministic per
seed, the comparison against XLA's f32 and f64 results flags wrong elements and no others,
runs find nothing on programs shlo gets right, and reproducers replay."""
import io
import json
import os

import numpy as np
import pytest

from conftest import vulkan_or_skip
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz import jax_programs as J
from shlo.tools.fuzz.runner import InProcess


def _small(count: int) -> list[str]:
    """Names of the first `count` programs of seed 11 on at most 1024 elements (quick to
    compile)."""
    names = (f"11:{i}" for i in range(1000))
    return [n for n in names if J.random_program(n).args[0].size <= 1024][:count]


def test_programs_are_deterministic_per_seed():
    a, b, c = J.random_program("7:3"), J.random_program("7:3"), J.random_program("7:4")
    assert a.describe() == b.describe() and a.blocks
    assert all(np.array_equal(x, y) for x, y in zip(a.args, b.args))
    assert (a.describe(), len(a.args)) != (c.describe(), len(c.args)) or \
        not all(np.array_equal(x, y) for x, y in zip(a.args, c.args))


def test_compare_flags_wrong_elements_only():
    rng = np.random.default_rng(0)
    exact = rng.standard_normal(4096)
    f32 = exact.astype(np.float32)
    assert J.compare([f32.copy()], [f32], [exact]) is None
    ulp = np.nextafter(f32, np.float32(np.inf))     # one ulp off everywhere: XLA's own size
    assert J.compare([ulp], [f32], [exact]) is None
    wrong = f32.copy()
    wrong[17] += np.float32(1e-3) * np.abs(f32).max()
    assert "1 of 4096 elements off" in J.compare([wrong], [f32], [exact])
    nan = f32.copy()
    nan[5] = np.nan
    assert "non-finite" in J.compare([nan], [f32], [exact])
    assert "float32[4095]" in J.compare([f32[1:]], [f32], [exact])
    assert "2 outputs" in J.compare([f32, f32], [f32], [exact])


def test_a_run_on_cpu_finds_nothing():
    first = int(_small(1)[0].split(":")[1])
    out = io.StringIO()
    result = J.run(1, 11, ["cpu"], None, InProcess(), first=first,
                   progress=fuzz.Progress(1, out))
    assert result["summary"] == "1 jax programs, 0 mismatches, 0 crashes, 0 errors"
    assert "1/1" in out.getvalue()


@pytest.mark.slow
def test_a_run_on_vulkan_finds_nothing():
    vulkan_or_skip()
    result = J.run(3, 11, ["vulkan"], None, InProcess())
    assert result["summary"] == "3 jax programs, 0 mismatches, 0 crashes, 0 errors"


def test_a_reproducer_replays(tmp_path):
    """Saved, a program replays with `shlo-fuzz --replay`; with XLA's saved results changed
    (as if shlo were wrong), the replay reports the mismatch."""
    program = J.random_program(_small(1)[0])
    where = str(tmp_path / "jax-mismatch-cpu-11")
    J.save(where, program, "cpu", "mismatch", "planted")
    with open(os.path.join(where, "meta.json")) as f:
        assert json.load(f)["kind"] == "jax"
    assert fuzz.replay(where, None, InProcess()) is None
    for prefix in ("xla_f32", "xla_f64"):
        path = os.path.join(where, f"{prefix}_0.npy")
        np.save(path, np.load(path) + 1)
    assert "elements off" in fuzz.replay(where, "cpu", InProcess())
