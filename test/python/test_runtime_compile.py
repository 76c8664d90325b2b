"""shlo.compile: the on-disk cache, IREE diagnostics with a replayable reproducer, stage dumps."""
import os
import shlex
import subprocess

import numpy as np
import pytest

import shlo
from shlo.pipelines import DEFAULT_PASSES
from conftest import BIN, vulkan_or_skip
from shlo.runtime import cache as cache_module
from shlo.runtime.cache import CompileCache

SCALE = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<%s> : tensor<3xf32>
  %0 = stablehlo.multiply %x, %c : tensor<3xf32>
  return %0 : tensor<3xf32>
}"""
X = np.array([1, -2, 0.5], np.float32)


def scaled(factor):
    return SCALE.replace("%s", repr(float(factor)))


@pytest.fixture
def cache(tmp_path):
    return CompileCache(str(tmp_path / "cache"))


def entries(cache):
    return sorted(n for n in os.listdir(cache.directory) if n.endswith(".vmfb"))


def test_second_compile_is_a_hit_and_keys_separate_targets_and_flags(cache):
    first = shlo.compile(scaled(2), target="vmvx", cache=cache)
    assert (cache.hits, cache.misses) == (0, 1) and len(entries(cache)) == 1
    again = shlo.compile(scaled(2), target="vmvx", cache=cache)
    assert cache.hits == 1 and again.vmfb == first.vmfb
    np.testing.assert_array_equal(again(X), X * 2)
    shlo.compile(scaled(2), target="vmvx", flags=["--iree-opt-level=O1"], cache=cache)
    shlo.compile(scaled(3), target="vmvx", cache=cache)
    assert cache.misses == 3 and len(entries(cache)) == 3
    assert not [n for n in os.listdir(cache.directory) if n.startswith(".tmp-")]   # atomic


def test_compiler_version_is_part_of_the_key(cache, monkeypatch):
    shlo.compile(scaled(2), target="vmvx", cache=cache)
    monkeypatch.setattr(cache_module, "compiler_version", lambda: "3.14.0@other")
    shlo.compile(scaled(2), target="vmvx", cache=cache)
    assert cache.hits == 0 and len(entries(cache)) == 2


def test_the_host_cpu_is_part_of_the_key_for_cpu_only(cache, monkeypatch):
    from shlo.pipelines import cpu_tuning
    for target in ("cpu", "vmvx", "cpu:x86-64-v2"):
        shlo.compile(scaled(2), target=target, cache=cache)
    monkeypatch.setattr(cpu_tuning, "host_cpu_features", lambda: frozenset({"sse2", "other"}))
    for target in ("cpu", "vmvx", "cpu:x86-64-v2"):
        shlo.compile(scaled(2), target=target, cache=cache)
    assert cache.hits == 2 and len(entries(cache)) == 4      # only cpu (`host`) compiled again


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
@pytest.mark.every_case
def test_damaged_entry_is_detected_and_rebuilt(cache, damage):
    shlo.compile(scaled(5), target="vmvx", cache=cache)
    path = os.path.join(cache.directory, entries(cache)[0])
    data = open(path, "rb").read()
    damaged = {"truncate": data[:len(data) // 2],
               "flip": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
               "garbage": b"not a cache entry"}[damage]
    open(path, "wb").write(damaged)
    rebuilt = shlo.compile(scaled(5), target="vmvx", cache=cache)
    assert cache.rebuilt == 1 and cache.hits == 0
    np.testing.assert_array_equal(rebuilt(X), X * 5)
    assert open(path, "rb").read() == data                     # the entry is whole again


def test_size_limit_evicts_least_recently_used(tmp_path):
    cache = CompileCache(str(tmp_path / "cache"))
    for factor in (2, 3):
        shlo.compile(scaled(factor), target="vmvx", cache=cache)
    for name in entries(cache):                              # both long unused...
        os.utime(os.path.join(cache.directory, name), (1, 1))
    shlo.compile(scaled(2), target="vmvx", cache=cache)      # ...until a hit refreshes 2
    assert cache.hits == 1
    cache.max_bytes = cache.size() + 10                      # room for about two entries
    shlo.compile(scaled(4), target="vmvx", cache=cache)
    assert len(entries(cache)) == 2 and cache.size() <= cache.max_bytes
    hits = cache.hits
    shlo.compile(scaled(2), target="vmvx", cache=cache)          # survived: still a hit
    assert cache.hits == hits + 1
    shlo.compile(scaled(3), target="vmvx", cache=cache)          # evicted: compiled again
    assert cache.hits == hits + 1


def test_cache_location_and_switch_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SHLO_CACHE_DIR", str(tmp_path / "here"))
    monkeypatch.setenv("SHLO_CACHE_MAX_BYTES", "12345")
    found = CompileCache.from_environment()
    assert found.directory == str(tmp_path / "here") and found.max_bytes == 12345
    shlo.compile(scaled(7), target="vmvx")
    assert len(os.listdir(tmp_path / "here")) == 1
    monkeypatch.setenv("SHLO_CACHE", "0")
    assert CompileCache.from_environment() is None
    monkeypatch.delenv("SHLO_CACHE_DIR")
    monkeypatch.delenv("SHLO_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert CompileCache.from_environment().directory == str(tmp_path / "home/.cache/shlo")


CHOLESKY = """func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}"""


def test_compile_error_has_iree_message_and_a_command_that_replays_it(ctx):
    # no shlo pipeline: IREE itself meets the cholesky (shlo-expand-linalg would decompose it)
    module = shlo.parse_module(CHOLESKY, context=ctx, source_name="chol.mlir")
    with pytest.raises(shlo.CompileError) as info:
        shlo.compile(module, target="cpu", flags=["--iree-opt-level=O1"], pipeline="none",
                     cache=False)
    error = info.value
    message = str(error)
    assert "chol.mlir:2:8: failed to legalize operation 'stablehlo.cholesky'" in message
    assert "stablehlo.cholesky" in open(error.reproducer).read()
    words = shlex.split(error.command)
    assert words[:2] == ["shlo-compile", error.reproducer]
    assert "--iree-flag=--iree-opt-level=O1" in words
    replay = subprocess.run([os.path.join(BIN, words[0])] + words[1:], capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode == 1
    iree_message = message.split(" (reproducer:")[0]
    assert iree_message in replay.stderr                        # the same IREE diagnostic


def test_a_crash_of_iree_is_a_compile_error_and_the_process_lives_on(ctx):
    """IREE 3.13 segfaults on a complex<f32> -> complex<f64> bitcast (without shlo's pipeline,
    which rewrites it): compiled in a child iree-compile (isolate), that is a CompileError."""
    text = """func.func @main(%x: tensor<2xcomplex<f32>>) -> tensor<complex<f64>> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2xcomplex<f32>>) -> tensor<complex<f64>>
  return %0 : tensor<complex<f64>>
}"""
    module = shlo.parse_module(text, context=ctx, source_name="bitcast.mlir")
    with pytest.raises(shlo.CompileError, match=r"IREE's compiler crashed \(SIGSEGV\) "
                                                r"\(reproducer: "):
        shlo.compile(module, target="cpu", pipeline=None, cache=False, isolate=True)
    x = np.array([1 + 2j, 3 - 4j], np.complex64)
    got = shlo.compile(module, target="cpu", cache=False, isolate=True)(x)   # shlo's pipeline
    np.testing.assert_array_equal(np.asarray(got).reshape(1).view(np.complex64), x)
    with pytest.raises(shlo.CompileError, match="IREE rejected the flags of target 'cpu:host': "
                                                "--no-such-iree-flag: no such IREE option"):
        shlo.compile(module, target="cpu", flags=["--no-such-iree-flag"], isolate=True)


def test_process_global_flags_compile_in_a_child_iree_compile(ctx, tmp_path):
    """IREE sessions reject process-global options ("option not found"); shlo compiles such a
    module with the iree-compile executable instead, with every flag, dumps and errors kept."""
    flag = "--iree-llvmcpu-matmul-tile-bytes=16777216"
    dump = tmp_path / "ir"
    executable = shlo.compile(scaled(3), target="cpu", flags=[flag], cache=False,
                              dump_dir=str(dump))
    np.testing.assert_array_equal(executable(X), X * 3)
    assert any(n.endswith("iree-vm.mlir") for n in os.listdir(dump))
    module = shlo.parse_module(CHOLESKY, context=ctx, source_name="chol.mlir")
    with pytest.raises(shlo.CompileError, match=r"chol.mlir:2:8: failed to legalize operation "
                       r"'stablehlo.cholesky'.* \(reproducer: .*--iree-flag=" + flag):
        shlo.compile(module, target="cpu", flags=[flag], pipeline="none", cache=False)
    with pytest.raises(shlo.CompileError, match="'abc' value invalid for integer argument"):
        shlo.compile(scaled(3), target="cpu", cache=False,
                     flags=["--iree-llvmcpu-matmul-tile-bytes=abc"])


def test_dump_dir_has_every_stage_in_order(tmp_path):
    dump = tmp_path / "ir"
    executable = shlo.compile(scaled(2), target="vmvx", cache=False, dump_dir=str(dump))
    names = sorted(os.listdir(dump))
    assert names[0] == "000-input.mlir"
    stages = [*DEFAULT_PASSES, "boundary"]
    assert [n[4:-5] for n in names[1:1 + len(stages)]] == stages
    phases = [n[4:-5] for n in names[1 + len(stages):]]
    assert phases[0] == "iree-input" and phases[-1] == "iree-vm" and "iree-flow" in phases
    assert "vm.func" in (dump / names[-1]).read_text()
    np.testing.assert_array_equal(executable(X), X * 2)


def test_compile_accepts_text_modules_and_wrappers_and_rejects_garbage(ctx):
    class Computation:                       # anything with a `.module`, like an XlaComputation
        module = shlo.parse_module(scaled(2), context=ctx)
    np.testing.assert_array_equal(shlo.compile(Computation(), target="vmvx", cache=False)(X), X * 2)
    with pytest.raises(shlo.ParseError):
        shlo.compile("func.func @main(")
    with pytest.raises(shlo.CompileError, match="expects an ir.Module, MLIR text or bytecode"):
        shlo.compile(42)
    with pytest.raises(shlo.CompileError, match="IREE rejected the flags of target 'vmvx'"):
        shlo.compile(scaled(2), target="vmvx", flags=["--no-such-iree-flag"], cache=False)
    # nothing to export: IREE itself says "outer module does not contain a vm.module op"
    for text in ("", "module {}", "func.func private @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                 "  return %a : tensor<2xf32>\n}"):
        with pytest.raises(shlo.CompileError, match="nothing to compile: the module has no "
                                                    "public func.func"):
            shlo.compile(text, cache=False)
    # IREE's own message: "'hal.element_type' op unsupported element type"
    with pytest.raises(shlo.CompileError, match=r"function @main: argument 0 is "
                                                r"tensor<4xf4E2M1FN>, which cannot cross"):
        shlo.compile("func.func @main(%a: tensor<4xf4E2M1FN>) -> tensor<4xf32> {\n"
                     "  %0 = stablehlo.convert %a : (tensor<4xf4E2M1FN>) -> tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n}", cache=False)


def test_same_module_for_two_targets(ctx):
    module = shlo.parse_module(scaled(3), context=ctx)
    on_cpu = shlo.compile(module, target="cpu", cache=False)
    on_vmvx = shlo.compile(module, target="vmvx", cache=False)
    np.testing.assert_array_equal(on_cpu(X), on_vmvx(X))
    # (a 3-element module: the cpu target's local-task runs it on the calling thread)
    assert on_cpu.device == "local-sync" and on_vmvx.device == "local-sync"


def test_compile_does_not_touch_the_callers_module(ctx):
    # IREE 3.13 cannot compile a sine, as shlo expands it, in a cumulative window's body
    module = shlo.parse_module("""func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %c) <{window_dimensions = array<i64: 3>,
        padding = dense<[[2, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    %o = stablehlo.sine %s : tensor<f32>
    stablehlo.return %o : tensor<f32>
  }) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}""", context=ctx)
    before = shlo.print_module(module)
    with pytest.raises(shlo.CompileError, match="unresolved source materialization"):
        shlo.compile(module, target="cpu", cache=False)
    assert shlo.print_module(module) == before


BASES = np.linspace(0.5, 0.984375, 32).astype(np.float32)
CONSTANT_POWER = """func.func @main(%x: tensor<32xf32>, %n: tensor<f32>) -> tensor<32xf32> {
  %b = stablehlo.constant dense<[BASES]> : tensor<32xf32>
  %m = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<32xf32>
  %p = stablehlo.power %b, %m : tensor<32xf32>
  %0 = stablehlo.multiply %x, %p : tensor<32xf32>
  return %0 : tensor<32xf32>
}""".replace("BASES", ", ".join(repr(float(b)) for b in BASES))


@pytest.mark.parametrize("target, flags, evaluated_by_iree", [
    ("cpu", (), False), ("cpu", ("--iree-opt-const-eval=true",), True), ("vulkan", (), False)])
def test_constant_expressions_are_computed_when_the_module_loads(tmp_path, target, flags,
                                                                 evaluated_by_iree):
    """cpu and vulkan compile without IREE's const-eval (a second JIT-compiled module, most of
    a training step's compile): the constant part of pow(0.9, n) (shlo-accurate-math's f64 log
    of 0.9) stays in a hoisted initializer, run when the module loads, with the same values;
    the flag turns const-eval back on. (32 bases: shlo-fold-constant-scalars folds constant
    expressions of at most 16 elements itself.)"""
    from shlo.pipelines.targets import NO_CONST_EVAL, get_target
    if target == "vulkan":
        vulkan_or_skip()
    assert NO_CONST_EVAL in get_target(target).flags
    executable = shlo.compile(CONSTANT_POWER, target=target, flags=list(flags), cache=False,
                              dump_dir=str(tmp_path))
    x = np.linspace(-3, 3, 32).astype(np.float32)
    np.testing.assert_allclose(executable(x, np.float32(7.5)),
                               x * BASES.astype(np.float64) ** 7.5, rtol=4e-7)
    [phase] = [n for n in os.listdir(tmp_path) if n.endswith("iree-global-optimization.mlir")]
    assert ("util.initializer" in (tmp_path / phase).read_text()) != evaluated_by_iree


def test_mlir_timing_prints_iree_compiles_pass_times(capfd, cache):
    """`--mlir-timing` (process-global: a child iree-compile) prints IREE's per-pass times, as
    iree-compile does, and a cached module is compiled again to print them."""
    shlo.compile(scaled(5), target="cpu", cache=cache)
    executable = shlo.compile(scaled(5), target="cpu", flags=["--mlir-timing"], cache=cache)
    np.testing.assert_array_equal(executable(X), X * 5)
    assert "Execution time report" in capfd.readouterr().err
    shlo.compile(scaled(5), target="cpu", flags=["--mlir-timing"], cache=cache)
    assert "Execution time report" in capfd.readouterr().err
