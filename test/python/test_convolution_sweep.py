"""Random convolutions against the reference interpreter, on CPU and Vulkan: 1-D and 2-D,
NCHW and NHWC, strides, padding from -1 to 2, lhs and rhs dilation, window reversal, feature
and batch groups. Inputs are small integers, so every sum is exact in any order. This sweep
found IREE ignoring window reversal on grouped convolutions and failing to compile a stride
over a single output position (shlo-legalize-convolution), and Vulkan's grouped-convolution
zeros (shlo-legalize-vulkan-ops)."""
import numpy as np
import pytest

from conftest import cases_on, vulkan_or_skip
from conv_programs import random_window, sample
from reference_oracle import check_all


def _random_convolution(rng, index: int):
    """(function text, args), or None when the window does not fit the padded input."""
    nd = int(rng.integers(1, 3))
    fg = int(rng.choice([1, 1, 2, 3]))
    bg = 1 if fg > 1 else int(rng.choice([1, 1, 2]))
    cin, cout = fg * int(rng.integers(1, 3)), fg * bg * int(rng.integers(1, 3))
    n = bg * int(rng.integers(1, 3))
    size = [int(rng.integers(4, 8)) for _ in range(nd)]
    window = random_window(rng, size)
    channels_last = bool(rng.integers(0, 2))
    if window is None:
        return None
    kernel, window_text, out = window
    digits = ", ".join(str(i) for i in range(nd))
    if channels_last:
        numbers = f"[b, {digits}, f]x[{digits}, i, o]->[b, {digits}, f]"
        shapes = ([n, *size, cin], [*kernel, cin // fg, cout], [n // bg, *out, cout])
    else:
        numbers = f"[b, f, {digits}]x[o, i, {digits}]->[b, f, {digits}]"
        shapes = ([n, cin, *size], [cout, cin // fg, *kernel], [n // bg, cout, *out])
    lhs, rhs, result = (f"tensor<{'x'.join(map(str, s))}xf32>" for s in shapes)
    text = (f"func.func @conv{index}(%x: {lhs}, %w: {rhs}) -> {result} {{\n"
            f"  %r = stablehlo.convolution(%x, %w) dim_numbers = {numbers}, window = "
            f"{window_text} {{batch_group_count = {bg} : i64, feature_group_count = "
            f"{fg} : i64}} : ({lhs}, {rhs}) -> {result}\n  return %r : {result}\n}}")
    args = [rng.integers(-3, 4, shapes[0]).astype(np.float32),
            rng.integers(-3, 4, shapes[1]).astype(np.float32)]
    return text, args


CASES = sample(_random_convolution, 60, seed=11)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_random_convolutions_match_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check_all(ctx, cases_on(target, CASES), target)
