"""Random convolutions against the reference interpreter, on CPU and Vulkan: 1-D and 2-D,
NCHW and NHWC, strides, padding from -1 to 2, lhs and rhs dilation, window reversal, feature
and batch groups. Inputs are small integers, so every sum is exact in any order. This sweep
found IREE ignoring window reversal on grouped convolutions and failing to compile a stride
over a single output position (shlo-legalize-convolution), and Vulkan's grouped-convolution
zeros (shlo-legalize-vulkan-ops)."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import check_all


def _random_convolution(rng, index: int):
    """(function text, args), or None when the window does not fit the padded input."""
    nd = int(rng.integers(1, 3))
    fg = int(rng.choice([1, 1, 2, 3]))
    bg = 1 if fg > 1 else int(rng.choice([1, 1, 2]))
    cin, cout = fg * int(rng.integers(1, 3)), fg * bg * int(rng.integers(1, 3))
    n = bg * int(rng.integers(1, 3))
    size = [int(rng.integers(4, 8)) for _ in range(nd)]
    kernel = [int(rng.integers(1, 4)) for _ in range(nd)]
    stride = [int(rng.integers(1, 3)) for _ in range(nd)]
    pad = [[int(rng.integers(-1, 3)), int(rng.integers(-1, 3))] for _ in range(nd)]
    lhs_dilation = [int(rng.integers(1, 3)) for _ in range(nd)]
    rhs_dilation = [int(rng.integers(1, 3)) for _ in range(nd)]
    reverse = [bool(rng.integers(0, 2)) for _ in range(nd)]
    channels_last = bool(rng.integers(0, 2))
    out = []
    for i in range(nd):
        padded = (size[i] - 1) * lhs_dilation[i] + 1 + sum(pad[i])
        window = (kernel[i] - 1) * rhs_dilation[i] + 1
        if padded < window:
            return None
        out.append((padded - window) // stride[i] + 1)
    digits = ", ".join(str(i) for i in range(nd))
    if channels_last:
        numbers = f"[b, {digits}, f]x[{digits}, i, o]->[b, {digits}, f]"
        shapes = ([n, *size, cin], [*kernel, cin // fg, cout], [n // bg, *out, cout])
    else:
        numbers = f"[b, f, {digits}]x[o, i, {digits}]->[b, f, {digits}]"
        shapes = ([n, cin, *size], [cout, cin // fg, *kernel], [n // bg, cout, *out])
    lhs, rhs, result = (f"tensor<{'x'.join(map(str, s))}xf32>" for s in shapes)
    flags = ", ".join("true" if r else "false" for r in reverse)
    text = (f"func.func @conv{index}(%x: {lhs}, %w: {rhs}) -> {result} {{\n"
            f"  %r = stablehlo.convolution(%x, %w) dim_numbers = {numbers}, window = {{stride = "
            f"{stride}, pad = {pad}, lhs_dilate = {lhs_dilation}, rhs_dilate = {rhs_dilation}, "
            f"reverse = [{flags}]}} {{batch_group_count = {bg} : i64, feature_group_count = "
            f"{fg} : i64}} : ({lhs}, {rhs}) -> {result}\n  return %r : {result}\n}}")
    args = [rng.integers(-3, 4, shapes[0]).astype(np.float32),
            rng.integers(-3, 4, shapes[1]).astype(np.float32)]
    return text, args


def _cases(count: int = 60):
    rng = np.random.default_rng(11)
    cases = []
    while len(cases) < count:
        case = _random_convolution(rng, len(cases))
        if case is not None:
            cases.append(case)
    return cases


CASES = _cases()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_random_convolutions_match_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check_all(ctx, CASES, target)
