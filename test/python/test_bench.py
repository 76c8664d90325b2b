"""shlo-bench runs end to end (timings are never asserted: only that it measures and agrees)."""
import json

from shlo.tools import shlo_bench
from shlo.tools.bench_workloads import workloads


def test_bench_runs_and_checks_agreement(tmp_path, capsys):
    out = tmp_path / "bench.json"
    status = shlo_bench.main(["--only", "gather_1M,matmul_1024", "--rounds", "1", "--budget", "0.01",
                              "--json", str(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["name"] for r in rows) == ["gather_1M", "matmul_1024"]
    for r in rows:
        assert r["shlo_ms"] > 0 and r["xla_ms"] > 0 and r["ratio_xla"] > 0
    assert "geomean shlo/XLA over 2 workloads" in text


def test_unknown_workload_is_a_clean_error(capsys):
    assert shlo_bench.main(["--only", "nope"]) == 2
    assert "unknown workload(s) nope" in capsys.readouterr().err


def test_suite_covers_the_issue_workloads():
    names = {w.name for w in workloads()}
    for required in ("matmul_1024", "matmul_4096", "mlp_256x1024x3", "layernorm_4096x1024",
                     "reduce_sum_4096x4096", "attention_s512_d512_h8", "conv3x3_56x56x64",
                     "resblock_56x56x64", "softmax_4096x4096", "elementwise10_16M", "sort_16K",
                     "sort_64K", "sort_1M", "cumsum_1M", "scatter_add_1M", "gather_1M",
                     "argmax_rows_4096x4096", "gelu_erf_16M", "lgamma_16M", "top_k_64x4096_k16",
                     "sort_i32_64K", "sort_i32_1M"):
        assert required in names
