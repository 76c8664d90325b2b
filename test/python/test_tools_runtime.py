"""shlo-compile and shlo-run on Vulkan and with f64 demotion, through the command lines."""
import subprocess

import numpy as np

from conftest import tool, vulkan_or_skip

MODULE = """func.func @main(%x: tensor<3xf64>, %n: tensor<2xi4>) -> (tensor<3xf64>, tensor<2xi4>) {
  %0 = stablehlo.exponential %x : tensor<3xf64>
  %1 = stablehlo.add %n, %n : tensor<2xi4>
  return %0, %1 : tensor<3xf64>, tensor<2xi4>
}
"""


def run(*args):
    return subprocess.run([tool(args[0]), *args[1:]], capture_output=True, text=True, timeout=300)


def test_vulkan_through_the_command_lines(tmp_path):
    vulkan_or_skip()
    source = tmp_path / "m.mlir"
    source.write_text(MODULE)
    vmfb = str(tmp_path / "m.vmfb")
    # f64 exp on Vulkan: SPIR-V has none, shlo-expand-f64-math computes it in f64 arithmetic
    full = run("shlo-compile", str(source), "--target", "vulkan", "-o", vmfb)
    assert full.returncode == 0, full.stderr
    exact = run("shlo-run", vmfb, "--device", "vulkan", "--input=3xf64=0,1,-1",
                "--input=2xi4=7,-8", f"--output=@{tmp_path / 'f64.npy'}", "--output=-")
    assert exact.returncode == 0, exact.stderr
    np.testing.assert_allclose(np.load(tmp_path / "f64.npy"), np.exp([0.0, 1.0, -1.0]),
                               rtol=1e-15)
    done = run("shlo-compile", str(source), "--target", "vulkan", "--demote-f64", "-o", vmfb)
    assert done.returncode == 0, done.stderr
    assert "ConvertTypesPass" not in done.stderr          # shlo keeps the f64 interface itself
    out = run("shlo-run", vmfb, "--device", "vulkan", "--input=3xf64=0,1,-1", "--input=2xi4=7,-8",
              f"--output=@{tmp_path / 'e.npy'}", "--output=-")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "2xi4=-2 0"       # 7+7 and -8-8 wrap around in i4
    e = np.load(tmp_path / "e.npy")
    assert e.dtype == np.float64
    np.testing.assert_allclose(e, np.exp([0.0, 1.0, -1.0]), rtol=1e-6)   # computed in f32


def test_shlo_run_compiles_an_mlir_for_the_device_it_is_asked_to_use(tmp_path):
    vulkan_or_skip()
    source = tmp_path / "m.mlir"
    source.write_text(MODULE.replace("f64", "f32"))
    out = run("shlo-run", str(source), "--device", "vulkan", "--input=3xf32=0,0,0",
              "--input=2xi4=1,2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[2:] == ["3xf32=1 1 1", "result[1]: hal.buffer_view",
                                          "2xi4=2 4"]
