"""shlo-convert-narrow-iota: iotas of f16, bf16 and 8-bit floats at sizes past their integer
width (IREE 3.13 counted them in a 16- or 8-bit integer: an f16 iota of 65536 was -32768 from
index 32768 on), against numpy's arange converted to the type."""
import ml_dtypes
import numpy as np
import pytest

import shlo

CASES = {   # name: (element, numpy type, shape, iota dimension)
    "f16": ("f16", np.float16, (65536,), 0),
    "f16_rows": ("f16", np.float16, (3, 70000), 1),
    "bf16": ("bf16", ml_dtypes.bfloat16, (40000,), 0),
    "f8e4m3": ("f8E4M3FN", ml_dtypes.float8_e4m3fn, (2, 300), 1),
    "f8e5m2": ("f8E5M2", ml_dtypes.float8_e5m2, (300, 2), 0),
}


def _module() -> str:
    """One function per case: the iota added to an f32 argument (so it runs on the target)."""
    funcs = []
    for name, (element, _, shape, dim) in CASES.items():
        t = "x".join(map(str, shape))
        funcs.append(f"""func.func @{name}(%x: tensor<{t}xf32>) -> tensor<{t}xf32> {{
  %i = stablehlo.iota dim = {dim} : tensor<{t}x{element}>
  %f = stablehlo.convert %i : (tensor<{t}x{element}>) -> tensor<{t}xf32>
  %r = stablehlo.add %x, %f : tensor<{t}xf32>
  return %r : tensor<{t}xf32>
}}""")
    return "\n".join(funcs)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_narrow_float_iotas(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(_module(), target=target)
    for name, (_, numpy_type, shape, dim) in CASES.items():
        index = np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(len(shape))])
        with np.errstate(over="ignore"):
            want = np.broadcast_to(index, shape).astype(numpy_type).astype(np.float32)
        got = np.asarray(exe.function(name)(np.zeros(shape, np.float32)))
        np.testing.assert_array_equal(got, want, err_msg=name)
