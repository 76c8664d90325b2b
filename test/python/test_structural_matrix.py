"""Structural ops over every element type against the reference interpreter, one module per
target: compare (all directions), select, clamp, transpose, reverse, pad (with interior
padding), concatenate, strided slice, dynamic_slice and dynamic_update_slice (clamped start
indices), broadcast_in_dim, reduce, dot_general, stable sort, same-width and width-changing
bitcast_convert, reduce_window, gather (out-of-bounds rows clamped) and scatter
(out-of-bounds updates dropped). Integer-valued float inputs where a sum's order could
otherwise change the last bit."""
import numpy as np
import pytest

from conftest import cases_on, vulkan_or_skip
from reference_oracle import compile_functions, evaluate

TYPES = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
         "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
         "f16": np.float16, "f32": np.float32, "f64": np.float64}
FLOAT = ("f16", "f32", "f64")


def _values(rng, t: str, shape, small: bool = False) -> np.ndarray:
    dtype = np.dtype(TYPES[t])
    n = int(np.prod(shape))
    if dtype.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif small:                                 # products and sums exact in any order
        v = rng.integers(0, 5, n).astype(dtype)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        v[:4] = np.array([0, 1, info.max, info.min], dtype)[:min(4, n)]
    else:
        v = (rng.standard_normal(n) * 10).astype(dtype)
        v[:4] = np.array([np.nan, -0.0, np.inf, 0.0], dtype)[:min(4, n)]
    return v.reshape(shape)


def _cases():
    rng = np.random.default_rng(3)
    cases = []

    def add(name, text, *args):
        cases.append((name, text.replace("@F(", f"@{name}(", 1), list(args)))
    for t in TYPES:
        v = lambda shape, small=False: _values(rng, t, shape, small)   # noqa: E731
        T, S = f"tensor<4x8x{t}>", f"tensor<{t}>"
        for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            add(f"compare_{d}_{t}", f"func.func @F(%a: {T}, %b: {T}) -> tensor<4x8xi1> {{\n"
                f"  %r = stablehlo.compare {d}, %a, %b : ({T}, {T}) -> tensor<4x8xi1>\n"
                f"  return %r : tensor<4x8xi1>\n}}", v((4, 8)), v((4, 8)))
        add(f"select_{t}", f"func.func @F(%p: tensor<4x8xi1>, %a: {T}, %b: {T}) -> {T} {{\n"
            f"  %r = stablehlo.select %p, %a, %b : tensor<4x8xi1>, {T}\n  return %r : {T}\n}}",
            _values(rng, "i1", (4, 8)), v((4, 8)), v((4, 8)))
        add(f"transpose_{t}", f"func.func @F(%a: {T}) -> tensor<8x4x{t}> {{\n  %r = stablehlo."
            f"transpose %a, dims = [1, 0] : ({T}) -> tensor<8x4x{t}>\n  return %r : "
            f"tensor<8x4x{t}>\n}}", v((4, 8)))
        add(f"reverse_{t}", f"func.func @F(%a: {T}) -> {T} {{\n  %r = stablehlo.reverse %a, "
            f"dims = [1] : {T}\n  return %r : {T}\n}}", v((4, 8)))
        add(f"pad_{t}", f"func.func @F(%a: {T}, %p: {S}) -> tensor<7x18x{t}> {{\n  %r = "
            f"stablehlo.pad %a, %p, low = [1, 2], high = [2, 1], interior = [0, 1] : ({T}, {S})"
            f" -> tensor<7x18x{t}>\n  return %r : tensor<7x18x{t}>\n}}", v((4, 8)), v(()))
        add(f"concatenate_{t}", f"func.func @F(%a: {T}, %b: {T}) -> tensor<4x16x{t}> {{\n  %r = "
            f"stablehlo.concatenate %a, %b, dim = 1 : ({T}, {T}) -> tensor<4x16x{t}>\n  return "
            f"%r : tensor<4x16x{t}>\n}}", v((4, 8)), v((4, 8)))
        add(f"slice_{t}", f"func.func @F(%a: {T}) -> tensor<2x3x{t}> {{\n  %r = stablehlo.slice "
            f"%a [1:4:2, 2:8:2] : ({T}) -> tensor<2x3x{t}>\n  return %r : tensor<2x3x{t}>\n}}",
            v((4, 8)))
        add(f"dynamic_slice_{t}", f"func.func @F(%a: {T}, %i: tensor<i32>, %j: tensor<i32>) -> "
            f"tensor<2x3x{t}> {{\n  %r = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 3] : "
            f"({T}, tensor<i32>, tensor<i32>) -> tensor<2x3x{t}>\n  return %r : tensor<2x3x{t}>"
            f"\n}}", v((4, 8)), np.array(3, np.int32), np.array(-2, np.int32))
        add(f"dynamic_update_slice_{t}", f"func.func @F(%a: {T}, %u: tensor<2x3x{t}>, %i: "
            f"tensor<i32>, %j: tensor<i32>) -> {T} {{\n  %r = stablehlo.dynamic_update_slice "
            f"%a, %u, %i, %j : ({T}, tensor<2x3x{t}>, tensor<i32>, tensor<i32>) -> {T}\n  "
            f"return %r : {T}\n}}", v((4, 8)), v((2, 3)), np.array(1, np.int32),
            np.array(7, np.int32))
        add(f"broadcast_{t}", f"func.func @F(%a: tensor<8x{t}>) -> {T} {{\n  %r = stablehlo."
            f"broadcast_in_dim %a, dims = [1] : (tensor<8x{t}>) -> {T}\n  return %r : {T}\n}}",
            v((8,)))
        add(f"sort_{t}", f'func.func @F(%a: {T}) -> {T} {{\n  %r = "stablehlo.sort"(%a) ({{\n'
            f"  ^bb0(%x: {S}, %y: {S}):\n    %c = stablehlo.compare LT, %x, %y : ({S}, {S}) -> "
            f"tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }}) {{dimension = 1 : i64, "
            f"is_stable = true}} : ({T}) -> {T}\n  return %r : {T}\n}}", v((4, 8)))
        if t == "i1":
            continue
        add(f"clamp_{t}", f"func.func @F(%lo: {T}, %a: {T}, %hi: {T}) -> {T} {{\n  %r = "
            f"stablehlo.clamp %lo, %a, %hi : {T}\n  return %r : {T}\n}}",
            v((4, 8)), v((4, 8)), v((4, 8)))
        for op in ("add", "maximum", "minimum", "multiply"):
            small = op == "multiply" or t in FLOAT and op == "add"
            add(f"reduce_{op}_{t}", f"func.func @F(%a: {T}, %z: {S}) -> tensor<4x{t}> {{\n  %r "
                f"= stablehlo.reduce(%a init: %z) applies stablehlo.{op} across dimensions = [1]"
                f" : ({T}, {S}) -> tensor<4x{t}>\n  return %r : tensor<4x{t}>\n}}",
                v((4, 8), small), v((), small))
        add(f"dot_{t}", f"func.func @F(%a: {T}, %b: tensor<8x5x{t}>) -> tensor<4x5x{t}> {{\n  "
            f"%r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({T}, "
            f"tensor<8x5x{t}>) -> tensor<4x5x{t}>\n  return %r : tensor<4x5x{t}>\n}}",
            v((4, 8), t in FLOAT), v((8, 5), t in FLOAT))
        W = f"tensor<6x8x{t}>"
        body = (f"({{\n  ^bb0(%x: {S}, %y: {S}):\n    %m = stablehlo.maximum %x, %y : {S}\n"
                f"    stablehlo.return %m : {S}\n  }})")
        add(f"reduce_window_{t}", f'func.func @F(%a: {W}, %z: {S}) -> tensor<5x4x{t}> {{\n  %r ='
            f' "stablehlo.reduce_window"(%a, %z) {body} {{window_dimensions = array<i64: 2, 2>, '
            f"window_strides = array<i64: 1, 2>}} : ({W}, {S}) -> tensor<5x4x{t}>\n  return %r "
            f": tensor<5x4x{t}>\n}}", v((6, 8)), v(()))
        add(f"gather_{t}", f'func.func @F(%a: {W}, %i: tensor<5x1xi32>) -> tensor<5x8x{t}> {{\n'
            f'  %r = "stablehlo.gather"(%a, %i) {{dimension_numbers = #stablehlo.gather<'
            f"offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
            f"index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}} : ({W}, tensor<5x1xi32>)"
            f" -> tensor<5x8x{t}>\n  return %r : tensor<5x8x{t}>\n}}",
            v((6, 8)), np.array([[0], [5], [2], [9], [-3]], np.int32))
        add(f"scatter_{t}", f'func.func @F(%a: {W}, %i: tensor<5x1xi32>, %u: tensor<5x8x{t}>) ->'
            f' {W} {{\n  %r = "stablehlo.scatter"(%a, %i, %u) {body} {{scatter_dimension_numbers'
            f" = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
            f"scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}} : ({W}, "
            f"tensor<5x1xi32>, tensor<5x8x{t}>) -> {W}\n  return %r : {W}\n}}",
            v((6, 8)), np.array([[0], [5], [2], [9], [2]], np.int32), v((5, 8)))
    same_width = {16: ["i16", "ui16", "f16"], 32: ["i32", "ui32", "f32"],
                  64: ["i64", "ui64", "f64"]}
    for group in same_width.values():
        for s in group:
            for d in group:
                if s != d:
                    add(f"bitcast_{s}_{d}", f"func.func @F(%a: tensor<16x{s}>) -> tensor<16x{d}>"
                        f" {{\n  %r = stablehlo.bitcast_convert %a : (tensor<16x{s}>) -> "
                        f"tensor<16x{d}>\n  return %r : tensor<16x{d}>\n}}",
                        _values(rng, s, (16,)))
    for s, d, shape in (("i32", "i8", "6x4"), ("ui64", "ui16", "6x4")):
        add(f"bitcast_{s}_{d}_split", f"func.func @F(%a: tensor<6x{s}>) -> tensor<{shape}x{d}>"
            f" {{\n  %r = stablehlo.bitcast_convert %a : (tensor<6x{s}>) -> tensor<{shape}x{d}>"
            f"\n  return %r : tensor<{shape}x{d}>\n}}", _values(rng, s, (6,)))
    return cases


CASES = _cases()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_structural_ops_match_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    cases = cases_on(target, CASES)
    exe = compile_functions(ctx, [(text, args) for _, text, args in cases], target)
    wrong = []
    for name, text, args in cases:
        got = exe.function(name)(*args)
        got = np.asarray(got[0] if isinstance(got, (list, tuple)) else got)
        want = np.asarray(evaluate(text, args)[0])
        if got.dtype.kind == "f":
            same = np.array_equal(got, want, equal_nan=True) and np.array_equal(
                np.signbit(got[~np.isnan(got)]), np.signbit(want[~np.isnan(want)]))
        else:
            same = np.array_equal(got, want)
        if not same:
            wrong.append(f"{name}: got {got.ravel()[:6]}, want {want.ravel()[:6]}")
    assert not wrong, "\n".join(wrong)
