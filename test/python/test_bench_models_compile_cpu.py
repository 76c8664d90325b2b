"""shlo-bench --suite models: the compile CPU time columns (the compile's process CPU time,
a child iree-compile's included, against XLA's)."""
import io

from shlo.tools import bench_models


def test_a_row_has_compile_cpu_times_and_the_table_prints_them():
    model = next(m for m in bench_models.models() if m.name == "nbody")
    row = bench_models.run_model(model, rounds=1, budget=0.01, small=True, vulkan=False)
    assert "error" not in row, row.get("error")
    assert row["shlo_compile_cpu_ms"] > 0 and row["xla_compile_cpu_ms"] > 0
    assert row["compile_cpu_ratio"] == row["shlo_compile_cpu_ms"] / row["xla_compile_cpu_ms"]
    out = io.StringIO()
    bench_models.print_table([row], out)
    assert "in CPU time" in out.getvalue() and f"{row['compile_cpu_ratio']:.1f}" in out.getvalue()
