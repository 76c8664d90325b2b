"""vk-widened-transpose: f16 convolutions whose result (transposed by vk-few-output-convolution)
is widened to f32 and read by several ops, exact against numpy on cpu and vulkan, with fresh
random operands per run (a race shows as run-to-run differences)."""
import numpy as np
import pytest

from test_legalize_vulkan_ops import TARGETS, compile_for


def _t(shape, dtype="f16"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def _conv_program(lhs, rhs, out, dims, window):
    """An f16 convolution of clamp(select(is_finite(x), x, 0), -16, 16) operands, its result
    returned and read by reshape -> slice [0:3] -> outer product with lhs[0, 0, 0, 0]."""
    n = int(np.prod(out))
    body = []
    for name, shape in (("a", lhs), ("b", rhs)):
        body += [f"%{name}f = stablehlo.is_finite %{name} : ({_t(shape)}) -> {_t(shape, 'i1')}",
                 f"%{name}z = stablehlo.constant dense<0.0> : {_t(shape)}",
                 f"%{name}s = stablehlo.select %{name}f, %{name}, %{name}z : {_t(shape, 'i1')}, "
                 f"{_t(shape)}",
                 f"%{name}lo = stablehlo.constant dense<-16.0> : tensor<f16>",
                 f"%{name}hi = stablehlo.constant dense<16.0> : tensor<f16>",
                 f"%{name}c = stablehlo.clamp %{name}lo, %{name}s, %{name}hi : (tensor<f16>, "
                 f"{_t(shape)}, tensor<f16>) -> {_t(shape)}"]
    body += [
        f"%y = stablehlo.convolution(%ac, %bc) dim_numbers = {dims}, window = {{{window}}} "
        f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
        f"({_t(lhs)}, {_t(rhs)}) -> {_t(out)}",
        f"%r = stablehlo.reshape %y : ({_t(out)}) -> {_t([n])}",
        f"%s = stablehlo.slice %r [0:3] : ({_t([n])}) -> {_t([3])}",
        f"%s2 = stablehlo.reshape %s : ({_t([3])}) -> {_t([1, 3])}",
        f"%k = stablehlo.slice %a [0:1, 0:1, 0:1, 0:1] : ({_t(lhs)}) -> {_t([1, 1, 1, 1])}",
        f"%k2 = stablehlo.reshape %k : ({_t([1, 1, 1, 1])}) -> {_t([1, 1])}",
        f"%d = stablehlo.dot_general %k2, %s2, contracting_dims = [] x [] : "
        f"({_t([1, 1])}, {_t([1, 3])}) -> {_t([1, 1, 1, 3])}"]
    return (f"func.func @main(%a: {_t(lhs)}, %b: {_t(rhs)}) -> ({_t(out)}, {_t([1, 1, 1, 3])}) {{\n"
            + "\n".join("  " + line for line in body)
            + f"\n  return %y, %d : {_t(out)}, {_t([1, 1, 1, 3])}\n}}")


def _check(exe, lhs, rhs, want_conv, runs, seed=0):
    rng = np.random.default_rng(seed)
    for run in range(runs):
        a = rng.integers(-3, 4, lhs).astype(np.float16)
        b = rng.integers(-3, 4, rhs).astype(np.float16)
        want = want_conv(a.astype(np.float64), b.astype(np.float64))
        y, d = exe(a, b)
        np.testing.assert_array_equal(np.asarray(y, np.float64), want, err_msg=f"run {run}")
        outer = float(a.flat[0]) * want.reshape(-1)[:3]
        np.testing.assert_array_equal(np.asarray(d, np.float64).reshape(-1), outer,
                                      err_msg=f"run {run}")


@pytest.mark.parametrize("target", TARGETS)
def test_few_output_f16_convolution_read_by_slices(ctx, target):
    """The fuzz case's layout (seed 64 program 1107), 6x1x3x6 by 3x1x3x4, stride [1, 2],
    padding [[0, 0], [0, 2]]: without the fence 16 of 20 runs had 3 of 18 wrong on vulkan."""
    lhs, rhs = [6, 1, 3, 6], [3, 1, 3, 4]

    def want(a, b):         # [0, 1, f, b] x [1, o, i, 0] -> [b, 0, f, 1]
        ap = np.pad(a, ((0, 0), (0, 2), (0, 0), (0, 0)))
        return np.stack([np.einsum("kqib,qoik->bo", ap[p:p + 4, 0:3], b)
                         for p in range(3)], axis=1)[..., None]
    exe = compile_for(ctx, _conv_program(lhs, rhs, [6, 3, 1, 1],
                                         "[0, 1, f, b]x[1, o, i, 0]->[b, 0, f, 1]",
                                         "stride = [1, 2], pad = [[0, 0], [0, 2]]"), target)
    _check(exe, lhs, rhs, want, 6)


@pytest.mark.parametrize("target", TARGETS)
def test_few_output_f16_convolution_real_size(ctx, target):
    """A CNN's last 3x3 layer, f16 NHWC 64x4x4x64 by 3x3x64x64, stride 2, padding 1 (2x2
    output positions: vk-few-output-convolution's products), its result also sliced."""
    lhs, rhs = [64, 4, 4, 64], [3, 3, 64, 64]

    def want(a, b):
        ap = np.pad(a, ((0, 0), (1, 1), (1, 1), (0, 0)))
        out = np.zeros((64, 2, 2, 64))
        for i in range(3):
            for j in range(3):
                out += np.einsum("bhwi,io->bhwo", ap[:, i:i + 4:2, j:j + 4:2], b[i, j])
        return out
    exe = compile_for(ctx, _conv_program(lhs, rhs, [64, 2, 2, 64],
                                         "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]",
                                         "stride = [2, 2], pad = [[1, 1], [1, 1]]"), target)
    _check(exe, lhs, rhs, want, 3)
