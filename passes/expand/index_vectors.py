"""Start-index tensors of gather and scatter in one layout: signed, index vector last, batching
dimensions turned into ordinary index components.

`IndexVectors.of(indices, index_vector_dim, batching)` gives indices shaped `batch + [k]`
(the index vector dimension moved last, or appended when it is implicit), in a signed type wide
enough for offsets (i32, or i64 for 64-bit and ui32 indices), with one more component per
(operand batching dim, indices batching dim) pair: an iota along that batch dimension, since
a batching dimension is an index that always equals the position along it.

Also the small shape helpers the gather/scatter/window rewrites share (`transpose` and
`reshape` that skip no-ops, `edge_pad` that avoids IREE's crash on complex pads).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from iree.compiler import ir

from shlo.dialect import stablehlo


def tensor(shape: Sequence[int], element) -> ir.RankedTensorType:
    if isinstance(element, str):
        element = ir.Type.parse(element)
    return ir.RankedTensorType.get([int(d) for d in shape], element)


def shape_of(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def is_static(*values: ir.Value) -> bool:
    return all(ir.RankedTensorType(v.type).has_static_shape for v in values)


def work_type(element: ir.Type) -> ir.Type:
    """The signed type index arithmetic runs in: i32 unless the indices need 64 bits."""
    t = ir.IntegerType(element)
    wide = t.width > 32 or (t.width == 32 and t.is_unsigned)
    return ir.IntegerType.get_signless(64 if wide else 32)


def transpose(x: ir.Value, permutation: Sequence[int]) -> ir.Value:
    """x transposed, or x itself for the identity permutation."""
    if list(permutation) == list(range(len(permutation))):
        return x
    return stablehlo.transpose(x, permutation=list(permutation))


def reshape(x: ir.Value, shape: Sequence[int]) -> ir.Value:
    """x reshaped, or x itself when it already has `shape`."""
    if shape_of(x) == list(shape):
        return x
    return stablehlo.reshape(x, result_type=tensor(shape, ir.RankedTensorType(x.type).element_type))


def edge_pad(x: ir.Value, value, low: Sequence[int], high: Sequence[int]) -> ir.Value:
    """x with low[d] / high[d] (>= 0) copies of the constant `value` before / after it along
    each dimension d. Complex tensors are padded by concatenation: IREE's compiler crashes
    on a stablehlo.pad of complex elements (docs/iree_gaps.md#shlo-expand-complex-pad)."""
    t = ir.RankedTensorType(x.type)
    if not any(low) and not any(high):
        return x
    if not isinstance(t.element_type.maybe_downcast(), ir.ComplexType):
        fill = stablehlo.constant(value, result_type=tensor([], t.element_type))
        return stablehlo.pad(x, fill, edge_padding_low=list(low), edge_padding_high=list(high),
                             interior_padding=[0] * t.rank)
    for d, (before, after) in enumerate(zip(low, high)):
        parts = []
        for count in (before, None, after):
            if count is None:
                parts.append(x)
            elif count:
                shape = shape_of(x)
                shape[d] = count
                parts.append(stablehlo.constant(value, result_type=tensor(shape, t.element_type)))
        if len(parts) > 1:
            x = stablehlo.concatenate(parts, dimension=d)
    return x


def inverse(permutation: Sequence[int]) -> list[int]:
    out = [0] * len(permutation)
    for i, p in enumerate(permutation):
        out[p] = i
    return out


@dataclasses.dataclass
class IndexVectors:
    """Indices shaped batch + [k]; `dims[c]` is the operand dimension component c indexes."""
    value: ir.Value
    dims: list[int]

    @property
    def batch_shape(self) -> list[int]:
        return shape_of(self.value)[:-1]

    @classmethod
    def of(cls, indices: ir.Value, index_vector_dim: int, index_map: Sequence[int],
           batching: Sequence[tuple[int, int]] = ()) -> "IndexVectors":
        """`batching`: (operand dim, indices dim) pairs, indices dims counted as in `indices`."""
        it = ir.RankedTensorType(indices.type)
        work = work_type(it.element_type)
        x = indices
        if it.element_type != work:
            x = stablehlo.convert(x, result_type=tensor(it.shape, work))
        rank = it.rank
        if index_vector_dim == rank:
            x = reshape(x, list(it.shape) + [1])
        else:
            x = transpose(x, [d for d in range(rank) if d != index_vector_dim]
                          + [index_vector_dim])
        batch = shape_of(x)[:-1]
        parts, dims = [x], list(index_map)
        for operand_dim, indices_dim in batching:
            position = indices_dim - (indices_dim > index_vector_dim)
            parts.append(stablehlo.iota(iota_dimension=position,
                                        result_type=tensor(batch + [1], work)))
            dims.append(operand_dim)
        if len(parts) > 1:
            x = stablehlo.concatenate(parts, dimension=len(batch))
        return cls(x, dims)

    def with_zero_components(self, dims: Sequence[int]) -> "IndexVectors":
        """These vectors with a component 0 appended for each of `dims`."""
        if not dims:
            return self
        element = ir.RankedTensorType(self.value.type).element_type
        zeros = stablehlo.constant(0, result_type=tensor(self.batch_shape + [len(dims)], element))
        x = stablehlo.concatenate([self.value, zeros], dimension=len(self.batch_shape))
        return IndexVectors(x, self.dims + list(dims))
