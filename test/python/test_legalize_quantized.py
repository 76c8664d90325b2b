"""shlo-legalize-quantized against numpy's reading of the spec (quantize: round_nearest_even(
clamp(x / scale + zero_point)) in f32; dequantize: (q - zero_point) * scale): quantized
elementwise ops on every storage type (i4, u4, i8, u8, i16, u16, i32) at 64K elements,
per-axis add and quantize, data movement (gather, scatter, sort, pad, ...) on u8 and i4
storage, dot_general and convolution, all through shlo's default CPU pipeline. One module.
"""
import ml_dtypes
import numpy as np
import pytest

import shlo

STORAGE = {"i4": (-8, 7), "u4": (0, 15), "i8": (-128, 127), "u8": (0, 255),
           "i16": (-32768, 32767), "u16": (0, 65535), "i32": (-2 ** 31, 2 ** 31 - 1)}
SHAPE = (256, 257)
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "divide": np.divide, "maximum": np.maximum, "minimum": np.minimum}
UNARY_EXACT = {"abs": np.abs, "negate": np.negative, "sign": np.sign, "floor": np.floor,
               "ceil": np.ceil, "round_nearest_even": np.round}
UNARY_MATH = {"exponential": np.exp, "tanh": np.tanh, "sine": np.sin, "sqrt": np.sqrt,
              "logistic": lambda x: 1 / (1 + np.exp(-x))}


def _params(st):
    """(scale, zero point) of the lhs, rhs and result types for storage `st`."""
    lo = STORAGE[st][0]
    return ((0.25, 2), (0.5, 1), (0.5, 3)) if lo == 0 else ((0.25, -2), (0.5, 1), (0.5, 0))


def qtype(st, scale, zp, axis=None):
    if axis is None:
        return f"!quant.uniform<{st}:f32, {scale}:{zp}>"
    pairs = ", ".join(f"{s}:{z}" for s, z in zip(scale, zp))
    return f"!quant.uniform<{st}:f32:{axis}, {{{pairs}}}>"


def _along(v, axis, ndim):
    return np.asarray(v).reshape([-1 if d == axis else 1 for d in range(ndim)])


def quantize(x, st, scale, zp, axis=None):
    x = np.asarray(x, np.float32)
    if axis is not None:
        scale, zp = _along(scale, axis, x.ndim), _along(zp, axis, x.ndim)
    lo, hi = STORAGE[st]
    hi_f = np.float32(hi) if int(np.float32(hi)) <= hi else np.nextafter(np.float32(hi), 0)
    y = x / np.float32(scale) + np.float32(zp) if axis is None else \
        x / scale.astype(np.float32) + zp.astype(np.float32)
    return np.round(np.clip(y, np.float32(lo), hi_f)).astype(np.int64)


def dequantize(q, scale, zp, axis=None):
    q = np.asarray(q, np.int64)
    if axis is not None:
        scale, zp = _along(scale, axis, q.ndim), _along(zp, axis, q.ndim)
        return (q - zp).astype(np.float32) * scale.astype(np.float32)
    return (q - zp).astype(np.float32) * np.float32(scale)


def _t(shape, element):
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


FUNCS, ORACLES = [], {}


def case(name, text, oracle, tolerance=0):
    FUNCS.append(text)
    ORACLES[name] = (oracle, tolerance)


def _elementwise(st):
    (sa, za), (sb, zb), (sr, zr) = _params(st)
    A, B, R = qtype(st, sa, za), qtype(st, sb, zb), qtype(st, sr, zr)
    f, ta, tb, tr = _t(SHAPE, "f32"), _t(SHAPE, A), _t(SHAPE, B), _t(SHAPE, R)
    body = [f"%qa = stablehlo.uniform_quantize %a : ({f}) -> {ta}",
            f"%qb = stablehlo.uniform_quantize %b : ({f}) -> {tb}"]
    names = list(BINARY)
    for op in names:
        body.append(f"%{op} = stablehlo.{op} %qa, %qb : ({ta}, {tb}) -> {tr}")
    results = ", ".join(f"%{op}" for op in names)
    case(f"binary_{st}", f"""func.func @binary_{st}(%a: {f}, %b: {f}) -> ({", ".join([tr] * len(names))}) {{
  {chr(10).join(body)}
  return {results} : {", ".join([tr] * len(names))}
}}""", lambda a, b: [quantize(fn(dequantize(quantize(a, st, sa, za), sa, za),
                                    dequantize(quantize(b, st, sb, zb), sb, zb)), st, sr, zr)
                     for fn in BINARY.values()])
    for kind, unary, tolerance in (("unary", UNARY_EXACT, 0), ("math", UNARY_MATH, 1)):
        body = [f"%qa = stablehlo.uniform_quantize %a : ({f}) -> {ta}"]
        body += [f"%{op} = stablehlo.{op} %qa : ({ta}) -> {tr}" for op in unary]
        types = ", ".join([tr] * len(unary))
        case(f"{kind}_{st}", f"""func.func @{kind}_{st}(%a: {f}) -> ({types}) {{
  {chr(10).join(body)}
  return {", ".join(f"%{op}" for op in unary)} : {types}
}}""", lambda a, unary=unary: [quantize(fn(dequantize(quantize(a, st, sa, za), sa, za)), st, sr,
                                        zr) for fn in unary.values()], tolerance)


for _st in STORAGE:
    _elementwise(_st)


def _inputs(name, rng):
    """Float arguments spread over (and past) each storage type's range."""
    st = name.split("_")[-1]
    lo, hi = STORAGE.get(st, (-128, 127))
    span = min(hi - lo, 4000) / 4
    center = 0.0 if lo < 0 else span
    return rng.uniform(center - span * 1.1, center + span * 1.1, SHAPE).astype(np.float32)


@pytest.mark.slow
def test_elementwise_every_storage_type(exe):
    rng = np.random.default_rng(0)
    for name, (oracle, tolerance) in ORACLES.items():
        if not name.startswith(("binary_", "unary_", "math_")):
            continue
        args = [_inputs(name, rng) for _ in range(2 if name.startswith("binary_") else 1)]
        if name.startswith("binary_"):          # no division by a zero that quantizes to 0
            args[1] = np.where(np.abs(args[1]) < 1, np.float32(1.5), args[1])
        if name.startswith("math_"):            # sqrt's domain, exp below overflow
            args[0] = np.abs(args[0]) % 12
        _check(exe, name, args, oracle, tolerance)


def _check(exe, name, args, oracle, tolerance):
    got = exe.function(name)(*args)
    got = got if isinstance(got, (list, tuple)) else [got]
    for i, (g, want) in enumerate(zip(got, oracle(*args))):
        g = np.asarray(g).astype(np.int64)
        diff = np.abs(g - want)
        where = np.argwhere(diff > tolerance)
        assert where.size == 0, (f"{name} result {i}: {len(where)} elements off, first at "
                                 f"{where[0]}: got {g[tuple(where[0])]}, want "
                                 f"{want[tuple(where[0])]}")
        if tolerance:      # transcendental ops: an ulp may cross a rounding boundary, rarely
            assert np.mean(diff > 0) < 1e-3, f"{name} result {i}: {np.mean(diff > 0):.2%} off"


# --- per-axis -----------------------------------------------------------------------------------
AXIS_SCALES, AXIS_ZPS = [0.25, 0.5, 0.125, 1.0], [3, 0, 10, 1]
TA, TB = qtype("u8", AXIS_SCALES, AXIS_ZPS, 1), qtype("u8", AXIS_SCALES[::-1], AXIS_ZPS, 1)
case("per_axis", f"""func.func @per_axis(%a: tensor<4096x4xf32>, %b: tensor<4096x4xf32>) -> (tensor<4096x4xf32>, tensor<4096x4x{TB}>) {{
  %qa = stablehlo.uniform_quantize %a : (tensor<4096x4xf32>) -> tensor<4096x4x{TA}>
  %qb = stablehlo.uniform_quantize %b : (tensor<4096x4xf32>) -> tensor<4096x4x{TB}>
  %s = stablehlo.add %qa, %qb : (tensor<4096x4x{TA}>, tensor<4096x4x{TB}>) -> tensor<4096x4x{TB}>
  %d = stablehlo.uniform_dequantize %qa : (tensor<4096x4x{TA}>) -> tensor<4096x4xf32>
  return %d, %s : tensor<4096x4xf32>, tensor<4096x4x{TB}>
}}""", None)


def test_per_axis(exe):
    rng = np.random.default_rng(1)
    a, b = (rng.uniform(-5, 60, (4096, 4)).astype(np.float32) for _ in range(2))
    d, s = exe.function("per_axis")(a, b)
    qa = quantize(a, "u8", AXIS_SCALES, AXIS_ZPS, 1)
    np.testing.assert_array_equal(d, dequantize(qa, AXIS_SCALES, AXIS_ZPS, 1))
    qb = quantize(b, "u8", AXIS_SCALES[::-1], AXIS_ZPS, 1)
    want = quantize(dequantize(qa, AXIS_SCALES, AXIS_ZPS, 1) +
                    dequantize(qb, AXIS_SCALES[::-1], AXIS_ZPS, 1), "u8", AXIS_SCALES[::-1],
                    AXIS_ZPS, 1)
    np.testing.assert_array_equal(np.asarray(s).astype(np.int64), want)
    assert np.asarray(s).dtype == np.uint8


# --- data movement ------------------------------------------------------------------------------
QU8, QI4 = qtype("u8", 0.5, 7), qtype("i4", 0.5, -1)
N = 65536
case("gather_u8", f"""func.func @gather_u8(%a: tensor<{N}x4xf32>, %i: tensor<1000x1xi32>) -> tensor<1000x4x{QU8}> {{
  %q = stablehlo.uniform_quantize %a : (tensor<{N}x4xf32>) -> tensor<{N}x4x{QU8}>
  %g = "stablehlo.gather"(%q, %i) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}}> : (tensor<{N}x4x{QU8}>, tensor<1000x1xi32>) -> tensor<1000x4x{QU8}>
  return %g : tensor<1000x4x{QU8}>
}}""", None)
case("scatter_u8", f"""func.func @scatter_u8(%a: tensor<{N}xf32>, %i: tensor<1000x1xi32>, %u: tensor<1000xf32>) -> tensor<{N}x{QU8}> {{
  %q = stablehlo.uniform_quantize %a : (tensor<{N}xf32>) -> tensor<{N}x{QU8}>
  %qu = stablehlo.uniform_quantize %u : (tensor<1000xf32>) -> tensor<1000x{QU8}>
  %s = "stablehlo.scatter"(%q, %i, %qu) <{{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}}> ({{
  ^bb0(%x: tensor<{QU8}>, %y: tensor<{QU8}>):
    %r = stablehlo.add %x, %y : tensor<{QU8}>
    stablehlo.return %r : tensor<{QU8}>
  }}) : (tensor<{N}x{QU8}>, tensor<1000x1xi32>, tensor<1000x{QU8}>) -> tensor<{N}x{QU8}>
  return %s : tensor<{N}x{QU8}>
}}""", None)
case("moves_u8", f"""func.func @moves_u8(%a: tensor<256x256xf32>, %p: tensor<256x256xi1>, %k: tensor<i32>) -> (tensor<256x256x{QU8}>, tensor<258x260x{QU8}>, tensor<128x64x{QU8}>, tensor<256x512x{QU8}>, tensor<256x256x{QU8}>, tensor<256x256x{QU8}>, tensor<16x256x{QU8}>, tensor<256x{QU8}>, tensor<256x255x{QU8}>) {{
  %q = stablehlo.uniform_quantize %a : (tensor<256x256xf32>) -> tensor<256x256x{QU8}>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<256x256x{QU8}>) -> tensor<256x256x{QU8}>
  %kf = stablehlo.convert %k : (tensor<i32>) -> tensor<f32>
  %z = stablehlo.uniform_quantize %kf : (tensor<f32>) -> tensor<{QU8}>
  %pad = stablehlo.pad %q, %z, low = [1, 3], high = [1, 1], interior = [0, 0] : (tensor<256x256x{QU8}>, tensor<{QU8}>) -> tensor<258x260x{QU8}>
  %sl = stablehlo.slice %q [0:256:2, 3:131:2] : (tensor<256x256x{QU8}>) -> tensor<128x64x{QU8}>
  %c = stablehlo.concatenate %q, %t, dim = 1 : (tensor<256x256x{QU8}>, tensor<256x256x{QU8}>) -> tensor<256x512x{QU8}>
  %s = stablehlo.select %p, %q, %t : tensor<256x256xi1>, tensor<256x256x{QU8}>
  %srt = "stablehlo.sort"(%q) <{{dimension = 1 : i64, is_stable = true}}> ({{
  ^bb0(%x: tensor<{QU8}>, %y: tensor<{QU8}>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<{QU8}>, tensor<{QU8}>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) : (tensor<256x256x{QU8}>) -> tensor<256x256x{QU8}>
  %ds = stablehlo.dynamic_slice %q, %k, %k, sizes = [16, 256] : (tensor<256x256x{QU8}>, tensor<i32>, tensor<i32>) -> tensor<16x256x{QU8}>
  %mx = stablehlo.reduce(%q init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<256x256x{QU8}>, tensor<{QU8}>) -> tensor<256x{QU8}>
  %rw = "stablehlo.reduce_window"(%q, %z) <{{window_dimensions = array<i64: 1, 2>}}> ({{
  ^bb0(%x: tensor<{QU8}>, %y: tensor<{QU8}>):
    %m = stablehlo.maximum %x, %y : tensor<{QU8}>
    stablehlo.return %m : tensor<{QU8}>
  }}) : (tensor<256x256x{QU8}>, tensor<{QU8}>) -> tensor<256x255x{QU8}>
  return %t, %pad, %sl, %c, %s, %srt, %ds, %mx, %rw : tensor<256x256x{QU8}>, tensor<258x260x{QU8}>, tensor<128x64x{QU8}>, tensor<256x512x{QU8}>, tensor<256x256x{QU8}>, tensor<256x256x{QU8}>, tensor<16x256x{QU8}>, tensor<256x{QU8}>, tensor<256x255x{QU8}>
}}""", None)
case("moves_i4", f"""func.func @moves_i4(%a: tensor<1001xf32>, %i: tensor<7x1xi32>) -> (tensor<7x{QI4}>, tensor<1001x{QI4}>, tensor<1001xi4>) {{
  %q = stablehlo.uniform_quantize %a : (tensor<1001xf32>) -> tensor<1001x{QI4}>
  %g = "stablehlo.gather"(%q, %i) <{{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}}> : (tensor<1001x{QI4}>, tensor<7x1xi32>) -> tensor<7x{QI4}>
  %r = stablehlo.reverse %q, dims = [0] : tensor<1001x{QI4}>
  %m = stablehlo.multiply %q, %r : (tensor<1001x{QI4}>, tensor<1001x{QI4}>) -> tensor<1001x{QI4}>
  %b = stablehlo.bitcast_convert %m : (tensor<1001x{QI4}>) -> tensor<1001xi4>
  return %g, %r, %b : tensor<7x{QI4}>, tensor<1001x{QI4}>, tensor<1001xi4>
}}""", None)


def test_data_movement_u8(exe):
    rng = np.random.default_rng(2)
    a = rng.uniform(-10, 130, (N, 4)).astype(np.float32)
    i = rng.integers(0, N, (1000, 1)).astype(np.int32)
    q = quantize(a, "u8", 0.5, 7)
    np.testing.assert_array_equal(np.asarray(exe.function("gather_u8")(a, i)), q[i[:, 0]])
    a1 = a[:, 0].copy()
    u = rng.uniform(-10, 60, 1000).astype(np.float32)
    iu = rng.choice(N, (1000, 1), replace=False).astype(np.int32)
    want = quantize(a1, "u8", 0.5, 7)
    at = iu[:, 0]
    want[at] = quantize(dequantize(want[at], 0.5, 7) +
                        dequantize(quantize(u, "u8", 0.5, 7), 0.5, 7), "u8", 0.5, 7)
    np.testing.assert_array_equal(np.asarray(exe.function("scatter_u8")(a1, iu, u)), want)

    b = rng.uniform(-10, 130, (256, 256)).astype(np.float32)
    p = rng.random((256, 256)) < 0.5
    k = np.int32(5)
    got = [np.asarray(g).astype(np.int64) for g in exe.function("moves_u8")(b, p, k)]
    q = quantize(b, "u8", 0.5, 7)
    z = int(quantize(np.float32(5), "u8", 0.5, 7))
    wants = [q.T, np.pad(q, ((1, 1), (3, 1)), constant_values=z), q[0:256:2, 3:131:2],
             np.concatenate([q, q.T], 1), np.where(p, q, q.T), np.sort(q, 1), q[5:21, 0:256],
             np.maximum(q.max(1), z), np.maximum(np.maximum(q[:, :-1], q[:, 1:]), z)]
    for n, (g, w) in enumerate(zip(got, wants)):
        np.testing.assert_array_equal(g, w, err_msg=f"moves_u8 result {n}")


def test_data_movement_i4(exe):
    rng = np.random.default_rng(3)
    a = rng.uniform(-6, 6, 1001).astype(np.float32)
    i = rng.integers(0, 1001, (7, 1)).astype(np.int32)
    g, r, b = exe.function("moves_i4")(a, i)
    q = quantize(a, "i4", 0.5, -1)
    np.testing.assert_array_equal(np.asarray(g).astype(np.int64), q[i[:, 0]])
    np.testing.assert_array_equal(np.asarray(r).astype(np.int64), q[::-1])
    want = quantize(dequantize(q, 0.5, -1) * dequantize(q[::-1], 0.5, -1), "i4", 0.5, -1)
    np.testing.assert_array_equal(np.asarray(b).astype(np.int64), want)


# --- contractions -------------------------------------------------------------------------------
QL, QR, QO = qtype("u8", 0.05, 100), qtype("i8", 0.02, 0), qtype("i8", 0.5, -3)
QRA = qtype("i8", [0.02, 0.04, 0.01], [0, 0, 0], 1)
case("dot_u8", f"""func.func @dot_u8(%a: tensor<64x512xf32>, %b: tensor<512x3xf32>) -> (tensor<64x3x{QO}>, tensor<64x3xf32>) {{
  %qa = stablehlo.uniform_quantize %a : (tensor<64x512xf32>) -> tensor<64x512x{QL}>
  %qb = stablehlo.uniform_quantize %b : (tensor<512x3xf32>) -> tensor<512x3x{QR}>
  %d = stablehlo.dot_general %qa, %qb, contracting_dims = [1] x [0] : (tensor<64x512x{QL}>, tensor<512x3x{QR}>) -> tensor<64x3x{QO}>
  %qc = stablehlo.uniform_quantize %b : (tensor<512x3xf32>) -> tensor<512x3x{QRA}>
  %h = stablehlo.dot_general %a, %qc, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x3x{QRA}>) -> tensor<64x3xf32>
  return %d, %h : tensor<64x3x{QO}>, tensor<64x3xf32>
}}""", None)


def test_dot_general(exe):
    rng = np.random.default_rng(4)
    a = rng.uniform(0, 5, (64, 512)).astype(np.float32)
    b = rng.uniform(-2, 2, (512, 3)).astype(np.float32)
    d, h = exe.function("dot_u8")(a, b)
    fa = dequantize(quantize(a, "u8", 0.05, 100), 0.05, 100).astype(np.float64)
    fb = dequantize(quantize(b, "i8", 0.02, 0), 0.02, 0).astype(np.float64)
    exact = quantize(fa @ fb, "i8", 0.5, -3)
    assert np.max(np.abs(np.asarray(d).astype(np.int64) - exact)) <= 1     # f32 sums round
    scales = [0.02, 0.04, 0.01]
    fc = dequantize(quantize(b, "i8", scales, [0, 0, 0], 1), scales, [0, 0, 0], 1)
    np.testing.assert_allclose(h, a.astype(np.float64) @ fc, rtol=1e-4, atol=1e-3)


def test_unsupported_op_is_named(ctx):
    t = qtype("u8", 0.5, 7)
    text = f"""func.func @main(%a: tensor<4x{t}>) -> tensor<4x{t}> {{
  %0 = stablehlo.cbrt %a : tensor<4x{t}>
  %1 = stablehlo.custom_call @foo(%0) : (tensor<4x{t}>) -> tensor<4x{t}>
  return %1 : tensor<4x{t}>
}}"""
    with pytest.raises(shlo.Error, match=r"stablehlo.custom_call on quantized tensors is not "
                                         r"supported \(tensor<4x!quant.uniform<u8:f32"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False,
                     pipeline="builtin.module(shlo-legalize-quantized)")


@pytest.fixture(scope="module")
def exe(ctx):
    return shlo.compile(shlo.parse_module("\n".join(FUNCS), context=ctx), target="cpu")


def test_no_quantized_type_reaches_iree(ctx):
    """After the pass, no !quant type is left (function signatures included)."""
    from shlo.passes.element_types.legalize_quantized import LegalizeQuantized
    module = shlo.parse_module(FUNCS[-1], context=ctx)
    LegalizeQuantized().apply(module)
    assert "!quant" not in str(module)
    assert ml_dtypes is not None
