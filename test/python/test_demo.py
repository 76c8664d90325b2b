"""The README's demo, run in-process: both targets must agree with the numpy oracle."""
import os

from shlo.tools import demo


def test_demo_runs_end_to_end(tmp_path, capsys):
    status = demo.main(["--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    lines = out.splitlines()
    cpu = next(line for line in lines if line.startswith("cpu "))
    vulkan = next(line for line in lines if line.startswith("vulkan "))
    assert cpu.endswith(" ok")
    assert vulkan.endswith(" ok") or "not run: cannot open IREE device 'vulkan'" in vulkan
    for name in ("mlp_cpu.vmfb", "mlp_vulkan.vmfb", "mlp.mlir", "mlp_legalized.mlir"):
        assert os.path.getsize(tmp_path / name) > 0
    assert "chlo.erf" in (tmp_path / "mlp.mlir").read_text()
    assert "chlo." not in (tmp_path / "mlp_legalized.mlir").read_text()


def test_numpy_oracle_is_independent_of_shlo():
    # The oracle must catch a wrong model: perturbing one weight changes its output.
    data = demo.inputs()
    want = demo.mlp_numpy(*data)
    data[1][0, 0] += 1.0
    assert abs(demo.mlp_numpy(*data) - want).max() > 1e-6
    assert abs(want.sum(axis=1) - 1).max() < 1e-12
