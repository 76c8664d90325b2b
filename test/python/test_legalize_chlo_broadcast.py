"""shlo-legalize-chlo's 21 broadcasting ops on IREE's CPU backend against numpy: numpy-style
broadcasting, explicit broadcast_dimensions (also the mappings the C++ lowering rejects),
static and dynamic shapes. One compiled module for the whole file."""
import math

import numpy as np
import pytest

import shlo

RNG = np.random.default_rng(3)


def _t(shape, element):
    return "tensor<" + "".join("?x" if d is None else f"{d}x" for d in shape) + element + ">"


def _npfloat(oracle):
    return lambda a, b: oracle(a.astype(np.float64), b.astype(np.float64))


# (chlo op, numpy oracle, element, lhs type shape, rhs type shape, broadcast_dimensions,
#  runtime lhs shape, runtime rhs shape); None in a type shape is a dynamic dimension
BINARY = [
    ("add", np.add, "f32", (2, 3), (3,), None, None, None),
    ("subtract", np.subtract, "f32", (3,), (4, 3), None, None, None),
    ("multiply", np.multiply, "i32", (2, 1, 4), (3, 1), None, None, None),
    ("divide", np.divide, "f32", (2, 3), (2,), [0], None, None),
    ("maximum", np.maximum, "f32", (4, 2, 3), (4, 3), [0, 2], None, None),
    ("minimum", np.minimum, "i32", (5,), (5,), None, None, None),
    ("power", np.power, "f32", (2, 3), (), None, None, None),
    ("remainder", np.fmod, "f32", (3, 2), (2,), None, None, None),
    ("atan2", np.arctan2, "f32", (2, 3), (3,), None, None, None),
    ("and", np.bitwise_and, "i32", (2, 3), (3,), None, None, None),
    ("or", np.bitwise_or, "i32", (2, 3), (2,), [0], None, None),
    ("xor", np.bitwise_xor, "i32", (2, 3), (3,), None, None, None),
    ("shift_left", np.left_shift, "i32", (2, 3), (3,), None, None, None),
    ("shift_right_arithmetic", np.right_shift, "i32", (2, 3), (3,), None, None, None),
    ("shift_right_logical", np.right_shift, "ui32", (3,), (2, 3), None, None, None),
    ("complex", lambda a, b: a + 1j * b, "f32", (2, 3), (2, 1), None, None, None),
    ("next_after", np.nextafter, "f32", (3,), (2, 3), None, None, None),
    ("zeta", _npfloat(lambda x, q: np.vectorize(
        lambda a, b: float(__import__("mpmath").zeta(a, b)))(x, q)), "f32", (2, 1), (3,),
     None, None, None),
    ("polygamma", _npfloat(lambda n, x: np.vectorize(
        lambda a, b: float(__import__("mpmath").polygamma(int(a), b)))(n, x)), "f32",
     (3, 1), (4,), None, None, None),
    # dynamic shapes, runtime sizes in the last two columns. Each dynamic dimension faces only
    # absent or size-1 dimensions of the other operand: where two operands' dynamic sizes
    # meet, either might be 1, and IREE cannot compile such a broadcast (nor the C++ one)
    ("add", np.add, "f32", (None, 3), (3,), None, (5, 3), (3,)),
    ("multiply", np.multiply, "f32", (None, 4), (4,), None, (2, 4), (4,)),
    ("subtract", np.subtract, "f32", (None, 1), (None,), None, (3, 1), (4,)),
    ("maximum", np.maximum, "i32", (None, 3), (1,), [0], (2, 3), (1,)),
    ("atan2", np.arctan2, "f32", (None,), (1,), None, (6,), (1,)),
]


def _result_shape(lhs, rhs, dims):
    if dims is None:
        return np.broadcast_shapes(lhs, rhs)
    return lhs


def _type_result(lhs, rhs, dims):
    """The result type shape, dynamic where an operand is dynamic and the other is not 1."""
    n = max(len(lhs), len(rhs))
    if dims is not None:
        out = list(lhs)
        for src, dst in enumerate(dims):
            if out[dst] == 1:
                out[dst] = rhs[src]
        return out
    lp, rp = (1,) * (n - len(lhs)) + tuple(lhs), (1,) * (n - len(rhs)) + tuple(rhs)
    return [b if a == 1 else a if b == 1 else (a if a is not None else b) for a, b in zip(lp, rp)]


F = []
for i, (op, _, e, ls, rs, dims, _, _) in enumerate(BINARY):
    out_e = "complex<f32>" if op == "complex" else e
    lt, rt, ot = _t(ls, e), _t(rs, e), _t(_type_result(ls, rs, dims), out_e)
    attr = f" {{broadcast_dimensions = array<i64: {', '.join(map(str, dims))}>}}" if dims else ""
    F.append(f"""func.func @f{i}(%a: {lt}, %b: {rt}) -> {ot} {{
      %0 = chlo.broadcast_{op} %a, %b{attr} : ({lt}, {rt}) -> {ot}
      return %0 : {ot} }}""")
F.append("""func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>}
    : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1> }""")
F.append("""func.func @select(%p: tensor<3xi1>, %a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "chlo.broadcast_select"(%p, %a, %b)
    : (tensor<3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32> }""")
F.append("""func.func @select_dynamic(%p: tensor<?x3xi1>, %a: tensor<3xi32>, %b: tensor<1x1xi32>)
    -> tensor<?x3xi32> {
  %0 = "chlo.broadcast_select"(%p, %a, %b)
    : (tensor<?x3xi1>, tensor<3xi32>, tensor<1x1xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32> }""")
F.append("""func.func @dynamic_math(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = chlo.erf %a : tensor<?xf32> -> tensor<?xf32>
  %1 = chlo.lgamma %0 : tensor<?xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32> }""")


@pytest.fixture(scope="module")
def program(ctx):
    return shlo.compile(shlo.parse_module("\n".join(F), context=ctx), target="cpu")


def _operand(shape, element, op):
    if element == "f32":
        x = RNG.standard_normal(shape) * 3 + 0.1
        if op in ("power", "zeta"):
            x = np.abs(x) + 1.1
        if op == "polygamma":
            x = RNG.integers(0, 4, shape).astype(np.float64)
        return x.astype(np.float32)
    dtype = np.uint32 if element == "ui32" else np.int32
    low = 0 if element == "ui32" else -20
    return RNG.integers(low, 20, shape).astype(dtype)


@pytest.mark.parametrize("index", range(len(BINARY)),
                         ids=[f"{b[0]}{'-dynamic' if b[6] else ''}" for b in BINARY])
def test_broadcasting_binary_ops_match_numpy(program, index):
    op, oracle, element, ls, rs, dims, run_l, run_r = BINARY[index]
    lhs = _operand(run_l or ls, element, op)
    rhs = _operand(run_r or rs, element, op)
    if op.startswith("shift"):
        rhs = np.abs(rhs) % 8
    if op == "polygamma":
        rhs = np.abs(rhs) + 0.5
    if dims is not None:   # numpy needs the low-rank operand reshaped onto the mapped dims
        shape = [1] * lhs.ndim
        for src, dst in enumerate(dims):
            shape[dst] = rhs.shape[src]
        want = oracle(lhs, rhs.reshape(shape))
    else:
        want = oracle(lhs, rhs)
    got = program.function(f"f{index}")(lhs, rhs)
    if op == "next_after":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, np.asarray(want).astype(got.dtype), rtol=2e-5,
                                   atol=1e-6)


def test_broadcast_compare(program):
    a = np.array([[1, 5, 3], [0, -1, 9]], np.float32)
    b = np.array([2, 2, 3], np.float32)
    np.testing.assert_array_equal(program.function("compare")(a, b), a < b)


def test_broadcast_select_static_and_dynamic(program):
    p = np.array([True, False, True])
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_array_equal(program.function("select")(p, a, np.float32(7)),
                                  np.where(p, a, np.float32(7)))
    p2 = RNG.integers(0, 2, (4, 3)).astype(bool)
    x = np.array([1, 2, 3], np.int32)
    y = np.array([[10]], np.int32)
    np.testing.assert_array_equal(program.function("select_dynamic")(p2, x, y),
                                  np.where(p2, x, y))


def test_math_on_dynamic_shapes(program):
    x = np.array([0.1, 0.7, -0.3, 2.0, 0.5], np.float32)
    want = [math.lgamma(math.erf(float(v))) for v in x]
    np.testing.assert_allclose(program.function("dynamic_math")(x), want, rtol=1e-5)
