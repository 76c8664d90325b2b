"""RFFTs of inputs IREE folds to zeros (x - x): IREE's RFFT pairs its real input with a zero
imaginary part, the two folded into one tensor failed to compile on cpu and vulkan
(docs/iree_gaps.md#shlo-expand-fft-zero-rfft-input). 1-D (65536 and 131072 points), 2-D and
3-D RFFTs of 64K+ elements, next to the same RFFTs of the data, against numpy."""
import numpy as np
import pytest

import shlo


def _rfft(name: str, shape: list[int], axes: int) -> str:
    """@name(a): (rfft(convert(a - a)), rfft(convert(a))) over the last `axes` axes."""
    dims = "x".join(map(str, shape))
    out = "x".join(map(str, shape[:-1] + [shape[-1] // 2 + 1]))
    i, f, c = f"tensor<{dims}xi32>", f"tensor<{dims}xf32>", f"tensor<{out}xcomplex<f32>>"
    lengths = shape[-axes:]
    return f"""
func.func @{name}(%a: {i}) -> ({c}, {c}) {{
  %d = stablehlo.subtract %a, %a : {i}
  %z = stablehlo.convert %d : ({i}) -> {f}
  %v = stablehlo.convert %a : ({i}) -> {f}
  %0 = stablehlo.fft %z, type = RFFT, length = {lengths} : ({f}) -> {c}
  %1 = stablehlo.fft %v, type = RFFT, length = {lengths} : ({f}) -> {c}
  return %0, %1 : {c}, {c}
}}"""


CASES = {"rfft2": ([256, 256], 2), "rfft1": ([2, 65536], 1), "rfft1_long": ([131072], 1),
         "rfft3": ([4, 128, 128], 3)}


def _check(target: str, names: list[str]) -> None:
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = "".join(_rfft(name, *CASES[name]) for name in names)
    exe = shlo.compile(text, target=target, cache=False)
    rng = np.random.default_rng(0)
    for name in names:
        shape, axes = CASES[name]
        a = rng.integers(-100, 100, shape, dtype=np.int32)
        zeros, spectrum = (np.asarray(r) for r in exe.function(name)(a))
        want = np.fft.rfftn(a.astype(np.float64), axes=range(len(shape) - axes, len(shape)))
        assert zeros.shape == spectrum.shape == want.shape, name
        assert not zeros.any(), name
        err = np.abs(spectrum - want).max() / np.abs(want).max()
        assert err <= 1e-5, (name, err)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rfft2_of_folded_zeros(target):
    """A 256x256 RFFT of zeros IREE folds (failed to compile on both targets before)."""
    _check(target, ["rfft2"])


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rfft_of_folded_zeros_every_rank(target):
    """1-D (65536 and 131072 points), 2-D and 3-D RFFTs of folded zeros."""
    _check(target, list(CASES))
