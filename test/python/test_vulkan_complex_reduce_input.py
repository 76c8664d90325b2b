"""vk-complex-reduce-input: sums of the real or imaginary part (or the magnitude) of a complex
argument failed to compile on vulkan at 8 to 256 elements, also without shlo's passes
('failed to legalize operation linalg.generic' on the complex buffer); against numpy on cpu
and vulkan, up to 65536 elements."""
import numpy as np
import pytest

CASES = [  # (name, shape, part, dimensions)
    ("real_8", (8,), "real", (0,)),
    ("imag_256", (256,), "imag", (0,)),
    ("abs_8x8", (8, 8), "abs", (1,)),
    ("real_256x256", (256, 256), "real", (0,)),
]


def _function(name, shape, part, dims):
    out = [n for d, n in enumerate(shape) if d not in dims]
    t = "x".join(map(str, shape))
    r = "tensor<" + "".join(f"{n}x" for n in out) + "f32>"
    return f"""
func.func @{name}(%x: tensor<{t}xcomplex<f32>>) -> {r} {{
  %p = stablehlo.{part} %x : (tensor<{t}xcomplex<f32>>) -> tensor<{t}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = {list(dims)}
      : (tensor<{t}xf32>, tensor<f32>) -> {r}
  return %r : {r}
}}"""


PROGRAM = "".join(_function(*case) for case in CASES)
PARTS = {"real": np.real, "imag": np.imag, "abs": np.abs}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sums_of_complex_parts(target):
    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    exe = shlo.compile(PROGRAM, target=target, cache=False)
    for name, shape, part, dims in CASES:
        # integer parts: sums of real and imaginary parts exact in f32
        re = rng.integers(-100, 100, shape).astype(np.float32)
        im = rng.integers(-100, 100, shape).astype(np.float32)
        if part == "abs":
            re, im = 3 * re, 4 * re
        x = (re + 1j * im).astype(np.complex64)
        want = PARTS[part](x).astype(np.float32).sum(axis=dims)
        got = np.asarray(exe.function(name)(x))
        np.testing.assert_allclose(got, want, rtol=1e-6 if part == "abs" else 0, err_msg=name)
