"""Vulkan dispatches that read or write a binding at an offset that is not a whole number of
128-bit vectors, compiled without vector loads and stores.

IREE 3.13's SPIR-V codegen (iree-spirv-vectorize-load-store) turns a binding of scalars into
one of 128-bit vectors when every access to it is a vector transfer, and divides each
transfer's index by the vector's length, rounding down: `2 * x[7:4103]` of an f32 binding
read x[4:4100] (every element wrong, no error; also without shlo's passes, with
`--iree-vulkan-target=llvmpipe`). Slices, dynamic slices, pads and concatenations at such
offsets fused into a dispatch, and the products, reductions, sorts and softmaxes that read
them, came back wrong at every size where IREE vectorizes
(docs/iree_gaps.md#vk-unaligned-transfers).

This runs on IREE's own IR between its executable-configurations and executable-targets
phases (runtime.compiler): a dispatch with such an access (a static offset that is not a
multiple of the vector's length, a dynamic one whose stride is not, rows that do not start
on a vector, or a binding's byte offset not known to be a multiple of 16) is given the
SPIRVBaseDistribute pipeline, which reads and writes scalars.
"""
from __future__ import annotations

import re

from iree.compiler import ir

from ...base import nested_ops
from ...shapes.refine_fold import ints

VECTOR_BITS = 128                       # iree-spirv-vectorize-load-store's widest vector
# IREE's SPIR-V pipelines that vectorize loads and stores
_VECTORIZED = ("BaseVectorize", "SubgroupReduce", "MatmulPromoteVectorize",
               "CooperativeMatrixVectorize", "WinogradVectorize")
_DYNAMIC = ir.ShapedType.get_dynamic_size()


def _binding(type_text: str):
    """(shape, element bits) of a `!iree_tensor_ext.dispatch.tensor<...:tensor<...>>`; None for
    a dynamic shape or an element type without a plain width."""
    m = re.search(r":tensor<(.*)>>$", type_text)
    if not m:
        return None
    parts = m.group(1).split("x")
    dims = 0
    while dims < len(parts) and parts[dims].isdigit():
        dims += 1
    if dims < len(parts) and parts[dims] == "?":
        return None
    bits = _element_bits("x".join(parts[dims:]))
    return ([int(d) for d in parts[:dims]], bits) if bits else None


def _element_bits(element: str) -> int | None:
    if element.startswith("complex<"):
        inner = _element_bits(element[8:-1])
        return 2 * inner if inner else None
    m = re.fullmatch(r"(?:i|ui|si|f|bf)(\d+)|index", element)
    if not m or not m.group(1):
        return None
    bits = int(m.group(1))
    return 8 if bits == 1 else bits


def _aligned_bytes(value: ir.Value, alignment: int) -> bool:
    """Whether a binding's byte offset is known to be a multiple of `alignment`: a constant,
    or a push constant whose util.assume.int assumptions (one per call site) all say so."""
    if not isinstance(value, ir.OpResult):
        return False
    owner = value.owner
    if owner.name == "arith.constant":
        return ir.IntegerAttr(owner.attributes["value"]).value % alignment == 0
    if owner.name != "util.assume.int":
        return False
    assumptions = str(ir.ArrayAttr(owner.attributes["assumptions"])[value.result_number])
    found = re.findall(r"<([^<>]*)>", assumptions)
    for each in found:
        bounds = dict(re.findall(r"(\w+) = (\d+)", each))
        exact = "umin" in bounds and bounds.get("umax") == bounds["umin"]
        if not ((exact and int(bounds["umin"]) % alignment == 0)
                or ("udiv" in bounds and int(bounds["udiv"]) % alignment == 0)):
            return False
    return bool(found)


def unaligned(access: ir.Operation) -> bool:
    """Whether a dispatch.tensor.load or .store reaches its binding at an element that is not
    the first of a 128-bit vector (or at a byte offset of the binding that is not)."""
    is_load = access.name.endswith(".load")
    binding = access.operands[0 if is_load else 1]
    found = _binding(str(binding.type))
    if found is None:
        return True
    shape, bits = found
    if bits > VECTOR_BITS or VECTOR_BITS % bits:
        return False                        # not vectorized by IREE
    width = VECTOR_BITS // bits
    if isinstance(binding, ir.OpResult) and binding.owner.name == "hal.interface.binding.subspan" \
            and len(binding.owner.operands) \
            and not _aligned_bytes(binding.owner.operands[0], VECTOR_BITS // 8):
        return True
    offsets, sizes = ints(access, "static_offsets"), ints(access, "static_sizes")
    if all(s == 1 for s in sizes):
        return False                        # one element: its binding is not vectorized
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    if any(s != 1 for s in ints(access, "static_strides")):
        return True
    for offset, stride in zip(offsets, strides):       # (a dynamic offset: any multiple)
        if (stride if offset == _DYNAMIC else offset * stride) % width:
            return True
    # rows start on a vector when the access is one contiguous block or each row's stride is
    # a whole number of vectors
    first = next((d for d, s in enumerate(sizes) if s != 1), len(sizes))
    contiguous = all(sizes[d] == shape[d] for d in range(first + 1, len(shape)))
    return not contiguous and any(sizes[d] != 1 and strides[d] % width
                                  for d in range(len(shape) - 1))


def scalarize_unaligned_dispatches(module_op: ir.Operation) -> int:
    """Give every vectorized dispatch with an unaligned access a scalar pipeline; how many."""
    changed = 0
    for func in nested_ops(module_op, "func.func"):
        if "translation_info" not in func.attributes:
            continue
        info = str(func.attributes["translation_info"])
        m = re.search(r"spirv_pipeline<(\w+)>", info)
        if m is None or m.group(1) not in _VECTORIZED:
            continue
        if not any(unaligned(a) for a in nested_ops(func, "iree_tensor_ext.dispatch.tensor.")
                   if a.name.endswith((".load", ".store"))):
            continue
        with func.context:
            if m.group(1) == "BaseVectorize":       # the same tiles, each thread's scalars
                func.attributes["translation_info"] = ir.Attribute.parse(
                    info.replace(m.group(0), "spirv_pipeline<BaseDistribute>"))
            else:
                _distribute_workgroup_tiles(func)
        changed += 1
    return changed


def _distribute_workgroup_tiles(func: ir.Operation) -> None:
    """A reduction's or product's dispatch: its root's workgroup tiles, and the same tiles of
    the root's leading parallel loops for every other op (where an op's leading loops are not
    those, no op is tiled: one workgroup), one thread a workgroup, which reads and writes
    scalars (SPIRVBaseDistribute, as IREE compiles a scatter). Tiles that differ between the
    ops of a dispatch gave wrong sums, no error."""
    func.attributes["translation_info"] = ir.Attribute.parse(
        "#iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> "
        "workgroup_size = [1, 1, 1]>")
    configured = [op for op in nested_ops(func) if "lowering_config" in op.attributes]
    loops = {op: _loops(op) for op in configured}
    root = max(configured, key=lambda op: len(_workgroup_tiles(op)))
    tiles = (_workgroup_tiles(root) + [0] * len(loops[root]))[:len(loops[root])]
    parallel = [t for t, kind in zip(tiles, loops[root]) if kind == "parallel"]
    chosen = {}
    for op in configured:
        n = len(loops[op])
        if op == root:
            chosen[op] = tiles
        elif n >= len(parallel) and loops[op][:len(parallel)] == ["parallel"] * len(parallel):
            chosen[op] = parallel + [0] * (n - len(parallel))
        else:
            break
    else:
        if loops[root][:len(parallel)] == ["parallel"] * len(parallel):
            return _set_tiles(chosen)
    _set_tiles({op: [0] * len(loops[op]) for op in configured})   # one workgroup does all


def _set_tiles(chosen: dict) -> None:
    for op, tiles in chosen.items():
        op.attributes["lowering_config"] = ir.Attribute.parse(
            f"#iree_codegen.lowering_config<tile_sizes = [{tiles}]>")


def _workgroup_tiles(op: ir.Operation) -> list[int]:
    levels = re.search(r"tile_sizes = \[(\[[\d, ]*\])", str(op.attributes["lowering_config"]))
    return [int(t) for t in re.findall(r"\d+", levels.group(1))] if levels else []


def _loops(op: ir.Operation) -> list[str]:
    """An op's loop kinds: its iterator_types, or its result's rank of parallel ones."""
    if "iterator_types" in op.attributes:
        return [str(k).split("<")[-1].rstrip(">").strip('"')
                for k in ir.ArrayAttr(op.attributes["iterator_types"])]
    rank = ir.RankedTensorType(op.results[0].type).rank if len(op.results) else 0
    return ["parallel"] * rank
