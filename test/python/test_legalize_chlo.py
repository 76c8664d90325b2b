"""shlo-legalize-chlo: numerics on IREE against independent oracles (mpmath, numpy), and its errors."""
import ml_dtypes
import mpmath
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from shlo.passes.legalize_chlo import LegalizeChlo


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place, through the sign-magnitude -> ordered-int mapping."""
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[got.dtype.itemsize]
    def ordered(a):
        i = a.view(bits).astype(np.int64)
        return np.where(i < 0, np.iinfo(bits).min - i, i)
    distance = np.abs(ordered(got) - ordered(want))
    both_nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
    return np.where(both_nan, 0, distance)


def erf_grid(dtype) -> np.ndarray:
    """Dense log-spaced magnitudes from the smallest subnormal to past saturation, both signs."""
    info = ml_dtypes.finfo(dtype)
    tiny = float(info.smallest_subnormal)
    mags = np.geomspace(tiny, 10.0, 4000).astype(dtype)
    specials = np.array([0.0, np.inf, np.nan, float(info.max), float(info.tiny)], dtype=dtype)
    return np.unique(np.concatenate([mags, -mags, specials, -specials]))


def without_f32_subnormals(x: np.ndarray) -> np.ndarray:
    """IREE's generated code (llvm-cpu and SPIR-V on lavapipe alike) treats f32 subnormal inputs
    as zero, so errors are measured on zero and the numbers that are normal in f32."""
    wide = np.abs(x.astype(np.float32))
    return x[~((wide < np.finfo(np.float32).tiny) & (wide != 0))]


def mp_erf(x: np.ndarray, dtype) -> np.ndarray:
    mpmath.mp.prec = 80
    out = [mpmath.erf(mpmath.mpf(float(v))) if np.isfinite(v) else
           (np.nan if np.isnan(v) else np.sign(v)) for v in x.astype(np.float64)]
    return np.array([float(v) for v in out]).astype(dtype)


def erf_module(ctx, dtype_name: str, n: int):
    t = f"tensor<{n}x{dtype_name}>"
    return shlo.parse_module(f"""func.func @main(%x: {t}) -> {t} {{
      %0 = chlo.erf %x : {t} -> {t}
      return %0 : {t}
    }}""", context=ctx)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_erf_f32_ulp_error(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    x = without_f32_subnormals(erf_grid(np.float32))
    got = shlo.compile(erf_module(ctx, "f32", x.size), target=target)(x)
    want = mp_erf(x, np.float32)
    errors = ulp_distance(got, want)
    worst = int(np.argmax(errors))
    assert errors.max() <= 4, f"erf({x[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
    assert np.percentile(errors, 99) <= 2


@pytest.mark.parametrize("dtype, name", [(np.float16, "f16"), (ml_dtypes.bfloat16, "bf16")])
def test_erf_half_types_compute_in_f32_and_round(ctx, dtype, name):
    x = without_f32_subnormals(erf_grid(dtype))    # keeps every f16 subnormal
    got = shlo.compile(erf_module(ctx, name, x.size), target="cpu")(x)
    assert got.dtype == np.dtype(dtype)
    assert ulp_distance(got, mp_erf(x, dtype)).max() <= 1


def test_erf_f64_is_rejected_with_a_reason(ctx):
    module = erf_module(ctx, "f64", 4)
    with pytest.raises(shlo.PassError, match=r"chlo.erf on f64 is not supported: only f16, bf16 "
                                             r"and f32"):
        LegalizeChlo().apply(module)


BINARY = [  # (chlo op, numpy oracle, element type, lhs shape, rhs shape, broadcast_dimensions)
    ("add", np.add, "f32", (2, 3), (3,), None),
    ("subtract", np.subtract, "f32", (3,), (4, 3), None),
    ("multiply", np.multiply, "i32", (2, 1, 4), (3, 1), None),
    ("divide", np.divide, "f32", (2, 3), (2,), [0]),
    ("maximum", np.maximum, "f32", (4, 2, 3), (4, 3), [0, 2]),
    ("minimum", np.minimum, "i32", (5,), (5,), None),
    ("power", np.power, "f32", (2, 3), (), None),
    ("remainder", np.fmod, "f32", (3, 2), (2,), None),
    ("atan2", np.arctan2, "f32", (2, 3), (3,), None),
    ("and", np.bitwise_and, "i32", (2, 3), (3,), None),
    ("or", np.bitwise_or, "i32", (2, 3), (2,), [0]),
    ("xor", np.bitwise_xor, "i32", (2, 3), (3,), None),
    ("shift_left", np.left_shift, "i32", (2, 3), (3,), None),
    ("shift_right_arithmetic", np.right_shift, "i32", (2, 3), (3,), None),
]


def _operand(shape, element, seed):
    rng = np.random.default_rng(seed)
    if element == "f32":
        return (rng.standard_normal(shape) * 3 + 0.1).astype(np.float32)
    return rng.integers(-20, 20, shape).astype(np.int32)


def _shape_text(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


@pytest.fixture(scope="module")
def binary_program(ctx):
    funcs = []
    for i, (op, _, element, lhs, rhs, dims) in enumerate(BINARY):
        result = np.broadcast_shapes(lhs, rhs) if dims is None else lhs
        lt, rt, ot = (_shape_text(s, element) for s in (lhs, rhs, result))
        attr = f" {{broadcast_dimensions = array<i64: {', '.join(map(str, dims))}>}}" if dims else ""
        funcs.append(f"""func.func @f{i}(%a: {lt}, %b: {rt}) -> {ot} {{
          %0 = chlo.broadcast_{op} %a, %b{attr} : ({lt}, {rt}) -> {ot}
          return %0 : {ot}
        }}""")
    return shlo.compile(shlo.parse_module("\n".join(funcs), context=ctx), target="cpu")


@pytest.mark.parametrize("index", range(len(BINARY)), ids=[b[0] for b in BINARY])
def test_broadcasting_binary_ops_match_numpy(binary_program, index):
    op, oracle, element, lhs_shape, rhs_shape, dims = BINARY[index]
    lhs, rhs = _operand(lhs_shape, element, 1), _operand(rhs_shape, element, 2)
    if op in ("shift_left", "shift_right_arithmetic"):
        rhs = np.abs(rhs) % 8
    if op == "power":
        lhs = np.abs(lhs)
    if dims is not None:   # numpy needs the low-rank operand reshaped onto the mapped dims
        shape = [1] * len(lhs_shape)
        for src, dst in enumerate(dims):
            shape[dst] = rhs_shape[src]
        want = oracle(lhs, rhs.reshape(shape))
    else:
        want = oracle(lhs, rhs)
    got = binary_program.function(f"f{index}")(lhs, rhs)
    np.testing.assert_allclose(got, want.astype(got.dtype), rtol=2e-6, atol=1e-6)


def test_broadcast_compare(ctx):
    text = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
      %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>}
        : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
      return %0 : tensor<2x3xi1>
    }"""
    a = np.array([[1, 5, 3], [0, -1, 9]], np.float32)
    b = np.array([2, 2, 3], np.float32)
    np.testing.assert_array_equal(shlo.compile(text, target="cpu")(a, b), a < b)


def test_unlowered_op_fails_at_its_location(ctx):
    module = shlo.parse_module("""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }""", context=ctx)
    with pytest.raises(shlo.PassError, match=r"-:2:12: error: shlo-legalize-chlo: no lowering "
                                             r"for 'chlo.lgamma'"):
        LegalizeChlo().apply(module)


def test_dynamic_broadcast_is_rejected_clearly(ctx):
    module = shlo.parse_module("""func.func @main(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
      %0 = chlo.broadcast_add %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
      return %0 : tensor<?x3xf32>
    }""", context=ctx)
    with pytest.raises(shlo.PassError, match="dynamic result tensor<\\?x3xf32> is not supported"):
        LegalizeChlo().apply(module)
