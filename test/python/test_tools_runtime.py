"""shlo-compile and shlo-run on Vulkan, with f64 demotion and on a crash of IREE, through the
command lines."""
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


def test_a_crash_of_iree_is_one_line_from_the_command_lines(tmp_path):
    """The CLIs compile in a child iree-compile: IREE 3.13's segfault on a complex bitcast
    (left to IREE with --pipeline=none) is a one-line error and exit status 1."""
    source = tmp_path / "bitcast.mlir"
    source.write_text("""func.func @main(%x: tensor<2xcomplex<f32>>) -> tensor<complex<f64>> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2xcomplex<f32>>) -> tensor<complex<f64>>
  return %0 : tensor<complex<f64>>
}
""")
    done = run("shlo-compile", str(source), "--pipeline=none", "-o", str(tmp_path / "b.vmfb"))
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "IREE's compiler crashed (SIGSEGV)" in done.stderr and "reproducer:" in done.stderr
    np.save(tmp_path / "x.npy", np.array([1 + 2j, 3 + 4j], np.complex64))
    ran = run("shlo-run", str(source), f"--input=@{tmp_path / 'x.npy'}",
              f"--output=@{tmp_path / 'y.npy'}")
    assert ran.returncode == 0, ran.stderr                    # shlo's pipeline rewrites it
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy").reshape(1).view(np.complex64),
                                  [1 + 2j, 3 + 4j])
