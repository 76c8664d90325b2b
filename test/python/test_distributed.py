"""shlo.distributed and shlo-run under mpiexec: one process per MPI rank, collectives on MPI.

Every collective of test_host_collectives (each mode of the spec: cross_replica,
cross_partition, cross_replica_and_partition, flattened_ids) runs on 4 ranks (2 replicas x 2
partitions) for f32, i32, bf16, f8E4M3FN, i1, f64 and complex<f32>; each rank's result must
equal, byte for byte, what the thread engine (shlo.run_parallel) returns for that process and
the numpy oracle of test_host_collectives (groups written out by hand from the spec). Then
shlo-run under `mpiexec -n 2`, and the faults: mismatched collectives, a failing rank, a world
size that is not replicas x partitions, a rank that never arrives (timeout), a rank that
finishes early. MPICH's mpiexec runs more ranks than cores without flags.
"""
import json
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.runtime import distributed

import test_host_collectives as spec_cases
from conftest import tool

HERE = os.path.dirname(os.path.abspath(__file__))
MPIEXEC = tool("mpiexec")
ELEMENTS = {"f32": np.float32, "i32": np.int32, "bf16": ml_dtypes.bfloat16,
            "f8E4M3FN": ml_dtypes.float8_e4m3fn, "i1": np.bool_, "f64": np.float64,
            "complex<f32>": np.complex64}

pytestmark = pytest.mark.skipif(not os.path.exists(MPIEXEC) or
                                subprocess.run([sys.executable, "-c", "import mpi4py"]
                                               ).returncode != 0,
                                reason="no mpiexec / mpi4py here (pip install 'shlo[mpi]')")


def mpiexec(n: int, *command: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([MPIEXEC, "-n", str(n), *command], capture_output=True, text=True,
                          timeout=timeout, env=env)


def worker(n: int, tmp_path, runs: list, **extra) -> subprocess.CompletedProcess:
    path = tmp_path / f"spec{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps({"runs": runs, **extra}))
    return mpiexec(n, sys.executable, os.path.join(HERE, "distributed_worker.py"), str(path))


def save_inputs(path, per_rank: list) -> str:
    """Each rank's arguments as distributed_worker reads them (bytes, dtype name, shape)."""
    arrays = {}
    for r, args in enumerate(per_rank):
        for k, a in enumerate(args):
            a = np.ascontiguousarray(a)
            arrays.update({f"r{r}_{k}": np.frombuffer(a.tobytes(), np.uint8),
                           f"d{r}_{k}": np.array(a.dtype.name), f"s{r}_{k}": np.array(a.shape)})
    np.savez(path, **arrays)
    return str(path)


def rank_results(out: str, rank: int, like) -> list:
    """Rank `rank`'s results, as arrays of the dtypes and shapes of `like`."""
    data = np.load(f"{out}.{rank}.npz")
    return [data[f"arr_{i}"].view(np.asarray(a).dtype).reshape(np.shape(a))
            for i, a in enumerate(like)]


@pytest.fixture(scope="module")
def modules(ctx, tmp_path_factory):
    """element -> (executable, .vmfb path): the 2 x 2 module of test_host_collectives."""
    spec_cases.ELEMENTS.update(ELEMENTS)
    folder = tmp_path_factory.mktemp("distributed")
    out = {}
    for element in ELEMENTS:
        exe = shlo.compile(shlo.parse_module(spec_cases.module_text(element), context=ctx),
                           target="cpu")
        path = folder / f"{element.replace('<', '_').replace('>', '')}.vmfb"
        path.write_bytes(exe.vmfb)
        out[element] = exe, str(path)
    return out


@pytest.mark.slow
def test_every_collective_and_mode_on_4_ranks(modules, tmp_path):
    runs, checks = [], []
    for element, (exe, vmfb) in modules.items():
        xs = spec_cases.inputs(element)
        inputs = save_inputs(tmp_path / f"in_{len(checks)}.npz", [(x,) for x in xs])
        for name, (_, _, groups, combine) in spec_cases.CASES.items():
            out = str(tmp_path / f"out_{len(runs)}")
            runs.append({"vmfb": vmfb, "function": name, "replicas": 2, "partitions": 2,
                         "inputs": inputs, "out": out})
            threads = shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=2,
                                        num_partitions=2, programs=[name] * 4)
            oracle = [spec_cases.expected(combine, groups, xs, me) for me in range(4)]
            checks.append((f"{element} {name}", out, threads, oracle))
        out = str(tmp_path / f"out_{len(runs)}")
        runs.append({"vmfb": vmfb, "function": "ids", "replicas": 2, "partitions": 2,
                     "out": out})
        checks.append((f"{element} ids", out, None,
                       [(np.uint32(r), np.uint32(p)) for r in (0, 1) for p in (0, 1)]))
    done = worker(4, tmp_path, runs)
    assert done.returncode == 0, done.stderr[-3000:]
    for what, out, threads, oracle in checks:
        for me in range(4):
            like = oracle[me] if isinstance(oracle[me], tuple) else (oracle[me],)
            got = rank_results(out, me, like)
            for g, want in zip(got, like):
                np.testing.assert_array_equal(g, want, err_msg=f"{what} rank {me} vs numpy")
            if threads is not None:         # the thread engine's bytes, exactly
                assert got[0].tobytes() == np.asarray(threads[me]).tobytes(), \
                    f"{what} rank {me} vs run_parallel"


def _name(n: int, element: str, body: str) -> str:
    return f"{body}_{element.replace('<', '_').replace('>', '')}_{n}"


def _large_all_reduce(n: int, element: str, body: str) -> str:
    return f"""
  func.func @{_name(n, element, body)}(%x: tensor<{n}x{element}>) -> tensor<{n}x{element}> {{
    %0 = "stablehlo.all_reduce"(%x) ({{
    ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
      %s = stablehlo.{body} %a, %b : tensor<{element}>
      stablehlo.return %s : tensor<{element}>
    }}) {{replica_groups = dense<[[3, 1, 0, 2]]> : tensor<1x4xi64>, use_global_device_ids,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}}
        : (tensor<{n}x{element}>) -> tensor<{n}x{element}>
    return %0 : tensor<{n}x{element}>
  }}"""


LARGE = [(1 << 20, "f32", "add", np.add), (65537, "f32", "add", np.add),
         (100003, "bf16", "maximum", np.maximum), (40000, "complex<f32>", "multiply",
                                                   np.multiply)]


def test_large_all_reduce_on_4_ranks_folds_in_group_order(ctx, tmp_path):
    """Operands of 64 KiB or more fold a block per process (shlo-host-collectives'
    _reduce_in_blocks): results on MPI equal the threads' bit for bit, and numpy's fold in
    group order (3, 1, 0, 2) in the element type (complex: to rounding); 65537 and 100003
    elements need padding."""
    text = ("module attributes {mhlo.num_replicas = 1 : i32, mhlo.num_partitions = 4 : i32} {"
            + "".join(_large_all_reduce(n, e, body) for n, e, body, _ in LARGE) + "\n}")
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    vmfb = tmp_path / "large.vmfb"
    vmfb.write_bytes(exe.vmfb)
    rng = np.random.default_rng(3)
    runs, checks = [], []
    for n, element, body, fold in LARGE:
        dtype = ELEMENTS[element]
        xs = [(rng.standard_normal(n) + (1j * rng.standard_normal(n) if element.startswith(
            "complex") else 0)).astype(dtype) for _ in range(4)]
        want = xs[3]
        for k in (1, 0, 2):
            want = fold(want, xs[k]).astype(dtype)
        name, out = _name(n, element, body), str(tmp_path / f"o{len(runs)}")
        runs.append({"vmfb": str(vmfb), "function": name, "replicas": 1, "partitions": 4,
                     "inputs": save_inputs(tmp_path / f"in{len(runs)}.npz", [(x,) for x in xs]),
                     "out": out})
        threads = shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=1, num_partitions=4,
                                    programs=[name] * 4)
        checks.append((name, out, want, threads))
    done = worker(4, tmp_path, runs)
    assert done.returncode == 0, done.stderr[-3000:]
    for name, out, want, threads in checks:
        for me in range(4):
            got = rank_results(out, me, [want])[0]
            assert got.tobytes() == np.asarray(threads[me]).tobytes(), f"{name} rank {me}"
            if want.dtype.kind == "c":      # (IREE's complex product rounds as numpy's does not)
                np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=name)
            else:
                assert got.tobytes() == want.tobytes(), f"{name} rank {me} vs numpy"


ALL_REDUCE = """
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %r = stablehlo.replica_id : tensor<ui32>
    return %0, %r : tensor<4xf32>, tensor<ui32>
  }
  func.func @id() -> tensor<ui32> {
    %r = stablehlo.replica_id : tensor<ui32>
    return %r : tensor<ui32>
  }
}
"""


@pytest.fixture(scope="module")
def pair(ctx, tmp_path_factory):
    """The .vmfb of ALL_REDUCE (2 replicas)."""
    path = tmp_path_factory.mktemp("pair") / "all_reduce.vmfb"
    path.write_bytes(shlo.compile(shlo.parse_module(ALL_REDUCE, context=ctx), target="cpu").vmfb)
    return str(path)


def test_shlo_run_under_mpiexec_prints_what_the_threads_print(tmp_path):
    module = tmp_path / "all_reduce.mlir"
    module.write_text(ALL_REDUCE)
    args = [str(module), "--num-replicas", "2", "--input=4xf32=1,2,3,4",
            "--input=4xf32=5,6,7,8"]
    threads = subprocess.run([tool("shlo-run"), *args, "--function", "main"], capture_output=True, text=True,
                             timeout=120)
    assert threads.returncode == 0, threads.stderr
    ranks = mpiexec(2, tool("shlo-run"), *args, "--function", "main")
    assert ranks.returncode == 0, ranks.stderr
    assert ranks.stdout == threads.stdout           # (ranks print in order)
    assert "4xf32=6 8 10 12" in ranks.stdout and "ui32=1" in ranks.stdout
    files = [f"--output=@{tmp_path / f'{k}.npy'}" for k in ("s0", "id0", "s1", "id1")]
    ranks = mpiexec(2, tool("shlo-run"), *args, *files, "--function", "main")
    assert ranks.returncode == 0, ranks.stderr
    assert np.load(tmp_path / "s1.npy").tolist() == [6, 8, 10, 12]
    assert int(np.load(tmp_path / "id1.npy")) == 1


def _one_line_failure(done, pattern: str) -> None:
    import re
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.startswith("shlo")]
    assert lines and re.search(pattern, lines[0]), done.stderr[-3000:]


def test_mismatched_collectives_name_the_ranks(modules, tmp_path):
    vmfb = modules["f32"][1]
    inputs = save_inputs(tmp_path / "in.npz", [(x,) for x in spec_cases.inputs("f32")])
    names = ["all_reduce_cross_replica", "all_gather_flattened"] * 2
    done = worker(4, tmp_path, [{"vmfb": vmfb, "functions": names, "replicas": 2,
                                 "partitions": 2, "inputs": inputs,
                                 "out": str(tmp_path / "o")}])
    _one_line_failure(done, r"rank\(s\) 0, 2 run stablehlo.all_reduce \(collective #0, 32 "
                            r"bytes.*rank\(s\) 1, 3 run stablehlo.all_gather.*every rank must "
                            r"run the same collectives in one order")


def test_a_failing_rank_ends_the_job_with_its_error(pair, tmp_path):
    inputs = save_inputs(tmp_path / "in.npz", [(np.ones(4, np.float32),),
                                               (np.ones(2, np.float32),)])   # rank 1: bad
    done = worker(2, tmp_path, [{"vmfb": pair, "function": "main", "replicas": 2,
                                 "partitions": 1, "inputs": inputs, "out": str(tmp_path / "o")}])
    _one_line_failure(done, r"shlo: rank 1 of 2 failed: main: argument 0 expects 4xf32, got "
                            r"2xf32")


def test_world_size_must_be_replicas_times_partitions(tmp_path):
    module = tmp_path / "all_reduce.mlir"
    module.write_text(ALL_REDUCE)
    done = mpiexec(3, tool("shlo-run"), str(module), "--num-replicas", "2",
                   "--input=4xf32=1,2,3,4", "--input=4xf32=5,6,7,8")
    _one_line_failure(done, r"the module runs as 2 replica\(s\) x 1 partition\(s\) = 2 "
                            r"processes, but the job has 3 rank\(s\): start it with mpiexec -n 2")


def test_a_rank_that_never_arrives_times_out(pair, tmp_path):
    inputs = save_inputs(tmp_path / "in.npz", [(np.ones(4, np.float32),)] * 2)
    runs = [{"vmfb": pair, "function": "id", "replicas": 2, "partitions": 1,
             "out": str(tmp_path / "a")},
            {"vmfb": pair, "function": "main", "replicas": 2, "partitions": 1,
             "inputs": inputs, "out": str(tmp_path / "b")}]
    done = worker(2, tmp_path, runs, sleep={"1": 6}, sleep_at=1, timeout=1)
    _one_line_failure(done, r"shlo: rank 0 of 2 failed: stablehlo.all_reduce \(collective "
                            r"#0\): rank 0 \(replica 0, partition 0\) waited 1 s for rank\(s\) "
                            r"1, which did not reach it")


def test_a_rank_that_finishes_early_is_a_deadlock(pair, tmp_path):
    inputs = save_inputs(tmp_path / "in.npz", [(), (np.ones(4, np.float32),)])
    done = worker(2, tmp_path, [{"vmfb": pair, "functions": ["id", "main"], "replicas": 2,
                                 "partitions": 1, "inputs": inputs,
                                 "out": str(tmp_path / "o")}])
    _one_line_failure(done, r"deadlock: rank 1 \(replica 1, partition 0\) waits, and rank\(s\) "
                            r"0 finished their function|rank 0 \(replica 0, partition 0\) "
                            r"finished its function while rank\(s\) 1 still run collectives")


@pytest.fixture(scope="module")
def jax_programs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("jax")
    done = subprocess.run([sys.executable, os.path.join(HERE, "distributed_jax_programs.py"),
                           str(folder)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return folder


@pytest.mark.parametrize("name, arguments, results", [("matmul", 2, 1), ("mlp", 5, 4),
                                                     ("gspmd_mlp", 5, 4),
                                                     ("gspmd_shard_map", 2, 2)])
def test_sharded_jax_program_on_4_ranks_matches_xla(jax_programs, tmp_path, name, arguments,
                                                    results):
    """Shardy programs, and GSPMD ones (mhlo.sharding strings, shlo.shardy.import_gspmd)."""
    d = shlo.distributed
    reference = np.load(jax_programs / "reference.npz")
    exe = shlo.compile((jax_programs / f"{name}.mlir").read_text(), target="cpu")
    vmfb = tmp_path / "program.vmfb"
    vmfb.write_bytes(exe.vmfb)
    parts = d.shard(exe, *[reference[f"{name}_in{k}"] for k in range(arguments)])
    if name == "matmul":        # device 1 is mesh position (x=0, y=1): a's block [0, 1], b's [1]
        a, b = reference["matmul_in0"], reference["matmul_in1"]
        np.testing.assert_array_equal(parts[1][0], a[:32, 64:])
        np.testing.assert_array_equal(parts[1][1], b[64:])
        np.testing.assert_array_equal(parts[2][0], a[32:, :64])
    threads = shlo.run_parallel(exe, parts, num_replicas=1, num_partitions=4)
    inputs = save_inputs(tmp_path / "in.npz", parts)
    done = worker(4, tmp_path, [{"vmfb": str(vmfb), "function": "main", "replicas": 1,
                                 "partitions": 4, "inputs": inputs, "out": str(tmp_path / "o")}])
    assert done.returncode == 0, done.stderr[-3000:]
    ranks = []
    for p in range(4):
        like = threads[p] if isinstance(threads[p], tuple) else (threads[p],)
        ranks.append(tuple(rank_results(str(tmp_path / "o"), p, like)))
        assert [a.tobytes() for a in ranks[p]] == [np.asarray(a).tobytes() for a in like]
    for got in (d.gather(exe, ranks), d.gather(exe, list(threads))):
        got = got if isinstance(got, tuple) else (got,)
        for k in range(results):
            np.testing.assert_allclose(got[k], reference[f"{name}_out{k}"], rtol=2e-5,
                                       atol=2e-6, err_msg=f"{name} result {k}")


def test_vulkan_ranks_print_what_cpu_ranks_print(tmp_path):
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    module = tmp_path / "all_reduce.mlir"
    module.write_text(ALL_REDUCE)
    args = [str(module), "--num-replicas", "2", "--function", "main",
            "--input=4xf32=1,2,3,4", "--input=4xf32=5,6,7,8"]
    cpu, vulkan = (mpiexec(2, tool("shlo-run"), *args, "--target", t) for t in ("cpu", "vulkan"))
    assert vulkan.returncode == 0, vulkan.stderr[-3000:]
    assert vulkan.stdout == cpu.stdout and "4xf32=6 8 10 12" in vulkan.stdout


def test_send_without_a_receiver_is_an_error_on_mpi(ctx, tmp_path):
    vmfb = tmp_path / "io.vmfb"
    vmfb.write_bytes(shlo.compile(shlo.parse_module(spec_cases.IO, context=ctx),
                                  target="cpu").vmfb)
    x = np.arange(6).reshape(2, 3)
    done = worker(2, tmp_path, [{"vmfb": str(vmfb), "functions": ["send", "recv"],
                                 "replicas": 2, "partitions": 1, "out": str(tmp_path / "o"),
                                 "inputs": save_inputs(tmp_path / "in.npz", [(x,), (x,)])}])
    _one_line_failure(done, r"stablehlo.(send|recv) on channel 5: under MPI a (send|recv) must "
                            r"say which rank")


@pytest.fixture(scope="module")
def paired(ctx, tmp_path_factory):
    """(executable, .vmfb path) of test_host_collectives' PAIRED (send/recv with pairs)."""
    exe = shlo.compile(shlo.parse_module(spec_cases.PAIRED, context=ctx), target="cpu")
    path = tmp_path_factory.mktemp("paired") / "paired.vmfb"
    path.write_bytes(exe.vmfb)
    return exe, str(path)


def test_send_recv_with_pairs_on_2_ranks(paired, tmp_path):
    """64K-element messages over MPI (read out of channel order: rank 0 receives channel 2
    first, so channel 1's message waits) equal the thread engine's bytes and numpy's."""
    exe, vmfb = paired
    xs = spec_cases.paired_inputs()
    threads = shlo.run_parallel(exe, xs, num_replicas=2, programs=["exchange"] * 2)
    out = str(tmp_path / "o")
    done = worker(2, tmp_path, [{"vmfb": vmfb, "function": "exchange", "replicas": 2,
                                 "partitions": 1, "inputs": save_inputs(tmp_path / "in.npz", xs),
                                 "out": out}])
    assert done.returncode == 0, done.stderr[-3000:]
    for me in range(2):
        want = spec_cases.paired_expected(xs, me)
        got = rank_results(out, me, want)
        assert [g.tobytes() for g in got] == [np.asarray(w).tobytes() for w in want], me
        assert [g.tobytes() for g in got] == [np.asarray(t).tobytes() for t in threads[me]]


@pytest.mark.parametrize("functions, message", [
    (["idle", "recv_only"], r"stablehlo.recv on channel 3: deadlock: rank 1 \(replica 1, "
                            r"partition 0\) waits for a message of rank 0, which finished its "
                            r"function without sending it"),
    (["send_only", "idle"], r"the end of the run: 1 stablehlo.send message\(s\) were never "
                            r"received \(sent per rank: \[1, 0\], received per rank: \[0, 0\]\)"),
    (["reduce_then_send", "recv_then_reduce"], r"stablehlo.recv on channel 4: deadlock: rank 1 "
                                               r"\(replica 1, partition 0\) waits for a message "
                                               r"of rank 0, which went on to collective #0 "
                                               r"\(stablehlo.all_reduce\) without sending it"),
    (["recv_first", "recv_first"], r"stablehlo.recv on channel 5: deadlock: rank \d \(replica "
                                   r"\d, partition 0\) waits for a message of rank \d, which "
                                   r"waits in a recv for a message of this rank"),
])
def test_paired_send_recv_faults_on_mpi(paired, tmp_path, functions, message):
    """The faults test_host_collectives finds on threads, as one-line errors on MPI."""
    x = np.ones(65536, np.float32)
    inputs = save_inputs(tmp_path / "in.npz", [() if f in ("idle", "recv_only") else (x,)
                                               for f in functions])
    done = worker(2, tmp_path, [{"vmfb": paired[1], "functions": functions, "replicas": 2,
                                 "partitions": 1, "inputs": inputs, "out": str(tmp_path / "o")}])
    _one_line_failure(done, message)


@pytest.mark.parametrize("driver", ["cuda", "hip"])
def test_each_rank_of_a_host_opens_its_own_gpu(monkeypatch, driver):
    """A GPU driver named alone is the GPU local rank mod count; other devices stay as named."""
    for rank, gpus, want in [(0, 2, "://0"), (1, 2, "://1"), (2, 2, "://0"), (3, 4, "://3"),
                             (5, 1, "://0"), (1, 0, "")]:
        monkeypatch.setattr(distributed, "_host_rank", [])
        monkeypatch.setenv("MPI_LOCALRANKID", str(rank))
        assert distributed.rank_device(driver, count=lambda d: gpus) == driver + want
    for named in (f"{driver}://1", f"{driver}://GPU-00ff", "local-task", "local-sync", "vulkan"):
        assert distributed.rank_device(named, count=lambda d: 4) == named


@pytest.fixture(scope="module")
def cuda_pair(ctx, tmp_path_factory):
    """The .vmfb of ALL_REDUCE over 64K floats for CUDA (IREE compiles PTX with no GPU here)."""
    path = tmp_path_factory.mktemp("cuda_pair") / "all_reduce.vmfb"
    module = shlo.parse_module(ALL_REDUCE.replace("4xf32", "65536xf32"), context=ctx)
    path.write_bytes(shlo.compile(module, target="cuda:sm_80").vmfb)
    return str(path)


def test_cuda_ranks_reduce_through_the_host(cuda_pair, tmp_path):
    """Two CUDA ranks, each on its own GPU where the host has two, all-reduce 64K floats
    through shlo's host calls; on a host without a CUDA device the job ends with the device
    error in one line."""
    from shlo.runtime.devices import device_count
    x = [np.random.default_rng(r).standard_normal(65536).astype(np.float32) for r in range(2)]
    inputs = save_inputs(tmp_path / "in.npz", [(a,) for a in x])
    out = str(tmp_path / "o")
    done = worker(2, tmp_path, [{"vmfb": cuda_pair, "function": "main", "replicas": 2,
                                 "partitions": 1, "inputs": inputs, "out": out}],
                  device="cuda")
    if device_count("cuda") == 0:
        _one_line_failure(done, r"shlo: rank \d of 2 failed: cannot open IREE device 'cuda'")
        return
    assert done.returncode == 0, done.stderr[-3000:]
    for rank in range(2):
        total, replica = rank_results(out, rank, [x[0], np.uint32(0)])
        assert total.tobytes() == (x[0] + x[1]).tobytes() and int(replica) == rank
