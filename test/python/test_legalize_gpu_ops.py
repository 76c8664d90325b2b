"""shlo-legalize-gpu-ops: NaN-propagating max/min (IREE's CUDA and ROCm code drops NaNs), a
gather from a matrix column and a sum of negated values (both fail to compile for CUDA).

The CPU runs the pass explicitly, so the rewritten IR is checked against numpy here; the CUDA
target must get the pass from its default pipeline, and its compiles are checked on any
machine (no GPU needed). test_runtime_cuda.py runs the NaN cases on a GPU."""
import numpy as np
import pytest

import shlo
from shlo.pipelines import default_pipeline
from shlo.passes.pipeline import run_pipeline
from shlo.pipelines.targets import get_target
from shlo.runtime.standalone_loader import ELEMENT_DTYPES

from test_runtime_cuda import NAN_PROGRAM, nan_inputs


def test_cuda_and_hip_pipelines_have_the_pass():
    for target in ("cuda:sm_80", "cuda:sm_90a", "hip"):
        assert "shlo-legalize-gpu-ops" in get_target(target).passes
    assert "shlo-legalize-gpu-ops" not in get_target("cpu").passes


def test_rewritten_max_min_keep_the_spec_semantics(ctx):
    """NaN wherever an operand is NaN; -0 < +0; windows and reductions included."""
    a, b, want = nan_inputs()
    exe = shlo.compile(shlo.parse_module(NAN_PROGRAM, context=ctx), target="cpu",
                       pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))
    got = exe(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def test_max_min_are_guarded_in_the_cuda_pipeline(ctx):
    module = shlo.parse_module(NAN_PROGRAM, context=ctx)
    run_pipeline(module, default_pipeline(get_target("cuda").passes))
    text = str(module)
    # x != x once per tested value (cse shares them), or-ed per op and per reduction
    assert text.count("stablehlo.compare NE") >= 3 and text.count("stablehlo.or") >= 4, text


GATHER_FROM_COLUMN = """
func.func @main(%a: tensor<16x16xf32>, %p: tensor<16xi32>) -> tensor<16xf32> {
  %c = stablehlo.slice %a [0:16, 0:1] : (tensor<16x16xf32>) -> tensor<16x1xf32>
  %v = stablehlo.reshape %c : (tensor<16x1xf32>) -> tensor<16xf32>
  %i = stablehlo.reshape %p : (tensor<16xi32>) -> tensor<16x1xi32>
  %g = "stablehlo.gather"(%v, %i) {dimension_numbers = #stablehlo.gather<
         collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
       slice_sizes = array<i64: 1>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
  return %g : tensor<16xf32>
}
"""

SUM_OF_NEGATED = """
func.func @main(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %n = stablehlo.negate %x : tensor<8x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [1]
       : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
"""

# jax's lax.cummax: the NaN flags of a cumulative window (an i1 `or` window there failed to
# compile: "'arith.ori' op requires the same type for all operands and results")
CUMMAX = """
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 64>, padding = dense<[[63, 0]]> : tensor<1x2xi64>}
     : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
"""


@pytest.mark.parametrize("text", [GATHER_FROM_COLUMN, SUM_OF_NEGATED, CUMMAX],
                         ids=["gather", "negsum", "cummax"])
@pytest.mark.every_case
def test_compiles_for_cuda(ctx, text):
    """Without the pass: 'LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast' (gather), 'failed to get neutral element for
    reduction' (sum)."""
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)


def test_gather_and_sum_rewrites_on_cpu(ctx):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((16, 16)).astype(np.float32)
    p = rng.permutation(16).astype(np.int32)
    pipeline = default_pipeline(["shlo-legalize-gpu-ops"])
    got = shlo.compile(shlo.parse_module(GATHER_FROM_COLUMN, context=ctx), target="cpu",
                       pipeline=pipeline)(a, p)
    np.testing.assert_array_equal(got, a[:, 0][p])
    x = rng.standard_normal((8, 32)).astype(np.float32)
    got = shlo.compile(shlo.parse_module(SUM_OF_NEGATED, context=ctx), target="cpu",
                       pipeline=pipeline)(x)
    np.testing.assert_allclose(got, -x.astype(np.float64).sum(1), rtol=1e-5, atol=1e-6)
    x = rng.standard_normal(64).astype(np.float32)
    x[9] = np.nan
    got = shlo.compile(shlo.parse_module(CUMMAX, context=ctx), target="cpu",
                       pipeline=pipeline)(x)
    np.testing.assert_array_equal(got, np.maximum.accumulate(x))     # NaN from index 9 on


# ---- 8-bit floats: conversions from and to them, made from their bits ------------------------

F8_TYPES = ["f8E4M3FN", "f8E5M2", "f8E3M4", "f8E4M3", "f8E4M3FNUZ", "f8E5M2FNUZ",
            "f8E4M3B11FNUZ"]


def f8_program(t: str, n: int) -> str:
    """f32 and f64 to `t`; every `t` code to f32 and f16; `t` to f8E5M2 and back."""
    return f"""func.func @main(%a: tensor<{n}xf32>, %d: tensor<{n}xf64>, %c: tensor<256x{t}>)
    -> (tensor<{n}x{t}>, tensor<{n}x{t}>, tensor<256xf32>, tensor<256xf16>, tensor<256x{t}>) {{
  %0 = stablehlo.convert %a : (tensor<{n}xf32>) -> tensor<{n}x{t}>
  %1 = stablehlo.convert %d : (tensor<{n}xf64>) -> tensor<{n}x{t}>
  %r = stablehlo.reverse %c, dims = [0] : tensor<256x{t}>
  %2 = stablehlo.convert %r : (tensor<256x{t}>) -> tensor<256xf32>
  %3 = stablehlo.convert %r : (tensor<256x{t}>) -> tensor<256xf16>
  %4 = stablehlo.convert %r : (tensor<256x{t}>) -> tensor<256xf8E5M2>
  %5 = stablehlo.convert %4 : (tensor<256xf8E5M2>) -> tensor<256x{t}>
  return %0, %1, %2, %3, %5 : tensor<{n}x{t}>, tensor<{n}x{t}>, tensor<256xf32>, tensor<256xf16>, tensor<256x{t}>
}}"""


def f8_inputs(dtype) -> np.ndarray:
    """Every value of the type, the midpoints between neighbours (ties) and their float
    neighbours, the range's edges, specials and random values of every magnitude."""
    import ml_dtypes
    info = ml_dtypes.finfo(dtype)
    codes = np.arange(256, dtype=np.uint8).view(dtype).astype(np.float32)
    values = np.unique(codes[np.isfinite(codes)]).astype(np.float64)
    mids = ((values[:-1] + values[1:]) / 2).astype(np.float32)
    rng = np.random.default_rng(4)
    top, tiny = float(info.max), float(info.smallest_subnormal)
    return np.concatenate([
        codes, mids, np.nextafter(mids, np.float32(np.inf)), np.nextafter(mids, -np.inf),
        [np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, top * 1.03, -top * 1.07, top * 3, 1e30,
         -1e30, tiny / 2, -tiny / 2, tiny * 0.51, -tiny * 0.49],
        rng.standard_normal(500) * top / 4, rng.standard_normal(500) * float(info.tiny)],
    ).astype(np.float32)


def same_bits(got, want):
    """Bit for bit, except that any NaN matches any NaN."""
    got, want = np.asarray(got), np.asarray(want)
    nan = np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32))
    assert got.dtype == want.dtype
    bits = f"u{got.itemsize}"
    assert np.array_equal(got.view(bits)[~nan], want.view(bits)[~nan])


@pytest.mark.parametrize("t", F8_TYPES)
def test_8_bit_float_conversions_on_their_bits_match_ml_dtypes(ctx, t):
    """The rewrite (run on the CPU here) against ml_dtypes: round to nearest even, subnormals,
    +-inf or NaN past the range, NaN bytes, signed zeros (none in the FNUZ types)."""
    import ml_dtypes
    from shlo.passes.base import nested_ops
    dtype = ELEMENT_DTYPES[t]
    x = f8_inputs(dtype)
    module = shlo.parse_module(f8_program(t, x.size), context=ctx)
    rewritten = shlo.parse_module(f8_program(t, x.size), context=ctx)
    run_pipeline(rewritten, "builtin.module(shlo-legalize-gpu-ops)")
    assert not [c for c in nested_ops(rewritten.operation, "stablehlo.convert")
                if "f8" in str(c.results[0].type) and "f8" not in str(c.operands[0].type)]
    exe = shlo.compile(module, target="cpu", pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))
    codes = np.arange(256, dtype=np.uint8).view(dtype)
    from32, from64, to32, to16, through_e5m2 = exe(x, x.astype(np.float64), codes)
    same_bits(from32, x.astype(dtype))
    same_bits(from64, x.astype(dtype))
    same_bits(to32, codes[::-1].astype(np.float32))
    same_bits(to16, codes[::-1].astype(np.float16))
    same_bits(through_e5m2, codes[::-1].astype(ml_dtypes.float8_e5m2).astype(dtype))


@pytest.mark.parametrize("t", F8_TYPES)
def test_8_bit_float_arithmetic_compiles_for_cuda(ctx, t):
    """Without the rewrite: 'missing LLVMTranslationDialectInterface registration for ...
    arith.truncf' (to f8) and 'LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast' (from f8 after a data movement)."""
    text = f"""func.func @main(%a: tensor<16xf32>, %b: tensor<16x{t}>)
    -> (tensor<16xf32>, tensor<16x{t}>, tensor<16xf16>) {{
  %0 = stablehlo.convert %a : (tensor<16xf32>) -> tensor<16x{t}>
  %1 = stablehlo.add %0, %b : tensor<16x{t}>
  %2 = stablehlo.convert %1 : (tensor<16x{t}>) -> tensor<16xf32>
  %3 = stablehlo.multiply %1, %0 : tensor<16x{t}>
  %4 = stablehlo.reverse %3, dims = [0] : tensor<16x{t}>
  %5 = stablehlo.convert %4 : (tensor<16x{t}>) -> tensor<16xf16>
  return %2, %3, %5 : tensor<16xf32>, tensor<16x{t}>, tensor<16xf16>
}}"""
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)


F8_BODIES = """func.func @main(%a: tensor<8x8xf8E4M3FN>, %b: tensor<8x8xf8E4M3FN>)
    -> (tensor<8x8xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) {
  %s = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f8E4M3FN>, %y: tensor<f8E4M3FN>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f8E4M3FN>, tensor<f8E4M3FN>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<8x8xf8E4M3FN>) -> tensor<8x8xf8E4M3FN>
  %low = stablehlo.constant dense<-448.0> : tensor<f8E4M3FN>
  %m = stablehlo.reduce(%b init: %low) applies stablehlo.maximum across dimensions = [1] : (tensor<8x8xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<8xf8E4M3FN>
  %w = "stablehlo.reduce_window"(%a, %low) ({
  ^bb0(%x: tensor<f8E4M3FN>, %y: tensor<f8E4M3FN>):
    %z = stablehlo.maximum %x, %y : tensor<f8E4M3FN>
    stablehlo.return %z : tensor<f8E4M3FN>
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>} : (tensor<8x8xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<8x8xf8E4M3FN>
  %p = stablehlo.compare GT, %a, %b : (tensor<8x8xf8E4M3FN>, tensor<8x8xf8E4M3FN>) -> tensor<8x8xi1>
  %sel = stablehlo.select %p, %a, %b : tensor<8x8xi1>, tensor<8x8xf8E4M3FN>
  %zero = stablehlo.constant dense<0.0> : tensor<f8E4M3FN>
  %sum = "stablehlo.reduce"(%a, %zero) ({
  ^bb0(%x: tensor<f8E4M3FN>, %y: tensor<f8E4M3FN>):
    %z = stablehlo.add %x, %y : tensor<f8E4M3FN>
    stablehlo.return %z : tensor<f8E4M3FN>
  }) {dimensions = array<i64: 0>} : (tensor<8x8xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<8xf8E4M3FN>
  %0 = stablehlo.convert %s : (tensor<8x8xf8E4M3FN>) -> tensor<8x8xf32>
  %1 = stablehlo.convert %m : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
  %2 = stablehlo.convert %w : (tensor<8x8xf8E4M3FN>) -> tensor<8x8xf32>
  %3 = stablehlo.convert %sel : (tensor<8x8xf8E4M3FN>) -> tensor<8x8xf32>
  %4 = stablehlo.convert %sum : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4 : tensor<8x8xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>
}"""


def test_8_bit_float_bodies_compute_as_in_the_8_bit_type(ctx):
    """Sort, max reduce and window, compare and select (values of magnitude 40 and a NaN byte
    included): the rewritten program (run on the CPU) gives the reference interpreter's
    values. A sum reduce accumulates in f32 and rounds once, as shlo-round-narrow-arithmetic
    has it on every target (XLA's choice; the interpreter rounds every step)."""
    import ml_dtypes
    from reference_oracle import evaluate
    rng = np.random.default_rng(5)
    a, b = ((rng.standard_normal((8, 8)) * 40).astype(ml_dtypes.float8_e4m3fn) for _ in range(2))
    b.view(np.uint8)[3, 2] = 0x7F                                   # NaN
    from shlo.passes.base import nested_ops
    rewritten = shlo.parse_module(F8_BODIES, context=ctx)
    run_pipeline(rewritten, "builtin.module(shlo-legalize-gpu-ops)")
    for name in ("sort", "reduce", "reduce_window", "compare"):
        assert all("f8" not in str(v.type) for op in nested_ops(rewritten.operation,
                                                                  f"stablehlo.{name}")
                   for v in op.operands), name
    exe = shlo.compile(shlo.parse_module(F8_BODIES, context=ctx), target="cpu",
                       pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))
    got = exe(a, b)
    for g, want in zip(got[:4], evaluate(F8_BODIES, [a, b])):
        np.testing.assert_array_equal(g, want)
    exact = a.astype(np.float32).sum(0)                 # multiples of 2^-9 below 2^15: exact
    np.testing.assert_array_equal(got[4], exact.astype(ml_dtypes.float8_e4m3fn).astype(np.float32))


def test_8_bit_float_bodies_and_products_compile_for_cuda(ctx):
    """Without the rewrite each of these fails: 'LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast'. A scatter's body adds in f32 here (IREE's GPU
    scatter rejects a body that rounds: values captured from outside it)."""
    text = F8_BODIES.replace("tensor<8xf32>) {", """tensor<8xf32>, tensor<8x8xf8E4M3FN>,
                             tensor<f8E4M3FN>, tensor<1x6x6x1xf8E4M3FN>) {""", 1)
    extra = """  %i = stablehlo.constant dense<[[1], [5], [1]]> : tensor<3x1xi32>
  %u = stablehlo.slice %b [0:3, 0:8] : (tensor<8x8xf8E4M3FN>) -> tensor<3x8xf8E4M3FN>
  %sc = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f8E4M3FN>, %y: tensor<f8E4M3FN>):
    %z = stablehlo.add %x, %y : tensor<f8E4M3FN>
    stablehlo.return %z : tensor<f8E4M3FN>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8x8xf8E4M3FN>, tensor<3x1xi32>, tensor<3x8xf8E4M3FN>) -> tensor<8x8xf8E4M3FN>
  %r = stablehlo.slice %a [0:1, 0:8] : (tensor<8x8xf8E4M3FN>) -> tensor<1x8xf8E4M3FN>
  %d = stablehlo.dot_general %r, %r, contracting_dims = [0, 1] x [0, 1] : (tensor<1x8xf8E4M3FN>, tensor<1x8xf8E4M3FN>) -> tensor<f8E4M3FN>
  %l = stablehlo.reshape %a : (tensor<8x8xf8E4M3FN>) -> tensor<1x8x8x1xf8E4M3FN>
  %k = stablehlo.slice %b [0:3, 0:3] : (tensor<8x8xf8E4M3FN>) -> tensor<3x3xf8E4M3FN>
  %k2 = stablehlo.reshape %k : (tensor<3x3xf8E4M3FN>) -> tensor<3x3x1x1xf8E4M3FN>
  %conv = stablehlo.convolution(%l, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf8E4M3FN>, tensor<3x3x1x1xf8E4M3FN>) -> tensor<1x6x6x1xf8E4M3FN>
"""
    head, _, tail = text.rpartition("  return ")
    values, _, types = tail.partition(" : ")
    text = (head + extra + "  return " + values + ", %sc, %d, %conv : " + types.rstrip("\n}")
            + ", tensor<8x8xf8E4M3FN>, tensor<f8E4M3FN>, tensor<1x6x6x1xf8E4M3FN>\n}")
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)


BOOLEANS_TO_WORDS = """func.func @main(%a: tensor<3x64xi1>, %b: tensor<3x32xi1>, %c: tensor<3x8xi1>)
    -> (tensor<3xi64>, tensor<3xf32>, tensor<3xui8>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<3x64xi1>) -> tensor<3xi64>
  %1 = stablehlo.bitcast_convert %b : (tensor<3x32xi1>) -> tensor<3xf32>
  %2 = stablehlo.bitcast_convert %c : (tensor<3x8xi1>) -> tensor<3xui8>
  return %0, %1, %2 : tensor<3xi64>, tensor<3xf32>, tensor<3xui8>
}"""


def test_booleans_bitcast_into_words(ctx):
    """Element k is bit k: the rewrite (on the CPU) against the reference interpreter, and it
    compiles for CUDA (without it: "'func.func' op failed to distribute")."""
    from reference_oracle import evaluate
    rng = np.random.default_rng(6)
    args = [rng.random((3, n)) > 0.5 for n in (64, 32, 8)]
    args[0][:, 63] = True                                   # the sign bit of the i64
    exe = shlo.compile(shlo.parse_module(BOOLEANS_TO_WORDS, context=ctx), target="cpu",
                       pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))
    for got, want in zip(exe(*args), evaluate(BOOLEANS_TO_WORDS, args)):
        bits = f"u{want.itemsize}"
        np.testing.assert_array_equal(np.asarray(got).view(bits), want.view(bits))
    shlo.compile(shlo.parse_module(BOOLEANS_TO_WORDS, context=ctx), target="cuda:sm_90a",
                 cache=False)


F64_SIGN = """func.func @main(%a: tensor<7xf64>) -> tensor<7xf64> {
  %0 = stablehlo.sign %a : tensor<7xf64>
  return %0 : tensor<7xf64>
}"""


def test_f64_sign_as_selects(ctx):
    """+-1, +-0 kept, NaN kept (the rewrite on the CPU, against numpy), and it compiles for
    ROCm (without it IREE's compiler crashes: SIGSEGV; compiled in a child process here)."""
    x = np.array([np.nan, -1e300, -2.5, -0.0, 0.0, 1e-300, np.inf])   # (the CPU flushes
    # subnormals: they are left out)
    got = shlo.compile(shlo.parse_module(F64_SIGN, context=ctx), target="cpu",
                       pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))(x)
    want = np.where(x == 0, x, np.sign(x))        # the spec keeps -0 (numpy's sign gives +0)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    shlo.compile(shlo.parse_module(F64_SIGN, context=ctx), target="hip", cache=False,
                 isolate=True)
