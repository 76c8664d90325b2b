"""Random collectives on two processes against the StableHLO reference interpreter.

Each case is one program (all_gather, all_reduce, reduce_scatter, all_to_all,
collective_permute, collective_broadcast with random dimensions, groups, channel modes and
element types) run by `interpreter.run_parallel` in the interpreter and by
`shlo.run_parallel` on CPU, on 2 replicas x 1 partition or 1 x 2 (the interpreter runs one
thread per CPU; this machine has 2). Results must be equal bit for bit. One module per grid.
"""
import numpy as np
import pytest

import shlo

from reference_oracle import jaxlib_context

SEED, CASES = 20261124, 36
ELEMENTS = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i8": np.int8,
            "ui16": np.uint16, "i1": np.bool_}
REDUCERS = ("add", "maximum", "multiply")


def _type(shape, element):
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"


def _dense(array: np.ndarray, element: str) -> str:
    if element == "i1":
        values = ["true" if v else "false" for v in array.reshape(-1)]
    else:
        values = [repr(float(v)) if array.dtype.kind == "f" else str(int(v))
                  for v in array.reshape(-1)]
    return f"dense<[{', '.join(values)}]> : {_type([array.size], element)}"


def _case(rng, index: int, grid: tuple[int, int]):
    """(function text, result shape, element, inputs of the two processes)."""
    kind = rng.choice(["all_gather", "all_reduce", "reduce_scatter", "all_to_all",
                       "collective_permute", "collective_broadcast"])
    element = str(rng.choice(list(ELEMENTS) if kind in ("all_gather", "collective_permute",
                                                        "collective_broadcast", "all_to_all")
                             else ["f32", "f64", "i32", "i8", "ui16"]))
    rank = int(rng.integers(1, 4))
    shape = [int(rng.integers(1, 4)) * 2 for _ in range(rank)]
    dim = int(rng.integers(0, rank))
    partitions = grid[1] == 2
    # groups and the channel that selects how they name processes (spec rules per op)
    channel = "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"
    groups = "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"
    if rng.random() < 0.5:
        groups = "replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>"
    attrs = []
    if kind in ("all_gather", "all_reduce", "reduce_scatter"):
        if partitions:          # a channel: cross_replica_and_partition or flattened_ids
            attrs.append(channel)
            if rng.random() < 0.5:
                attrs.append("use_global_device_ids")
            else:               # groups of replica ids (one replica), times every partition
                groups = "replica_groups = dense<[[0]]> : tensor<1x1xi64>"
    elif partitions:            # all_to_all, permute, broadcast: a channel means partitions
        attrs.append(channel)
    t = _type(shape, element)
    result_shape = list(shape)
    reducer = str(rng.choice(REDUCERS))
    body = (f'({{\n    ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):\n'
            f'      %s = stablehlo.{reducer} %a, %b : tensor<{element}>\n'
            f'      stablehlo.return %s : tensor<{element}>\n  }})')
    if kind == "all_gather":
        result_shape[dim] *= 2
        op = f'"stablehlo.all_gather"(%x) {{all_gather_dim = {dim} : i64, {", ".join([groups] + attrs)}}}'
    elif kind == "all_reduce":
        op = f'"stablehlo.all_reduce"(%x) {body} {{{", ".join([groups] + attrs)}}}'
    elif kind == "reduce_scatter":
        result_shape[dim] //= 2
        op = (f'"stablehlo.reduce_scatter"(%x) {body} {{scatter_dimension = {dim} : i64, '
              f'{", ".join([groups] + attrs)}}}')
    elif kind == "all_to_all":
        concat = int(rng.integers(0, rank))
        result_shape[dim] //= 2
        result_shape[concat] *= 2
        op = (f'"stablehlo.all_to_all"(%x) {{split_dimension = {dim} : i64, concat_dimension = '
              f'{concat} : i64, split_count = 2 : i64, {", ".join([groups] + attrs)}}}')
    elif kind == "collective_permute":
        pairs = str(rng.choice(["[[0, 1]]", "[[1, 0]]", "[[0, 1], [1, 0]]"]))   # (the interpreter
        # hangs when a process is in no pair)
        count = pairs.count("[") - 1
        op = (f'"stablehlo.collective_permute"(%x) {{source_target_pairs = dense<{pairs}> : '
              f'tensor<{count}x2xi64>{"".join(", " + a for a in attrs)}}}')
    else:
        op = f'"stablehlo.collective_broadcast"(%x) {{{", ".join([groups] + attrs)}}}'
    r = _type(result_shape, element)
    name = f"c{index}_{kind}"
    text = f"  func.func @{name}(%x: {t}) -> {r} {{\n    %0 = {op} : ({t}) -> {r}\n    return %0 : {r}\n  }}"
    dtype = ELEMENTS[element]
    if element == "i1":
        inputs = [rng.random(shape) < 0.5 for _ in range(2)]
    elif np.dtype(dtype).kind == "f":
        inputs = [rng.integers(-3, 4, shape).astype(dtype) / 2 for _ in range(2)]
    elif np.dtype(dtype).kind == "u":
        inputs = [rng.integers(0, 5, shape).astype(dtype) for _ in range(2)]
    else:
        inputs = [rng.integers(-3, 4, shape).astype(dtype) for _ in range(2)]
    return name, text, t, r, element, inputs


def _cases(grid):
    rng = np.random.default_rng(SEED + grid[1])
    return [_case(rng, i, grid) for i in range(CASES)]


def _attributes(grid):
    return (f"attributes {{mhlo.num_replicas = {grid[0]} : i32, mhlo.num_partitions = "
            f"{grid[1]} : i32}}")


def _reference(case, grid) -> list[np.ndarray]:
    """The interpreter's run_parallel of one case: the two processes' results."""
    name, text, t, r, element, inputs = case
    constants = [f"    %in{i} = stablehlo.constant {_dense(x, element)}\n"
                 f"    %x{i} = stablehlo.reshape %in{i} : ({_type([x.size], element)}) -> {t}"
                 for i, x in enumerate(inputs)]
    programs = f"[[@{name}], [@{name}]]" if grid == (2, 1) else f"[[@{name}, @{name}]]"
    module = (f"module {_attributes(grid)} {{\n{text}\n  func.func @main() -> ({r}, {r}) {{\n"
              + "\n".join(constants) +
              f'\n    %r:2 = "interpreter.run_parallel"(%x0, %x1) {{programs = {programs}}}'
              f" : ({t}, {t}) -> ({r}, {r})\n    return %r#0, %r#1 : {r}, {r}\n  }}\n}}")
    jir, stablehlo, ctx = jaxlib_context()
    with ctx:
        results = stablehlo.eval_module(jir.Module.parse(module), [])
    return [np.array(a, copy=True).astype(inputs[0].dtype) for a in results]


@pytest.mark.parametrize("grid", [(2, 1), (1, 2)], ids=["2_replicas", "2_partitions"])
def test_random_collectives_match_the_interpreter(ctx, grid):
    cases = _cases(grid)
    text = f"module {_attributes(grid)} {{\n" + "\n".join(c[1] for c in cases) + "\n}"
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    for case in cases:
        name, function_text, _, _, _, inputs = case
        got = shlo.run_parallel(exe, [(x,) for x in inputs], num_replicas=grid[0],
                                num_partitions=grid[1], programs=[name, name])
        for process, (g, want) in enumerate(zip(got, _reference(case, grid))):
            np.testing.assert_array_equal(g, want, err_msg=f"process {process}\n{function_text}")
