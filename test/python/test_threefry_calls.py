"""cu_threefry2x32_ffi / hip_threefry2x32_ffi (shlo.passes.custom_calls.threefry_calls): jax's Threefry
hash as lowered for CUDA and ROCm, against jax's own CPU lowering of the same primitive and
jax's stored GPU modules."""
import jax
import numpy as np
import pytest

import shlo
from jax._src.random.threefry2x32 import threefry2x32_p

CALL = """func.func @main(%k1: tensor<3x5xui32>, %k2: tensor<3x5xui32>, %x1: tensor<3x5xui32>,
                 %x2: tensor<3x5xui32>) -> (tensor<3x5xui32>, tensor<3x5xui32>) {
  %0:2 = stablehlo.custom_call @PREFIX_threefry2x32_ffi(%k1, %k2, %x1, %x2) {mhlo.backend_config = {}}
      : (tensor<3x5xui32>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<3x5xui32>)
      -> (tensor<3x5xui32>, tensor<3x5xui32>)
  return %0#0, %0#1 : tensor<3x5xui32>, tensor<3x5xui32>
}"""


@pytest.mark.parametrize("prefix", ["cu", "hip"])
def test_threefry_matches_jax(ctx, prefix):
    rng = np.random.default_rng(7)
    args = [rng.integers(0, 2**32, (3, 5), dtype=np.uint32) for _ in range(4)]
    args[0][0, 0] = args[1][0, 0] = args[2][0, 0] = args[3][0, 0] = 0         # all zeros
    args[2][0, 1] = args[3][0, 1] = 2**32 - 1                                 # wrap-around
    got = shlo.compile(shlo.parse_module(CALL.replace("PREFIX", prefix), context=ctx),
                       target="cpu")(*args)
    with jax.default_device(jax.devices("cpu")[0]):
        want = threefry2x32_p.bind(*args)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


@pytest.mark.parametrize("name", ["cuda_threefry2x32", "rocm_threefry2x32"])
@pytest.mark.every_case
def test_jax_stored_threefry_modules(ctx, name):
    """jax.random.uniform exported for CUDA and ROCm with the Threefry kernel: the stored
    outputs, bit for bit."""
    data = pytest.importorskip("jax._src.internal_test_util.export_back_compat_test_data."
                               + name)
    (stored,) = [getattr(data, k) for k in dir(data) if k.startswith("data_")]
    got = shlo.compile(shlo.parse_module(stored["mlir_module_text"], context=ctx),
                       target="cpu")(*[np.asarray(x) for x in stored["inputs"]])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(stored["expected_outputs"][0]))
