"""lstm_scan of the models tier at its real size (48 steps, batch 16, hidden 128, its gradient)
is a module of small loops by `abi.mark_small_loops`' loop rule: `shlo.compile` runs it on the
calling thread (local-sync), where it agrees with XLA as on local-task."""
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
