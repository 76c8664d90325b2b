"""shlo-legalize-chlo on the exact and structural CHLO ops, run on IREE's CPU backend against
numpy / Python-integer oracles: top_k, ragged_dot (three modes), scan, constant(_like), mulhi
(every width), next_after, is_inf*, conj, square. One compiled module for the whole file."""
import numpy as np
import pytest

import shlo
from shlo.tools.chlo_accuracy import all_values, function_text

RNG = np.random.default_rng(7)
F = []          # function texts of the module


def fn(text: str) -> str:
    F.append(text)
    return text.split("@", 1)[1].split("(", 1)[0]


def t(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


# --- top_k -----------------------------------------------------------------------------------
TOP_K = [("f32", (3, 10), 4), ("i32", (2, 7), 3), ("ui8", (4,), 4), ("f16", (2, 9), 9),
         ("f64", (3, 700), 6)]
for i, (e, shape, k) in enumerate(TOP_K):
    out = shape[:-1] + (k,)
    fn(f"""func.func @top_k{i}(%x: {t(shape, e)}) -> ({t(out, e)}, {t(out, 'i32')}) {{
      %0:2 = chlo.top_k(%x, k = {k}) : {t(shape, e)} -> ({t(out, e)}, {t(out, 'i32')})
      return %0#0, %0#1 : {t(out, e)}, {t(out, 'i32')} }}""")


def total_order_key(v):
    """TOTALORDER: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN, via the sign-magnitude bits."""
    a = np.asarray(v)
    if a.dtype.kind not in "f" and a.dtype.itemsize and a.dtype.kind != "V":
        return int(v)
    bits = int(a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]))
    width = 8 * a.dtype.itemsize
    return -(bits & ((1 << (width - 1)) - 1)) - 1 if bits >> (width - 1) else bits


def top_k_oracle(x, k):
    values, indices = [], []
    for row in x.reshape(-1, x.shape[-1]):
        order = sorted(range(row.size), key=lambda j: (-total_order_key(row[j]), j))[:k]
        values.append(row[order])
        indices.append(order)
    shape = x.shape[:-1] + (k,)
    return np.array(values).reshape(shape), np.array(indices, np.int32).reshape(shape)


def top_k_input(e, shape):
    if e in ("f32", "f16", "f64"):
        x = RNG.integers(-3, 4, shape).astype(np.float64)     # many ties
        x.flat[1], x.flat[5] = np.nan, -np.inf
        x.flat[2], x.flat[3] = -0.0, 0.0
        return x.astype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[e])
    return RNG.integers(0 if e == "ui8" else -5, 6, shape).astype(
        np.uint8 if e == "ui8" else np.int32)


# --- ragged_dot ------------------------------------------------------------------------------
# (name, lhs shape, rhs shape, group sizes, dimension numbers, result shape)
RAGGED = [
    ("mode1", (11, 5), (3, 5, 7), [4, 0, 5],
     dict(lb=[], rb=[], lc=[1], rc=[1], lr=[0], rg=[0]), (11, 7)),
    ("mode1_batch", (2, 6, 4), (3, 2, 4, 5), [2, 3, 1],
     dict(lb=[0], rb=[1], lc=[2], rc=[2], lr=[1], rg=[0]), (2, 6, 5)),
    ("mode2", (3, 8), (8, 4), [3, 3, 2],
     dict(lb=[], rb=[], lc=[1], rc=[0], lr=[1], rg=[]), (3, 3, 4)),
    ("mode2_batch", (2, 3, 6), (2, 6, 4), [1, 4],
     dict(lb=[0], rb=[0], lc=[2], rc=[1], lr=[2], rg=[]), (2, 2, 3, 4)),
    ("mode3", (3, 2, 5), (3, 5, 4), [2, 1],
     dict(lb=[0], rb=[0], lc=[2], rc=[1], lr=[0], rg=[]), (3, 2, 4)),
]


def _dims(d):
    return ", ".join(str(v) for v in d)


for name, ls, rs, gs, d, res in RAGGED:
    g = t((len(gs),), "i64")
    fn(f"""func.func @ragged_{name}(%l: {t(ls, 'f32')}, %r: {t(rs, 'f32')}, %g: {g})
          -> {t(res, 'f32')} {{
      %0 = "chlo.ragged_dot"(%l, %r, %g) {{ragged_dot_dimension_numbers = #chlo.ragged_dot<
        lhs_batching_dimensions = [{_dims(d['lb'])}], rhs_batching_dimensions = [{_dims(d['rb'])}],
        lhs_contracting_dimensions = [{_dims(d['lc'])}],
        rhs_contracting_dimensions = [{_dims(d['rc'])}],
        lhs_ragged_dimensions = [{_dims(d['lr'])}], rhs_group_dimensions = [{_dims(d['rg'])}]>,
        precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]}}
        : ({t(ls, 'f32')}, {t(rs, 'f32')}, {g}) -> {t(res, 'f32')}
      return %0 : {t(res, 'f32')} }}""")


def ragged_oracle(name, lhs, rhs, gs):
    """Group by group, with plain numpy matrix products."""
    ends = np.cumsum(gs)
    starts = ends - gs
    if name == "mode1":
        out = np.zeros((lhs.shape[0], rhs.shape[2]))
        for j, (a, b) in enumerate(zip(starts, ends)):
            out[a:b] = lhs[a:b] @ rhs[j]
        return out
    if name == "mode1_batch":
        out = np.zeros((lhs.shape[0], lhs.shape[1], rhs.shape[3]))
        for j, (a, b) in enumerate(zip(starts, ends)):
            for n in range(lhs.shape[0]):
                out[n, a:b] = lhs[n, a:b] @ rhs[j, n]
        return out
    if name == "mode2":
        return np.stack([lhs[:, a:b] @ rhs[a:b] for a, b in zip(starts, ends)])
    if name == "mode2_batch":
        return np.stack([np.stack([lhs[n, :, a:b] @ rhs[n, a:b] for n in range(lhs.shape[0])])
                         for a, b in zip(starts, ends)])
    return np.einsum("bmk,bkn->bmn", lhs, rhs)


# --- scan --------------------------------------------------------------------------------------
fn("""func.func @scan_cumsum(%x: tensor<2x5xf32>, %init: tensor<2xf32>)
      -> (tensor<2x5xf32>, tensor<2xf32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 {
  ^bb0(%a: tensor<2xf32>, %c: tensor<2xf32>):
    %s = stablehlo.add %a, %c : tensor<2xf32>
    stablehlo.return %s, %s : tensor<2xf32>, tensor<2xf32>
  } : (tensor<2x5xf32>, tensor<2xf32>) -> (tensor<2x5xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2xf32> }""")
fn("""func.func @scan_reverse_two_outputs(%x: tensor<6xi32>, %y: tensor<6xi32>, %init: tensor<i32>)
      -> (tensor<6xi32>, tensor<6xi32>, tensor<i32>) {
  %0:3 = chlo.scan(%x, %y) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>):
    %p = stablehlo.multiply %a, %b : tensor<i32>
    %s = stablehlo.add %p, %c : tensor<i32>
    %m = stablehlo.maximum %a, %c : tensor<i32>
    stablehlo.return %s, %m, %s : tensor<i32>, tensor<i32>, tensor<i32>
  } : (tensor<6xi32>, tensor<6xi32>, tensor<i32>) -> (tensor<6xi32>, tensor<6xi32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<6xi32>, tensor<6xi32>, tensor<i32> }""")
fn("""func.func @scan_erf_in_body(%x: tensor<4xf32>, %init: tensor<f32>)
      -> (tensor<4xf32>, tensor<f32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %e = chlo.erf %a : tensor<f32> -> tensor<f32>
    %s = stablehlo.add %e, %c : tensor<f32>
    stablehlo.return %s, %s : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<f32> }""")

# --- constant, constant_like ---------------------------------------------------------------------
fn("""func.func @constants(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi32>) {
  %0 = "chlo.constant_like"(%x) {value = 2.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %2 = chlo.constant dense<[7, -8]> : tensor<2xi32>
  %3 = stablehlo.add %0, %x : tensor<2x3xf32>
  return %3, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi32> }""")

# --- mulhi ---------------------------------------------------------------------------------------
MULHI = ["i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64"]
for e in MULHI:
    fn(f"""func.func @mulhi_{e}(%a: tensor<64x{e}>, %b: tensor<64x{e}>) -> tensor<64x{e}> {{
      %0 = chlo.mulhi %a, %b : tensor<64x{e}>, tensor<64x{e}> -> tensor<64x{e}>
      return %0 : tensor<64x{e}> }}""")


def int_dtype(e):
    return np.dtype(("uint" if e.startswith("u") else "int") + e.lstrip("ui"))


def mulhi_inputs(e):
    dtype = int_dtype(e)
    info = np.iinfo(dtype)
    edges = [info.min, info.max, 0, 1, -1 if info.min else 2, info.min + 1, info.max - 1, 3]
    a = np.concatenate([np.array(edges, dtype), RNG.integers(info.min, info.max, 56, dtype,
                                                             endpoint=True)])
    b = np.concatenate([np.array(edges[::-1], dtype), RNG.integers(info.min, info.max, 56,
                                                                   dtype, endpoint=True)])
    return a, b


# --- next_after, is_inf, conj, square ----------------------------------------------------------
NEXT_AFTER = ["f32", "f64", "f16", "bf16", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f4E2M1FN"]
for e in NEXT_AFTER:
    F.append(function_text(f"next_after_{e}", "next_after", e, 400, 2))

PREDICATES = ["is_inf", "is_pos_inf", "is_neg_inf"]
for e in ["f32", "bf16", "f8E4M3FN", "f8E5M2"]:
    for p in PREDICATES:
        fn(f"""func.func @{p}_{e}(%x: tensor<8x{e}>) -> tensor<8xi1> {{
          %0 = chlo.{p} %x : tensor<8x{e}> -> tensor<8xi1>
          return %0 : tensor<8xi1> }}""")
fn("""func.func @conj_square(%z: tensor<6xcomplex<f32>>, %x: tensor<6xf32>)
      -> (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>, tensor<6xf32>) {
  %0 = chlo.conj %z : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %1 = chlo.square %z : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %2 = chlo.square %x : tensor<6xf32> -> tensor<6xf32>
  %3 = chlo.conj %x : tensor<6xf32> -> tensor<6xf32>
  return %0, %1, %2, %3 : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>, tensor<6xf32> }""")


@pytest.fixture(scope="module")
def program(ctx):
    return shlo.compile(shlo.parse_module("\n".join(F), context=ctx), target="cpu")


# --- tests ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(TOP_K)), ids=[f"{e}{s}k{k}" for e, s, k in TOP_K])
@pytest.mark.every_case
def test_top_k_is_a_stable_descending_total_order(program, index):
    e, shape, k = TOP_K[index]
    x = top_k_input(e, shape)
    values, indices = program.function(f"top_k{index}")(x)
    want_values, want_indices = top_k_oracle(x, k)
    np.testing.assert_array_equal(indices, want_indices)
    np.testing.assert_array_equal(values.view(np.uint8), want_values.view(np.uint8))


@pytest.mark.parametrize("index", range(len(RAGGED)), ids=[r[0] for r in RAGGED])
@pytest.mark.every_case
def test_ragged_dot_matches_group_by_group_products(program, index):
    name, ls, rs, gs, _, _ = RAGGED[index]
    lhs = RNG.standard_normal(ls).astype(np.float32)
    rhs = RNG.standard_normal(rs).astype(np.float32)
    got = program.function(f"ragged_{name}")(lhs, rhs, np.array(gs, np.int64))
    want = ragged_oracle(name, lhs.astype(np.float64), rhs.astype(np.float64), np.array(gs))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_scan_cumulative_sum_along_dim_1(program):
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    init = np.array([1.0, -2.0], np.float32)
    outs, carry = program.function("scan_cumsum")(x, init)
    want = np.cumsum(np.concatenate([init[:, None], x], axis=1), axis=1)[:, 1:]
    np.testing.assert_allclose(outs, want, rtol=1e-6)
    np.testing.assert_allclose(carry, want[:, -1], rtol=1e-6)


def test_scan_reverse_with_two_inputs_and_two_outputs(program):
    x = np.array([3, -1, 4, 1, -5, 9], np.int32)
    y = np.array([2, 7, 1, 8, 2, 8], np.int32)
    out_s, out_m, carry = program.function("scan_reverse_two_outputs")(x, y, np.int32(10))
    c, want_s, want_m = 10, [0] * 6, [0] * 6
    for i in reversed(range(6)):
        want_m[i] = max(x[i], c)
        c = x[i] * y[i] + c
        want_s[i] = c
    np.testing.assert_array_equal(out_s, want_s)
    np.testing.assert_array_equal(out_m, want_m)
    assert int(carry) == c


def test_scan_body_with_a_chlo_op_is_legalized_too(program):
    import math
    x = np.array([0.1, -0.5, 2.0, 0.0], np.float32)
    outs, carry = program.function("scan_erf_in_body")(x, np.float32(1.0))
    want = 1.0 + np.cumsum([math.erf(float(v)) for v in x])
    np.testing.assert_allclose(outs, want, rtol=1e-6)
    np.testing.assert_allclose(carry, want[-1], rtol=1e-6)


def test_constant_and_constant_like(program):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    shifted, table, ints = program.function("constants")(x)
    np.testing.assert_array_equal(shifted, x + 2.5)
    np.testing.assert_array_equal(table, [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(ints, [7, -8])


@pytest.mark.parametrize("e", MULHI)
@pytest.mark.every_case
def test_mulhi_is_the_high_half_of_the_exact_product(program, e):
    a, b = mulhi_inputs(e)
    width = int_dtype(e).itemsize * 8
    want = [(int(x) * int(y)) >> width for x, y in zip(a, b)]          # Python ints: exact
    got = program.function(f"mulhi_{e}")(a, b)
    assert [int(v) for v in got] == want


def next_after_oracle(x, y, dtype):
    """Step to the neighbouring representable value towards y: numpy's nextafter for f32/f64,
    a table of all values for the narrow types."""
    if dtype.itemsize >= 4:
        return np.nextafter(x, y).astype(np.float64)
    table = np.unique(all_values(dtype).astype(np.float64))
    table = table[~np.isnan(table)]
    out = []
    for a, b in zip(x.astype(np.float64), y.astype(np.float64)):
        if np.isnan(a) or np.isnan(b):
            out.append(np.nan)
        elif a == b:
            out.append(b)
        else:
            i = np.searchsorted(table, a)
            out.append(table[i + 1] if b > a else table[i - 1])
    return np.array(out)


@pytest.mark.parametrize("e", NEXT_AFTER)
@pytest.mark.every_case
def test_next_after_steps_to_the_neighbouring_value(program, e):
    from shlo.tools.chlo_accuracy import DTYPES, boundary_dtype
    dtype = DTYPES[e]
    if dtype.itemsize <= 2:
        pool = all_values(dtype)
        x, y = RNG.choice(pool, 400), RNG.choice(pool, 400)
    else:
        info = np.finfo(dtype)
        pool = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, float(info.max),
                         -float(info.max), float(info.tiny), 1e-3, 3.5], dtype)
        x = np.concatenate([pool.repeat(pool.size), RNG.standard_normal(400 - pool.size ** 2)])
        y = np.concatenate([np.tile(pool, pool.size), RNG.standard_normal(400 - pool.size ** 2)])
        x, y = x.astype(dtype), y.astype(dtype)
    x[0], y[0] = dtype.type(0.0), dtype.type(1.0)        # from zero: the smallest subnormal
    got = np.asarray(program.function(f"next_after_{e}")(x.astype(boundary_dtype(e)),
                                                         y.astype(boundary_dtype(e))))
    want = next_after_oracle(x, y, dtype)
    np.testing.assert_array_equal(got.astype(np.float64), want)


@pytest.mark.parametrize("e", ["f6E2M3FN", "f6E3M2FN"])
@pytest.mark.every_case
def test_next_after_on_6_bit_floats_in_the_reference_interpreter(e):
    """IREE 3.13 cannot compile conversions to f6, so the lowering runs in the interpreter:
    every pair of values."""
    from shlo.tools.chlo_accuracy import DTYPES, function_text, run_in_reference_interpreter
    dtype = DTYPES[e]
    pool = all_values(dtype)
    x, y = pool.repeat(pool.size), np.tile(pool, pool.size)
    text = function_text("main", "next_after", e, x.size, 2)
    got = run_in_reference_interpreter(
        text, "builtin.module(func.func(shlo-legalize-chlo))",
        [x.astype(np.float32), y.astype(np.float32)])
    np.testing.assert_array_equal(got.astype(np.float64), next_after_oracle(x, y, dtype))


@pytest.mark.parametrize("e", ["f32", "bf16", "f8E4M3FN", "f8E5M2"])
@pytest.mark.every_case
def test_is_inf_predicates(program, e):
    from shlo.tools.chlo_accuracy import DTYPES
    values = np.array([np.inf, -np.inf, np.nan, 0.0, -1.0, 448.0, 1e30, -2.0])
    x = values.astype(DTYPES[e])
    wide = x.astype(np.float64)
    oracle = {"is_inf": np.isinf(wide), "is_pos_inf": wide == np.inf,
              "is_neg_inf": wide == -np.inf}
    for p in PREDICATES:
        np.testing.assert_array_equal(program.function(f"{p}_{e}")(x), oracle[p], err_msg=p)
    if e == "f8E4M3FN":      # no infinities: inf converts to NaN, and nothing is infinite
        assert not np.isinf(wide).any()


def test_conj_and_square(program):
    z = np.array([1 + 2j, -3 - 4j, 2 + 2j, -1e18 + 1e18j, 0.5 - 0.5j, 1e-3 + 7j], np.complex64)
    x = np.array([1.5, -2.0, 0.0, 1e20, -3.0, 7.0], np.float32)
    conj, square, xsq, xconj = program.function("conj_square")(z, x)
    np.testing.assert_array_equal(conj, np.conj(z))
    want = z.astype(np.complex128) ** 2
    np.testing.assert_allclose(square, want, rtol=1e-6)
    assert square[2].real == 0 and square[4].real == 0      # |re| == |im|: exactly 0
    np.testing.assert_array_equal(xsq, x * x)
    np.testing.assert_array_equal(xconj, x)
