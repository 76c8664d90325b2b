"""vk-gapped-reduce: reductions over dimensions that a kept one separates (f16[16, 2, 3] over
[0, 2]) failed to compile on vulkan, also without shlo's passes ('vector.transfer_read op
with rank > 1'); two stages, against numpy on cpu and vulkan, up to 98304 elements."""
import numpy as np
import pytest

CASES = [  # (name, shape, element, dimensions, op, init)
    ("min_f16", (16, 2048, 3), "f16", (0, 2), "minimum", "0x7C00"),
    ("max_f32", (16, 64, 3), "f32", (0, 2), "maximum", "0xFF800000"),
    ("sum_i32", (16, 2, 3, 2), "i32", (0, 2), "add", "0"),
    ("sum_f32", (16, 4, 1024, 5), "f32", (0, 1, 3), "add", "0.0"),
]


def _function(name, shape, element, dims, op, init):
    out = [n for d, n in enumerate(shape) if d not in dims]
    t = "x".join(map(str, shape)) + "x" + element
    r = "x".join(map(str, out)) + "x" + element
    return f"""
func.func @{name}(%x: tensor<{t}>) -> tensor<{r}> {{
  %c = stablehlo.constant dense<{init}> : tensor<{element}>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.{op} across dimensions = {list(dims)}
      : (tensor<{t}>, tensor<{element}>) -> tensor<{r}>
  return %r : tensor<{r}>
}}"""


PROGRAM = "".join(_function(*case) for case in CASES)
NUMPY = {"min_f16": (np.float16, np.min), "max_f32": (np.float32, np.max),
         "sum_i32": (np.int32, np.sum), "sum_f32": (np.float32, np.sum)}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_gapped_reductions(target):
    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    exe = shlo.compile(PROGRAM, target=target, cache=False)
    for name, shape, _, dims, _, _ in CASES:
        dtype, reduce = NUMPY[name]
        x = rng.integers(-1000, 1000, shape).astype(dtype)   # sums exact in any order
        got = np.asarray(exe.function(name)(x))
        np.testing.assert_array_equal(got, reduce(x, axis=dims).astype(dtype), err_msg=name)
