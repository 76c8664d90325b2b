"""Deploy: shlo's .vmfb files run by runtime/standalone_loader.py in a fresh venv that has only
`iree-base-runtime` and numpy installed (pip-installed here; skipped with the reason when pip
cannot reach a package index), with no shlo and no compiler in it."""
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.runtime import standalone_loader
from shlo.runtime.devices import driver_available

PROGRAM = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.multiply %a, %0 : tensor<2x3xf32>
  %2 = stablehlo.tanh %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
func.func @mixed(%i: tensor<6xi4>, %u: tensor<ui8>, %h: tensor<4xbf16>, %x: tensor<2xf64>)
    -> (tensor<6xi4>, tensor<ui8>, tensor<4xbf16>, tensor<2xf64>) {
  %0 = stablehlo.add %i, %i : tensor<6xi4>
  %1 = stablehlo.maximum %u, %u : tensor<ui8>
  %2 = stablehlo.multiply %h, %h : tensor<4xbf16>
  %3 = stablehlo.add %x, %x : tensor<2xf64>
  return %0, %1, %2, %3 : tensor<6xi4>, tensor<ui8>, tensor<4xbf16>, tensor<2xf64>
}
"""

CHILD = r"""
import sys
import ml_dtypes
import numpy as np
import standalone_loader
for name in ("shlo", "iree.compiler"):
    try:
        __import__(name)
        sys.exit(f"{name} is importable in the deploy venv")
    except ImportError:
        pass
data = np.load("data.npz")
for device in sys.argv[1:]:
    model = standalone_loader.load(f"model_{device}.vmfb", device=device)
    np.testing.assert_allclose(model(data["a"], data["b"]), data["main"], rtol=2e-6)
    i4 = data["i"].astype(ml_dtypes.int4)              # .npz holds it as int8
    got = model.function("mixed")(i4, data["u"], data["h"].view(ml_dtypes.bfloat16), data["x"])
    wants = (data["mixed_i"].astype(ml_dtypes.int4), data["mixed_u"],
             data["mixed_h"].view(ml_dtypes.bfloat16), data["mixed_x"])
    for value, want in zip(got, wants):
        assert value.dtype == want.dtype and value.shape == want.shape, (value, want)
        np.testing.assert_array_equal(value.astype(np.float64), want.astype(np.float64))
    try:
        model(data["b"], data["a"])
    except ValueError as e:
        assert str(e) == "main: argument 0 expects 2x3xf32, got 3xf32", e
    else:
        sys.exit("bad arguments were not rejected")
print("OK", " ".join(sys.argv[1:]))
"""


def inputs():
    rng = np.random.default_rng(3)
    return dict(a=rng.standard_normal((2, 3)).astype(np.float32),
                b=rng.standard_normal(3).astype(np.float32),
                i=np.array([7, -8, 3, -1, 0, 5], ml_dtypes.int4), u=np.array(250, np.uint8),
                h=np.array([1.5, -2, 0.25, 3], ml_dtypes.bfloat16),
                x=np.array([1 + 2**-40, -3.0]))


def oracle(d):
    """numpy: main and mixed (i4 sums wrap; the i4 array is stored as int8 in the .npz)."""
    wrapped = (d["i"].astype(np.int64) * 2 + 8) % 16 - 8
    return dict(main=np.tanh(d["a"].astype(np.float64) * d["b"]).astype(np.float32),
                mixed_i=wrapped.astype(np.int8), mixed_u=d["u"],
                mixed_h=(d["h"].astype(np.float32) ** 2).astype(ml_dtypes.bfloat16),
                mixed_x=d["x"] * 2)


def runtime_venv() -> str:
    """The python of a venv holding only iree-base-runtime (this version) and numpy.

    Built once and kept (SHLO_TEST_VENV_DIR, default ~/.cache/shlo-test); it is built in a
    temporary folder and renamed into place, so a half-built venv is never reused.
    """
    version = importlib.metadata.version("iree-base-runtime")
    root = os.environ.get("SHLO_TEST_VENV_DIR") or os.path.expanduser("~/.cache/shlo-test")
    venv = os.path.join(root, f"deploy-venv-{version}")
    python = os.path.join(venv, "bin", "python")
    if os.path.exists(python):
        return python
    os.makedirs(root, exist_ok=True)
    building = tempfile.mkdtemp(prefix=".building-", dir=root)
    subprocess.run([sys.executable, "-m", "venv", building], check=True, capture_output=True)
    done = subprocess.run([os.path.join(building, "bin", "python"), "-m", "pip", "install",
                           "--quiet", "--disable-pip-version-check",
                           f"iree-base-runtime=={version}", "numpy"],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        pytest.skip(f"pip cannot install iree-base-runtime here: {lines[-1]}")
    # Only `bin/python` is used, which finds its packages relative to itself: the venv moves.
    try:
        os.replace(building, venv)
    except OSError:                  # another run got there first
        shutil.rmtree(building, ignore_errors=True)
    return python


@pytest.fixture(scope="module")
def deploy_dir(tmp_path_factory, ctx):
    """A folder with the loader, .vmfb files, data, and a venv with only the runtime wheel."""
    folder = tmp_path_factory.mktemp("deploy")
    python = runtime_venv()
    shutil.copy(standalone_loader.__file__, folder / "standalone_loader.py")
    module = shlo.parse_module(PROGRAM, context=ctx)
    devices = ["local-task"] + (["vulkan"] if driver_available("vulkan")[0] else [])
    for device in devices:
        target = "cpu" if device == "local-task" else device
        shlo.compile(module, target=target).save(str(folder / f"model_{device}.vmfb"))
    data = inputs()
    data.update(oracle(data))
    data["i"] = data["i"].astype(np.int8)                 # .npz cannot hold ml_dtypes:
    data["h"] = data["h"].view(np.uint16)                 # i4 as int8, bf16 as its bits
    data["mixed_h"] = data["mixed_h"].view(np.uint16)
    np.savez(folder / "data.npz", **data)
    (folder / "child.py").write_text(CHILD)
    return folder, python, devices


def run_child(folder, python, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run([python, *args], cwd=folder, capture_output=True, text=True, env=env,
                          timeout=300)


def test_loader_runs_shlo_modules_without_shlo(deploy_dir):
    folder, python, devices = deploy_dir
    done = run_child(folder, python, "child.py", *devices)
    assert done.returncode == 0, done.stderr + done.stdout
    assert done.stdout.strip() == "OK " + " ".join(devices)


def test_loader_command_line(deploy_dir):
    folder, python, _ = deploy_dir
    data = np.load(folder / "data.npz")
    np.save(folder / "a.npy", data["a"])
    np.save(folder / "b.npy", data["b"])
    done = run_child(folder, python, "standalone_loader.py", "model_local-task.vmfb", "a.npy",
                     "b.npy", "-o", "out.npy")
    assert done.returncode == 0, done.stderr
    np.testing.assert_allclose(np.load(folder / "out.npy"), data["main"], rtol=2e-6)


def test_loader_source_imports_only_the_runtime():
    source = open(standalone_loader.__file__).read()
    imported = {line.split()[1].split(".")[0] for line in source.splitlines()
                if line.startswith(("import ", "from ")) and "__future__" not in line}
    assert imported <= {"dataclasses", "os", "re", "time", "argparse", "iree", "ml_dtypes",
                        "numpy"}, imported
    assert "iree.compiler" not in source
