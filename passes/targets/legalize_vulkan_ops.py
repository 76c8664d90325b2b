"""shlo-legalize-vulkan-ops: the quirks of IREE's SPIR-V backend (Vulkan), as a table.

Each entry rewrites ops IREE rejects or computes wrongly on Vulkan into forms it gets right,
with the spec's semantics; docs/iree_gaps.md explains each id with its evidence. The Vulkan
target adds this pass to its default pipeline (`TargetKind.passes`); the CPU keeps the
original ops. `disable=id,...` switches entries off; `f64=false` (targets without f64) drops
those that compute in f64.
"""
from __future__ import annotations

import dataclasses

from .common import sum_of_negation
from .quirks import Quirk, QuirksPass
from .vulkan.compile_failures import complex_part_of_view, sliced_iota
from .vulkan.bf16 import (bf16_dot, bf16_iota, bf16_reduce, fence_bf16_rounded_product,
                          fence_widened_bf16_inputs, pad_before_widening)
from .vulkan.expansions import (complex_f32_constant, complex_window, fence_error_free_sum,
                                fence_narrow_convolution_inputs, fenced_fft,
                                few_output_convolution, grouped_convolution,
                                nan_min_max_reduce, self_difference, signed_zero_root,
                                unit_strided_slice, unsigned_grouped_convolution)
from .vulkan.fences import (fence_broadcast_window_results, fence_constant_sort_operands,
                            fence_dynamic_slice, fence_f64_operands,
                            fence_f64_negative_pad, fence_f64_results, fence_f64_strided_slice,
                            fence_integer_to_bf16,
                            fence_narrow_scatter_inputs, fence_narrow_window_inputs,
                            fence_reduce_results, fence_strided_reduce_inputs,
                            fence_widened_column_reduce_inputs,
                            fence_widened_transpose_results, fence_zero_operands,
                            iota_as_constant, nd_iota_as_broadcast)
from .vulkan.integers import (count_leading_zeros, float_remainder, negated_divisor,
                              signed_min_max_reduce, signed_remainder, unsigned_quotient,
                              widened_byte_reduce)
from .vulkan.loops import counter_wrap
from .vulkan.long_loops import unroll_long_loop
from ..expand.expand_elementwise_maps import map_as_tensor_ops
from .vulkan.reductions import (fence_complex_reduce_inputs, fence_shared_widened_reduce_inputs,
                                fence_zero_sums, gapped_reduce)
from .vulkan.matmuls import (aligned_matmul_columns, byte_product, fence_narrow_product_inputs,
                             fence_complex_fused_products,
                             fence_spread_products)
from .vulkan.slices import squeezed_strided_slice
from .vulkan.windows import empty_window_operand, single_window, squeezed_interior_pad
from ..lib.builders import PRODUCTS

_VK = ("vulkan",)
_PRODUCTS = PRODUCTS    # not stablehlo.dot (a legacy dot reaches this pass as it is, unmatched)
_REDUCE = ("stablehlo.reduce",)

# Entries of one op apply in table order: the first rule that does not decline rewrites the
# op; then every fence runs on it.
VULKAN_QUIRKS: tuple[Quirk, ...] = (
    Quirk("vk-elementwise-map", "a map of elementwise ops as those ops on whole tensors (the "
          "other entries then see them: -(x - x) in a map's body was -0 for NaN)",
          ("stablehlo.map",), _VK, rule=map_as_tensor_ops),
    Quirk("vk-iota-reduce-alloc", "an n-D iota as a broadcast of a 1-D one, a 1-D iota of up "
          "to 4096 elements as a constant", ("stablehlo.iota",), _VK,
          rule=nd_iota_as_broadcast, fence=iota_as_constant),
    Quirk("vk-bf16-iota", "a bf16 iota counted in f32, rounded to bf16 on the bits",
          ("stablehlo.iota",), _VK, rule=bf16_iota),
    Quirk("vk-bf16-dot", "a dot_general of bf16 in f32 (operands behind fusion barriers), "
          "rounded to bf16 once", ("stablehlo.dot_general",), _VK, rule=bf16_dot),
    Quirk("vk-byte-product", "a dot_general into 8-bit integers computed into 32-bit ones, "
          "converted back (IREE's compile of some died of SIGFPE)", ("stablehlo.dot_general",),
          _VK, rule=byte_product),
    Quirk("vk-aligned-matmul-columns", "a dot_general's last result dimension padded to a "
          "multiple of 4 (below 32) or 32 (lavapipe ran odd widths about 100x slower)",
          ("stablehlo.dot_general",), _VK, rule=aligned_matmul_columns),
    Quirk("vk-spread-product", "the values a broadcast adding elements or another dot_general "
          "reads from a dot_general's or convolution's result, behind fusion barriers (fused, "
          "invocations read each other's workgroup-memory tile without a barrier)", _PRODUCTS,
          _VK, fence=fence_spread_products),
    Quirk("vk-widened-transpose", "a 16-bit float transpose read by a convert to a wider "
          "float that several ops read, read by its readers behind a fusion barrier (fused, "
          "the widened values staged in workgroup memory were read without a barrier)",
          ("stablehlo.transpose",), _VK, fence=fence_widened_transpose_results),
    Quirk("vk-gapped-reduce", "a reduce over dimensions a kept one separates in two stages, "
          "the last run first (f16[16, 2, 3] over [0, 2] failed to compile: "
          "'vector.transfer_read op with rank > 1')", _REDUCE, _VK, rule=gapped_reduce),
    Quirk("vk-complex-reduce-input", "the real values computed from complex ones that a "
          "reduce's operands are computed from behind fusion barriers (fused, the reduction "
          "read the complex buffer and failed to compile)", _REDUCE, _VK,
          fence=fence_complex_reduce_inputs),
    Quirk("vk-shared-widened-reduce", "the values widened from narrow integers or "
          "booleans that a reduce's operands are computed from, when other ops read them "
          "too, behind fusion barriers (copied unfused into each reduction, the call never "
          "returned)", _REDUCE, _VK, fence=fence_shared_widened_reduce_inputs),
    Quirk("vk-bf16-reduce", "a reduce over bf16 in f32, each result rounded to bf16 once",
          _REDUCE, _VK, rule=bf16_reduce),
    Quirk("vk-bf16-reduce-input", "a reduce's bf16 -> f32 converted operands behind fusion "
          "barriers", _REDUCE, _VK, fence=fence_widened_bf16_inputs),
    Quirk("vk-byte-reduce-of-eight", "an 8-bit integer reduce over 8 elements a result in 32 "
          "bits (IREE's compile crashed: SIGFPE)", _REDUCE, _VK, rule=widened_byte_reduce),
    Quirk("vk-signed-min-max-reduce", "a signed integer min/max reduce in unsigned order",
          _REDUCE, _VK, rule=signed_min_max_reduce),
    Quirk("vk-nan-min-max-reduce", "a float max/min reduce: NaN where a reduced element is "
          "(lavapipe's small reductions skipped NaN)", _REDUCE, _VK, rule=nan_min_max_reduce),
    Quirk("vk-negated-sum", "a sum of negated values as the negation of their sum", _REDUCE,
          _VK, rule=sum_of_negation),
    Quirk("vk-reduce-fused-users", "the results of a reduce over an outer dimension, or "
          "broadcast along another, behind fusion barriers", _REDUCE, _VK,
          fence=fence_reduce_results),
    Quirk("vk-f64-fused-operands", "the computed operands of an f64 dot_general or "
          "convolution behind fusion barriers", _PRODUCTS, _VK, fence=fence_f64_operands),
    Quirk("vk-f64-product-result", "the result of an f64 dot_general or convolution behind a "
          "fusion barrier (IREE's dispatch fusing it with a convert and a complex raced)",
          _PRODUCTS, _VK, fence=fence_f64_results),
    Quirk("vk-complex-fused-product", "a real dot_general's or convolution's result behind a "
          "fusion barrier where the elementwise ops computed from it read complex values (fused, "
          "IREE failed to compile: 'unresolved source materialization')", _PRODUCTS, _VK,
          fence=fence_complex_fused_products),
    Quirk("vk-bf16-product-store", "an f32 product that is rounded to bf16 stored first "
          "(compute_barrier.end)", _PRODUCTS, _VK, fence=fence_bf16_rounded_product),
    Quirk("vk-zero-constant-fold", "a float zero constant read by multiply, divide, add, "
          "subtract, dot_general or convolution behind a fusion barrier",
          ("stablehlo.multiply", "stablehlo.divide", "stablehlo.add", "stablehlo.subtract",
           "stablehlo.dot_general", "stablehlo.convolution"), _VK, fence=fence_zero_operands),
    Quirk("vk-clz-width", "count_leading_zeros of 8/16 bits on 32 bits, of 64 bits on halves",
          ("stablehlo.count_leading_zeros",), _VK, rule=count_leading_zeros),
    Quirk("vk-unsigned-division", "unsigned divide and remainder as shifts and masks, or in "
          "wider signed integers", ("stablehlo.divide", "stablehlo.remainder"), _VK,
          rule=unsigned_quotient),
    Quirk("vk-signed-remainder-min", "a signed remainder of -2^N taken of -2^N + |divisor|",
          ("stablehlo.remainder",), _VK, rule=signed_remainder),
    Quirk("vk-negated-divisor", "a signed integer divide or remainder by the negated divisor "
          "(IREE made it unsigned, which fails to compile on a vector<1>)",
          ("stablehlo.divide", "stablehlo.remainder"), _VK, rule=negated_divisor),
    Quirk("vk-float-remainder", "a float remainder below f64 as the exact f64 fmod",
          ("stablehlo.remainder",), _VK, rule=float_remainder, needs=frozenset({"f64"})),
    Quirk("vk-unsigned-grouped-conv", "a grouped or depthwise convolution of unsigned "
          "integers on i32 (ui8/ui16/ui32) or i64 (ui64) operands, wrapped back (IREE gave "
          "zeros or wrong values for some results)",
          ("stablehlo.convolution",), _VK, rule=unsigned_grouped_convolution),
    Quirk("vk-grouped-convolution", "a grouped convolution as one convolution per group",
          ("stablehlo.convolution",), _VK, rule=grouped_convolution),
    Quirk("vk-few-output-convolution", "a convolution with rhs dilation or padding, or one "
          "output position, and at most 4 output positions as one dot_general per position "
          "over its window, a fenced strided slice (IREE's strided load of the window was read "
          "unstrided; one output position over an [o, 0, i, 1] kernel crashed its compile)",
          ("stablehlo.convolution",),
          _VK, rule=few_output_convolution),
    Quirk("vk-narrow-convolution-input", "a convolution's 32/64-bit operands computed from "
          "8/16-bit numbers behind fusion barriers (a fused i32 convert of bf16 raced with "
          "the products reading it)", ("stablehlo.convolution",), _VK,
          fence=fence_narrow_convolution_inputs),
    Quirk("vk-narrow-product-input", "a dot_general's operands computed from booleans, integer "
          "ones from narrower numbers, float ones from numbers of fewer than 32 bits, behind "
          "fences (fused, the i1 reads went out of bounds: a segfault, a hang or a corrupted "
          "heap; i8 -> i32 products were wrong; bf16 -> f32 failed to compile)",
          ("stablehlo.dot_general",), _VK, fence=fence_narrow_product_inputs),
    Quirk("vk-constant-sort", "a sort of values computed from constants alone reads them "
          "through an optimization barrier (IREE's SPIR-V codegen crashed, SIGSEGV)",
          ("stablehlo.sort",), _VK, fence=fence_constant_sort_operands),
    Quirk("vk-dynamic-slice", "a slice with run-time sizes read behind a fusion barrier "
          "(fused into an elementwise reader, x[:, :3] of a run-time number of rows failed "
          "to compile: 'memref.collapse_shape' into workgroup memory)",
          ("stablehlo.real_dynamic_slice",), _VK, fence=fence_dynamic_slice),
    Quirk("vk-complex-constant", "a complex<f32> constant as stablehlo.complex of two f32 "
          "constants (a non-splat one failed to compile)", ("stablehlo.constant",), _VK,
          rule=complex_f32_constant),
    Quirk("vk-empty-window-operand", "a reduce_window of an empty operand over its padding: "
          "the windows of the padded operand (all init values)", ("stablehlo.reduce_window",),
          _VK, rule=empty_window_operand),
    Quirk("vk-single-window", "a reduce_window with one window along each dimension it spans "
          "as a reduce of the window's slice of the padded operand (a window over all of a "
          "padded 1x1 operand failed to compile: 'memref.copy' to workgroup memory)",
          ("stablehlo.reduce_window",), _VK, rule=single_window),
    Quirk("vk-complex-window", "a complex reduce_window over real and imaginary parts",
          ("stablehlo.reduce_window",), _VK, rule=complex_window),
    Quirk("vk-narrow-window-input", "a reduce_window's inputs computed from 8/16-bit numbers "
          "behind fusion barriers", ("stablehlo.reduce_window",), _VK,
          fence=fence_narrow_window_inputs),
    Quirk("vk-narrow-scatter-input", "a scatter's indices and updates computed from 8/16-bit "
          "numbers behind fusion barriers", ("stablehlo.scatter",), _VK,
          fence=fence_narrow_scatter_inputs),
    Quirk("vk-f64-strided-slice", "a strided slice of a computed f64 value reads it behind a "
          "fusion barrier", ("stablehlo.slice",), _VK, fence=fence_f64_strided_slice),
    Quirk("vk-f64-negative-pad", "a pad with negative edge padding of a computed f64 value "
          "of 2+ dimensions reads it behind a fusion barrier (fused, most elements came out "
          "wrong)", ("stablehlo.pad",), _VK, fence=fence_f64_negative_pad),
    Quirk("vk-integer-to-bf16", "a convert to bf16 of a float converted from integers (maybe "
          "broadcast, reshaped, transposed, sliced or reversed) reads the float behind a "
          "fusion barrier", ("stablehlo.convert",), _VK,
          fence=fence_integer_to_bf16),
    Quirk("vk-bf16-widened-pad", "a pad (or a reduce_window's padding) of f32 converted from "
          "bf16 padded in bf16 before the convert", ("stablehlo.pad", "stablehlo.reduce_window"),
          _VK, rule=pad_before_widening),
    Quirk("vk-window-broadcast", "the results of a reduce_window read by a broadcast_in_dim "
          "or a dot_general behind fusion barriers", ("stablehlo.reduce_window",), _VK,
          fence=fence_broadcast_window_results),
    Quirk("vk-signed-zero-root", "sqrt and rsqrt of +-0 selected apart, so that their results' "
          "sign is not assumed", ("stablehlo.sqrt", "stablehlo.rsqrt"), _VK,
          rule=signed_zero_root),
    Quirk("vk-self-difference", "x - x and x + (-x) of floats as |x| * 0 with the 0 read from "
          "memory (NaN for +-inf and NaN; the shader compiler folds them to 0)",
          ("stablehlo.subtract", "stablehlo.add"), _VK, rule=self_difference),
    Quirk("vk-error-free-sum", "(a + b) - a and the like of floats: the inner sum behind a "
          "fusion barrier (the shader compiler folds them to b)",
          ("stablehlo.subtract", "stablehlo.add"), _VK, fence=fence_error_free_sum),
    Quirk("vk-unit-strided-slice", "a slice's stride set to 1 along dimensions it takes one "
          "element of", ("stablehlo.slice",), _VK, rule=unit_strided_slice),
    Quirk("vk-squeezed-strided-slice", "a strided slice (with the slices and dynamic_slices "
          "it slices) whose result has size-1 dimensions as the slice of its operand reshaped "
          "with them merged into neighbours (a 1xN row failed to compile fused: 'unresolved "
          "materialization'; x[:, ::2] of an Nx64x1 x, x[:, ::2, :1] of an Nx64x4 x and "
          "x[:, 4:][:, ::2] of an Nx68x1 x read 4 neighbours for every 4 strided elements, "
          "silently)", ("stablehlo.slice",), _VK,
          rule=squeezed_strided_slice),
    Quirk("vk-fft-fused-read", "a 1-D fft's result behind a fusion barrier, an IRFFT through "
          "the complex IFFT; one of more than 65536 points as ffts of at most 65536 "
          "(four-step; IREE's own was wrong from index 65535 on)", ("stablehlo.fft",), _VK,
          rule=fenced_fft),
    Quirk("vk-widened-column-reduce", "the bf16/f16 -> f32 converts a column reduction "
          "computes its operand from behind fusion barriers (fused, IREE's SPIR-V compile did "
          "not end)", _REDUCE, _VK, fence=fence_widened_column_reduce_inputs),
    Quirk("vk-loop-index-readback", "jax's negative-index wrap select(i < 0, i + n, i) of a "
          "while loop's counter that is never negative as i (IREE computed it on the device "
          "and read it back every trip; its queue then lost the device on lavapipe)",
          ("stablehlo.select",), _VK, rule=counter_wrap),
    Quirk("vk-strided-reduce-input", "the strided slices a reduction computes its operand from "
          "behind fusion barriers (fused, the reduction read the slice's rows unstrided)",
          _REDUCE, _VK, fence=fence_strided_reduce_inputs),
    Quirk("vk-zero-sum-sign", "a float dot_general's (summing products) or convolution's "
          "result plus +0, an add reduce's or reduce_window's from a +-0 constant plus that init "
          "again, the zero read from memory (short sums of -0 terms from +0 were -0: the shader "
          "folded the start)",
          _PRODUCTS + _REDUCE + ("stablehlo.reduce_window",), _VK, fence=fence_zero_sums),
    Quirk("vk-squeezed-interior-pad", "a pad with interior padding of a value with size-1 "
          "dimensions as the pad of its reshape without them (a 1xN row, a window's base "
          "dilation, failed to compile: 'unresolved materialization'; an Nx32x1 pad put each 4 "
          "elements side by side, silently)", ("stablehlo.pad",), _VK,
          rule=squeezed_interior_pad),
    Quirk("vk-sliced-iota", "a slice of an integer iota as an iota of its own, times the "
          "stride plus the start (read from IREE's hoisted iota at an element offset, a "
          "dispatch's vector loads failed to compile: 'unresolved materialization')",
          ("stablehlo.slice",), _VK, rule=sliced_iota),
    Quirk("vk-complex-part-of-view", "real and imag of a view of complex(a, b) as that view "
          "of a or b (folded by IREE after shlo's fences, equal parts fenced apart made a "
          "dispatch yield one value twice: 'write affecting operations on global resources')",
          ("stablehlo.real", "stablehlo.imag"), _VK, rule=complex_part_of_view),
    Quirk("vk-long-loop-trips", "a counted while loop of 256 trips or more with its body "
          "repeated up to 100 times a trip, a copy of its counter read as the counter (IREE's "
          "host drives every trip: 0.3-10 ms a trip on lavapipe; jax's fori_loop index was "
          "wrapped on the device and read back every trip)", ("stablehlo.while",), _VK,
          fence=unroll_long_loop),
)


@dataclasses.dataclass
class LegalizeVulkanOps(QuirksPass):
    """Rewrite the ops IREE's SPIR-V backend rejects or computes wrongly (VULKAN_QUIRKS)."""

    NAME = "shlo-legalize-vulkan-ops"
    QUIRKS = VULKAN_QUIRKS
    f64: bool = True            # the target computes f64 (entries that need "f64" apply)

    def capabilities(self) -> frozenset[str]:
        return frozenset({"f64"}) if self.f64 else frozenset()
