"""shlo-widen-sub-byte against numpy: every binary and unary integer op on i4, ui4, i2 and ui2
over all pairs of values (odd element counts: tensors of fractional byte size), and a chain
whose sub-byte intermediates cross dispatches (reverse, reshape, reduce), on CPU and Vulkan.
The oracle computes in int64 and wraps to N bits (the spec's two's-complement semantics).
One module for the file.
"""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

TYPES = {"i4": (4, True), "ui4": (4, False), "i2": (2, True), "ui2": (2, False)}
DTYPES = {"i4": ml_dtypes.int4, "ui4": ml_dtypes.uint4, "i2": ml_dtypes.int2,
          "ui2": ml_dtypes.uint2}


def _wrap(x, bits, signed):
    x = np.asarray(x, np.int64) & ((1 << bits) - 1)
    return np.where(signed & (x >= 1 << (bits - 1)), x - (1 << bits), x)


def _shift_amount(b, bits):
    return b & ((1 << bits) - 1)            # the amount as an unsigned N-bit number


def _pattern(x, bits):
    return np.asarray(x, np.int64) & ((1 << bits) - 1)


BINARY = {
    "add": lambda a, b, n, s: a + b,
    "subtract": lambda a, b, n, s: a - b,
    "multiply": lambda a, b, n, s: a * b,
    "maximum": lambda a, b, n, s: np.maximum(a, b),
    "minimum": lambda a, b, n, s: np.minimum(a, b),
    "and": lambda a, b, n, s: a & b,
    "or": lambda a, b, n, s: a | b,
    "xor": lambda a, b, n, s: a ^ b,
    "shift_left": lambda a, b, n, s: np.where(_shift_amount(b, n) >= n, 0,
                                              a << np.minimum(_shift_amount(b, n), n)),
    "shift_right_logical": lambda a, b, n, s: np.where(
        _shift_amount(b, n) >= n, 0, _pattern(a, n) >> np.minimum(_shift_amount(b, n), n)),
    "shift_right_arithmetic": lambda a, b, n, s: _wrap(a, n, True) >> np.minimum(
        _shift_amount(b, n), n - 1),                    # on the bit pattern, also unsigned
}
UNARY = {
    "negate": lambda a, n, s: -a,
    "abs": lambda a, n, s: np.abs(a),
    "not": lambda a, n, s: ~a,
    "popcnt": lambda a, n, s: np.array([bin(int(v)).count("1") for v in _pattern(a, n)]),
    "count_leading_zeros": lambda a, n, s: np.array(
        [n - int(v).bit_length() for v in _pattern(a, n)]),
}
CASES = [(op, t) for t in TYPES for op in [*BINARY, *UNARY]
         if not (op == "abs" and not TYPES[t][1])]


def _values(t):
    bits, signed = TYPES[t]
    low = -(1 << (bits - 1)) if signed else 0
    return np.arange(low, low + (1 << bits))


def _operands(op, t):
    v = _values(t)
    if op in BINARY:
        a, b = (x.ravel() for x in np.meshgrid(v, v))
        return [a, b]
    return [np.concatenate([v, v[:1]])]         # an odd count


def _want(op, t, args):
    bits, signed = TYPES[t]
    if op in BINARY:
        return _wrap(BINARY[op](*args, bits, signed), bits, signed)
    return _wrap(UNARY[op](*args, bits, signed), bits, signed)


def _function(i, op, t):
    n = _operands(op, t)[0].size
    tt = f"tensor<{n}x{t}>"
    if op in BINARY:
        return (f"func.func @f{i}(%a: {tt}, %b: {tt}) -> {tt} {{\n"
                f"  %0 = stablehlo.{op} %a, %b : {tt}\n  return %0 : {tt}\n}}")
    return (f"func.func @f{i}(%a: {tt}) -> {tt} {{\n"
            f"  %0 = stablehlo.{op} %a : {tt}\n  return %0 : {tt}\n}}")


# A chain whose i4 intermediates cross dispatches: a * b, reversed, reshaped 3x5, summed
# (wrapping) over rows, plus a constant.
CHAIN = """func.func @chain(%a: tensor<15xi4>, %b: tensor<15xi4>) -> tensor<3xi4> {
  %c = stablehlo.constant dense<[7, -8, 3]> : tensor<3xi4>
  %zero = stablehlo.constant dense<0> : tensor<i4>
  %0 = stablehlo.multiply %a, %b : tensor<15xi4>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<15xi4>
  %2 = stablehlo.reshape %1 : (tensor<15xi4>) -> tensor<3x5xi4>
  %3 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [1]
       : (tensor<3x5xi4>, tensor<i4>) -> tensor<3xi4>
  %4 = stablehlo.add %3, %c : tensor<3xi4>
  return %4 : tensor<3xi4>
}"""

TEXT = "\n".join([_function(i, op, t) for i, (op, t) in enumerate(CASES)] + [CHAIN])


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


def _check(exe, i):
    op, t = CASES[i]
    args = _operands(op, t)
    got = exe.function(f"f{i}")(*[a.astype(DTYPES[t]) for a in args])
    want = _want(op, t, args)
    bad = np.nonzero(np.asarray(got).astype(np.int64) != want)[0]
    assert bad.size == 0, (f"{op} on {t}: at {[a[bad[0]] for a in args]} got "
                           f"{got[bad[0]]}, want {want[bad[0]]} ({bad.size} wrong)")


def _check_chain(exe):
    rng = np.random.default_rng(0)
    a, b = rng.integers(-8, 8, 15), rng.integers(-8, 8, 15)
    got = exe.function("chain")(a.astype(ml_dtypes.int4), b.astype(ml_dtypes.int4))
    rows = _wrap(a * b, 4, True)[::-1].reshape(3, 5).sum(axis=1)
    want = _wrap(_wrap(rows, 4, True) + np.array([7, -8, 3]), 4, True)
    np.testing.assert_array_equal(np.asarray(got).astype(np.int64), want)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{op}-{t}" for op, t in CASES])
def test_cpu_against_numpy(cpu, i):
    _check(cpu, i)


def test_cpu_chain_across_dispatches(cpu):
    _check_chain(cpu)


@pytest.mark.slow
def test_vulkan_against_numpy(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for i in range(len(CASES)):
        _check(exe, i)
    _check_chain(exe)


# bitcast_convert with a sub-byte side: fields little-endian (element 0 holds the lowest bits),
# as the spec's bits and the interpreter order them. (name, operand type, result type)
BITCASTS = [("i64_to_i4", "tensor<3xi64>", "tensor<3x16xi4>"),
            ("i4_to_i64", "tensor<3x16xi4>", "tensor<3xi64>"),
            ("f64_to_ui4", "tensor<3xf64>", "tensor<3x16xui4>"),
            ("i4_to_f64", "tensor<3x16xi4>", "tensor<3xf64>"),
            ("i4_to_i8", "tensor<5x2xi4>", "tensor<5xi8>"),
            ("f16_to_i4", "tensor<5xf16>", "tensor<5x4xi4>"),
            ("i4_to_ui4", "tensor<5xi4>", "tensor<5xui4>"),
            ("i2_to_i4", "tensor<5x2xi2>", "tensor<5xi4>"),
            ("i4_to_ui2", "tensor<5xi4>", "tensor<5x2xui2>")]
BITCAST_TEXT = "\n".join(
    f"func.func @{name}(%x: {a}) -> {r} {{\n"
    f"  %0 = stablehlo.bitcast_convert %x : ({a}) -> {r}\n  return %0 : {r}\n}}"
    for name, a, r in BITCASTS)
_NUMPY = {"i64": np.int64, "f64": np.float64, "i8": np.int8, "f16": np.float16, **DTYPES}


def _element(t):
    return t[t.rfind("x") + 1:-1]


def _field_bits(element):
    return TYPES[element][0] if element in TYPES else np.dtype(_NUMPY[element]).itemsize * 8


def _bits(x, element):
    """Each element's bit pattern as a Python int (unsigned)."""
    if element in TYPES:
        return [int(v) & ((1 << TYPES[element][0]) - 1) for v in np.asarray(x).astype(np.int64)]
    unsigned = {1: np.uint8, 2: np.uint16, 8: np.uint64}[np.dtype(_NUMPY[element]).itemsize]
    return [int(v) for v in np.asarray(x).view(unsigned)]


def _bitcast_oracle(x, a, r):
    """numpy's bitcast_convert from `a` to `r` (flat patterns, then the result's values)."""
    ea, er = _element(a), _element(r)
    wa, wr = _field_bits(ea), _field_bits(er)
    flat = _bits(np.asarray(x).reshape(-1), ea)
    if wa > wr:                                   # split, lowest field first
        out = [(v >> (wr * k)) & ((1 << wr) - 1) for v in flat for k in range(wa // wr)]
    elif wa < wr:                                 # join
        k = wr // wa
        out = [sum(f << (wa * j) for j, f in enumerate(flat[i:i + k]))
               for i in range(0, len(flat), k)]
    else:
        out = flat
    if er in TYPES:
        bits, signed = TYPES[er]
        return _wrap(np.array(out, np.int64), bits, signed)
    unsigned = {1: np.uint8, 2: np.uint16, 8: np.uint64}[np.dtype(_NUMPY[er]).itemsize]
    return np.array(out, dtype=unsigned).view(_NUMPY[er])


def _bitcast_operand(name, a):
    rng = np.random.default_rng(len(name))
    shape = [int(d) for d in a[len("tensor<"):a.rfind("x")].split("x")]
    element = _element(a)
    if element in TYPES:
        bits, signed = TYPES[element]
        low = -(1 << (bits - 1)) if signed else 0
        return rng.integers(low, low + (1 << bits), shape).astype(DTYPES[element])
    size = np.dtype(_NUMPY[element]).itemsize
    patterns = rng.integers(0, 1 << 62, shape, dtype=np.uint64) * 3 + 1
    return patterns.astype({1: np.uint8, 2: np.uint16, 8: np.uint64}[size]).view(_NUMPY[element])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_bitcasts_with_a_sub_byte_side_against_numpy(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(BITCAST_TEXT, context=ctx), target=target)
    for name, a, r in BITCASTS:
        x = _bitcast_operand(name, a)
        got = np.asarray(exe.function(name)(x))
        want = _bitcast_oracle(x, a, r)
        if _element(r) in TYPES:
            np.testing.assert_array_equal(got.astype(np.int64).reshape(-1), want, err_msg=name)
        else:
            np.testing.assert_array_equal(got.reshape(-1).view(np.uint8), want.view(np.uint8),
                                          err_msg=name)
