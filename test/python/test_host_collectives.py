"""shlo.run_parallel and shlo-host-collectives: a 2-replica x 2-partition module runs as four
processes whose collectives, send/recv and infeed/outfeed meet on the host.

The oracle is numpy over process groups written out by hand from the spec's definitions
(cross_replica, cross_partition, cross_replica_and_partition, flattened_ids), not computed by
shlo's own group code. Process i is (replica i // 2, partition i % 2). One module per target.
"""
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

ADD = """({
    ^bb0(%a: tensor<E>, %b: tensor<E>):
      %s = stablehlo.add %a, %b : tensor<E>
      stablehlo.return %s : tensor<E>
  })"""
MUL = ADD.replace("stablehlo.add", "stablehlo.multiply")
CH = "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"

# name -> (op text with T/R (operand/result type) and E (element), result shape of a 4x2
# operand, the groups each process belongs to (flattened ids, in group order), how the group's
# operands combine)
CASES = {
    # cross_replica: one group per partition
    "all_reduce_cross_replica": (
        f'"stablehlo.all_reduce"(%x) {ADD} {{replica_groups = dense<[[0, 1]]> : '
        f'tensor<1x2xi64>}} : (T) -> R', (4, 2), [[0, 2], [1, 3]], "sum"),
    # cross_replica_and_partition: replicas {0, 1} x every partition, partition-major
    "all_reduce_replica_and_partition": (
        f'"stablehlo.all_reduce"(%x) {MUL} {{replica_groups = dense<[[0, 1]]> : '
        f'tensor<1x2xi64>, {CH}}} : (T) -> R', (4, 2), [[0, 2, 1, 3]], "product"),
    # flattened_ids
    "all_gather_flattened": (
        f'"stablehlo.all_gather"(%x) {{all_gather_dim = 1 : i64, replica_groups = '
        f'dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>, {CH}, use_global_device_ids}} : (T) -> R',
        (4, 4), [[0, 3], [2, 1]], "concat1"),
    # cross_partition (all_to_all with a channel): one group per replica
    "all_to_all_cross_partition": (
        f'"stablehlo.all_to_all"(%x) {{split_dimension = 0 : i64, concat_dimension = 1 : i64, '
        f'split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, {CH}}} '
        f': (T) -> R', (2, 4), [[0, 1], [2, 3]], "all_to_all"),
    "reduce_scatter_reversed_group": (
        f'"stablehlo.reduce_scatter"(%x) {ADD} {{scatter_dimension = 0 : i64, '
        f'replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}} : (T) -> R', (2, 2),
        [[2, 0], [3, 1]], "reduce_scatter"),
    "collective_permute_cross_partition": (
        f'"stablehlo.collective_permute"(%x) {{source_target_pairs = dense<[[0, 1]]> : '
        f'tensor<1x2xi64>, {CH}}} : (T) -> R', (4, 2), [[0, 1], [2, 3]], "permute"),
    "collective_permute_to_nobody": (
        '"stablehlo.collective_permute"(%x) {source_target_pairs = dense<> : tensor<0x2xi64>}'
        ' : (T) -> R', (4, 2), [], "permute"),
    "collective_broadcast_from_replica_1": (
        '"stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : '
        'tensor<1x2xi64>} : (T) -> R', (4, 2), [[2, 0], [3, 1]], "broadcast"),
}
ELEMENTS = {"f32": np.float32, "i32": np.int32, "bf16": ml_dtypes.bfloat16,
            "complex<f32>": np.complex64}


def _type(shape, element):
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def module_text(element: str) -> str:
    functions = []
    for name, (body, shape, _, _) in CASES.items():
        t, r = _type((4, 2), element), _type(shape, element)
        body = body.replace("tensor<E>", f"tensor<{element}>").replace("(T)", f"({t})") \
            .replace("-> R", f"-> {r}")
        functions.append(f"  func.func @{name}(%x: {t}) -> {r} {{\n    %0 = {body}\n"
                         f"    return %0 : {r}\n  }}")
    functions.append("""  func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>
  }""")
    return ("module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} "
            "{\n" + "\n".join(functions) + "\n}")


def inputs(element: str) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    out = []
    for _ in range(4):
        x = rng.integers(-4, 5, (4, 2))
        if element.startswith("complex"):
            x = x + 1j * rng.integers(-4, 5, (4, 2))
        out.append(x.astype(ELEMENTS[element]))
    return out


def expected(combine: str, groups, xs, me: int) -> np.ndarray:
    group = next((g for g in groups if me in g), None)
    wide = [x.astype(np.complex128 if x.dtype.kind == "c" else np.float64) for x in xs]
    if combine == "sum":
        out = sum(wide[m] for m in group)
    elif combine == "product":
        out = np.prod([wide[m] for m in group], axis=0)
    elif combine == "concat1":
        out = np.concatenate([wide[m] for m in group], axis=1)
    elif combine == "all_to_all":             # block j of every member, j = my position
        j = group.index(me)
        out = np.concatenate([np.split(wide[m], len(group), axis=0)[j] for m in group], axis=1)
    elif combine == "reduce_scatter":
        j = group.index(me)
        out = sum(np.split(wide[m], len(group), axis=0)[j] for m in group)
    elif combine == "permute":                # pairs (source, target); no source: zeros
        sources = [g[0] for g in groups if g[1] == me]
        out = wide[sources[0]] if sources else np.zeros_like(wide[me])
    else:                                     # broadcast from the group's first member
        out = wide[group[0]]
    return out.astype(xs[0].dtype)


@pytest.fixture(scope="module", params=list(ELEMENTS))
def compiled(request, ctx):
    element = request.param
    return element, shlo.compile(shlo.parse_module(module_text(element), context=ctx),
                                 target="cpu")


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.every_case
def test_collective_matches_spec_groups(compiled, name):
    element, exe = compiled
    _, _, groups, combine = CASES[name]
    xs = inputs(element)
    results = shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=2, num_partitions=2,
                                programs=[name] * 4)
    for me in range(4):
        np.testing.assert_array_equal(results[me], expected(combine, groups, xs, me),
                                      err_msg=f"{name} process {me}")


@pytest.mark.every_case
def test_replica_and_partition_ids(compiled):
    _, exe = compiled
    results = shlo.run_parallel(exe, [()] * 4, num_replicas=2, num_partitions=2,
                                programs=["ids"] * 4)
    assert [(int(r), int(p)) for r, p in results] == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_vulkan_runs_the_same_processes(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(module_text("f32"), context=ctx), target="vulkan")
    xs = inputs("f32")
    for name, (_, _, groups, combine) in CASES.items():
        results = shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=2, num_partitions=2,
                                    programs=[name] * 4)
        for me in range(4):
            np.testing.assert_array_equal(results[me], expected(combine, groups, xs, me),
                                          err_msg=f"{name} process {me}")


IO = """
func.func @send(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %t = stablehlo.after_all : !stablehlo.token
  %t1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<2x3xi64>, !stablehlo.token) -> !stablehlo.token
  %y = stablehlo.negate %x : tensor<2x3xi64>
  %t2 = "stablehlo.send"(%y, %t1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<2x3xi64>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<2x3xi64>
}
func.func @recv(%x: tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>) {
  %t = stablehlo.after_all : !stablehlo.token
  %a:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (!stablehlo.token) -> (tensor<2x3xi64>, !stablehlo.token)
  %b:2 = "stablehlo.recv"(%a#1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (!stablehlo.token) -> (tensor<2x3xi64>, !stablehlo.token)
  return %a#0, %b#0 : tensor<2x3xi64>, tensor<2x3xi64>
}
func.func @feed(%k: tensor<f32>) -> tensor<3xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %a:3 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<3xf32>, tensor<2xi1>, !stablehlo.token)
  %b:2 = "stablehlo.infeed"(%a#2) : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
  %kk = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %s = stablehlo.add %a#0, %b#0 : tensor<3xf32>
  %m = stablehlo.multiply %s, %kk : tensor<3xf32>
  %o1 = "stablehlo.outfeed"(%m, %a#1, %b#1) {outfeed_config = "first"} : (tensor<3xf32>, tensor<2xi1>, !stablehlo.token) -> !stablehlo.token
  %o2 = "stablehlo.outfeed"(%s, %o1) : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  return %m : tensor<3xf32>
}
"""


@pytest.fixture(scope="module")
def io(ctx):
    return shlo.compile(shlo.parse_module(IO, context=ctx), target="cpu")


def test_send_recv_keeps_channel_order(io):
    x = np.arange(6).reshape(2, 3)
    results = shlo.run_parallel(io, [(x,), (x * 0,)], programs=["send", "recv"])
    np.testing.assert_array_equal(results[0], x)
    np.testing.assert_array_equal(results[1][0], x)
    np.testing.assert_array_equal(results[1][1], -x)


def test_infeed_and_outfeed_per_process(io):
    queues = [[(np.array([1, 2, 3], np.float32), np.array([True, False])),
               np.array([10, 20, 30], np.float32)],
              [(np.array([0, 0, 1], np.float32), np.array([False, True])),
               np.array([5, 5, 5], np.float32)]]
    run = shlo.run_parallel(io, [(np.float32(2),), (np.float32(-1),)], programs=["feed"] * 2,
                            infeed=queues)
    for i, k in enumerate((2, -1)):
        s = queues[i][0][0] + queues[i][1]
        np.testing.assert_array_equal(run[i], s * k)
        (m, flags), (total,) = run.outfeed[i]
        np.testing.assert_array_equal(m, s * k)
        np.testing.assert_array_equal(flags, queues[i][0][1])
        np.testing.assert_array_equal(total, s)
        assert run.outfeed_configs[i] == ["first", ""]


def _channel(n: int) -> str:
    return f"channel_handle = #stablehlo.channel_handle<handle = {n}, type = 1>"


RING = "source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>"
ONE_TO_ZERO = "source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>"
XLA_RING = 'mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1},{1,0}}"}'
ZERO_TO_ONE = "source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>"
X, Y, TOK = "tensor<65536xf32>", "tensor<256x300xbf16>", "!stablehlo.token"
# send / recv that name their pairs (the op's source_target_pairs, XLA's frontend attribute):
# @exchange swaps x on channel 1 (twice: x, then 2x, in order), and sends process 1's y to
# process 0 on channel 2 (process 1 receives zeros there), receiving channel 2 first.
PAIRED = f"""
module attributes {{mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32}} {{
func.func @exchange(%x: {X}, %y: {Y}) -> ({X}, {Y}, {X}) {{
  %t = stablehlo.after_all : {TOK}
  %t1 = "stablehlo.send"(%x, %t) {{{RING}, {_channel(1)}}} : ({X}, {TOK}) -> {TOK}
  %t2 = "stablehlo.send"(%y, %t1) {{{ONE_TO_ZERO}, {_channel(2)}}} : ({Y}, {TOK}) -> {TOK}
  %x2 = stablehlo.add %x, %x : {X}
  %t3 = "stablehlo.send"(%x2, %t2) {{{XLA_RING}, {_channel(1)}}} : ({X}, {TOK}) -> {TOK}
  %b:2 = "stablehlo.recv"(%t3) {{{ONE_TO_ZERO}, {_channel(2)}}} : ({TOK}) -> ({Y}, {TOK})
  %a:2 = "stablehlo.recv"(%b#1) {{{RING}, {_channel(1)}}} : ({TOK}) -> ({X}, {TOK})
  %c:2 = "stablehlo.recv"(%a#1) {{{XLA_RING}, {_channel(1)}}} : ({TOK}) -> ({X}, {TOK})
  return %a#0, %b#0, %c#0 : {X}, {Y}, {X}
}}
func.func @idle() -> tensor<i32> {{
  %c = stablehlo.constant dense<0> : tensor<i32>
  return %c : tensor<i32>
}}
func.func @send_only(%x: {X}) -> {X} {{
  %t = stablehlo.after_all : {TOK}
  %t1 = "stablehlo.send"(%x, %t) {{{ZERO_TO_ONE}, {_channel(3)}}} : ({X}, {TOK}) -> {TOK}
  return %x : {X}
}}
func.func @recv_only() -> {X} {{
  %t = stablehlo.after_all : {TOK}
  %a:2 = "stablehlo.recv"(%t) {{{ZERO_TO_ONE}, {_channel(3)}}} : ({TOK}) -> ({X}, {TOK})
  return %a#0 : {X}
}}
func.func @recv_first(%x: {X}) -> {X} {{
  %t = stablehlo.after_all : {TOK}
  %a:2 = "stablehlo.recv"(%t) {{{RING}, {_channel(5)}}} : ({TOK}) -> ({X}, {TOK})
  %t1 = "stablehlo.send"(%x, %a#1) {{{RING}, {_channel(5)}}} : ({X}, {TOK}) -> {TOK}
  return %a#0 : {X}
}}
func.func @reduce_then_send(%x: {X}) -> {X} {{
  %s = "stablehlo.all_reduce"(%x) {ADD.replace("E", "f32")} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({X}) -> {X}
  %t = stablehlo.after_all : {TOK}
  %t1 = "stablehlo.send"(%s, %t) {{{ZERO_TO_ONE}, {_channel(4)}}} : ({X}, {TOK}) -> {TOK}
  return %s : {X}
}}
func.func @recv_then_reduce(%x: {X}) -> {X} {{
  %t = stablehlo.after_all : {TOK}
  %r:2 = "stablehlo.recv"(%t) {{{ZERO_TO_ONE}, {_channel(4)}}} : ({TOK}) -> ({X}, {TOK})
  %s = "stablehlo.all_reduce"(%r#0) {ADD.replace("E", "f32")} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({X}) -> {X}
  return %s : {X}
}}
}}
"""


def paired_inputs() -> list:
    rng = np.random.default_rng(7)
    return [(rng.standard_normal(65536).astype(np.float32),
             rng.standard_normal((256, 300)).astype(ml_dtypes.bfloat16)) for _ in range(2)]


def paired_expected(xs: list, me: int) -> tuple:
    """numpy: what process `me` of @exchange returns."""
    other = xs[1 - me]
    y = other[1] if me == 0 else np.zeros_like(other[1])
    return other[0], y, other[0] + other[0]


# (functions of processes 0 and 1, the thread engine's error)
PAIRED_FAULTS = [
    (["idle", "recv_only"], r"stablehlo.recv on channel 3 from process 0 \(replica 0, "
                            r"partition 0\): deadlock: process 1"),
    (["send_only", "idle"], r"stablehlo.send on channel 3: process 0 \(replica 0, partition "
                            r"0\) sent 1 message\(s\) to process 1 \(replica 1, partition 0\) "
                            r"that it did not receive"),
    (["reduce_then_send", "recv_then_reduce"], r"deadlock: process \d \(replica \d, "
                                               r"partition 0\) waits"),
    (["recv_first", "recv_first"], r"stablehlo.recv on channel 5 from process \d \(replica "
                                   r"\d, partition 0\): deadlock"),
]


@pytest.fixture(scope="module")
def paired(ctx):
    return shlo.compile(shlo.parse_module(PAIRED, context=ctx), target="cpu")


def test_send_recv_with_source_target_pairs(paired):
    """64K-element f32 and 77K-element bf16 messages, from each source to its target only,
    in channel order, zeros where no one sends (as collective_permute)."""
    xs = paired_inputs()
    results = shlo.run_parallel(paired, xs, num_replicas=2, programs=["exchange"] * 2)
    for me in range(2):
        for got, want in zip(results[me], paired_expected(xs, me)):
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), f"process {me}"


GRID_PAIRS = """
module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {
""" + "".join(f"""
func.func @{name}(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %t = stablehlo.after_all : !stablehlo.token
  %t1 = "stablehlo.send"(%x, %t) {{{ZERO_TO_ONE}, {_channel(n)}}} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %a:2 = "stablehlo.recv"(%t1) {{{ZERO_TO_ONE}, {_channel(n)}}} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %a#0 : tensor<4xf32>
}}""" for name, n in (("by_partition", 1), ("by_replica", 0))) + "\n}"


def test_send_recv_pairs_name_partitions_or_replicas(ctx):
    """On 2 replicas x 2 partitions, pairs [[0, 1]] name partitions in each replica (channel
    handle 1: process 0 -> 1, 2 -> 3) or replicas in each partition (handle 0: 0 -> 2,
    1 -> 3), as collective_permute's groups do; processes no pair sends to get zeros."""
    exe = shlo.compile(shlo.parse_module(GRID_PAIRS, context=ctx), target="cpu")
    xs = [np.full(4, 10 * (i + 1), np.float32) for i in range(4)]
    zero = np.zeros(4, np.float32)
    for name, want in (("by_partition", [zero, xs[0], zero, xs[2]]),
                       ("by_replica", [zero, zero, xs[0], xs[1]])):
        got = shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=2, num_partitions=2,
                                programs=[name] * 4)
        for me in range(4):
            np.testing.assert_array_equal(got[me], want[me], err_msg=f"{name} process {me}")


@pytest.mark.parametrize("functions, message", PAIRED_FAULTS)
@pytest.mark.every_case
def test_paired_send_recv_faults(paired, functions, message):
    x = np.ones(65536, np.float32)
    inputs = [() if f in ("idle", "recv_only") else (x,) for f in functions]
    with pytest.raises(shlo.InvocationError, match=message) as info:
        shlo.run_parallel(paired, inputs, num_replicas=2, programs=functions)
    assert len(str(info.value).splitlines()) == 1


@pytest.mark.parametrize("call, message", [
    (lambda exe: exe.function("recv")(np.zeros((2, 3), np.int64)),
     r"stablehlo.recv on channel 5: deadlock: process 0 \(replica 0, partition 0\) waits"),
    (lambda exe: exe.function("feed")(np.float32(1)),
     r"the infeed queue of process 0 \(replica 0, partition 0\) is empty"),
    (lambda exe: shlo.run_parallel(exe, [(np.float32(1),)], programs=["feed"],
                                   infeed=[[np.zeros(3, np.float32)]]),
     r"stablehlo.infeed reads 2 tensor\(s\), the queue's item has 1"),
    (lambda exe: shlo.run_parallel(exe, [(np.float32(1),)], programs=["feed"],
                                   infeed=[[(np.zeros(4, np.float32), np.zeros(2, bool))]]),
     r"expected tensor<3xf32>, the queue holds a float32 array of shape \(4,\)"),
    (lambda exe: shlo.run_parallel(exe, [(np.float32(1),)] * 3, num_replicas=2),
     r"2 replica\(s\) x 1 partition\(s\) need 2 argument lists \(one per process\), got 3"),
])
@pytest.mark.every_case
def test_bad_runs_are_one_line_errors(io, call, message):
    with pytest.raises(shlo.InvocationError, match=message) as info:
        call(io)
    assert len(str(info.value).splitlines()) == 1


@pytest.mark.every_case
def test_multi_process_module_called_alone_says_how_to_run_it(compiled):
    element, exe = compiled
    with pytest.raises(shlo.InvocationError, match=r"the module is for 2 replica\(s\) x 2 "
                       r"partition\(s\) but runs as 1 x 1: run it as 2 x 2 processes "
                       r"\(shlo.run_parallel"):
        exe.function("all_reduce_cross_replica")(inputs(element)[0])


@pytest.mark.every_case
def test_processes_running_different_collectives_fail_clearly(compiled):
    element, exe = compiled
    xs = inputs(element)
    with pytest.raises(shlo.InvocationError, match="every process must run the same "
                                                   "collectives in one order"):
        shlo.run_parallel(exe, [(x,) for x in xs], num_replicas=2, num_partitions=2,
                          programs=["all_reduce_cross_replica", "all_gather_flattened",
                                    "all_reduce_cross_replica", "all_gather_flattened"])


def test_no_leak_warnings_at_exit():
    """The host modules' VM contexts are freed (nanobind reports leaks at exit otherwise),
    also after a failed call and a failed run."""
    script = textwrap.dedent("""
        import numpy as np, shlo
        exe = shlo.compile(IO)
        shlo.run_parallel(exe, [(np.ones((2, 3), np.int64),)] * 2, programs=["send", "recv"])
        try:
            exe.function("recv")(np.ones((2, 3), np.int64))
        except shlo.Error:
            pass
        try:
            shlo.run_parallel(exe, [(np.ones((2, 3), np.int64),)] * 2, programs=["recv"] * 2)
        except shlo.Error:
            pass
    """).replace("IO", repr(IO))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "leaked" not in done.stderr, done.stderr[:2000]
