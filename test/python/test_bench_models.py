"""shlo-bench's models tier (tools/bench_models.py): every whole jax program compiles for the
cpu target, and for vulkan, with shlo's defaults and agrees with XLA, at the small sizes (the
heavy programs, whose compiles take 20 s and more, are marked slow); and the table prints."""
import io

import pytest

from shlo.tools import bench_models

MODELS = {m.name: m for m in bench_models.models()}


def _case(name):
    m = MODELS[name]
    return pytest.param(name, marks=pytest.mark.slow) if m.slow else name


@pytest.mark.parametrize("name", [_case(n) for n in MODELS])
def test_model_agrees_with_xla(name):
    p = bench_models.prepare(MODELS[name], small=True)
    executable = p.shlo_compile("cpu")
    assert bench_models.disagreement(MODELS[name], executable(*p.args), p.xla_call()) is None


# fast on lavapipe (about 2 CPU s to compile at the small size); the rest run with -m slow
# (transformer_decode and nbody have tests of their own below)
VULKAN_DEFAULT = ("lstm_scan", "moe_layer")


@pytest.mark.parametrize("name", [
    n if n in VULKAN_DEFAULT else pytest.param(n, marks=pytest.mark.slow) for n in MODELS])
def test_model_agrees_with_xla_on_vulkan(name):
    """Every whole program on Vulkan (shlo's defaults) against XLA on the CPU, on its first
    call and on a second one."""
    _agrees_on_vulkan(MODELS[name], calls=2)


def _agrees_on_vulkan(model, calls: int) -> None:
    """`model` at its small size compiled for Vulkan, each of `calls` calls against XLA."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    p = bench_models.prepare(model, small=True)
    executable = p.shlo_compile("vulkan")
    want = p.xla_call()
    for call in range(calls):
        assert bench_models.disagreement(model, executable(*p.args), want) is None, call


def test_later_calls_of_a_bf16_training_step_on_vulkan():
    """The bf16 transformer training step, three calls on Vulkan against XLA: with IREE's
    memoized command buffers every call after the first returned NaNs and 1.7e37s in the
    embedding and Adam's moments, silently (the vulkan target compiles without them:
    docs/iree_gaps.md, vk-memoized-command-buffers)."""
    _agrees_on_vulkan(MODELS["transformer_train_bf16"], calls=3)


def test_models_run_on_vulkan():
    """`--target vulkan`: shlo runs the program on Vulkan, checked against XLA on the CPU."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    row = bench_models.run_model(MODELS["nbody"], rounds=1, budget=0.01, small=True,
                                 target="vulkan", vulkan=False)
    assert "error" not in row and row["target"] == "vulkan" and row["shlo_ms"] > 0
    out = io.StringIO()
    bench_models.print_table([row], out)
    assert "shlo on vulkan; XLA on the cpu" in out.getvalue()


def test_transformer_decode_on_vulkan_keeps_its_device():
    """The decode loop, eight runs on Vulkan against XLA: without vk-loop-index-readback its
    per-trip host read raced IREE's queue, and lavapipe lost the device in a third of the
    runs at this size, half at full size (docs/iree_gaps.md)."""
    _agrees_on_vulkan(MODELS["transformer_decode"], calls=8)


def test_a_baseline_without_a_pass_is_checked_and_timed_in_the_same_rounds():
    row = bench_models.run_model(MODELS["nbody"], rounds=1, budget=0.01, small=True,
                                 vulkan=False, without=("shlo-expand-constant-powers",))
    assert "error" not in row and row["baseline_ms"] > 0 and row["ratio_baseline"] > 0
    assert row["shlo_cpu_ms"] > 0 and row["cpu_ratio_baseline"] > 0 and row["cpu_ratio_xla"] > 0
    # nbody's steps: 2 executables (3 while its loop also carried jax's unread second counter,
    # before shlo-drop-dead-loop-carries)
    assert row["executables"] == 2 and 0 < row["pipeline_cpu_ms"] < row["shlo_compile_cpu_ms"]
    with pytest.raises(ValueError, match="no such pass"):
        bench_models.pipeline_without("cpu", ["shlo-fence"])


def test_disagreement_names_the_result():
    import numpy as np
    m = MODELS["nbody"]
    want = [np.zeros((4, 3), np.float32), np.arange(3, dtype=np.int32)]
    assert bench_models.disagreement(m, [w.copy() for w in want], want) is None
    worse = [want[0] + 1, want[1]]
    assert "result 0" in bench_models.disagreement(m, worse, want)
    assert "1 of 3 integers" in bench_models.disagreement(m, [want[0], want[1] * [1, 1, 2]], want)


def test_executables_are_counted_by_export_name():
    vmfb = (b"\0main_dispatch_0_matmul_like_8x8_f32\0main_dispatch_0_matmul_like_8x8_f32\0"
            b"main$async_dispatch_12_elementwise\0_encoding_0_encode_64x8xf32_to_64x8xf32\0"
            b"_initializer_1_dispatch_0\0")
    assert bench_models.executable_count(vmfb) == 4


def test_table_prints_ratios_and_errors():
    rows = [{"name": "a", "shlo_ms": 2.0, "xla_ms": 1.0, "ratio_xla": 2.0, "shlo_spread": 0.1,
             "xla_spread": 0.05, "shlo_compile_ms": 3000.0, "xla_compile_ms": 1000.0,
             "compile_ratio": 3.0, "vulkan_compile_ms": 4000.0, "device": "local-sync",
             "executables": 17, "pipeline_cpu_ms": 250.0},
            {"name": "b", "error": "boom", "vulkan_error": "no"}]
    out = io.StringIO()
    bench_models.print_table(rows, out)
    text = out.getvalue()
    assert "ERROR: boom" in text and "vulkan b: no" in text and "geomean shlo/XLA over 1" in text
    assert "  0.25   17 " in text
    assert "on the calling thread (local-sync, runtime.abi.mark_small_loops): a\n" in text
