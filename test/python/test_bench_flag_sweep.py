"""flag-sweep runs end to end on a tiny workload (timings are never asserted), the cpu tuning
table picks its flags from what a module holds, and a known IREE fusion failure is compiled
again without aggressive fusion."""
import json

import numpy as np
import pytest

import shlo
from shlo.pipelines.cpu_tuning import (NO_AGGRESSIVE_FUSION, NO_CONST_EXPR_HOISTING,
                                      NO_DATA_TILING, NO_MULTI_USE_FUSION, module_flags)
from shlo.tools import flag_sweep


def test_sweep_times_every_flag_set_against_xla(tmp_path, capsys):
    out = tmp_path / "sweep.json"
    status = flag_sweep.main(["--only", "gather_1M", "--configs", "shlo_default,o0",
                              "--rounds", "1", "--budget", "0.01", "--json", str(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    row = json.loads(out.read_text())
    assert set(row["configs"]) == {"shlo_default", "o0"}
    assert all(c["ratio_xla"] > 0 for c in row["configs"].values())
    assert "geomean (1 rows)" in text


def test_unknown_flag_set_is_a_clean_error(capsys):
    assert flag_sweep.main(["--only", "gather_1M", "--configs", "nope"]) == 2
    assert "unknown flag set(s) nope" in capsys.readouterr().err


def test_scatter_modules_get_their_flags(ctx):
    scatter = shlo.parse_module("""
    func.func @f(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<8xf32> {
      %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers =
          #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
                             index_vector_dim = 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
      return %0 : tensor<8xf32>
    }""", context=ctx)
    assert module_flags(scatter.operation) == NO_AGGRESSIVE_FUSION
    plain = shlo.parse_module("func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                              "  return %x : tensor<4xf32>\n}", context=ctx)
    assert module_flags(plain.operation) == ()


def test_retries_only_for_known_failures():
    import dataclasses
    from shlo.pipelines.cpu_tuning import retry_with
    from shlo.pipelines.targets import get_target
    cpu = get_target("cpu")
    retry = retry_with(cpu)
    assert retry("x.mlir:2:3: circular dependency: input operation uses partition output "
                 "%13:3 = ...") == (NO_AGGRESSIVE_FUSION,
                                    ("shlo-barrier-loop-results{every-loop=true}",))
    assert retry("'scf.while' op along control flow edge from Operation scf.condition to "
                 "Region #1: region branch point has 8 operands, but region successor needs 10 "
                 "inputs") == ((), ("shlo-barrier-loop-results{every-loop=true}",))
    assert retry("-:12:26: One or more operations with large vector sizes (16384 bytes) were "
                 "found") == (NO_AGGRESSIVE_FUSION, ())
    assert retry("-:8:25: 'affine.delinearize_index' op no basis element may be statically "
                 "non-positive") == (NO_DATA_TILING, ())
    assert retry("'vector.transfer_read' op requires valid padding vector elemental "
                 "type") == (NO_DATA_TILING, ())
    assert retry("-:8:26: operand #0 does not dominate this use") == (NO_AGGRESSIVE_FUSION, ())
    relayout = ("-:29:10: 'iree_linalg_ext.map_store' op write affecting operations on global "
                "resources are restricted to workgroup distributed contexts.")
    assert retry(relayout) == (NO_AGGRESSIVE_FUSION, ())
    first = dataclasses.replace(cpu, extra_flags=NO_AGGRESSIVE_FUSION)   # the same error again
    assert retry_with(first)(relayout) == (NO_DATA_TILING + NO_CONST_EXPR_HOISTING, ())
    second = dataclasses.replace(first, extra_flags=first.extra_flags + NO_DATA_TILING
                                 + NO_CONST_EXPR_HOISTING)
    assert retry_with(second)(relayout) == ((), ())
    assert retry("failed to legalize operation 'arith.truncf'") == ((), ())
    already = dataclasses.replace(cpu, extra_flags=NO_AGGRESSIVE_FUSION)
    assert retry_with(already)("exceeded stack allocation limit of 32768 bytes") == (
        NO_MULTI_USE_FUSION, ())
    both = dataclasses.replace(already, extra_flags=NO_AGGRESSIVE_FUSION + NO_MULTI_USE_FUSION)
    assert retry_with(both)("exceeded stack allocation limit of 32768 bytes") == ((), ())
    codegen = "-:14:8: failed to run translation of source executable to target executable"
    assert retry(codegen) == (NO_AGGRESSIVE_FUSION, ())
    assert retry_with(already)(codegen) == (NO_MULTI_USE_FUSION, ())
    vulkan = retry_with(get_target("vulkan"))      # the stream failures are every target's
    assert vulkan("-:2:3: circular dependency: input operation uses partition output") == (
        NO_AGGRESSIVE_FUSION, ("shlo-barrier-loop-results{every-loop=true}",))
    assert vulkan("exceeded stack allocation limit of 32768 bytes") == ((), ())


def test_jax_igamma_f64_compiles_through_the_retry_and_matches_xla():
    """IREE's stream partitioning fails on this module with aggressive fusion ("circular
    dependency"); the retry without it compiles, and the numbers are XLA's."""
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(11)
    a, x = rng.uniform(0.5, 3, 7), rng.uniform(0.1, 3, 7)
    f = jax.jit(jax.lax.igamma)
    with jax.enable_x64(True):
        text, want = f.lower(a, x).as_text(), np.asarray(f(a, x))
    np.testing.assert_allclose(shlo.compile(text, target="cpu")(a, x), want, rtol=1e-12)



def test_multivariate_normal_compiles_through_the_retry_and_matches_xla():
    """jax.random.multivariate_normal (a Cholesky factor and normal samples, both of constants,
    multiplied): IREE 3.13 hoists the Cholesky factor of the constant covariance into the
    module's initializer and fails there on a data-tiling relayout ("write affecting operations
    on global resources are restricted to workgroup distributed contexts"), with aggressive
    fusion or without (without data tiling it then failed at run time: "indirect buffer
    reference slot 0 is out range"); the second retry turns data tiling and the hoisting off.
    XLA's values (the same Threefry bits, then a 3x3 Cholesky)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    key = jax.random.PRNGKey(3)
    f = jax.jit(lambda mean: jax.random.multivariate_normal(key, mean, jnp.eye(3) + 0.1, (4,)))
    mean = np.array([0.5, -1.0, 2.0], np.float32)
    got = shlo.compile(f.lower(mean).as_text(), target="cpu")(mean)
    np.testing.assert_allclose(got, np.asarray(f(mean)), rtol=1e-5, atol=1e-5)


def test_attention_with_deferred_normalisation_compiles_through_the_retry():
    """softmax(q k^T) v as (exp(s - max) v) / sum: with aggressive fusion IREE 3.13 fails
    ("One or more operations with large vector sizes (16384 bytes)") from 256 keys on; the
    retry without it compiles, and the values are numpy's."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def attention(q, k, v):
        s = jnp.einsum("hqd,hkd->hqk", q, k)
        e = jnp.exp(s - s.max(axis=-1, keepdims=True))
        return jnp.einsum("hqk,hkd->hqd", e, v) / e.sum(axis=-1, keepdims=True)

    q, k, v = np.random.default_rng(2).standard_normal((3, 2, 256, 16)).astype(np.float32)
    s = np.einsum("hqd,hkd->hqk", q.astype(np.float64), k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    want = np.einsum("hqk,hkd->hqd", p / p.sum(axis=-1, keepdims=True), v)
    got = shlo.compile(jax.jit(attention).lower(q, k, v).as_text(), target="cpu")(q, k, v)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

def _matmul(ctx, m, k, n):
    return shlo.parse_module(f"""
    func.func @f(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
      return %0 : tensor<{m}x{n}xf32>
    }}""", context=ctx)


def test_large_matmuls_get_large_tiles(ctx):
    """An operand over 8 MiB: the process-global tile-size option (a child iree-compile)."""
    from shlo.pipelines.cpu_tuning import LARGE_MATMUL_TILES
    from shlo.runtime.child_compile import process_global_flags
    assert module_flags(_matmul(ctx, 2048, 2048, 2048).operation) == LARGE_MATMUL_TILES
    assert module_flags(_matmul(ctx, 1024, 1024, 1024).operation) == ()
    assert process_global_flags(LARGE_MATMUL_TILES + ("--iree-opt-level=O3",)) == \
        LARGE_MATMUL_TILES


# IREE 3.13's data tiling computed wrong values for batched matmuls of 3 or 6 rows with batch
# 2-3 when the lhs is row-normalised (softmax weights times values; 40 of 360 shapes, found
# 2026-11-26). Such modules compile without data tiling (cpu_tuning, _is_small_batched).
def _normalised_batched_matmul(b, m, k, n):
    L, R, O = f"tensor<{b}x{m}x{k}xf32>", f"tensor<{b}x{k}x{n}xf32>", f"tensor<{b}x{m}x{n}xf32>"
    return f"""
func.func @f{b}x{m}x{k}x{n}(%a: {L}, %v: {R}) -> {O} {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [2] : ({L}, tensor<f32>) -> tensor<{b}x{m}xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1] : (tensor<{b}x{m}xf32>) -> {L}
  %w = stablehlo.divide %a, %sb : {L}
  %0 = stablehlo.dot_general %w, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({L}, {R}) -> {O}
  return %0 : {O}
}}"""


SMALL_BATCHED = [(2, 3, 2, 8), (3, 6, 6, 8), (2, 6, 33, 17), (3, 3, 7, 17)]


def test_small_batched_matmuls_compute_the_right_values(ctx):
    module = shlo.parse_module("".join(_normalised_batched_matmul(*s) for s in SMALL_BATCHED),
                               context=ctx)
    assert module_flags(module.operation) == NO_DATA_TILING
    exe = shlo.compile(module, target="cpu")
    rng = np.random.default_rng(5)
    for b, m, k, n in SMALL_BATCHED:
        a = rng.uniform(0.5, 1.5, (b, m, k)).astype(np.float32)
        v = rng.standard_normal((b, k, n)).astype(np.float32)
        got = exe.function(f"f{b}x{m}x{k}x{n}")(a, v)
        np.testing.assert_allclose(got, (a / a.sum(-1, keepdims=True)) @ v, rtol=1e-4,
                                   atol=1e-5, err_msg=str((b, m, k, n)))


def test_large_batched_matmuls_keep_data_tiling(ctx):
    big = shlo.parse_module(_normalised_batched_matmul(8, 512, 512, 64), context=ctx)
    assert module_flags(big.operation) == ()


def _dots(ctx, *products, constant_rhs=False):
    """A module of x @ w products, each (rows, k, n); w an argument, or a constant."""
    funcs = []
    for i, (m, k, n) in enumerate(products):
        L, R, O = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
        w = f"%w = stablehlo.constant dense<0.5> : {R}" if constant_rhs else ""
        arg = "" if constant_rhs else f", %w: {R}"
        funcs.append(f"""
    func.func @f{i}(%x: {L}{arg}) -> {O} {{
      {w}
      %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : ({L}, {R}) -> {O}
      return %0 : {O}
    }}""")
    return shlo.parse_module("".join(funcs), context=ctx)


def test_matrix_vector_modules_compile_without_data_tiling(ctx):
    """Data tiling repacks a matrix-vector product's matrix on every call (a 4096x4096
    argument: 20 ms against 4 ms without): modules of such products only turn it off."""
    def flags(*products, constant_rhs=False):
        return module_flags(_dots(ctx, *products, constant_rhs=constant_rhs).operation)
    assert flags((1, 512, 512), (8, 1024, 512)) == NO_DATA_TILING
    # a real matmul in the module, a small matrix, or the matrix a constant (packed once when
    # the module loads): data tiling stays
    assert flags((1, 512, 512), (64, 512, 512)) == ()
    assert flags((1, 512, 512), (1, 256, 256)) == ()
    assert flags((1, 512, 512), constant_rhs=True) == ()
    products = ((1, 600, 500), (5, 1024, 260))
    exe = shlo.compile(_dots(ctx, *products), target="cpu")
    rng = np.random.default_rng(9)
    for name, (m, k, n) in zip(("f0", "f1"), products):
        x, w = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        got = exe.function(name)(x.astype(np.float32), w.astype(np.float32))
        np.testing.assert_allclose(got, x @ w, rtol=1e-4, atol=1e-4)


HEAD_SPLIT = """
func.func @heads(%x: tensor<64x128xf32>, %w: tensor<128x128xf32>) -> tensor<4x64x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
  %1 = stablehlo.reshape %0 : (tensor<64x128xf32>) -> tensor<64x4x32xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0, 2] : (tensor<64x4x32xf32>) -> tensor<4x64x32xf32>
  return %2 : tensor<4x64x32xf32>
}"""


def test_head_splits_compile_without_transpose_propagation(ctx):
    """IREE moved an attention head split into the projection's matmul and compiled that
    slowly (a transformer block 7.7 ms, 5.1 ms without the propagation; XLA 4.9): modules
    with a matmul relaid out by a transpose turn the process-global option off (a child
    iree-compile), and still compute the right values."""
    from shlo.pipelines.cpu_tuning import NO_TRANSPOSE_PROPAGATION
    module = shlo.parse_module(HEAD_SPLIT, context=ctx)
    assert module_flags(module.operation) == NO_TRANSPOSE_PROPAGATION
    assert NO_TRANSPOSE_PROPAGATION[0] not in module_flags(_matmul(ctx, 64, 128, 128).operation)
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal((64, 128)), rng.standard_normal((128, 128))
    got = shlo.compile(module, target="cpu")(x.astype(np.float32), w.astype(np.float32))
    np.testing.assert_allclose(got, (x @ w).reshape(64, 4, 32).transpose(1, 0, 2), rtol=1e-4,
                               atol=1e-4)


REDUCED_PRODUCT = """
func.func @rows(%a: tensor<512x1024xf32>, %x: tensor<1024xf32>) -> tensor<512xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %xb = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<1024xf32>) -> tensor<512x1024xf32>
  %p = stablehlo.multiply %a, %xb : tensor<512x1024xf32>
  %0 = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<512x1024xf32>, tensor<f32>) -> tensor<512xf32>
  return %0 : tensor<512xf32>
}}{extra}"""
REAL_MATMUL = """
func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}"""


def test_sums_of_broadcast_products_count_as_matrix_vector_products(ctx):
    """`(a * x[None, :]).sum(1)`: IREE raises it to a matrix-vector matmul and data-tiles it
    (4096x4096: 19.8 ms; 1.14 ms without data tiling, XLA 1.23)."""
    rows = shlo.parse_module(REDUCED_PRODUCT.format(extra=""), context=ctx)
    assert module_flags(rows.operation) == NO_DATA_TILING
    mixed = shlo.parse_module(REDUCED_PRODUCT.format(extra=REAL_MATMUL), context=ctx)
    assert NO_DATA_TILING[0] not in module_flags(mixed.operation)
    rng = np.random.default_rng(12)
    a, x = rng.standard_normal((512, 1024)), rng.standard_normal(1024)
    got = shlo.compile(rows, target="cpu")(a.astype(np.float32), x.astype(np.float32))
    np.testing.assert_allclose(got, a @ x, rtol=1e-4, atol=1e-4)
