"""Target quirks as data (passes/targets/quirks.py, pipelines/cpu_tuning.py): every entry of
the Vulkan and GPU tables and of the cpu tuning tables is documented in docs/iree_gaps.md, and
switching a quirk off (`disable=id`) leaves the ops it matches as they were while the table as
a whole rewrites them. No compiles: IR only."""
import pathlib
import re

import pytest

import shlo
from shlo.errors import PipelineError
from shlo.passes.pipeline import run_pipeline
from shlo.passes.targets.legalize_gpu_ops import GPU_QUIRKS
from shlo.passes.targets.legalize_vulkan_ops import VULKAN_QUIRKS, LegalizeVulkanOps
from shlo.pipelines.cpu_tuning import HOST_PASSES, MODULE_RULES, RETRIES

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "iree_gaps.md"

_SUM = """({
      ^bb0(%a: tensor<T>, %b: tensor<T>):
        %s = stablehlo.add %a, %b : tensor<T>
        stablehlo.return %s : tensor<T>
      })"""


def _sum(element: str) -> str:
    return _SUM.replace("T", element)


# quirk id -> a function that this entry alone of its table rewrites
# sum over all but the last dimension of x * f32(y), y bf16 (cnn_train_bf16's batch norm)
COLUMN_SUM_OF_WIDENED = """
    func.func @f(%x: tensor<{n}x{n}x{n}x32xf32>, %y: tensor<{n}x{n}x{n}x32xbf16>) -> tensor<32xf32> {{
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %w = stablehlo.convert %y : (tensor<{n}x{n}x{n}x32xbf16>) -> tensor<{n}x{n}x{n}x32xf32>
      %p = stablehlo.multiply %x, %w : tensor<{n}x{n}x{n}x32xf32>
      %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0, 1, 2]
          : (tensor<{n}x{n}x{n}x32xf32>, tensor<f32>) -> tensor<32xf32>
      return %r : tensor<32xf32>
    }}"""

SAMPLES = {
    "vk-iota-reduce-alloc": """
    func.func @f() -> tensor<4x8xf32> {
      %r = stablehlo.iota dim = 1 : tensor<4x8xf32>
      return %r : tensor<4x8xf32>
    }""",
    "vk-bf16-iota": """
    func.func @f() -> tensor<5000xbf16> {
      %r = stablehlo.iota dim = 0 : tensor<5000xbf16>
      return %r : tensor<5000xbf16>
    }""",
    "vk-bf16-dot": """
    func.func @f(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xbf16> {
      %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
      return %r : tensor<4x3xbf16>
    }""",
    "vk-bf16-reduce": """
    func.func @f(%x: tensor<8xbf16>, %i: tensor<bf16>) -> tensor<bf16> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [0] : (tensor<8xbf16>, tensor<bf16>) -> tensor<bf16>
      return %r : tensor<bf16>
    }""",
    "vk-bf16-reduce-input": """
    func.func @f(%x: tensor<8xbf16>, %i: tensor<f32>) -> tensor<f32> {
      %w = stablehlo.convert %x : (tensor<8xbf16>) -> tensor<8xf32>
      %r = stablehlo.reduce(%w init: %i) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      return %r : tensor<f32>
    }""",
    "vk-byte-reduce-of-eight": """
    func.func @f(%x: tensor<300x8xui8>, %i: tensor<ui8>) -> tensor<300xui8> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : (tensor<300x8xui8>, tensor<ui8>) -> tensor<300xui8>
      return %r : tensor<300xui8>
    }""",
    "vk-signed-min-max-reduce": """
    func.func @f(%x: tensor<24xi32>, %i: tensor<i32>) -> tensor<i32> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.minimum across dimensions = [0] : (tensor<24xi32>, tensor<i32>) -> tensor<i32>
      return %r : tensor<i32>
    }""",
    "vk-nan-min-max-reduce": """
    func.func @f(%x: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      return %r : tensor<f32>
    }""",
    "vk-negated-sum": """
    func.func @f(%x: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {
      %n = stablehlo.negate %x : tensor<8xf32>
      %r = stablehlo.reduce(%n init: %i) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      return %r : tensor<f32>
    }""",
    "vk-reduce-fused-users": """
    func.func @f(%x: tensor<4x8xf32>, %i: tensor<f32>) -> tensor<8xf32> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
      return %r : tensor<8xf32>
    }""",
    "vk-f64-fused-operands": """
    func.func @f(%a: tensor<4x8xf64>, %b: tensor<8x3xf64>) -> tensor<4x3xf64> {
      %n = stablehlo.negate %a : tensor<4x8xf64>
      %r = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] : (tensor<4x8xf64>, tensor<8x3xf64>) -> tensor<4x3xf64>
      return %r : tensor<4x3xf64>
    }""",
    "vk-f64-product-result": """
    func.func @f(%a: tensor<4x8xf64>, %b: tensor<8x3xf64>) -> tensor<4x3xf32> {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf64>, tensor<8x3xf64>) -> tensor<4x3xf64>
      %r = stablehlo.convert %d : (tensor<4x3xf64>) -> tensor<4x3xf32>
      return %r : tensor<4x3xf32>
    }""",
    "vk-complex-fused-product": """
    func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x3xf32>, %c: tensor<8x3xcomplex<f32>>) -> tensor<8x3xf32> {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
      %r = stablehlo.real %c : (tensor<8x3xcomplex<f32>>) -> tensor<8x3xf32>
      %s = stablehlo.add %d, %r : tensor<8x3xf32>
      return %s : tensor<8x3xf32>
    }""",
    "vk-bf16-product-store": """
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xbf16> {
      %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
      %r = stablehlo.convert %p : (tensor<4x3xf32>) -> tensor<4x3xbf16>
      return %r : tensor<4x3xbf16>
    }""",
    "vk-zero-constant-fold": """
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %z = stablehlo.constant dense<0.0> : tensor<4xf32>
      %r = stablehlo.multiply %x, %z : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-clz-width": """
    func.func @f(%x: tensor<4xi64>) -> tensor<4xi64> {
      %r = stablehlo.count_leading_zeros %x : tensor<4xi64>
      return %r : tensor<4xi64>
    }""",
    "vk-unsigned-division": """
    func.func @f(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
      %r = stablehlo.divide %a, %b : tensor<4xui32>
      return %r : tensor<4xui32>
    }""",
    "vk-signed-remainder-min": """
    func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
      %b = stablehlo.constant dense<-3> : tensor<4xi32>
      %r = stablehlo.remainder %a, %b : tensor<4xi32>
      return %r : tensor<4xi32>
    }""",
    "vk-narrow-scatter-input": """
    func.func @f(%x: tensor<8xf32>, %i: tensor<4x1xi32>, %u: tensor<4xbf16>) -> tensor<8xf32> {
      %w = stablehlo.convert %u : (tensor<4xbf16>) -> tensor<4xf32>
      %r = "stablehlo.scatter"(%x, %i, %w) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<8xf32>
      return %r : tensor<8xf32>
    }""",
    "vk-f64-strided-slice": """
    func.func @f(%x: tensor<4x4xi32>) -> tensor<2x4xf64> {
      %w = stablehlo.convert %x : (tensor<4x4xi32>) -> tensor<4x4xf64>
      %r = stablehlo.slice %w [0:3:2, 0:4] : (tensor<4x4xf64>) -> tensor<2x4xf64>
      return %r : tensor<2x4xf64>
    }""",
    "vk-f64-negative-pad": """
    func.func @f(%x: tensor<4x4xf64>) -> tensor<3x4xf64> {
      %c = stablehlo.constant dense<0.0> : tensor<f64>
      %n = stablehlo.negate %x : tensor<4x4xf64>
      %r = stablehlo.pad %n, %c, low = [0, 1], high = [-1, -1], interior = [0, 0] : (tensor<4x4xf64>, tensor<f64>) -> tensor<3x4xf64>
      return %r : tensor<3x4xf64>
    }""",
    "vk-negated-divisor": """
    func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
      %r = stablehlo.divide %a, %b : tensor<4xi32>
      return %r : tensor<4xi32>
    }""",
    "vk-float-remainder": """
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %r = stablehlo.remainder %a, %b : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-grouped-convolution": """
    func.func @f(%x: tensor<2x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32> {
      %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32>
      return %r : tensor<2x6x4x4xf32>
    }""",
    "vk-complex-window": """
    func.func @f(%x: tensor<8x9xcomplex<f32>>, %i: tensor<complex<f32>>) -> tensor<8x9xcomplex<f32>> {
      %r = "stablehlo.reduce_window"(%x, %i) <{padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 8, 1>}> ({
      ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
        %m = stablehlo.multiply %a, %b : tensor<complex<f32>>
        stablehlo.return %m : tensor<complex<f32>>
      }) : (tensor<8x9xcomplex<f32>>, tensor<complex<f32>>) -> tensor<8x9xcomplex<f32>>
      return %r : tensor<8x9xcomplex<f32>>
    }""",
    "vk-narrow-window-input": f"""
    func.func @f(%x: tensor<6x6xf16>, %i: tensor<f32>) -> tensor<5x5xf32> {{
      %w = stablehlo.convert %x : (tensor<6x6xf16>) -> tensor<6x6xf32>
      %r = "stablehlo.reduce_window"(%w, %i) <{{window_dimensions = array<i64: 2, 2>}}> {_sum("f32")} : (tensor<6x6xf32>, tensor<f32>) -> tensor<5x5xf32>
      return %r : tensor<5x5xf32>
    }}""",
    "vk-integer-to-bf16": """
    func.func @f(%x: tensor<4xi32>) -> tensor<4xbf16> {
      %0 = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xf32>
      %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xbf16>
      return %1 : tensor<4xbf16>
    }""",
    "vk-bf16-widened-pad": """
    func.func @f(%x: tensor<1x128xbf16>) -> tensor<1x129xf32> {
      %c = stablehlo.constant dense<0.0> : tensor<f32>
      %w = stablehlo.convert %x : (tensor<1x128xbf16>) -> tensor<1x128xf32>
      %p = stablehlo.pad %w, %c, low = [0, 1], high = [0, 0], interior = [0, 0]
          : (tensor<1x128xf32>, tensor<f32>) -> tensor<1x129xf32>
      return %p : tensor<1x129xf32>
    }""",
    "vk-window-broadcast": """
    func.func @f(%x: tensor<64xf32>, %i: tensor<f32>) -> tensor<3x33xf32> {
      %r = "stablehlo.reduce_window"(%x, %i) <{window_dimensions = array<i64: 2>,
          window_strides = array<i64: 2>, padding = dense<1> : tensor<1x2xi64>}> ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %m = stablehlo.maximum %a, %b : tensor<f32>
          stablehlo.return %m : tensor<f32>
        }) : (tensor<64xf32>, tensor<f32>) -> tensor<33xf32>
      %s = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<33xf32>) -> tensor<3x33xf32>
      return %s : tensor<3x33xf32>
    }""",
    "vk-signed-zero-root": """
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = stablehlo.rsqrt %x : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-self-difference": """
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = stablehlo.subtract %x, %x : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-spread-product": """
    func.func @f(%a: tensor<7x5xf32>, %b: tensor<5x9xf32>) -> tensor<3x7x9xf32> {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
          : (tensor<7x5xf32>, tensor<5x9xf32>) -> tensor<7x9xf32>
      %r = stablehlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<7x9xf32>) -> tensor<3x7x9xf32>
      return %r : tensor<3x7x9xf32>
    }""",
    "vk-widened-transpose": """
    func.func @f(%x: tensor<3x6xf16>) -> (tensor<6x3xf32>, tensor<18xf32>) {
      %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x6xf16>) -> tensor<6x3xf16>
      %c = stablehlo.convert %t : (tensor<6x3xf16>) -> tensor<6x3xf32>
      %n = stablehlo.negate %c : tensor<6x3xf32>
      %r = stablehlo.reshape %c : (tensor<6x3xf32>) -> tensor<18xf32>
      return %n, %r : tensor<6x3xf32>, tensor<18xf32>
    }""",
    "vk-byte-product": """
    func.func @f(%a: tensor<16x8xi8>, %b: tensor<8x24xi8>) -> tensor<16x24xi8> {
      %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
          : (tensor<16x8xi8>, tensor<8x24xi8>) -> tensor<16x24xi8>
      return %r : tensor<16x24xi8>
    }""",
    "vk-aligned-matmul-columns": """
    func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x31xf32>) -> tensor<64x31xf32> {
      %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
          : (tensor<64x64xf32>, tensor<64x31xf32>) -> tensor<64x31xf32>
      return %r : tensor<64x31xf32>
    }""",
    "vk-empty-window-operand": """
    func.func @f(%x: tensor<0x1xi32>) -> tensor<1x1xi32> {
      %c = stablehlo.constant dense<2147483647> : tensor<i32>
      %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>,
          window_dimensions = array<i64: 2, 1>}> ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = stablehlo.minimum %a, %b : tensor<i32>
        stablehlo.return %m : tensor<i32>
      }) : (tensor<0x1xi32>, tensor<i32>) -> tensor<1x1xi32>
      return %r : tensor<1x1xi32>
    }""",
    "vk-single-window": """
    func.func @f(%x: tensor<1x1xi32>) -> tensor<1x1xi32> {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[2, 1], [0, 1]]> : tensor<2x2xi64>,
          window_dimensions = array<i64: 4, 2>, window_strides = array<i64: 2, 1>}> ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
      }) : (tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
      return %r : tensor<1x1xi32>
    }""",
    "vk-elementwise-map": """
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0>}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %d = stablehlo.subtract %p, %q : tensor<f32>
        stablehlo.return %d : tensor<f32>
      }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-error-free-sum": """
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %s = stablehlo.add %a, %b : tensor<4xf32>
      %r = stablehlo.subtract %s, %a : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "vk-unit-strided-slice": """
    func.func @f(%x: tensor<8x3xf32>) -> tensor<8x1xf32> {
      %r = stablehlo.slice %x [0:8, 1:2:3] : (tensor<8x3xf32>) -> tensor<8x1xf32>
      return %r : tensor<8x1xf32>
    }""",
    "vk-gapped-reduce": """
    func.func @f(%x: tensor<16x2x3xi32>) -> tensor<2xi32> {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 2]
          : (tensor<16x2x3xi32>, tensor<i32>) -> tensor<2xi32>
      return %r : tensor<2xi32>
    }""",
    "vk-complex-reduce-input": """
    func.func @f(%x: tensor<8xcomplex<f32>>) -> tensor<f32> {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %p = stablehlo.real %x : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
      %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0]
          : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      return %r : tensor<f32>
    }""",
    "vk-shared-widened-reduce": """
    func.func @f(%m: tensor<16xi1>) -> (tensor<i32>, tensor<i32>) {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %one = stablehlo.constant dense<1> : tensor<16xi32>
      %zero = stablehlo.constant dense<0> : tensor<16xi32>
      %x = stablehlo.select %m, %one, %zero : tensor<16xi1>, tensor<16xi32>
      %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0]
          : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
      %q = stablehlo.multiply %x, %x : tensor<16xi32>
      %t = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0]
          : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
      return %s, %t : tensor<i32>, tensor<i32>
    }""",
    "vk-narrow-product-input": """
    func.func @f(%b: tensor<8x16xi1>, %v: tensor<8xi32>) -> tensor<16xi32> {
      %x = stablehlo.convert %b : (tensor<8x16xi1>) -> tensor<8x16xi32>
      %r = stablehlo.dot_general %x, %v, contracting_dims = [0] x [0] : (tensor<8x16xi32>, tensor<8xi32>) -> tensor<16xi32>
      return %r : tensor<16xi32>
    }""",
    "vk-squeezed-strided-slice": """
    func.func @f(%x: tensor<2x64x1xf32>) -> tensor<2x32x1xf32> {
      %r = stablehlo.slice %x [0:2, 1:64:2, 0:1] : (tensor<2x64x1xf32>) -> tensor<2x32x1xf32>
      return %r : tensor<2x32x1xf32>
    }""",
    "vk-fft-fused-read": """
    func.func @f(%x: tensor<4x32xcomplex<f32>>) -> tensor<4x32xf32> {
      %0 = stablehlo.fft %x, type = FFT, length = [32] : (tensor<4x32xcomplex<f32>>) -> tensor<4x32xcomplex<f32>>
      %1 = stablehlo.real %0 : (tensor<4x32xcomplex<f32>>) -> tensor<4x32xf32>
      return %1 : tensor<4x32xf32>
    }""",
    "vk-widened-column-reduce": """
    func.func @f(%x: tensor<4x32xf32>, %y: tensor<4x32xbf16>) -> tensor<32xf32> {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %w = stablehlo.convert %y : (tensor<4x32xbf16>) -> tensor<4x32xf32>
      %p = stablehlo.multiply %x, %w : tensor<4x32xf32>
      %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0]
          : (tensor<4x32xf32>, tensor<f32>) -> tensor<32xf32>
      %b = iree_tensor_ext.compute_barrier.start %r : tensor<32xf32> -> tensor<32xf32>
      return %b : tensor<32xf32>
    }""",
    "vk-loop-index-readback": """
    func.func @f(%x: tensor<8xf32>, %u: tensor<1xf32>) -> tensor<8xf32> {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %c8 = stablehlo.constant dense<8> : tensor<i32>
      %r:2 = stablehlo.while(%i = %c0, %y = %x) : tensor<i32>, tensor<8xf32>
      cond {
        %p = stablehlo.compare LT, %i, %c8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %n = stablehlo.compare LT, %i, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %w = stablehlo.add %i, %c8 : tensor<i32>
        %k = stablehlo.select %n, %w, %i : tensor<i1>, tensor<i32>
        %z = stablehlo.dynamic_update_slice %y, %u, %k : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
        %j = stablehlo.add %i, %c1 : tensor<i32>
        stablehlo.return %j, %z : tensor<i32>, tensor<8xf32>
      }
      return %r#1 : tensor<8xf32>
    }""",
    "vk-strided-reduce-input": """
    func.func @f(%x: tensor<64x32xf32>) -> tensor<32xf32> {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %q = stablehlo.slice %x [0:64:2, 0:32] : (tensor<64x32xf32>) -> tensor<32x32xf32>
      %r = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0]
          : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
      %b = iree_tensor_ext.compute_barrier.start %r : tensor<32xf32> -> tensor<32xf32>
      return %b : tensor<32xf32>
    }""",
    "vk-unsigned-grouped-conv": """
    func.func @f(%x: tensor<2x2x6xui8>, %w: tensor<4x1x3xui8>) -> tensor<2x4x4xui8> {
      %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x2x6xui8>, tensor<4x1x3xui8>) -> tensor<2x4x4xui8>
      return %r : tensor<2x4x4xui8>
    }""",
    "vk-few-output-convolution": """
    func.func @f(%x: tensor<1x8x2x2xf32>, %w: tensor<1x8x3x2xf32>) -> tensor<1x1x1x1xf32> {
      %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 2], [0, 0]], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x2x2xf32>, tensor<1x8x3x2xf32>) -> tensor<1x1x1x1xf32>
      return %r : tensor<1x1x1x1xf32>
    }""",
    "vk-narrow-convolution-input": """
    func.func @f(%x: tensor<1x3x4x4xi32>, %n: tensor<2x3x2x2xbf16>) -> tensor<1x2x5x5xi32> {
      %w = stablehlo.convert %n : (tensor<2x3x2x2xbf16>) -> tensor<2x3x2x2xi32>
      %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x4x4xi32>, tensor<2x3x2x2xi32>) -> tensor<1x2x5x5xi32>
      return %r : tensor<1x2x5x5xi32>
    }""",
    "vk-complex-constant": """
    func.func @f(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
      %c = stablehlo.constant dense<[(0.5, 1.0), (0.25, -2.0)]> : tensor<2xcomplex<f32>>
      %r = stablehlo.multiply %x, %c : tensor<2xcomplex<f32>>
      return %r : tensor<2xcomplex<f32>>
    }""",
    "vk-zero-sum-sign": """
    func.func @f(%x: tensor<8x3xf32>) -> tensor<8xf32> {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8xf32>
      return %r : tensor<8xf32>
    }""",
    "vk-complex-part-of-view": """
    func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x2xf32> {
      %c = stablehlo.complex %x, %y : tensor<2x3xcomplex<f32>>
      %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
      %r = stablehlo.imag %t : (tensor<3x2xcomplex<f32>>) -> tensor<3x2xf32>
      return %r : tensor<3x2xf32>
    }""",
    "vk-long-loop-trips": """
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.constant dense<256> : tensor<i32>
      %r:3 = stablehlo.while(%i = %c0, %k = %c0, %y = %x) : tensor<i32>, tensor<i32>, tensor<8xf32>
      cond {
        %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %f = stablehlo.convert %k : (tensor<i32>) -> tensor<f32>
        %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<8xf32>
        %z = stablehlo.add %y, %b : tensor<8xf32>
        %j = stablehlo.add %i, %c1 : tensor<i32>
        %l = stablehlo.add %k, %c1 : tensor<i32>
        stablehlo.return %j, %l, %z : tensor<i32>, tensor<i32>, tensor<8xf32>
      }
      return %r#2 : tensor<8xf32>
    }""",
    "vk-sliced-iota": """
    func.func @f() -> tensor<8191xi32> {
      %i = stablehlo.iota dim = 0 : tensor<8192xi32>
      %r = stablehlo.slice %i [1:8192] : (tensor<8192xi32>) -> tensor<8191xi32>
      return %r : tensor<8191xi32>
    }""",
    "vk-squeezed-interior-pad": """
    func.func @f(%x: tensor<2x4x1xf32>, %v: tensor<f32>) -> tensor<2x7x1xf32> {
      %r = stablehlo.pad %x, %v, low = [0, 0, 0], high = [0, 0, 0], interior = [0, 1, 0] : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x7x1xf32>
      return %r : tensor<2x7x1xf32>
    }""",
    "gpu-f8-convert": """
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
      %r = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
      return %r : tensor<4xf8E4M3FN>
    }""",
    "gpu-f8-operands": """
    func.func @f(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E4M3FN>) -> tensor<4xi1> {
      %r = stablehlo.compare LT, %a, %b : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xi1>
      return %r : tensor<4xi1>
    }""",
    "gpu-f8-bodies": """
    func.func @f(%x: tensor<8xf8E4M3FN>, %i: tensor<f8E4M3FN>) -> tensor<f8E4M3FN> {
      %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [0] : (tensor<8xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<f8E4M3FN>
      return %r : tensor<f8E4M3FN>
    }""",
    "gpu-nan-min-max": """
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %r = stablehlo.maximum %a, %b : tensor<4xf32>
      return %r : tensor<4xf32>
    }""",
    "gpu-negated-sum": """
    func.func @f(%x: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {
      %n = stablehlo.negate %x : tensor<8xf32>
      %r = stablehlo.reduce(%n init: %i) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      return %r : tensor<f32>
    }""",
    "gpu-sliced-gather": """
    func.func @f(%a: tensor<16x16xf32>, %i: tensor<16x1xi32>) -> tensor<16xf32> {
      %c = stablehlo.slice %a [0:16, 0:1] : (tensor<16x16xf32>) -> tensor<16x1xf32>
      %v = stablehlo.reshape %c : (tensor<16x1xf32>) -> tensor<16xf32>
      %g = "stablehlo.gather"(%v, %i) {dimension_numbers = #stablehlo.gather<
             collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
           slice_sizes = array<i64: 1>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
      return %g : tensor<16xf32>
    }""",
    "gpu-bool-bitcast": """
    func.func @f(%x: tensor<4x32xi1>) -> tensor<4xi32> {
      %r = stablehlo.bitcast_convert %x : (tensor<4x32xi1>) -> tensor<4xi32>
      return %r : tensor<4xi32>
    }""",
    "vk-dynamic-slice": """
    func.func @f(%x: tensor<?x64xf32>) -> tensor<?x3xf32> {
      %zero = stablehlo.constant dense<0> : tensor<2xi64>
      %one = stablehlo.constant dense<1> : tensor<2xi64>
      %c3 = stablehlo.constant dense<3> : tensor<1xi64>
      %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x64xf32>) -> tensor<i32>
      %n64 = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>
      %n1 = stablehlo.reshape %n64 : (tensor<i64>) -> tensor<1xi64>
      %limit = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
      %s = stablehlo.real_dynamic_slice %x, %zero, %limit, %one : (tensor<?x64xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x3xf32>
      %r = stablehlo.negate %s : tensor<?x3xf32>
      return %r : tensor<?x3xf32>
    }""",
    "vk-constant-sort": """
    func.func @f() -> tensor<9xi32> {
      %c = stablehlo.constant dense<[3, 1, 2, 0, 8, 7, 5, 4, 6]> : tensor<9xi32>
      %s = "stablehlo.sort"(%c) <{dimension = 0 : i64, is_stable = false}> ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      }) : (tensor<9xi32>) -> tensor<9xi32>
      return %s : tensor<9xi32>
    }""",
    "gpu-f64-sign": """
    func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
      %r = stablehlo.sign %x : tensor<4xf64>
      return %r : tensor<4xf64>
    }""",
}

TABLES = [("shlo-legalize-vulkan-ops", VULKAN_QUIRKS), ("shlo-legalize-gpu-ops", GPU_QUIRKS)]
ENTRIES = [(name, quirk.id) for name, table in TABLES for quirk in table]
# entries that rewrite every op of a kind (every float product and sum from a zero), switched
# off with each entry so that its sample shows what that entry alone does
EVERYWHERE = {"shlo-legalize-vulkan-ops": ("vk-zero-sum-sign",)}


def _documented(ids: list[str]) -> None:
    doc = DOC.read_text()
    for i in ids:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", i) and len(i) <= 28, i
        assert re.search(rf"^### `{re.escape(i)}`", doc, re.M), (
            f"{i}: no '### `{i}`' section in docs/iree_gaps.md")


def _rewritten(ctx, text: str, pipeline: str) -> tuple[str, str]:
    """(the module as parsed, the module after `pipeline`)."""
    module = shlo.parse_module(text, context=ctx)
    before = str(module)
    run_pipeline(module, pipeline)
    return before, str(module)


def test_ids_are_unique_short_and_documented():
    quirks = [quirk for _, table in TABLES for quirk in table]
    tuning = [*MODULE_RULES, *RETRIES, *HOST_PASSES]
    ids = [entry.id for entry in [*quirks, *tuning]]
    assert len(ids) == len(set(ids))
    assert all(q.ops and q.targets and (q.rule or q.fence) for q in quirks)
    _documented(ids)
    assert set(SAMPLES) == {q.id for q in quirks}


@pytest.mark.parametrize("pass_name, quirk_id", ENTRIES, ids=[i for _, i in ENTRIES])
def test_disabling_an_entry_leaves_its_op_in_place(ctx, pass_name, quirk_id):
    before, enabled = _rewritten(ctx, SAMPLES[quirk_id], pass_name)
    assert enabled != before, f"{quirk_id}: the table left its sample unchanged"
    off = ",".join(dict.fromkeys((quirk_id, *EVERYWHERE.get(pass_name, ()))))
    before, disabled = _rewritten(ctx, SAMPLES[quirk_id], f"{pass_name}{{disable={off}}}")
    assert disabled == before


def test_several_ids_and_the_f64_capability(ctx):
    text = SAMPLES["vk-float-remainder"] + SAMPLES["vk-clz-width"].replace("@f", "@g")
    before, after = _rewritten(ctx, text, "shlo-legalize-vulkan-ops{disable=vk-float-remainder,"
                                          "vk-clz-width}")
    assert after == before
    before, after = _rewritten(ctx, SAMPLES["vk-float-remainder"],
                               "shlo-legalize-vulkan-ops{f64=false}")
    assert after == before


def test_an_unknown_id_is_a_one_line_error():
    with pytest.raises(PipelineError, match="unknown quirk id 'vk-nope' in disable=") as e:
        LegalizeVulkanOps.from_options({"disable": "vk-bf16-iota,vk-nope"})
    assert "\n" not in str(e.value) and "vk-bf16-iota" in str(e.value)


LOOP_WITH_A_THIN_PRODUCT = """
func.func @f(%w: tensor<{k}x512xf32>, %h: tensor<{rows}x{k}xf32>{init_argument})
    -> tensor<{rows}x512xf32> {{
  {init_constant}
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %init) : tensor<i32>, tensor<{rows}x512xf32>
    cond {{
      %n = stablehlo.constant dense<48> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }} do {{
      %p = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0]
          : (tensor<{rows}x{k}xf32>, tensor<{k}x512xf32>) -> tensor<{rows}x512xf32>
      %s = stablehlo.add %acc, %p : tensor<{rows}x512xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %s : tensor<i32>, tensor<{rows}x512xf32>
    }}
  return %r#1 : tensor<{rows}x512xf32>
}}"""


@pytest.mark.parametrize("rows, in_loop, tiled", [(16, True, False), (64, True, True),
                                                  (16, False, True)])
@pytest.mark.every_case
def test_thin_products_in_loops_compile_without_data_tiling(ctx, rows, in_loop, tiled):
    """cpu-loop-thin-products: a product of at most 16 rows inside a loop (an RNN step) turns
    data tiling off whatever the matrix size; 64 rows, no loop, or a loop whose carried values
    start from constants keep it."""
    from shlo.pipelines.cpu_tuning import NO_DATA_TILING, module_flags
    def loop(from_constants: bool) -> str:
        return LOOP_WITH_A_THIN_PRODUCT.format(
            rows=rows, k=128,
            init_argument="" if from_constants else f", %init: tensor<{rows}x512xf32>",
            init_constant=(f"%init = stablehlo.constant dense<0.0> : tensor<{rows}x512xf32>"
                           if from_constants else ""))
    text = loop(False)
    if not in_loop:
        text = f"""
        func.func @f(%w: tensor<128x512xf32>, %h: tensor<{rows}x128xf32>) -> tensor<{rows}x512xf32> {{
          %p = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0]
              : (tensor<{rows}x128xf32>, tensor<128x512xf32>) -> tensor<{rows}x512xf32>
          return %p : tensor<{rows}x512xf32>
        }}"""
    flags = module_flags(shlo.parse_module(text, context=ctx).operation)
    assert (set(NO_DATA_TILING) <= set(flags)) != tiled
    if in_loop:                 # the same loop, its carried values started from constants
        flags = module_flags(shlo.parse_module(loop(True), context=ctx).operation)
        assert not set(NO_DATA_TILING) <= set(flags)


def test_column_sum_of_widened_values_compiles_on_vulkan():
    """vk-widened-column-reduce: at cnn_train_bf16's size (4096 rows of 32) the fused
    dispatch's SPIR-V compile did not end; with the entry it compiles, checked against numpy."""
    from conftest import vulkan_or_skip
    import ml_dtypes
    import numpy as np
    vulkan_or_skip()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 16, 16, 32)).astype(np.float32)
    y = rng.standard_normal((16, 16, 16, 32)).astype(ml_dtypes.bfloat16)
    got = shlo.compile(COLUMN_SUM_OF_WIDENED.format(n=16), target="vulkan")(x, y)
    want = (x.astype(np.float64) * y.astype(np.float64)).sum(axis=(0, 1, 2))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


STRIDED_COLUMN_SUMS = """
func.func @main(%x: tensor<2048x1024xf32>, %y: tensor<1024x1024xf32>)
    -> (tensor<1024xf32>, tensor<1024xf32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %q = stablehlo.slice %x [0:2048:2, 0:1024] : (tensor<2048x1024xf32>) -> tensor<1024x1024xf32>
  %c = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0]
      : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  %s = stablehlo.slice %x [1:2048:2, 0:1024:1] : (tensor<2048x1024xf32>) -> tensor<1024x1024xf32>
  %p = stablehlo.multiply %s, %y : tensor<1024x1024xf32>
  %d = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0]
      : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  %t = stablehlo.slice %x [0:2048:3, 0:1024:2] : (tensor<2048x1024xf32>) -> tensor<683x512xf32>
  %a = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<683x512xf32>, tensor<f32>) -> tensor<f32>
  return %c, %d, %a : tensor<1024xf32>, tensor<1024xf32>, tensor<f32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sums_of_strided_slices(target):
    """vk-strided-reduce-input: `x[::2].sum(0)` (and of a product, and a whole sum of a
    2-D strided slice) over 2M elements against numpy; without the entry Vulkan summed
    unstrided rows (64x32: 30 of 32 columns wrong, silently)."""
    import numpy as np
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    x = rng.integers(-8, 8, (2048, 1024)).astype(np.float32)
    y = rng.integers(-8, 8, (1024, 1024)).astype(np.float32)
    c, d, a = (np.asarray(r) for r in shlo.compile(STRIDED_COLUMN_SUMS, target=target)(x, y))
    np.testing.assert_array_equal(c, x[::2].sum(0))
    np.testing.assert_array_equal(d, (x[1::2] * y).sum(0))
    np.testing.assert_array_equal(a, x[::3, ::2].sum())
