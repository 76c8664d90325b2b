"""shlo-fold-identity-ops: each op that returns an operand unchanged is replaced by it (and the
functions compute what they computed, checked with the StableHLO reference interpreter on edge
values); look-alikes that change their operand are kept."""
import re

import numpy as np
import pytest

import shlo
from shlo.passes.folding.fold_identity_ops import FoldIdentityOps

from reference_oracle import evaluate

T = "tensor<4x4xf32>"
SORT_BODY = """({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare LT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    })"""
MAX_BODY = """({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %c : tensor<f32>
    })"""
ADD_BODY = """({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %c : tensor<f32>
    })"""
CONSTANTS = [
    "%one = stablehlo.constant dense<1.0> : tensor<f32>",
    "%five = stablehlo.constant dense<5.0> : tensor<f32>",
    "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
    "%true = stablehlo.constant dense<true> : tensor<i1>",
    "%false = stablehlo.constant dense<false> : tensor<i1>",
    "%c0 = stablehlo.constant dense<0> : tensor<i32>",
    "%c7 = stablehlo.constant dense<7> : tensor<i32>",
    "%lo = stablehlo.constant dense<0xFF800000> : tensor<f32>",
    "%hi = stablehlo.constant dense<0x7F800000> : tensor<f32>",
    "%m0 = stablehlo.constant dense<-0.0> : tensor<f32>",
    f"%ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> {T}",
    f"%ones_inf = stablehlo.broadcast_in_dim %hi, dims = [] : (tensor<f32>) -> {T}",
    f"%n = stablehlo.negate %x : {T}",
]
# name -> the op that defines %r from %x (and %y, %b, %k), an identity for every input
FOLDED = {
    "reduce_mul_one": f"%r = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [] : ({T}, tensor<f32>) -> {T}",
    "reduce_add_five": f"%r = stablehlo.reduce(%x init: %five) applies stablehlo.add across dimensions = [] : ({T}, tensor<f32>) -> {T}",
    "pad_zero": f"%r = stablehlo.pad %x, %five, low = [0, 0], high = [0, 0], interior = [0, 0] : ({T}, tensor<f32>) -> {T}",
    "select_true": f"%r = stablehlo.select %true, %x, %n : (tensor<i1>, {T}, {T}) -> {T}",
    "select_same": f"%r = stablehlo.select %b, %x, %x : (tensor<i1>, {T}, {T}) -> {T}",
    "multiply_ones": f"%r = stablehlo.multiply %ones, %x : {T}",
    "add_minus_zero": f"%mz = stablehlo.broadcast_in_dim %m0, dims = [] : (tensor<f32>) -> {T}\n  %r = stablehlo.add %x, %mz : {T}",
    "clamp_infinities": f"%r = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, {T}, tensor<f32>) -> {T}",
    "maximum_self": f"%r = stablehlo.maximum %x, %x : {T}",
    "concatenate_one": f"%r = stablehlo.concatenate %x, dim = 0 : ({T}) -> {T}",
    "real_of_real": f"%r = stablehlo.real %x : ({T}) -> {T}",
    "transpose_identity": f"%r = stablehlo.transpose %x, dims = [0, 1] : ({T}) -> {T}",
    "broadcast_same": f"%r = stablehlo.broadcast_in_dim %x, dims = [0, 1] : ({T}) -> {T}",
    "reshape_same": f"%r = stablehlo.reshape %x : ({T}) -> {T}",
    "convert_same": f"%r = stablehlo.convert %x : ({T}) -> {T}",
    "slice_whole": f"%r = stablehlo.slice %x [0:4, 0:4] : ({T}) -> {T}",
    "dynamic_slice_whole": f"%r = stablehlo.dynamic_slice %x, %k, %k, sizes = [4, 4] : ({T}, tensor<i32>, tensor<i32>) -> {T}",
    "dynamic_update_slice_whole": f"%r = stablehlo.dynamic_update_slice %n, %x, %k, %k : ({T}, {T}, tensor<i32>, tensor<i32>) -> {T}",
    "reduce_window_add_minus_zero": f"%r = \"stablehlo.reduce_window\"(%x, %m0) <{{window_dimensions = array<i64: 1, 1>}}> {ADD_BODY} : ({T}, tensor<f32>) -> {T}",
    "reduce_window_max_infinity": f"%r = \"stablehlo.reduce_window\"(%x, %lo) <{{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}}> {MAX_BODY} : ({T}, tensor<f32>) -> {T}",
    "maximum_minus_infinity": f"%mi = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> {T}\n  %r = stablehlo.maximum %mi, %x : {T}",
    "minimum_infinity": f"%r = stablehlo.minimum %x, %ones_inf : {T}",
    "shift_by_zero": f"%xi = stablehlo.bitcast_convert %x : ({T}) -> tensor<4x4xi32>\n  %z = stablehlo.constant dense<0> : tensor<4x4xi32>\n  %s = stablehlo.shift_right_arithmetic %xi, %z : tensor<4x4xi32>\n  %r = stablehlo.bitcast_convert %s : (tensor<4x4xi32>) -> {T}",
    "reduce_precision_e8m23": f"%r = stablehlo.reduce_precision %x, format = e8m23 : {T}",
    "map_argument": f"%r = \"stablehlo.map\"(%y, %x) <{{dimensions = array<i64: 0, 1>}}> ({{\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n    stablehlo.return %q : tensor<f32>\n  }}) : ({T}, {T}) -> {T}",
    "while_false": f"%r = stablehlo.while(%w = %x) : {T}\n   cond {{\n    stablehlo.return %false : tensor<i1>\n  }} do {{\n    %s = stablehlo.negate %w : {T}\n    stablehlo.return %s : {T}\n  }}",
    "if_true": f"%r = \"stablehlo.if\"(%true) ({{\n    %s = stablehlo.sine %y : {T}\n    %t = stablehlo.add %s, %x : {T}\n    stablehlo.return %t : {T}\n  }}, {{\n    stablehlo.return %n : {T}\n  }}) : (tensor<i1>) -> {T}",
    "case_out_of_range": f"%r = \"stablehlo.case\"(%c7) ({{\n    stablehlo.return %n : {T}\n  }}, {{\n    stablehlo.return %x : {T}\n  }}) : (tensor<i32>) -> {T}",
    "case_one_branch": f"%r = \"stablehlo.case\"(%k) ({{\n    stablehlo.return %x : {T}\n  }}) : (tensor<i32>) -> {T}",
}
# look-alikes that change their operand (or may): kept
KEPT = {
    "transpose_swap": f"%r = stablehlo.transpose %x, dims = [1, 0] : ({T}) -> {T}",
    "broadcast_swap": f"%r = stablehlo.broadcast_in_dim %x, dims = [1, 0] : ({T}) -> {T}",
    "pad_shift": f"%r = stablehlo.pad %x, %zero, low = [-1, 0], high = [1, 0], interior = [0, 0] : ({T}, tensor<f32>) -> {T}",
    "clamp_finite": f"%r = stablehlo.clamp %zero, %x, %hi : (tensor<f32>, {T}, tensor<f32>) -> {T}",
    "add_plus_zero": f"%pz = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> {T}\n  %r = stablehlo.add %x, %pz : {T}",
    "reduce_rows": f"%s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : ({T}, tensor<f32>) -> tensor<4xf32>\n  %r = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<4xf32>) -> {T}",
    "select_argument": f"%r = stablehlo.select %b, %x, %n : (tensor<i1>, {T}, {T}) -> {T}",
    "case_two_branches": f"%r = \"stablehlo.case\"(%k) ({{\n    stablehlo.return %n : {T}\n  }}, {{\n    stablehlo.return %x : {T}\n  }}) : (tensor<i32>) -> {T}",
    "while_argument": f"%r = stablehlo.while(%w = %x) : {T}\n   cond {{\n    stablehlo.return %b : tensor<i1>\n  }} do {{\n    %s = stablehlo.negate %w : {T}\n    stablehlo.return %s : {T}\n  }}",
    "sort": f"%r = \"stablehlo.sort\"(%x) <{{dimension = 1 : i64, is_stable = false}}> {SORT_BODY} : ({T}) -> {T}",
    "maximum_finite": f"%m5 = stablehlo.broadcast_in_dim %five, dims = [] : (tensor<f32>) -> {T}\n  %r = stablehlo.maximum %x, %m5 : {T}",
    "minimum_minus_infinity": f"%mi = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> {T}\n  %r = stablehlo.minimum %x, %mi : {T}",
    "reduce_precision_e5m10": f"%r = stablehlo.reduce_precision %x, format = e5m10 : {T}",
    "reduce_window_add_plus_zero": f"%r = \"stablehlo.reduce_window\"(%x, %zero) <{{window_dimensions = array<i64: 1, 1>}}> {ADD_BODY} : ({T}, tensor<f32>) -> {T}",
    "reduce_window_one": f"%r = \"stablehlo.reduce_window\"(%x, %five) <{{window_dimensions = array<i64: 1, 1>}}> {ADD_BODY} : ({T}, tensor<f32>) -> {T}",
}


def _function(name: str, line: str) -> str:
    body = "\n  ".join(CONSTANTS + [line])
    return (f"func.func @{name}(%x: {T}, %y: {T}, %b: tensor<i1>, %k: tensor<i32>) -> {T} {{\n"
            f"  {body}\n  return %r : {T}\n}}")


@pytest.fixture(scope="module")
def folded(ctx):
    """{name: (original function, after the pass)}, the pass run once on all of them."""
    cases = {**FOLDED, **KEPT}
    module = shlo.parse_module("\n".join(_function(n, c) for n, c in cases.items()), context=ctx)
    FoldIdentityOps().apply(module)
    after = {str(op).split("@", 1)[1].split("(", 1)[0]: str(op) for op in module.body.operations}
    return {name: (_function(name, cases[name]), after[name]) for name in cases}


def _arguments():
    edges = np.array([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 3e38, -1e-45, 7.0, -7.0,
                      0.25, 1.0, -1.0, 2.0, 5.0], np.float32).reshape(4, 4)
    y = np.arange(16, dtype=np.float32).reshape(4, 4)
    return [[edges, y, np.bool_(b), np.int32(k)] for b, k in ((True, 0), (False, 2))]


def _same_bits(got, want, what):
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.view(np.uint32), w.view(np.uint32), err_msg=what)


@pytest.mark.parametrize("name", sorted(FOLDED))
@pytest.mark.every_case
def test_identity_is_folded_and_computes_the_same(folded, name):
    original, after = folded[name]
    if name == "if_true":       # its branch inlined
        assert "stablehlo.if" not in after and "stablehlo.sine" in after, after
    elif name == "shift_by_zero":   # (the bitcasts stay)
        assert "stablehlo.shift" not in after, after
    else:
        assert "\n  return %arg0 :" in after, after
    assert "stablehlo.while" not in after and "stablehlo.case" not in after, after
    if name == "reduce_add_five":
        return      # the spec lets the init apply any number of times: XLA and IREE give x,
        # the interpreter x + 5
    for args in _arguments():
        _same_bits(evaluate(after, args), evaluate(original, args), f"{original}\n{after}")


@pytest.mark.parametrize("name", sorted(KEPT))
@pytest.mark.every_case
def test_look_alike_is_kept(folded, name):
    original, after = folded[name]
    op = re.search(r"%r = \"?(stablehlo\.\w+)", KEPT[name]).group(1)
    assert op in after and "\n  return %arg0 :" not in after, after
