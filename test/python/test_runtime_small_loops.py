"""Small modules run on the calling thread: a cpu module with a while loop whose ops are all
small, or a loop-free one of small ops and little work in all (`abi.mark_small_loops`), gets the
local-sync device from `shlo.compile`, and gives the same results there as on local-task; a
loop with a large matrix product, a loop-free module of large ops or much work, one of dynamic
shapes and one with a collective keep local-task."""
import numpy as np
import pytest

import shlo
from shlo.runtime import abi

# a greedy-decode-like loop: 4-row products with a 128x128 weight, a row written per step
DECODE = """
func.func @main(%w: tensor<128x128xf32>, %x: tensor<4x128xf32>) -> tensor<16x4x128xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<16> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %buf = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x4x128xf32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %b = %buf)
      : tensor<i32>, tensor<4x128xf32>, tensor<16x4x128xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %p = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0]
          : (tensor<4x128xf32>, tensor<128x128xf32>) -> tensor<4x128xf32>
      %t = stablehlo.tanh %p : tensor<4x128xf32>
      %row = stablehlo.reshape %t : (tensor<4x128xf32>) -> tensor<1x4x128xf32>
      %nb = stablehlo.dynamic_update_slice %b, %row, %i, %c0, %c0
          : (tensor<16x4x128xf32>, tensor<1x4x128xf32>, tensor<i32>, tensor<i32>, tensor<i32>)
          -> tensor<16x4x128xf32>
      %ni = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %ni, %t, %nb : tensor<i32>, tensor<4x128xf32>, tensor<16x4x128xf32>
    }
  return %r#2 : tensor<16x4x128xf32>
}
"""


def _decode_oracle(w, x):
    out, h = [], x.astype(np.float64)
    for _ in range(16):
        h = np.tanh(h @ w)
        out.append(h)
    return np.stack(out)


def test_small_loop_runs_on_the_calling_thread(tmp_path):
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((128, 128)) / 12).astype(np.float32)
    x = rng.standard_normal((4, 128)).astype(np.float32)
    exe = shlo.compile(DECODE, target="cpu", cache=False)
    assert exe.device == "local-sync"
    on_caller = exe(w, x)
    np.testing.assert_allclose(on_caller, _decode_oracle(w, x), rtol=1e-4, atol=1e-5)
    exe.device = "local-task"           # the user's choice still counts
    np.testing.assert_array_equal(exe(w, x), on_caller)
    path = tmp_path / "decode.vmfb"
    exe.save(str(path))
    assert shlo.load(str(path)).device == "local-sync"
    assert shlo.load(str(path), device="local-task").device == "local-task"


def test_large_product_or_large_op_keeps_local_task():
    large = DECODE.replace("4x128xf32", "512x128xf32").replace("16x4x128", "16x512x128") \
        .replace("1x4x128", "1x512x128")        # 512x128x128: 8M multiply-adds a step
    assert shlo.compile(large, target="cpu", cache=False).device == "local-task"
    assert shlo.compile(_chain(1, 1 << 18), target="cpu", cache=False).device == "local-task"


# ranks of 32 rows of 40 values by pairwise comparison (as shlo's top-k selection counts
# them): 51200-element broadcasts, compares and selects over a 32x40 input
RANKS = """
func.func @main(%x: tensor<32x40xf32>) -> tensor<32x40xi32> {
  %a = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<32x40xf32>) -> tensor<32x40x40xf32>
  %b = stablehlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<32x40xf32>) -> tensor<32x40x40xf32>
  %gt = stablehlo.compare GT, %b, %a : (tensor<32x40x40xf32>, tensor<32x40x40xf32>)
      -> tensor<32x40x40xi1>
  %one = stablehlo.constant dense<1> : tensor<32x40x40xi32>
  %zero = stablehlo.constant dense<0> : tensor<32x40x40xi32>
  %c = stablehlo.select %gt, %one, %zero : tensor<32x40x40xi1>, tensor<32x40x40xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%c init: %init) applies stablehlo.add across dimensions = [2]
      : (tensor<32x40x40xi32>, tensor<i32>) -> tensor<32x40xi32>
  return %r : tensor<32x40xi32>
}
"""


def test_small_loop_free_module_runs_on_the_calling_thread():
    x = np.random.default_rng(1).standard_normal((32, 40)).astype(np.float32)
    exe = shlo.compile(RANKS, target="cpu", cache=False)
    assert exe.device == "local-sync"
    on_caller = exe(x)
    want = (x[:, None, :] > x[:, :, None]).sum(axis=2)
    np.testing.assert_array_equal(on_caller, want)
    exe.device = "local-task"
    np.testing.assert_array_equal(exe(x), on_caller)


def _chain(count, n):
    """`count` exponentials of n elements in a row: `count` ops of n elements of work."""
    ops = [f"  %v{i} = stablehlo.exponential %v{i - 1} : tensor<{n}xf32>"
           for i in range(1, count + 1)]
    return "\n".join([f"func.func @main(%v0: tensor<{n}xf32>) -> tensor<{n}xf32> {{", *ops,
                      f"  return %v{count} : tensor<{n}xf32>", "}"])


@pytest.mark.parametrize("text, marked", [
    (DECODE, True),
    (DECODE.replace("%t = stablehlo.tanh %p : tensor<4x128xf32>",
                    "%t0 = stablehlo.tanh %p : tensor<4x128xf32>\n"
                    "      %t = \"stablehlo.all_reduce\"(%t0) ({\n"
                    "      ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
                    "        %s = stablehlo.add %u, %v : tensor<f32>\n"
                    "        stablehlo.return %s : tensor<f32>\n"
                    "      }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>}"
                    " : (tensor<4x128xf32>) -> tensor<4x128xf32>"), False),
    (DECODE.replace("dense<0.0> : tensor<f32>", "dense<0.0> : tensor<f32>\n"
                    "  %big = stablehlo.iota dim = 0 : tensor<65537xf32>"), False),
    (RANKS, True),                              # loop-free, 5 ops of 51200 elements
    (RANKS.replace("x40", "x160"), False),      # 5 of 819200: over ONCE_MEAN on average
    (_chain(64, 1 << 14).replace("  return", f"  %big = stablehlo.iota dim = 0 : "
                                 f"tensor<{1 << 20}xf32>\n  return"), True),
    (_chain(64, 1 << 14).replace("  return", f"  %big = stablehlo.iota dim = 0 : "
                                 f"tensor<{(1 << 20) + 1}xf32>\n  return"), False),  # ONCE_ELEMENTS
    (_chain(1, 1 << 16), True),                 # one op of 2^16: ONCE_MEAN
    (_chain(1, (1 << 16) + 1), False),
    (_chain(256, 1 << 16), True),               # 2^24 in all: ONCE_TOTAL
    (_chain(257, 1 << 16), False),
    (_chain(16, 1 << 10).replace("1024", "?"), False),      # sizes known at run time only
])
@pytest.mark.every_case
def test_marks(ctx, text, marked):
    module = shlo.parse_module(text, context=ctx)
    abi.mark_small_loops(module.operation)
    assert (abi.ONE_THREAD_KEY in str(module)) == marked


def _step_loop(chain=15, rows=16, outside=0):
    """An LSTM-like loop of 48 trips: a rows x 128 by 128x512 product a step (2^20
    multiply-adds at 16 rows), `chain` tanh of its result (8192 elements each), the new state
    sliced out and written into a 48-step buffer; `outside`: the columns of a 128x512 by
    512 x outside product after the loop (0: none)."""
    out = f"tensor<48x{rows}x128xf32>"
    ops = [f"      %e{i} = stablehlo.tanh %e{i - 1} : tensor<{rows}x512xf32>"
           for i in range(1, chain + 1)]
    after = (f"  %o = stablehlo.dot_general %w, %v, contracting_dims = [1] x [0] : (tensor<128x"
             f"512xf32>, tensor<512x{outside}xf32>) -> tensor<128x{outside}xf32>\n") \
        if outside else ""
    return f"""
func.func @main(%w: tensor<128x512xf32>, %x: tensor<{rows}x128xf32>,
                %v: tensor<512x{max(outside, 1)}xf32>) -> {out} {{
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<48> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %buf = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> {out}
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %b = %buf)
      : tensor<i32>, tensor<{rows}x128xf32>, {out}
    cond {{
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }} do {{
      %e0 = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0]
          : (tensor<{rows}x128xf32>, tensor<128x512xf32>) -> tensor<{rows}x512xf32>
{chr(10).join(ops)}
      %nh = stablehlo.slice %e{chain} [0:{rows}, 0:128]
          : (tensor<{rows}x512xf32>) -> tensor<{rows}x128xf32>
      %row = stablehlo.reshape %nh : (tensor<{rows}x128xf32>) -> tensor<1x{rows}x128xf32>
      %nb = stablehlo.dynamic_update_slice %b, %row, %i, %c0, %c0
          : ({out}, tensor<1x{rows}x128xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> {out}
      %ni = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %ni, %nh, %nb : tensor<i32>, tensor<{rows}x128xf32>, {out}
    }}
{after}  return %r#2 : {out}
}}
"""


# The loop rule judges the work per dispatch of the loop bodies (lstm_scan: 16x128x512
# products among ~90 small ops a step) and bounds what runs once outside the loops.
@pytest.mark.parametrize("options, marked", [
    ({}, True),                     # 2^20 a product (LOOP_PRODUCT); 19 ops of mean 62.0K
    ({"chain": 14}, True),          # 18 ops over 2^10 of mean 64.97K: LOOP_MEAN
    ({"chain": 13}, False),         # 17 of mean 68.3K
    ({"rows": 32, "chain": 40}, False),     # 2^21 multiply-adds a step: over LOOP_PRODUCT
    ({"outside": 17}, True),        # 1114112 outside, 1177603 a trip of the loop
    ({"outside": 18}, False),       # 1179648 outside: more than a trip
])
@pytest.mark.every_case
def test_loop_marks(ctx, options, marked):
    module = shlo.parse_module(_step_loop(**options), context=ctx)
    abi.mark_small_loops(module.operation)
    assert (abi.ONE_THREAD_KEY in str(module)) == marked


def test_op_work(ctx):
    module = shlo.parse_module(DECODE, context=ctx)
    work = {}

    def visit(op):
        work.setdefault(op.name, abi.op_work(op.operation))
        return 0
    from iree.compiler import ir
    module.operation.walk(lambda op: (visit(op), ir.WalkResult.ADVANCE)[1])
    assert work["stablehlo.dot_general"] == 4 * 128 * 128
    assert work["stablehlo.dynamic_update_slice"] == 4 * 128      # the update, not the buffer
    assert work["stablehlo.broadcast_in_dim"] == 0                 # a fill
    assert work["stablehlo.while"] == 0 and work["stablehlo.tanh"] == 4 * 128
