"""Convolutions and complex constants that IREE 3.13 got wrong on Vulkan (lavapipe), at real
sizes against numpy, on cpu and vulkan: vk-few-output-convolution, vk-unsigned-grouped-conv
and vk-complex-constant (docs/iree_gaps.md)."""
import numpy as np
import pytest

import shlo

# one output position: 256 features by a 16x16 window dilated (2, 1) over a padded input
# (65536 products); seed 52 program 96's shape (8 features) beside it
DILATED = """
func.func @main(%x: tensor<1x256x28x16xf32>, %w: tensor<1x256x16x16xf32>,
                %y: tensor<1x8x2x2xf32>, %v: tensor<1x8x3x2xf32>)
    -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [2, 1], pad = [[1, 2], [0, 0]], rhs_dilate = [2, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x256x28x16xf32>, tensor<1x256x16x16xf32>) -> tensor<1x1x1x1xf32>
  %s = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [2, 1], pad = [[1, 2], [0, 0]], rhs_dilate = [2, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x8x2x2xf32>, tensor<1x8x3x2xf32>) -> tensor<1x1x1x1xf32>
  return %r, %s : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>
}"""


def _convolution(x, w, stride, padding, dilation, groups=1):
    """NCHW by OIHW with feature groups: the spec's convolution in numpy (float64)."""
    if groups > 1:
        return np.concatenate([_convolution(xg, wg, stride, padding, dilation) for xg, wg in
                               zip(np.split(x, groups, 1), np.split(w, groups, 0))], 1)
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), *padding])
    kh, kw = w.shape[2:]
    eh, ew = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    oh, ow = (x.shape[2] - eh) // stride[0] + 1, (x.shape[3] - ew) // stride[1] + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = x[:, :, i * stride[0]:i * stride[0] + eh:dilation[0],
                       j * stride[1]:j * stride[1] + ew:dilation[1]]
            out[:, :, i, j] = np.einsum("bchw,ochw->bo", window, w)
    return out


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dilated_padded_few_output_convolutions(target):
    """vk-few-output-convolution: without it Vulkan returned 0 for the one of 8 features
    (seed 52 program 96's shape; the one of 256 features was right)."""
    _target(target)
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 4, (1, 256, 28, 16)).astype(np.float32)
    w = rng.integers(-3, 4, (1, 256, 16, 16)).astype(np.float32)
    y = rng.integers(-3, 4, (1, 8, 2, 2)).astype(np.float32)
    v = rng.integers(-3, 4, (1, 8, 3, 2)).astype(np.float32)
    r, s = (np.asarray(a) for a in shlo.compile(DILATED, target=target)(x, w, y, v))
    np.testing.assert_array_equal(r, _convolution(x, w, (2, 1), [(1, 2), (0, 0)], (2, 1)))
    np.testing.assert_array_equal(s, _convolution(y, v, (2, 1), [(1, 2), (0, 0)], (2, 1)))


DEPTHWISE = """
func.func @main(%x: tensor<4x64x1024xui8>, %w: tensor<128x1x5xui8>, %y: tensor<4x64x1024xui16>,
                %v: tensor<128x1x5xui16>) -> (tensor<4x128x1020xui8>, tensor<4x128x1020xui16>) {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
    window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 64 : i64}
    : (tensor<4x64x1024xui8>, tensor<128x1x5xui8>) -> tensor<4x128x1020xui8>
  %s = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
    window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 64 : i64}
    : (tensor<4x64x1024xui16>, tensor<128x1x5xui16>) -> tensor<4x128x1020xui16>
  return %r, %s : tensor<4x128x1020xui8>, tensor<4x128x1020xui16>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_unsigned_depthwise_convolutions(target):
    """vk-unsigned-grouped-conv: ui8 and ui16 depthwise convolutions (262144 inputs each,
    products wrapping) against numpy; without the entry Vulkan gave zeros for a third of a
    2x2x6 one's results."""
    _target(target)
    rng = np.random.default_rng(1)
    got = shlo.compile(DEPTHWISE, target=target)
    args = []
    for dtype in (np.uint8, np.uint16):
        info = np.iinfo(dtype)
        args += [rng.integers(0, info.max + 1, (4, 64, 1024)).astype(dtype),
                 rng.integers(0, info.max + 1, (128, 1, 5)).astype(dtype)]
    results = [np.asarray(a) for a in got(*args)]
    for (x, w), result in zip((args[:2], args[2:]), results):
        xs = np.repeat(x.astype(np.uint64), 2, axis=1)          # each feature's 2 outputs
        want = sum(xs[:, :, k:k + 1020] * w[None, :, 0, k, None].astype(np.uint64)
                   for k in range(5))
        np.testing.assert_array_equal(result, want.astype(x.dtype))


def _complex_literal(c: np.ndarray) -> str:
    return ", ".join(f"({float(a.real)!r}, {float(a.imag)!r})" for a in c)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_products_and_sums_with_complex_constants(target):
    """vk-complex-constant: x * c and x + c with c a non-splat complex<f32> constant of 8 and
    of 4096 elements, against numpy; Vulkan failed to compile those by the 8-element one
    without the entry (a constant of 64 or more elements was no dispatch's literal)."""
    _target(target)
    rng = np.random.default_rng(2)
    c, d = ((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
            for n in (4096, 8))
    text = f"""func.func @main(%x: tensor<4096xcomplex<f32>>, %y: tensor<8xcomplex<f32>>)
        -> (tensor<4096xcomplex<f32>>, tensor<4096xcomplex<f32>>, tensor<8xcomplex<f32>>,
            tensor<8xcomplex<f32>>) {{
      %c = stablehlo.constant dense<[{_complex_literal(c)}]> : tensor<4096xcomplex<f32>>
      %d = stablehlo.constant dense<[{_complex_literal(d)}]> : tensor<8xcomplex<f32>>
      %p = stablehlo.multiply %x, %c : tensor<4096xcomplex<f32>>
      %s = stablehlo.add %x, %c : tensor<4096xcomplex<f32>>
      %q = stablehlo.multiply %y, %d : tensor<8xcomplex<f32>>
      %t = stablehlo.add %y, %d : tensor<8xcomplex<f32>>
      return %p, %s, %q, %t : tensor<4096xcomplex<f32>>, tensor<4096xcomplex<f32>>,
                              tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>
    }}"""
    x, y = ((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
            for n in (4096, 8))
    p, s, q, t = (np.asarray(a) for a in shlo.compile(text, target=target)(x, y))
    np.testing.assert_allclose(p, x * c, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(s, x + c)
    np.testing.assert_allclose(q, y * d, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(t, y + d)


PADDED_PADS = """
func.func @main(%x: tensor<254x256xf32>, %k: tensor<256x64xf32>, %z: tensor<4093xcomplex<f32>>)
    -> (tensor<256x64xf32>, tensor<4096xcomplex<f32>>) {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.negate %x : tensor<254x256xf32>
  %p = stablehlo.pad %n, %one, low = [1, 0], high = [0, 0], interior = [0, 0]
    : (tensor<254x256xf32>, tensor<f32>) -> tensor<255x256xf32>
  %q = stablehlo.pad %p, %zero, low = [0, 0], high = [1, 0], interior = [0, 0]
    : (tensor<255x256xf32>, tensor<f32>) -> tensor<256x256xf32>
  %r = stablehlo.dot_general %q, %k, contracting_dims = [1] x [0]
    : (tensor<256x256xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
  %c = stablehlo.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  %c0 = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %s = stablehlo.pad %z, %c, low = [2], high = [0], interior = [0]
    : (tensor<4093xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4095xcomplex<f32>>
  %t = stablehlo.pad %s, %c0, low = [0], high = [1], interior = [0]
    : (tensor<4095xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4096xcomplex<f32>>
  return %r, %t : tensor<256x64xf32>, tensor<4096xcomplex<f32>>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_pads_of_pads_by_other_values(target):
    """shlo-merge-edge-pads: a pad by 0 of a pad by 1 of -x (read by a product) and of a
    complex argument, against numpy; both failed to compile on cpu and vulkan ('write
    affecting operations on global resources are restricted to workgroup distributed
    contexts'; seed 53 program 35)."""
    _target(target)
    rng = np.random.default_rng(3)
    x = rng.integers(-4, 5, (254, 256)).astype(np.float32)
    k = rng.integers(-4, 5, (256, 64)).astype(np.float32)
    z = (rng.standard_normal(4093) + 1j * rng.standard_normal(4093)).astype(np.complex64)
    r, t = (np.asarray(a) for a in shlo.compile(PADDED_PADS, target=target)(x, k, z))
    q = np.pad(np.pad(-x, [(1, 0), (0, 0)], constant_values=1), [(0, 1), (0, 0)])
    np.testing.assert_array_equal(r, q @ k)
    np.testing.assert_array_equal(t, np.concatenate([[1 - 2j, 1 - 2j], z, [0]]))


def _random_case(rng, i: int):
    """(function text, lhs, rhs, oracle result): a 2-D NCHW convolution with rhs dilation,
    padding and 1-4 output positions (no groups), or a grouped one of 8/16-bit unsigned
    integers, of small integers (exact sums; unsigned ones wrap)."""
    grouped = i % 3 == 2
    groups = int(rng.integers(2, 4)) if grouped else 1
    dtype = str(rng.choice(["uint8", "uint16"] if grouped else ["float32", "int32", "uint8"]))
    k = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    dilation = [1, 1] if grouped else [int(rng.integers(2, 4)), int(rng.integers(1, 3))]
    stride = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
    padding = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(2)]
    extent = [(k[d] - 1) * dilation[d] + 1 for d in range(2)]
    outputs = [int(rng.integers(1, 3)) for _ in range(2)] if not grouped else \
        [int(rng.integers(2, 9)) for _ in range(2)]
    size = [max(1, extent[d] + (outputs[d] - 1) * stride[d] - sum(padding[d]))
            for d in range(2)]
    b, cin, cout = int(rng.integers(1, 3)), groups * int(rng.integers(1, 5)), \
        groups * int(rng.integers(1, 3))
    x = rng.integers(0, 4, (b, cin, *size)).astype(dtype)
    w = rng.integers(0, 4, (cout, cin // groups, *k)).astype(dtype)
    want = _convolution(x, w, stride, padding, dilation, groups)
    if want.size == 0:
        return None
    want = want.astype(np.uint64).astype(dtype) if dtype.startswith("uint") else \
        want.astype(dtype)
    element = {"float32": "f32", "int32": "i32", "uint8": "ui8", "uint16": "ui16"}[dtype]
    t = [f"tensor<{'x'.join(map(str, a.shape))}x{element}>" for a in (x, w, want)]
    text = (f"func.func @c{i}(%x: {t[0]}, %w: {t[1]}) -> {t[2]} {{\n"
            f"  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            f"[b, f, 0, 1], window = {{stride = {stride}, pad = {[list(p) for p in padding]}, "
            f"rhs_dilate = {dilation}}} {{batch_group_count = 1 : i64, feature_group_count = "
            f"{groups} : i64}} : ({t[0]}, {t[1]}) -> {t[2]}\n  return %r : {t[2]}\n}}\n")
    return text, x, w, want


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_random_convolution_sweep(target):
    """48 random convolutions of the kinds vk-few-output-convolution and
    vk-unsigned-grouped-conv rewrite, one module, against numpy."""
    _target(target)
    rng = np.random.default_rng(4)
    cases = [c for c in (_random_case(rng, i) for i in range(48)) if c is not None]
    exe = shlo.compile("".join(c[0] for c in cases), target=target)
    wrong = []
    for i, (text, x, w, want) in enumerate(cases):
        name = text.split("(")[0].split("@")[1]
        got = np.asarray(exe.function(name)(x, w))
        if not np.array_equal(got, want):
            wrong.append(f"{text.splitlines()[1].strip()}: {int((got != want).sum())} of "
                         f"{want.size} wrong")
    assert not wrong, "\n".join(wrong)
