"""Models on one thread: lstm_scan of the models tier at its real size (48 steps, batch 16,
hidden 128, its gradient) is a module of small loops by `abi.mark_small_loops`' loop rule:
`shlo.compile` runs it on the calling thread (local-sync), where it agrees with XLA as on
local-task; `run_model(other_device=True)` times the same .vmfb on the other CPU device in the
same rounds."""
import io

from shlo.runtime.executable import Executable
from shlo.tools import bench_models


def test_lstm_scan_runs_on_the_calling_thread_and_agrees_with_xla():
    model = next(m for m in bench_models.models() if m.name == "lstm_scan")
    p = bench_models.prepare(model)
    compiled = p.shlo_compile("cpu", cache=False)
    assert compiled.executable.device == "local-sync"
    want = p.xla_call()
    assert bench_models.disagreement(model, compiled(*p.args), want) is None
    on_task = Executable(compiled.executable.vmfb, device="local-task")
    assert bench_models.disagreement(model, on_task(*p.args), want) is None


def test_the_other_cpu_device_is_checked_and_timed_in_the_same_rounds():
    model = next(m for m in bench_models.models() if m.name == "nbody")
    row = bench_models.run_model(model, rounds=1, budget=0.01, small=True, vulkan=False,
                                 other_device=True)
    assert "error" not in row       # (small nbody is a small loop: local-sync)
    assert {row["device"], row["other_device"]} == {"local-task", "local-sync"}
    assert row["other_ms"] > 0 and row["ratio_other"] > 0 and row["cpu_ratio_other"] > 0
    out = io.StringIO()
    bench_models.print_table([row], out)
    assert f"nbody: {row['device']} / the same .vmfb on {row['other_device']}: wall " \
        in out.getvalue()
