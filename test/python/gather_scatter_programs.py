"""Random stablehlo.gather / stablehlo.scatter functions with random dimension numbers (batching
dimensions, index vector dimension anywhere or implicit, windows on indexed dimensions,
inserted dimensions that are not indexed) and start indices that are partly out of bounds,
for checking shlo's rewrites against the reference interpreter."""
from __future__ import annotations

import numpy as np


def tensor(shape, element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _list(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _indices_layout(rng, batching_sizes: list[int], vector: int):
    """(indices shape, index_vector_dim, position of each batching dim) with 0-2 more batch
    dims, all in random order."""
    extra = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    dims = [("batching", k) for k in range(len(batching_sizes))]
    dims += [("extra", k) for k in range(len(extra))]
    rng.shuffle(dims)
    implicit = vector == 1 and rng.random() < 0.3
    ivd = len(dims) if implicit else int(rng.integers(0, len(dims) + 1))
    shape, positions = [], [0] * len(batching_sizes)
    for kind, k in dims:
        if len(shape) == ivd and not implicit:
            shape.append(vector)
        if kind == "batching":
            positions[k] = len(shape)
            shape.append(batching_sizes[k])
        else:
            shape.append(extra[k])
    if len(shape) == ivd and not implicit:
        shape.append(vector)
    return shape, ivd, positions


def _start_indices(rng, shape, ivd: int, bounds) -> np.ndarray:
    """Start indices; bounds[c] = (dimension size, window size) of component c. About a third
    are out of bounds, some only partly (the window straddles an edge)."""
    idx = np.zeros(shape, np.int32)
    vectors = idx[..., None] if ivd == len(shape) else np.moveaxis(idx, ivd, -1)
    for c, (n, w) in enumerate(bounds):
        v = rng.integers(0, max(n - w, 0) + 1, vectors.shape[:-1])
        wild = rng.random(v.shape) < 0.35
        vectors[..., c] = np.where(wild, rng.integers(-w - 2, n + 3, v.shape), v)
    return idx


def _dims(rng, rank: int):
    """(batching dims, the other dims in random order)."""
    dims = [int(d) for d in rng.permutation(rank)]
    nb = int(rng.integers(0, min(2, rank) + 1)) if rank > 1 else 0
    return sorted(dims[:nb]), dims[nb:]


def _index_map(rng, rest: list[int]) -> list[int]:
    if not rest:
        return []
    chosen = [int(d) for d in rng.permutation(rest) if rng.random() < 0.6]
    return chosen or [int(rest[0])]


def gather(rng, name: str):
    """(function text, [operand, start_indices])."""
    rank = int(rng.integers(1, 5))
    shape = [int(rng.integers(1, 6)) for _ in range(rank)]
    batching, rest = _dims(rng, rank)
    collapsed = sorted(d for d in rest if rng.random() < 0.4)
    index_map = _index_map(rng, rest)
    sizes = [1 if d in batching or d in collapsed else int(rng.integers(1, shape[d] + 1))
             for d in range(rank)]
    ishape, ivd, positions = _indices_layout(rng, [shape[d] for d in batching], len(index_map))
    batch = [s for d, s in enumerate(ishape) if d != ivd]
    kept = [sizes[d] for d in range(rank) if d not in batching and d not in collapsed]
    out_rank = len(batch) + len(kept)
    offset = sorted(int(v) for v in rng.choice(out_rank, len(kept), replace=False))
    batch_it, kept_it = iter(batch), iter(kept)
    out = [next(kept_it) if d in offset else next(batch_it) for d in range(out_rank)]
    numbers = (f"offset_dims = {_list(offset)}, collapsed_slice_dims = {_list(collapsed)}, "
               f"operand_batching_dims = {_list(batching)}, "
               f"start_indices_batching_dims = {_list(positions)}, "
               f"start_index_map = {_list(index_map)}, index_vector_dim = {ivd}")
    x, i, r = tensor(shape, "f32"), tensor(ishape, "i32"), tensor(out, "f32")
    text = (f"func.func @{name}(%x: {x}, %i: {i}) -> {r} {{\n"
            f"  %0 = \"stablehlo.gather\"(%x, %i) <{{dimension_numbers = #stablehlo.gather<"
            f"{numbers}>, slice_sizes = array<i64: {', '.join(map(str, sizes))}>, "
            f"indices_are_sorted = false}}> : ({x}, {i}) -> {r}\n  return %0 : {r}\n}}")
    operand = rng.integers(-99, 99, shape).astype(np.float32)
    indices = _start_indices(rng, ishape, ivd, [(shape[d], sizes[d]) for d in index_map])
    return text, [operand, indices]


# update computations that do not depend on the order updates are applied in
COMBINERS = {
    "add": "stablehlo.add",
    "max": "stablehlo.maximum",
    "min": "stablehlo.minimum",
    "mul": "stablehlo.multiply",
}


def scatter(rng, name: str, element: str = "i32"):
    """(function text, [operand, scatter_indices, updates])."""
    rank = int(rng.integers(1, 5))
    shape = [int(rng.integers(1, 6)) for _ in range(rank)]
    batching, rest = _dims(rng, rank)
    inserted = sorted(d for d in rest if rng.random() < 0.5)
    index_map = _index_map(rng, rest)
    window_dims = [d for d in range(rank) if d not in batching and d not in inserted]
    window = {d: int(rng.integers(1, shape[d] + 1)) for d in window_dims}
    ishape, ivd, positions = _indices_layout(rng, [shape[d] for d in batching], len(index_map))
    batch = [s for d, s in enumerate(ishape) if d != ivd]
    urank = len(batch) + len(window_dims)
    uwd = sorted(int(v) for v in rng.choice(urank, len(window_dims), replace=False))
    batch_it, window_it = iter(batch), iter(window_dims)
    ushape = [window[next(window_it)] if d in uwd else next(batch_it) for d in range(urank)]
    combiner = COMBINERS[str(rng.choice(sorted(COMBINERS)))]
    numbers = (f"update_window_dims = {_list(uwd)}, inserted_window_dims = {_list(inserted)}, "
               f"input_batching_dims = {_list(batching)}, "
               f"scatter_indices_batching_dims = {_list(positions)}, "
               f"scatter_dims_to_operand_dims = {_list(index_map)}, index_vector_dim = {ivd}")
    x, i, u, s = (tensor(shape, element), tensor(ishape, "i32"), tensor(ushape, element),
                  tensor([], element))
    text = (f"func.func @{name}(%x: {x}, %i: {i}, %u: {u}) -> {x} {{\n"
            f"  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{{indices_are_sorted = false, "
            f"scatter_dimension_numbers = #stablehlo.scatter<{numbers}>, "
            f"unique_indices = false}}> ({{\n  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %1 = {combiner} %a, %b : {s}\n    stablehlo.return %1 : {s}\n"
            f"  }}) : ({x}, {i}, {u}) -> {x}\n  return %0 : {x}\n}}")
    dtype = np.float32 if element == "f32" else np.int32
    bounds = [(shape[d], 1 if d in inserted else window[d]) for d in index_map]
    return text, [rng.integers(-4, 5, shape).astype(dtype),
                  _start_indices(rng, ishape, ivd, bounds),
                  rng.integers(-4, 5, ushape).astype(dtype)]
