"""Random dot_general, gather and scatter against the reference interpreter, on CPU and
Vulkan: dimension numbers drawn at random (batching dimensions in any position, several
contracting dimensions, operand and start-index batching dimensions, any index_vector_dim,
collapsed/inserted window dimensions), out-of-bounds and negative start indices, update
computations add/max/multiply/replace, integer and mixed-precision dots. Small integer
values keep every sum exact in any order."""
import numpy as np
import pytest

import shlo
from conftest import cases_on, vulkan_or_skip
from reference_oracle import check_all


def _t(shape, element):
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


DOT_TYPES = [("f32", "f32", np.float32), ("f16", "f16", np.float16), ("i8", "i32", np.int8),
             ("i32", "i32", np.int32), ("ui8", "ui32", np.uint8), ("f16", "f32", np.float16),
             ("i64", "i64", np.int64)]


def _dot(rng, k):
    tin, tout, dtype = DOT_TYPES[int(rng.integers(0, len(DOT_TYPES)))]
    sizes = {role: [int(rng.integers(1, 5)) for _ in range(int(rng.integers(0, 3)))]
             for role in "bclr"}
    lhs = [("b", i) for i in range(len(sizes["b"]))] + [("c", i) for i in range(len(sizes["c"]))] \
        + [("l", i) for i in range(len(sizes["l"]))]
    rhs = [("b", i) for i in range(len(sizes["b"]))] + [("c", i) for i in range(len(sizes["c"]))] \
        + [("r", i) for i in range(len(sizes["r"]))]
    rng.shuffle(lhs)
    rng.shuffle(rhs)
    lshape, rshape = [sizes[t][i] for t, i in lhs], [sizes[t][i] for t, i in rhs]
    numbers = [[lhs.index((role, i)) for i in range(len(sizes[role]))] for role in "bc"] + \
              [[rhs.index((role, i)) for i in range(len(sizes[role]))] for role in "bc"]
    out = sizes["b"] + [sizes[t][i] for t, i in lhs if t == "l"] + \
        [sizes[t][i] for t, i in rhs if t == "r"]
    dims = (f"batching_dims = {numbers[0]} x {numbers[2]}, " if sizes["b"] else "") + \
        f"contracting_dims = {numbers[1]} x {numbers[3]}"
    text = (f"func.func @dot{k}(%a: {_t(lshape, tin)}, %b: {_t(rshape, tin)}) -> "
            f"{_t(out, tout)} {{\n  %r = stablehlo.dot_general %a, %b, {dims} : "
            f"({_t(lshape, tin)}, {_t(rshape, tin)}) -> {_t(out, tout)}\n  return %r : "
            f"{_t(out, tout)}\n}}")
    low = 0 if np.dtype(dtype).kind == "u" else -3
    return text, [rng.integers(low, 4, lshape).astype(dtype),
                  rng.integers(low, 4, rshape).astype(dtype)]


def _index_layout(rng, operand_rank):
    """Batching dims, mapped dims, window sizes, index shape and batch positions."""
    nbatch = int(rng.integers(0, min(2, operand_rank - 1) + 1))     # one dimension is mapped
    dims = [int(d) for d in rng.permutation(operand_rank)]
    batch, rest = sorted(dims[:nbatch]), dims[nbatch:]
    mapped = [int(d) for d in rng.permutation(rest)[:int(rng.integers(1, len(rest) + 1))]]
    return batch, mapped


def _layout(rng, one_update_each: bool = False) -> dict:
    """A random gather/scatter layout: operand shape, batching and mapped dimensions, window
    sizes and the window dimensions dropped from the result, the index shape (batching
    dimensions sized like the operand's), index_vector_dim, and the result (gather) or
    updates (scatter) shape with the positions of its window dimensions."""
    rank = int(rng.integers(1, 4))
    shape = [int(rng.integers(2, 6)) for _ in range(rank)]
    batch, mapped = _index_layout(rng, rank)
    sizes = [1 if d in batch else int(rng.integers(1, shape[d] + 1)) if rng.random() < 0.6
             else 1 for d in range(rank)]
    dropped = sorted(d for d in range(rank)
                     if d not in batch and sizes[d] == 1 and rng.random() < 0.6)
    nb = max(1, len(batch)) + int(rng.integers(0, 2))
    bshape = [1 if one_update_each else int(rng.integers(1, 4)) for _ in range(nb)]
    index_batch = sorted(int(x) for x in rng.permutation(nb)[:len(batch)])
    for o, i in zip(batch, index_batch):
        bshape[i] = shape[o]
    ivd = int(rng.integers(0, nb + 1))
    windows = [sizes[d] for d in range(rank) if d not in dropped and d not in batch]
    window_dims = sorted(int(x) for x in rng.permutation(nb + len(windows))[:len(windows)])
    it_b, it_w = iter(bshape), iter(windows)
    return dict(shape=shape, batch=batch, mapped=mapped, sizes=sizes, dropped=dropped, ivd=ivd,
                index_shape=bshape[:ivd] + [len(mapped)] + bshape[ivd:],
                index_batch=[i if i < ivd else i + 1 for i in index_batch],
                window_dims=window_dims,
                out=[next(it_w) if i in window_dims else next(it_b)
                     for i in range(nb + len(windows))])


def _gather(rng, k):
    g = _layout(rng)
    shape, ishape, out = g["shape"], g["index_shape"], g["out"]
    text = (f"func.func @gather{k}(%a: {_t(shape, 'f32')}, %i: {_t(ishape, 'i32')}) -> "
            f"{_t(out, 'f32')} {{\n  %r = \"stablehlo.gather\"(%a, %i) {{dimension_numbers = "
            f"#stablehlo.gather<offset_dims = {g['window_dims']}, collapsed_slice_dims = "
            f"{g['dropped']}, operand_batching_dims = {g['batch']}, start_indices_batching_dims"
            f" = {g['index_batch']}, start_index_map = {g['mapped']}, index_vector_dim = "
            f"{g['ivd']}>, slice_sizes = array<i64: {', '.join(map(str, g['sizes']))}>}} : "
            f"({_t(shape, 'f32')}, {_t(ishape, 'i32')}) -> {_t(out, 'f32')}\n  return %r : "
            f"{_t(out, 'f32')}\n}}")
    return text, [np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape),
                  rng.integers(-2, 7, ishape).astype(np.int32)]


BODIES = {"add": "stablehlo.add", "max": "stablehlo.maximum", "mul": "stablehlo.multiply",
          "replace": None}


def _scatter(rng, k):
    body = list(BODIES)[int(rng.integers(0, len(BODIES)))]
    # replace: one update per target, so the order of updates is moot
    g = _layout(rng, one_update_each=body == "replace")
    shape, ishape, ushape = g["shape"], g["index_shape"], g["out"]
    op = BODIES[body]
    region = (f"  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %s = {op} %x, %y : tensor<f32>\n"
              f"    stablehlo.return %s : tensor<f32>" if op else
              "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    stablehlo.return %y : tensor<f32>")
    text = (f"func.func @scatter{k}(%a: {_t(shape, 'f32')}, %i: {_t(ishape, 'i32')}, %u: "
            f"{_t(ushape, 'f32')}) -> {_t(shape, 'f32')} {{\n  %r = \"stablehlo.scatter\"(%a, %i,"
            f" %u) ({{\n{region}\n  }}) {{scatter_dimension_numbers = #stablehlo.scatter<"
            f"update_window_dims = {g['window_dims']}, inserted_window_dims = {g['dropped']}, "
            f"input_batching_dims = {g['batch']}, scatter_indices_batching_dims = "
            f"{g['index_batch']}, scatter_dims_to_operand_dims = {g['mapped']}, "
            f"index_vector_dim = {g['ivd']}>}} : ({_t(shape, 'f32')}, {_t(ishape, 'i32')}, "
            f"{_t(ushape, 'f32')}) -> {_t(shape, 'f32')}\n  return %r : {_t(shape, 'f32')}\n}}")
    return text, [rng.integers(-5, 6, shape).astype(np.float32),
                  rng.integers(-2, 7, ishape).astype(np.int32),
                  rng.integers(1, 4, ushape).astype(np.float32)]


def _cases():
    rng = np.random.default_rng(21)
    cases = []
    for make, count in ((_dot, 30), (_gather, 30), (_scatter, 30)):
        made = 0
        while made < count:
            text, args = make(rng, made)
            try:
                shlo.parse_module(text)              # some draws are not valid ops: redraw
            except shlo.Error:
                continue
            cases.append((text, args))
            made += 1
    return cases


CASES = _cases()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_random_indexing_ops_match_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check_all(ctx, cases_on(target, CASES), target)
