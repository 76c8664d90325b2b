"""Dynamic shapes on IREE: one compiled dynamic module called with many shapes (numerics against
numpy), clear errors when run-time shapes do not fit, and compile(..., specialize=True)."""
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from shlo.runtime.cache import CompileCache

# One module, compiled once for the whole file.
DYNAMIC = """
func.func @broadcast_add(%a: tensor<?x3xf32>, %b: tensor<?x?xf32>) -> tensor<?x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @broadcast_mul_rank(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = chlo.broadcast_multiply %a, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @reshape(%a: tensor<?x?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @broadcast_in_dim(%a: tensor<?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

rng = np.random.default_rng(7)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


@pytest.fixture(scope="module")
def exe(ctx):
    return shlo.compile(shlo.parse_module(DYNAMIC, context=ctx, source_name="dyn.mlir"), "cpu")


@pytest.mark.parametrize("a,b", [((4, 3), (4, 3)), ((4, 3), (1, 3)), ((1, 3), (5, 1)),
                                 ((2, 3), (2, 1)), ((7, 3), (1, 1)), ((0, 3), (1, 3))])
@pytest.mark.every_case
def test_one_dynamic_broadcast_for_many_shapes(exe, a, b):
    x, y = f32(*a), f32(*b)
    out = exe.function("broadcast_add")(x, y)
    assert out.shape == np.broadcast_shapes(a, b)
    np.testing.assert_array_equal(out, x + y)


@pytest.mark.parametrize("a,b", [((2, 5), (5,)), ((3, 1), (4,)), ((1, 1), (6,))])
@pytest.mark.every_case
def test_dynamic_broadcast_of_lower_rank(exe, a, b):
    x, y = f32(*a), f32(*b)
    np.testing.assert_array_equal(exe.function("broadcast_mul_rank")(x, y), x * y)


@pytest.mark.parametrize("a,b", [((4, 3), (5, 3)), ((4, 3), (4, 2)), ((2, 3), (3, 3))])
@pytest.mark.every_case
def test_broadcast_mismatch_is_a_clear_error(exe, a, b):
    with pytest.raises(shlo.InvocationError) as info:
        exe.function("broadcast_add")(f32(*a), f32(*b))
    message = str(info.value)
    assert message.startswith("broadcast_add: shape.cstr_broadcastable at dyn.mlir:3:8: shapes "
                              "of tensor<?x3xf32>, tensor<?x?xf32>")
    assert "do not broadcast" in message
    assert f"called with {a[0]}x{a[1]}xf32, {b[0]}x{b[1]}xf32" in message
    # the executable still works after the failed call
    np.testing.assert_array_equal(exe.function("broadcast_add")(np.ones((2, 3), np.float32),
                                                                np.ones((1, 3), np.float32)), 2)


@pytest.mark.parametrize("shape,new", [((3, 4), (6, 2)), ((2, 6), (1, 12)), ((5, 1), (5, 1))])
@pytest.mark.every_case
def test_dynamic_reshape_to_dynamic_result(exe, shape, new):
    x = f32(*shape)
    out = exe.function("reshape")(x, np.array(new, np.int64))
    np.testing.assert_array_equal(out, x.reshape(new))


def test_reshape_and_broadcast_mismatches(exe):
    with pytest.raises(shlo.InvocationError, match=r"reshape: stablehlo.dynamic_reshape at "
                       r"dyn.mlir:11:8: operand tensor<\?x\?xf32> and the output shape have "
                       r"different element counts \(called with 3x4xf32, 2xi64\)"):
        exe.function("reshape")(f32(3, 4), np.array([5, 2], np.int64))
    np.testing.assert_array_equal(
        exe.function("broadcast_in_dim")(np.arange(3, dtype=np.float32), np.array([2, 3])),
        np.broadcast_to(np.arange(3, dtype=np.float32), (2, 3)))
    with pytest.raises(shlo.InvocationError, match=r"stablehlo.dynamic_broadcast_in_dim at "
                       r"dyn.mlir:15:8: operand tensor<\?xf32> does not broadcast"):
        exe.function("broadcast_in_dim")(f32(4), np.array([2, 3], np.int64))
    with pytest.raises(shlo.InvocationError, match=r"add: stablehlo.add at dyn.mlir:19:8: "
                       r"operand shapes tensor<\?xf32>, tensor<\?xf32> differ"):
        exe.function("add")(f32(4), f32(5))
    np.testing.assert_array_equal(exe.function("add")(np.ones(5, np.float32),
                                                      np.ones(5, np.float32)), 2)


SPECIALIZE = """
func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r1, %r0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %i = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi32>) -> tensor<?x?xf32>
  %0 = stablehlo.add %t, %i : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""


def test_specialize_compiles_once_per_shape_and_uses_the_cache(ctx, tmp_path):
    module = shlo.parse_module(SPECIALIZE, context=ctx)
    cache = CompileCache(str(tmp_path))
    exe = shlo.compile(module, "cpu", specialize=True, cache=cache)
    for shape in [(2, 3), (4, 1), (2, 3)]:
        x = f32(*shape)
        expected = x.T + np.arange(shape[0], dtype=np.float32)[None, :]
        np.testing.assert_array_equal(exe(x), expected)
    assert sorted(key[1][0][0] for key in exe.specializations) == [(2, 3), (4, 1)]
    assert (cache.misses, cache.hits) == (2, 0)
    # the specialisation is static: no dynamic op or shape computation reached IREE
    again = shlo.compile(module, "cpu", specialize=True, cache=cache)
    np.testing.assert_array_equal(again(np.ones((4, 1), np.float32)),
                                  1 + np.arange(4, dtype=np.float32)[None, :])
    assert cache.hits == 1
    with pytest.raises(shlo.InvocationError, match=r"main: cannot specialize for arguments "
                       r"tensor<3xf32>: .*argument 0 has type tensor<\?x\?xf32>"):
        exe(f32(3))


# Trigonometry with run-time sizes: shlo's argument reduction looks words of 2/pi up in a
# table (a gather), and IREE 3.13 failed on the sizes of those lookups ("failed to legalize
# operation 'tensor.dim'") until shlo read every size from where the shape comes from.
TRIG = "\n".join(f"""
func.func @{op}_{t}(%x: tensor<?x?x{t}>) -> tensor<?x?x{t}> {{
  %0 = stablehlo.{op} %x : tensor<?x?x{t}>
  return %0 : tensor<?x?x{t}>
}}""" for op in ("sine", "cosine", "tan") for t in ("f32", "f64"))


@pytest.mark.parametrize("shape", [(3, 5), (1, 17)])
@pytest.mark.slow
def test_trigonometry_on_dynamic_shapes_with_huge_arguments(ctx, shape):
    # its own generator: the draws do not depend on which tests ran before in this worker
    # (tan came out 3 ulps from the long-double oracle for some draws; 2 for sin and cos)
    rng = np.random.default_rng(shape[1])
    exe = shlo.compile(shlo.parse_module(TRIG, context=ctx), "cpu")
    for dtype in (np.float32, np.float64):
        magnitudes = 10.0 ** rng.uniform(-3, 30 if dtype == np.float32 else 300, shape)
        x = (magnitudes * rng.choice([-1, 1], shape)).astype(dtype)
        for op, oracle, ulps in (("sine", np.sin, 2), ("cosine", np.cos, 2), ("tan", np.tan, 3)):
            got = exe.function(f"{op}_{np.dtype(dtype).name.replace('float', 'f')}")(x)
            want = oracle(x.astype(np.longdouble)).astype(dtype)
            assert got.shape == shape
            np.testing.assert_array_max_ulp(got, want, maxulp=ulps)


# Unsigned tensors with run-time sizes: IREE 3.13 could not read their sizes or broadcast them
# ("failed to legalize operation 'tensor.dim'"), and it folds an integer x - x or x <= x into a
# constant of dynamic type it then rejects; shlo rewrites both (shlo-expand-dynamic-ops,
# shlo-fold-self-ops).
def _unsigned_functions(t: str) -> str:
    T = f"tensor<?x{t}>"
    return f"""
func.func @size_{t}(%x: {T}) -> tensor<i32> {{
  %0 = stablehlo.get_dimension_size %x, dim = 0 : ({T}) -> tensor<i32>
  return %0 : tensor<i32>
}}
func.func @rows_{t}(%x: {T}, %n: tensor<1xi32>) -> tensor<?x?x{t}> {{
  %d = stablehlo.get_dimension_size %x, dim = 0 : ({T}) -> tensor<i32>
  %r = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %n, %r, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : ({T}, tensor<2xi32>) -> tensor<?x?x{t}>
  return %0 : tensor<?x?x{t}>
}}
func.func @self_{t}(%x: {T}) -> ({T}, tensor<?xi1>, tensor<?xi1>) {{
  %0 = stablehlo.subtract %x, %x : {T}
  %1 = stablehlo.compare LE, %x, %x : ({T}, {T}) -> tensor<?xi1>
  %2 = stablehlo.compare GT, %x, %x : ({T}, {T}) -> tensor<?xi1>
  return %0, %1, %2 : {T}, tensor<?xi1>, tensor<?xi1>
}}"""


UNSIGNED = "".join(_unsigned_functions(t) for t in ("ui8", "ui16", "ui32", "ui64", "i32")) + """
func.func @next_after_self(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = chlo.next_after %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}"""


@pytest.mark.parametrize("n", [1, 5])
@pytest.mark.every_case
def test_unsigned_and_self_compared_values_with_run_time_sizes(ctx, n):
    exe = shlo.compile(shlo.parse_module(UNSIGNED, context=ctx), "cpu")
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64, np.int32):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        x[0] = info.max                                 # the top bit set
        name = {np.int32: "i32"}.get(dtype, "ui" + str(info.bits))
        assert int(exe.function(f"size_{name}")(x)) == n
        rows = exe.function(f"rows_{name}")(x, np.array([3], np.int32))
        np.testing.assert_array_equal(rows, np.broadcast_to(x, (3, n)))
        difference, le, gt = exe.function(f"self_{name}")(x)
        np.testing.assert_array_equal(difference, x - x)
        np.testing.assert_array_equal(le, x <= x)
        np.testing.assert_array_equal(gt, x > x)
    y = np.array([np.nan, -0.0, 1.5, np.inf][:n] + [2.0] * (n - 4), np.float32)
    np.testing.assert_array_equal(exe.function("next_after_self")(y), np.nextafter(y, y))


def test_jax_cumulative_ops_with_symbolic_sizes(ctx):
    """jax's cumsum/cummax on the CPU under shape polymorphism: a custom_call
    @stablehlo.dynamic_reduce_window whose window is the run-time length. Specialized, it
    becomes a reduce_window; left dynamic, a scan (numpy is the oracle either way)."""
    jax = pytest.importorskip("jax")
    from jax import export, lax
    b, = export.symbolic_shape("b")
    spec = jax.ShapeDtypeStruct((b, 3), np.float32)
    for fn, oracle in ((lambda x: jax.numpy.cumsum(x, axis=0), lambda x: np.cumsum(x, axis=0)),
                       (lambda x: lax.cummax(x, axis=0), lambda x: np.maximum.accumulate(x))):
        text = export.export(jax.jit(fn))(spec).mlir_module()
        assert "stablehlo.dynamic_reduce_window" in text
        for specialize in (True, False):
            exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu", specialize=specialize)
            for n in (1, 6):
                x = f32(n, 3)
                np.testing.assert_allclose(exe(x), oracle(x), rtol=1e-6, atol=1e-6)


SCANS = {      # name -> (jax function of x, numpy oracle, shape with the symbol b)
    "cumsum": (lambda jnp, lax: jnp.cumsum, lambda x: np.cumsum(x, dtype=x.dtype), ("b",)),
    "cumsum_rows": (lambda jnp, lax: lambda x: jnp.cumsum(x, axis=1),
                    lambda x: np.cumsum(x, axis=1, dtype=x.dtype), (3, "b")),
    "cumprod_reversed": (lambda jnp, lax: lambda x: lax.cumprod(x, axis=0, reverse=True),
                         lambda x: np.cumprod(x[::-1], axis=0, dtype=x.dtype)[::-1], ("b", 2)),
    "cummax_reversed": (lambda jnp, lax: lambda x: lax.cummax(x, reverse=True),
                        lambda x: np.maximum.accumulate(x[::-1])[::-1], ("b",)),
    "cummin_rows": (lambda jnp, lax: lambda x: lax.cummin(x, axis=1),
                    lambda x: np.minimum.accumulate(x, axis=1), (2, "b")),
}


@pytest.mark.parametrize("name", sorted(SCANS))
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bfloat16"])
def test_cumulative_ops_along_a_symbolic_axis(ctx, name, dtype):
    """jnp.cumsum/cumprod/cummax/cummin along a run-time sized axis, forwards and reversed,
    compile once and scan at every length: numpy is the oracle (integers exactly; bf16 must
    be the f64 result rounded once, as shlo's static cumsum is, where XLA rounds each step;
    floats to within the reordering of a sum)."""
    jax = pytest.importorskip("jax")
    import ml_dtypes
    from jax import export, lax
    build, oracle, shape = SCANS[name]
    fn = build(jax.numpy, lax)
    dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    b, = export.symbolic_shape("b")
    spec = jax.ShapeDtypeStruct(tuple(b if d == "b" else d for d in shape), dt)
    exe = shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(spec).mlir_module(),
                                         context=ctx), "cpu")
    rng = np.random.default_rng(7)
    for n in (1, 2, 7, 64):
        size = tuple(n if d == "b" else d for d in shape)
        if dtype in ("int32", "uint8"):
            x = rng.integers(0, 4 if "prod" in name else 9, size).astype(dt)
            np.testing.assert_array_equal(exe(x), oracle(x))
        elif dtype == "bfloat16":
            x = (rng.uniform(0.6, 1.6, size) if "prod" in name      # no subnormal products:
                 else rng.standard_normal(size) * 2).astype(dt)     # IREE flushes them
            want = oracle(x.astype(np.float64)).astype(dt)
            np.testing.assert_array_equal(np.asarray(exe(x)).astype(np.float64),
                                          want.astype(np.float64))
        else:
            x = (rng.uniform(0.6, 1.6, size) if "prod" in name else
                 rng.standard_normal(size)).astype(dt)
            np.testing.assert_allclose(exe(x), oracle(x.astype(np.float64)), rtol=1e-5,
                                       atol=1e-5)


def test_non_cumulative_window_with_symbolic_size_is_an_error(ctx):
    """jax's cumlogsumexp along a symbolic axis: its reducer is several ops, which the scan does
    not take: a one-line error that says what to do."""
    jax = pytest.importorskip("jax")
    from jax import export, lax
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(lax.cumlogsumexp))(
        jax.ShapeDtypeStruct((b,), np.float32)).mlir_module()
    with pytest.raises(shlo.Error, match=r"custom_call @stablehlo.dynamic_reduce_window: its "
                       r"window or size operands depend on run-time sizes.*cumulative windows.*"
                       r"specialize=True"):
        shlo.compile(shlo.parse_module(text, context=ctx), "cpu")


POOLS = {     # name -> (window, strides, padding, init, op, shape with symbols b and c)
    "max2_valid": ((2,), (1,), [(0, 0)], -np.inf, "max", ("b",)),
    "max3_stride2": ((3,), (2,), [(0, 0)], -np.inf, "max", ("b",)),
    "sum3_padded": ((3,), (1,), [(1, 1)], 0.0, "add", ("b",)),
    "sum3_dilated_init1": ((3,), (1,), [(2, 1)], 1.0, "add", ("b",)),
    "avg_pool_time": ((1, 4), (1, 4), [(0, 0), (0, 0)], 0.0, "add", (3, "b")),
    "max_pool_2d": ((2, 2), (2, 2), [(0, 0), (0, 0)], -np.inf, "max", ("b", "c")),
    "sum_pool_nhwc": ((1, 2, 2, 1), (1, 1, 2, 1), [(0, 0)] * 4, 0.0, "add", (2, "b", "c", 3)),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", sorted(POOLS))
def test_reduce_window_sliding_along_symbolic_sizes(ctx, name, target):
    """A static window sliding along run-time sized dimensions (max/sum pooling over a
    symbolic length, strided, padded, dilated, 2-D over two symbols): one executable, every
    size, numpy's reduce_window as the oracle. Vulkan: sizes with a non-empty result only
    (IREE's Vulkan runtime rejects an empty result buffer)."""
    jax = pytest.importorskip("jax")
    from jax import export, lax
    from reference_oracle import reduce_window_oracle
    if target == "vulkan":
        vulkan_or_skip()
    window, strides, padding, init, op, shape = POOLS[name]
    dilation = (2,) if name == "sum3_dilated_init1" else None
    combine = {"max": lax.max, "add": lax.add}[op]

    def fn(x):
        return lax.reduce_window(x, np.float32(init), combine, window, strides, padding,
                                 window_dilation=dilation)
    symbols = dict(zip("bc", export.symbolic_shape("b, c")))
    spec = jax.ShapeDtypeStruct(tuple(symbols.get(d, d) for d in shape), np.float32)
    exe = shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(spec).mlir_module(),
                                         context=ctx), target)
    pair = {"max": max, "add": lambda a, b: a + b}[op]
    for b, c in ((1, 2), (5, 4), (8, 7)):
        x = f32(*(b if d == "b" else c if d == "c" else d for d in shape))
        want = reduce_window_oracle([x], [np.float32(init)], pair, window, strides, padding,
                                    window_dilation=dilation)
        if target == "vulkan" and want.size == 0:
            continue
        np.testing.assert_allclose(exe(x), want, rtol=1e-6, atol=1e-6)


SORTS = {     # name -> (jax function of (jnp, lax), shape with the symbol b)
    "argsort": (lambda jnp, lax: jnp.argsort, ("b",)),
    "argsort_rows": (lambda jnp, lax: lambda x: jnp.argsort(x, axis=1), (3, "b")),
    "argsort_descending_columns": (
        lambda jnp, lax: lambda x: jnp.argsort(x, axis=0, descending=True), ("b", 2)),
    "sort_values_by_key": (lambda jnp, lax: lambda x: lax.sort(
        (x, jnp.arange(x.shape[0], dtype=np.float32) * 2), num_keys=1)[1], ("b",)),
    "stable_sort": (lambda jnp, lax: lambda x: jnp.sort(x, stable=True), ("b",)),
}


@pytest.mark.parametrize("name,dtype,target", [
    (name, dtype, target) for name in sorted(SORTS)
    for dtype in ("float32", "int8", "uint32", "bfloat16")
    for target in ("cpu", "vulkan") if target == "cpu" or name in ("argsort",
                                                                    "sort_values_by_key")])
def test_sorts_with_symbolic_sizes(ctx, name, dtype, target):
    """jnp.argsort, a sort of values by keys and a stable sort of a run-time sized axis: IREE
    3.13 sorts one operand of run-time size, not two ('unbounded stack allocations'), and not
    stably; shlo-lower-sort sorts packed (key, position) integers. Ties, NaN, -0.0 and -inf
    in the keys; numpy's stable argsort is the oracle (XLA's for the descending sort), bit
    for bit."""
    jax = pytest.importorskip("jax")
    import ml_dtypes
    from jax import export, lax
    if target == "vulkan":
        vulkan_or_skip()
    build, shape = SORTS[name]
    fn = build(jax.numpy, lax)
    dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    b, = export.symbolic_shape("b")
    spec = jax.ShapeDtypeStruct(tuple(b if d == "b" else d for d in shape), dt)
    exe = shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(spec).mlir_module(),
                                         context=ctx), target)
    rng = np.random.default_rng(3)
    for n in (1, 2, 9, 40):
        size = tuple(n if d == "b" else d for d in shape)
        if dtype in ("int8", "uint32"):
            x = rng.integers(0, 5, size).astype(dt)                     # ties
        else:
            x = rng.integers(-3, 3, size).astype(np.float32)
            flat = x.reshape(-1)
            flat[::5], flat[1::7], flat[2::9] = np.nan, -0.0, -np.inf
            x = x.astype(dt)
        keys = x.astype(np.float64) if dtype == "bfloat16" else x
        if name == "argsort_descending_columns":
            want = np.asarray(jax.jit(fn)(x))
        elif name == "stable_sort":
            want = np.sort(keys, kind="stable").astype(dt)
        else:
            axis = 1 if name == "argsort_rows" else 0
            want = np.argsort(keys, axis=axis, kind="stable").astype(np.int32)
            if name == "sort_values_by_key":
                want = (want * 2).astype(np.float32)
        got = np.asarray(exe(x))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


CONVOLUTIONS = {     # name -> (strides, padding, dimension numbers, extra, input, kernel)
    "conv1d_same": ((1,), "SAME", ("NWC", "WIO", "NWC"), {}, (2, "b", 8), (3, 8, 4)),
    "conv1d_strided_valid": ((2,), "VALID", ("NWC", "WIO", "NWC"), {}, (2, "b", 8), (3, 8, 4)),
    "conv1d_ncw_dilated": ((1,), [(2, 2)], ("NCW", "OIW", "NCW"), {"rhs_dilation": (2,)},
                           (1, 4, "b"), (5, 4, 3)),
    "conv1d_lhs_dilated": ((1,), [(1, 1)], ("NWC", "WIO", "NWC"), {"lhs_dilation": (2,)},
                           (1, "b", 4), (3, 4, 2)),
    "conv2d_height_width": ((1, 1), "SAME", ("NHWC", "HWIO", "NHWC"), {}, (1, "b", "c", 3),
                            (3, 3, 3, 4)),
    "conv2d_batch_and_height": ((1, 1), "VALID", ("NHWC", "HWIO", "NHWC"), {},
                                ("b", "c", 6, 3), (2, 2, 3, 4)),
    "depthwise_conv1d": ((1,), "SAME", ("NWC", "WIO", "NWC"), {"feature_group_count": 4},
                         (2, "b", 4), (3, 1, 4)),
    "depthwise_multiplier_strided": ((2,), "VALID", ("NCW", "OIW", "NCW"),
                                     {"feature_group_count": 3}, (2, 3, "b"), (6, 1, 3)),
    "grouped_conv2d": ((1, 1), "SAME", ("NHWC", "HWIO", "NHWC"), {"feature_group_count": 2},
                       (1, "b", "c", 4), (3, 3, 2, 6)),
}


@pytest.mark.parametrize("name,dtype,target", [
    (name, dtype, target) for name in sorted(CONVOLUTIONS) for dtype in ("float32", "bfloat16")
    for target in ("cpu", "vulkan") if dtype == "float32" or name == "conv1d_same"])
def test_convolutions_over_symbolic_spatial_sizes(ctx, name, dtype, target):
    """Convolutions over run-time lengths, heights and widths, grouped and depthwise too (IREE
    3.13 rejects them): shlo-expand-dynamic-ops writes a sum of matmuls over shifted slices.
    One executable, every size, XLA's convolution as the oracle (bf16: computed in f32 and
    rounded once)."""
    jax = pytest.importorskip("jax")
    import ml_dtypes
    from jax import export, lax
    if target == "vulkan":
        vulkan_or_skip()
    strides, padding, numbers, extra, x_shape, w_shape = CONVOLUTIONS[name]
    dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float32

    def fn(x, w):
        return lax.conv_general_dilated(x, w, strides, padding, dimension_numbers=numbers,
                                        **extra)
    symbols = dict(zip("bc", export.symbolic_shape("b, c")))
    specs = [jax.ShapeDtypeStruct(tuple(symbols.get(d, d) for d in x_shape), dt),
             jax.ShapeDtypeStruct(w_shape, dt)]
    exe = shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(*specs).mlir_module(),
                                         context=ctx), target)
    rng = np.random.default_rng(5)
    for b, c in ((1, 3), (4, 2), (9, 5)):
        x = rng.standard_normal([b if d == "b" else c if d == "c" else d
                                 for d in x_shape]).astype(dt)
        w = rng.standard_normal(w_shape).astype(dt)
        want = np.asarray(jax.jit(fn)(x.astype(np.float32), w.astype(np.float32)))
        if target == "vulkan" and want.size == 0:
            continue
        got = np.asarray(exe(x, w))
        assert got.shape == want.shape
        if dtype == "bfloat16":
            want = want.astype(dt)
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32),
                                   rtol=1e-5 if dtype == "float32" else 1e-2, atol=1e-4)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_attention_over_a_symbolic_sequence_length(ctx, target):
    """softmax(q k^T / 4) v with a symbolic number of tokens: on CPU IREE 3.13's data tiling
    fails on it ("'affine.delinearize_index' op no basis element may be statically
    non-positive"), and shlo compiles it again without data tiling. numpy is the oracle."""
    jax = pytest.importorskip("jax")
    from jax import export
    if target == "vulkan":
        vulkan_or_skip()

    def attention(q, k, v):
        return jax.nn.softmax(q @ k.T / 4.0, axis=-1) @ v
    b, = export.symbolic_shape("b")
    spec = jax.ShapeDtypeStruct((b, 16), np.float32)
    exe = shlo.compile(shlo.parse_module(export.export(jax.jit(attention))(
        spec, spec, spec).mlir_module(), context=ctx), target)
    for n in (1, 5, 33):
        q, k, v = (f32(n, 16) for _ in range(3))
        s = q.astype(np.float64) @ k.T / 4.0
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        np.testing.assert_allclose(exe(q, k, v), p / p.sum(axis=-1, keepdims=True) @ v,
                                   rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_scans_over_a_symbolic_length(ctx, target):
    """lax.scan over a symbolic number of steps (a running sum and a tanh RNN) stacks its
    outputs with dynamic_update_slice into a run-time sized buffer, which IREE 3.13 rejects;
    shlo writes a tensor.insert_slice. Also a dynamic_update_slice whose start is clamped.
    numpy loops are the oracle."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    from jax import export, lax
    if target == "vulkan":
        vulkan_or_skip()

    def running_sum(x):
        return lax.scan(lambda c, v: (c + v, c + v), np.float32(0), x)[1]

    def rnn(x, w):
        def step(h, xt):
            h = jnp.tanh(h @ w + xt)
            return h, h
        return lax.scan(step, jnp.zeros(4, np.float32), x)[1]

    def patch(x):           # row 1000, a run-time value: clamped to the last that fits
        far = jnp.int32(1000) + (x[0, 0] != x[0, 0]).astype(np.int32)
        return lax.dynamic_update_slice(x, jnp.ones((2, 2), np.float32), (far, 1))
    b, = export.symbolic_shape("b")
    b2, = export.symbolic_shape("b", constraints=["b >= 2"])      # the patch's 2 rows fit
    compiled = {
        name: shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(*(
            jax.ShapeDtypeStruct(s, np.float32) for s in shapes)).mlir_module(), context=ctx),
            target)
        for name, fn, shapes in (("running_sum", running_sum, [(b,)]),
                                 ("rnn", rnn, [(b, 4), (4, 4)]),
                                 ("patch", patch, [(b2, 3)]))}
    for n in (2, 7):
        x = f32(n)
        np.testing.assert_allclose(compiled["running_sum"](x), np.cumsum(x), rtol=1e-5,
                                   atol=1e-5)
        xs, w = f32(n, 4), f32(4, 4) * 0.5
        h, want = np.zeros(4), []
        for xt in xs:
            h = np.tanh(h @ w + xt)
            want.append(h)
        np.testing.assert_allclose(compiled["rnn"](xs, w), np.array(want), rtol=1e-5,
                                   atol=1e-5)
        x = f32(n, 3)
        want = x.copy()
        want[n - 2:n, 1:3] = 1
        np.testing.assert_array_equal(compiled["patch"](x), want)


def test_median_and_quantile_of_a_symbolic_length_in_x64(ctx):
    """jnp.median and jnp.quantile under jax's x64 mode compute (n - 1) * q in f64 from the
    run-time length, on IREE's host, whose VM cannot cast i32 to f64; shlo converts sizes to
    f64 with integer bit operations instead. numpy is the oracle."""
    jax = pytest.importorskip("jax")
    from jax import export
    b, = export.symbolic_shape("b")
    with jax.enable_x64(True):
        texts = [export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b,), np.float32)).mlir_module()
                 for fn in (jax.numpy.median, lambda x: jax.numpy.quantile(x, 0.3))]
    median, quantile = (shlo.compile(shlo.parse_module(t, context=ctx), "cpu") for t in texts)
    for n in (1, 2, 7, 100):
        x = f32(n)
        np.testing.assert_allclose(median(x), np.median(x), rtol=1e-6)
        np.testing.assert_allclose(quantile(x), np.quantile(x, 0.3), rtol=1e-6, atol=1e-7)


def test_lapack_calls_of_a_symbolic_batch(ctx):
    """jax's LAPACK calls on a symbolic batch pass the results' shapes as extra operands
    (`indices_of_shape_operands`). Left dynamic, shlo's decompositions (static shapes only)
    give a one-line error that says to specialize; specialized, the shapes are refined (the
    symbolic size reaches jax's helper functions as a constant) and the values are numpy's."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    from jax import export
    b, = export.symbolic_shape("b")

    def cholesky(x):
        return jnp.linalg.cholesky(x @ jnp.swapaxes(x, -1, -2) + 3 * jnp.eye(3, dtype=x.dtype))

    def eigvalsh(x):
        return jnp.linalg.eigvalsh(x + jnp.swapaxes(x, -1, -2))
    for fn, oracle in ((cholesky, lambda x: np.linalg.cholesky(
                            x @ np.swapaxes(x, -1, -2) + 3 * np.eye(3))),
                       (eigvalsh, lambda x: np.linalg.eigvalsh(x + np.swapaxes(x, -1, -2)))):
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b, 3, 3), np.float32)).mlir_module()
        assert "indices_of_shape_operands" in text
        with pytest.raises(shlo.Error, match=r"custom_call @lapack_s\w+_ffi: shlo decomposes it "
                           r"for static shapes only, and this call has run-time sizes "
                           r"\(tensor<\?x3x3xf32>\).*specialize=True"):
            shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu", specialize=True)
        for n in (1, 4):
            x = f32(n, 3, 3)
            np.testing.assert_allclose(exe(x), oracle(x.astype(np.float64)), rtol=1e-4,
                                       atol=1e-4)


@pytest.mark.slow
def test_ffts_of_a_symbolic_batch(ctx):
    """jnp.fft over a symbolic batch: IREE 3.13 rejects every fft of run-time size, so shlo
    writes each as DFT matmuls (power-of-two lengths included), and its data tiling of
    those fails ("'vector.transfer_read' op requires valid padding vector elemental type"):
    the cpu retry rule compiles without it. numpy's fft is the oracle."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    from jax import export
    b, c = export.symbolic_shape("b, c")
    cases = [(jnp.fft.fft, np.fft.fft, (b, 8), np.complex64),
             (jnp.fft.ifft, np.fft.ifft, (b, 6), np.complex64),
             (jnp.fft.rfft, np.fft.rfft, (2, b, 16), np.float32),
             (lambda x: jnp.fft.irfft(x, 8), lambda x: np.fft.irfft(x, 8), (b, 5), np.complex64),
             (jnp.fft.fft2, np.fft.fft2, (b, c, 4, 4), np.complex64)]
    rng = np.random.default_rng(9)
    for fn, oracle, shape, dt in cases:
        exe = shlo.compile(shlo.parse_module(export.export(jax.jit(fn))(
            jax.ShapeDtypeStruct(shape, dt)).mlir_module(), context=ctx), "cpu")
        for n, m in ((1, 2), (3, 1)):
            size = [n if d is b else m if d is c else d for d in shape]
            x = rng.standard_normal(size)
            if dt == np.complex64:
                x = x + 1j * rng.standard_normal(size)
            x = x.astype(dt)
            np.testing.assert_allclose(exe(x), oracle(x.astype(np.complex128 if dt ==
                                                              np.complex64 else np.float64)),
                                       rtol=1e-4, atol=1e-4)


def test_strided_same_convolution_over_a_symbolic_length_says_to_specialize(ctx):
    """jax's SAME padding with a stride over a symbolic length is a dynamic_conv whose padding
    depends on the length: a one-line error that says to specialize; specialized, XLA's
    values."""
    jax = pytest.importorskip("jax")
    from jax import export, lax

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (2,), "SAME",
                                        dimension_numbers=("NWC", "WIO", "NWC"))
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(conv))(jax.ShapeDtypeStruct((1, b, 4), np.float32),
                                        jax.ShapeDtypeStruct((3, 4, 2), np.float32)).mlir_module()
    with pytest.raises(shlo.Error, match=r"stablehlo.dynamic_conv: its padding depends on "
                       r"run-time sizes.*specialize=True"):
        shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
    exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu", specialize=True)
    for n in (5, 8):
        x, w = f32(1, n, 4), f32(3, 4, 2)
        np.testing.assert_allclose(exe(x, w), np.asarray(jax.jit(conv)(x, w)), rtol=1e-5,
                                   atol=1e-5)


# Two while loops carrying run-time sized tensors that IREE 3.13 miscompiled (wrong values,
# silently; found with jax.random.bits and jnp.searchsorted under shape polymorphism) when a
# carried tensor's size was an i32 `get_dimension_size` cast back to index, not the tensor's own
# size; shlo-index-extents reads such sizes with tensor.dim (docs/iree_gaps.md).
LOOP = """
func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c12 = stablehlo.constant dense<12> : tensor<i64>
  %c13 = stablehlo.constant dense<13> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %sh = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %io = stablehlo.dynamic_iota %sh, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %y = stablehlo.add %x, %io : tensor<?xi32>
  %w:3 = stablehlo.while(%i = %c0, %a = %y, %b = %io) : tensor<i64>, tensor<?xi32>, tensor<?xi32>
    cond {
      %k = stablehlo.compare LT, %i, %c12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %k : tensor<i1>
    } do {
      %s = stablehlo.dynamic_broadcast_in_dim %c13, %sh, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
      %a2 = stablehlo.add %a, %b : tensor<?xi32>
      %b2 = stablehlo.shift_left %b, %s : tensor<?xi32>
      %b3 = stablehlo.xor %a2, %b2 : tensor<?xi32>
      %i2 = stablehlo.add %i, %c1 : tensor<i64>
      stablehlo.return %i2, %a2, %b3 : tensor<i64>, tensor<?xi32>, tensor<?xi32>
    }
  %o = stablehlo.xor %w#1, %w#2 : tensor<?xi32>
  return %o : tensor<?xi32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dynamic_loop_carrying_an_iota(ctx, target):
    """A loop carrying an iota that the other carried value's start also reads: wrong values
    before shlo-index-extents, on cpu and vulkan."""
    if target == "vulkan":
        vulkan_or_skip()
    x = (np.arange(65536) * 7).astype(np.int32)
    a, b = x + np.arange(len(x), dtype=np.int32), np.arange(len(x), dtype=np.int32)
    for _ in range(12):
        a = a + b
        b = a ^ (b << 13)
    exe = shlo.compile(shlo.parse_module(LOOP, context=ctx), target)
    np.testing.assert_array_equal(exe(x), a ^ b)
    np.testing.assert_array_equal(exe(x[:5]), (a ^ b)[:5])


# A binary search whose bounds start as broadcast constants of a run-time size, its result read
# by another op after the loop: that op read stale values (zeros) before shlo-index-extents.
SEARCH_LOOP = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c10 = stablehlo.constant dense<10> : tensor<i64>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %t = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %sh = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %lo0 = stablehlo.dynamic_broadcast_in_dim %z, %sh, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %hi0 = stablehlo.dynamic_broadcast_in_dim %t, %sh, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %w:4 = stablehlo.while(%i = %c0, %v = %x, %lo = %lo0, %hi = %hi0) : tensor<i64>, tensor<?xf32>, tensor<?xi32>, tensor<?xi32>
    cond {
      %k = stablehlo.compare LT, %i, %c10, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %k : tensor<i1>
    } do {
      %ones = stablehlo.dynamic_broadcast_in_dim %one, %sh, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
      %s = stablehlo.add %lo, %hi : tensor<?xi32>
      %mid = stablehlo.shift_right_logical %s, %ones : tensor<?xi32>
      %m = stablehlo.convert %mid : (tensor<?xi32>) -> tensor<?xf32>
      %go = stablehlo.compare GT, %v, %m, FLOAT : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
      %lo2 = stablehlo.select %go, %mid, %lo : tensor<?xi1>, tensor<?xi32>
      %hi2 = stablehlo.select %go, %hi, %mid : tensor<?xi1>, tensor<?xi32>
      %i2 = stablehlo.add %i, %c1 : tensor<i64>
      stablehlo.return %i2, %v, %lo2, %hi2 : tensor<i64>, tensor<?xf32>, tensor<?xi32>, tensor<?xi32>
    }
  %ones = stablehlo.dynamic_broadcast_in_dim %one, %sh, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %o = stablehlo.add %w#3, %ones : tensor<?xi32>
  return %o : tensor<?xi32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dynamic_binary_search_read_after_the_loop(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    x = np.random.default_rng(3).uniform(-1, 4, 65536).astype(np.float32)
    lo, hi = np.zeros(len(x), np.int32), np.full(len(x), 3, np.int32)
    for _ in range(10):
        mid = (lo + hi) >> 1
        go = x > mid
        lo, hi = np.where(go, mid, lo), np.where(go, hi, mid)
    exe = shlo.compile(shlo.parse_module(SEARCH_LOOP, context=ctx), target)
    np.testing.assert_array_equal(exe(x), hi + 1)
    np.testing.assert_array_equal(exe(x[:5]), hi[:5] + 1)


# jax programs whose loops carry tensors of a symbolic size (name -> function of q)
SEARCHES = {
    "searchsorted_plus_one": lambda jnp, xp, fp, q: jnp.searchsorted(xp, q) + 1,
    "interp": lambda jnp, xp, fp, q: jnp.interp(q, xp, fp),
    "digitize": lambda jnp, xp, fp, q: jnp.digitize(q, xp),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_searches_of_a_symbolic_length(ctx, name, target):
    """jnp.searchsorted (a while loop of binary search steps; 12 for 4096 points) and what
    is built on it, over a symbolic number of queries, against XLA at 1 to 65536 queries.
    Before shlo-index-extents searchsorted + 1 and interp were wrong at every size on both
    targets, digitize on vulkan."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import export
    if target == "vulkan":
        vulkan_or_skip()
    rng = np.random.default_rng(11)
    xp = np.sort(rng.standard_normal(4096)).astype(np.float32)
    fp = rng.standard_normal(4096).astype(np.float32)

    def fn(q):
        return SEARCHES[name](jnp, xp, fp, q)
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b,), np.float32)).mlir_module()
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target)
    for n in (1, 7, 65536):
        q = (rng.standard_normal(n) * 2).astype(np.float32)
        np.testing.assert_allclose(exe(q), np.asarray(jax.jit(fn)(q)), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_random_values_of_a_symbolic_shape(ctx, target):
    """jax.random.uniform of a symbolic shape (threefry's rounds: a loop carrying the counters'
    iota): on vulkan the call failed before shlo-index-extents (OUT_OF_RANGE in a queue
    alloca). XLA's values at 1 to 65536 elements."""
    jax = pytest.importorskip("jax")
    from jax import export
    if target == "vulkan":
        vulkan_or_skip()

    def fn(q):
        return q + jax.random.uniform(jax.random.key(1), q.shape)
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b,), np.float32)).mlir_module()
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target)
    for n in (1, 7, 65536):
        q = np.zeros(n, np.float32)
        np.testing.assert_allclose(exe(q), np.asarray(jax.jit(fn)(q)), rtol=1e-6, atol=0)


# dot_general with run-time sizes where an operand has no free dimension or nothing is
# contracted: IREE 3.13 rejected them ("'stablehlo.reshape' op result #0 must be statically
# shaped"); shlo-expand-dynamic-ops makes them a broadcast multiply and a sum. (name, lhs,
# rhs, dimension numbers, result, einsum of the same product)
DOTS = [
    ("matvec", "?x5xf32", "5xf32", "contracting_dims = [1] x [0]", "?xf32", "ij,j->i"),
    ("vecmat", "5xf32", "5x?xf32", "contracting_dims = [0] x [0]", "?xf32", "j,ji->i"),
    ("dot", "?xf32", "?xf32", "contracting_dims = [0] x [0]", "f32", "i,i->"),
    ("outer", "?xf32", "3xf32", "contracting_dims = [] x []", "?x3xf32", "i,j->ij"),
    ("batched_matvec", "4x?x5xf32", "5x4xf32",
     "batching_dims = [0] x [1], contracting_dims = [2] x [0]", "4x?xf32", "bik,kb->bi"),
    ("transposed_vec", "5x?xf32", "?x5xf32",
     "batching_dims = [1] x [0], contracting_dims = [0] x [1]", "?xf32", "kb,bk->b"),
    ("int8_to_int32", "?x5xi8", "5xi8", "contracting_dims = [1] x [0]", "?xi32", "ij,j->i"),
    ("bf16", "?x5xbf16", "5xbf16", "contracting_dims = [1] x [0]", "?xbf16", "ij,j->i"),
]
DOT_MODULE = "\n".join(
    f"func.func @{name}(%a: tensor<{a}>, %b: tensor<{b}>) -> tensor<{r}> {{\n"
    f"  %0 = stablehlo.dot_general %a, %b, {dims} : (tensor<{a}>, tensor<{b}>) -> tensor<{r}>\n"
    f"  return %0 : tensor<{r}>\n}}" for name, a, b, dims, r, _ in DOTS)


@pytest.mark.parametrize("n", [1, 7])
@pytest.mark.every_case
def test_vector_and_outer_products_with_run_time_sizes(ctx, n):
    import ml_dtypes
    exe = shlo.compile(shlo.parse_module(DOT_MODULE, context=ctx), "cpu")
    dtypes = {"f32": np.float32, "i8": np.int8, "bf16": ml_dtypes.bfloat16}
    for name, a, b, _, r, spec in DOTS:
        args = []
        for t in (a, b):
            *dims, element = t.split("x")
            shape = tuple(n if d == "?" else int(d) for d in dims)
            args.append((rng.integers(-9, 9, shape) if element == "i8"
                         else rng.standard_normal(shape)).astype(dtypes[element]))
        want = np.einsum(spec, *(x.astype(np.float64) for x in args))
        got = np.asarray(exe.function(name)(*args)).astype(np.float64)
        tol = 1e-2 if "bf16" in r else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)


# One slice gathered with run-time slice sizes (jax's x[1:] with a symbolic length): IREE
# 3.13 rejected the dynamic_gather; shlo-expand-dynamic-ops makes it a real_dynamic_slice from
# the start clamped as gather clamps it.
GATHER = """
func.func @main(%x: tensor<?x?xf32>, %i: tensor<1xi32>, %sizes: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [0, 1], start_index_map = [1]>}> : (tensor<?x?xf32>, tensor<1xi32>,
      tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}"""


def test_slices_with_run_time_sizes(ctx):
    jax = pytest.importorskip("jax")
    from jax import export
    b, = export.symbolic_shape("b")
    for fn in (lambda x: x[1:], lambda x: x[1:, 2:], lambda x: x[:-1] * 2.0):
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b, 5), np.float32)).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (1, 4):
            x = f32(n, 5)
            np.testing.assert_array_equal(exe(x), fn(x))
    exe = shlo.compile(shlo.parse_module(GATHER, context=ctx), "cpu")
    x = f32(3, 6)
    for start, rows, columns in ((1, 2, 3), (5, 3, 2), (-4, 1, 6)):      # clamped into range
        begin = min(max(start, 0), 6 - columns)
        got = exe(x, np.array([start], np.int32), np.array([rows, columns], np.int64))
        np.testing.assert_array_equal(got, x[:rows, begin:begin + columns])


def test_slices_of_run_time_sized_rows_on_vulkan(ctx):
    """Slices of a [b, 64] input read by elementwise ops (vk-dynamic-slice: IREE's SPIR-V
    codegen failed to compile them fused), against XLA at 3 and 1025 rows."""
    jax = pytest.importorskip("jax")
    from jax import export
    jnp = jax.numpy
    vulkan_or_skip()
    b, = export.symbolic_shape("b")
    cases = [lambda x: -x[:, :3], lambda x: jnp.concatenate([x, jnp.exp(x[:, :8])], axis=1),
             lambda x: x[1:] * 2.0, lambda x: x[:, 5:9] - x[:, :4]]
    rng = np.random.default_rng(4)
    for fn in cases:
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b, 64), np.float32)).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "vulkan")
        for n in (3, 1025):
            x = rng.standard_normal((n, 64)).astype(np.float32)
            np.testing.assert_allclose(exe(x), np.asarray(jax.jit(fn)(x)), rtol=1e-6, atol=1e-6)


def test_an_empty_run_time_size_on_vulkan_is_a_clear_error(ctx):
    """x[1:] * 2 of one row: IREE's Vulkan runtime refuses the dispatch on the empty result
    ("binding 1 resolved to an empty buffer range"); the error says so and what to do, the
    device still runs the next call, and specialize=True computes the empty result."""
    jax = pytest.importorskip("jax")
    from jax import export
    vulkan_or_skip()
    b, = export.symbolic_shape("b")
    text = export.export(jax.jit(lambda x: x[1:] * 2.0))(
        jax.ShapeDtypeStruct((b, 64), np.float32)).mlir_module()
    exe = shlo.compile(shlo.parse_module(text, context=ctx), "vulkan")
    with pytest.raises(shlo.DeviceError, match=r"^main: a tensor of this call has a run-time "
                       r"size of 0.*empty buffer range\); compile with specialize=True"):
        exe(np.ones((1, 64), np.float32))
    x = f32(3, 64)
    np.testing.assert_array_equal(exe(x), x[1:] * 2)
    specialized = shlo.compile(shlo.parse_module(text, context=ctx), "vulkan", specialize=True)
    assert specialized(np.ones((1, 64), np.float32)).shape == (0, 64)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64])
@pytest.mark.every_case
def test_unsigned_scatters_with_a_symbolic_size(ctx, dtype):
    """x.at[i].set/add/max/min on unsigned arrays of symbolic size: with a constant update IREE
    3.13 failed ("'arith.constant' op integer return type must be signless"). On signless
    integers max and min still order as unsigned (values above the signed range check it) and
    adds wrap at the width."""
    jax = pytest.importorskip("jax")
    from jax import export
    b, = export.symbolic_shape("b")
    top = np.iinfo(dtype).max
    jnp_index = np.array([0, 2, 0])
    fns = {"set": lambda x, u: x.at[jnp_index].set(u), "add": lambda x, u: x.at[jnp_index].add(u),
           "max": lambda x, u: x.at[jnp_index].max(u), "min": lambda x, u: x.at[jnp_index].min(u),
           "set_one": lambda x, u: x.at[2].set(u[0]), "max_one": lambda x, u: x.at[1].max(u[0]),
           "min_one": lambda x, u: x.at[0].min(u[2]), "set_constant": lambda x, u: x.at[0].set(7),
           "max_constant": lambda x, u: x.at[1].max(top - 3)}
    np_ops = {"set": None, "add": np.add, "max": np.maximum, "min": np.minimum}
    with jax.enable_x64(dtype == np.uint64):
        spec = (jax.ShapeDtypeStruct((b,), dtype), jax.ShapeDtypeStruct((3,), dtype))
        every = jax.jit(lambda x, u: tuple(fn(x, u) for fn in fns.values()))   # one compile
        text = export.export(every)(*spec).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (3, 6):
            x = (np.arange(n, dtype=np.uint64) * (top // 5)).astype(dtype)
            u = np.array([top, 7, top - 1], dtype)
            outs = exe(x, u)
            assert len(outs) == len(fns)
            for (name, fn), got in zip(fns.items(), outs):
                want = x.copy()
                if name.endswith(("_one", "_constant")):
                    want = np.asarray(jax.jit(fn)(x, u))     # XLA on concrete sizes
                elif np_ops[name] is None:
                    want[jnp_index] = u
                else:
                    np_ops[name].at(want, jnp_index, u)
                np.testing.assert_array_equal(got, want, err_msg=f"{name} n={n}")


def test_gathers_of_whole_run_time_sized_dimensions(ctx):
    """x[:, [3, 1]] and jnp.take along a static axis, with symbolic sizes elsewhere: a
    dynamic_gather whose run-time slice sizes are whole dimensions (IREE 3.13: "failed to
    legalize operation 'stablehlo.dynamic_gather'"), compared with XLA on concrete sizes."""
    jax = pytest.importorskip("jax")
    from jax import export
    jnp = jax.numpy
    b, c = export.symbolic_shape("b, c")
    cases = [
        (lambda x: x[:, jnp.array([3, 1])], (b, 5)),
        (lambda x: x[:, jnp.array([4, 0, 4]), :] * 2.0, (b, 5, 3)),
        (lambda x: x[..., jnp.array([2])], (b, c, 5)),
        (lambda x, i: jnp.take(x, i, axis=1), (b, 5), (3,)),
        (lambda x, i: x[jnp.array([1, 0])][:, i], (b, 5), (2,)),
    ]
    rng = np.random.default_rng(6)
    for fn, shape, *index in cases:
        specs = [jax.ShapeDtypeStruct(shape, np.float32)]
        specs += [jax.ShapeDtypeStruct(index[0], np.int32)] if index else []
        text = export.export(jax.jit(fn))(*specs).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (2, 5):
            x = rng.standard_normal([d if isinstance(d, int) else n for d in shape])
            x = x.astype(np.float32)
            args = [x] + ([rng.integers(-5, 5, index[0]).astype(np.int32)] if index else [])
            np.testing.assert_array_equal(exe(*args), np.asarray(jax.jit(fn)(*args)))


def test_one_slice_gathers_that_drop_dimensions(ctx):
    """y[0] of a [1, b, c] convolution over a symbolic length, x[1] and x[:, 2]: a dynamic_gather
    of one slice with collapsed dimensions (IREE 3.13: "failed to legalize operation
    'stablehlo.dynamic_gather'"), against XLA at 1 to 4099 rows."""
    jax = pytest.importorskip("jax")
    from jax import export, lax
    b, = export.symbolic_shape("b")
    kernel = np.random.default_rng(2).standard_normal((3, 8, 4)).astype(np.float32)
    cases = [
        (lambda x: lax.conv_general_dilated(x[None], kernel, (1,), "SAME",
                                            dimension_numbers=("NWC", "WIO", "NWC"))[0], (b, 8)),
        (lambda x: x[1] * 2.0, (3, b, 4)),
        (lambda x: x[:, 2] - 1.0, (b, 5)),
    ]
    rng = np.random.default_rng(8)
    for fn, shape in cases:
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct(shape, np.float32)).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (1, 4099):
            x = rng.standard_normal([d if isinstance(d, int) else n for d in shape])
            x = x.astype(np.float32)
            np.testing.assert_allclose(exe(x), np.asarray(jax.jit(fn)(x)), rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_windows_over_a_symbolic_batch(ctx):
    """Pooling and cumulative ops along static dimensions of a symbolically sized batch (IREE
    3.13 rejects every reduce_window with a run-time sized dimension), against XLA."""
    jax = pytest.importorskip("jax")
    from jax import export, lax
    jnp = jax.numpy
    b, = export.symbolic_shape("b")
    cases = [
        (lambda x: jnp.cumsum(x, axis=1), (b, 7), np.float32),
        (lambda x: lax.cummax(x, axis=1, reverse=True), (b, 7), np.int32),
        (lambda x: jnp.cumprod(x, axis=1), (b, 5), np.float32),
        (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
         (b, 7, 6, 2), np.float32),
        (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4,
         (b, 6, 5, 3), np.float32),
    ]
    rng = np.random.default_rng(12)
    for fn, shape, dtype in cases:
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct(shape, dtype)).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (1, 3):
            x = (rng.standard_normal([d if isinstance(d, int) else n for d in shape]) * 4)
            x = x.astype(dtype)
            np.testing.assert_allclose(exe(x), np.asarray(jax.jit(fn)(x)), rtol=1e-6)

@pytest.mark.slow
def test_row_normalisations_with_a_symbolic_batch(ctx):
    """jax's softmax, layernorm and attention with a symbolic batch broadcast a row reduction
    back to the rows' shape. IREE 3.13 failed at run time on local-task for batch >= 2
    ("transient buffer has not been committed") when shlo branched on whether the batch is 1;
    shlo now sees that both sizes are the batch (shlo-expand-dynamic-ops) and merges the
    broadcast pairs IREE would merge without that knowledge."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import export
    b, = export.symbolic_shape("b")
    programs = {
        "softmax": (lambda x: jax.nn.softmax(x, axis=-1), (b, 16)),
        "layernorm": (lambda x: (x - x.mean(-1, keepdims=True))
                      / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5), (b, 16)),
        "attention": (lambda x: jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", x, x), -1) @ x,
                      (b, 6, 8)),
    }
    for name, (fn, shape) in programs.items():
        text = export.export(jax.jit(fn))(jax.ShapeDtypeStruct(shape, np.float32)).mlir_module()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), "cpu")
        for n in (1, 3):
            x = f32(n, *shape[1:])
            np.testing.assert_allclose(exe(x), fn(x), rtol=1e-5, atol=1e-5, err_msg=name)
