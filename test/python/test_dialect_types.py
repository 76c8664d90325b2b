"""shlo.dialect.types: dtype <-> element type, tensor types, dense constants for every dtype."""
import ml_dtypes
import numpy as np
import pytest
from iree.compiler import ir
from iree.compiler.dialects import func

import shlo
from shlo.dialect import ArgumentError, stablehlo, types
from shlo.dialect.types import dense_attr, element_dtype, element_type, tensor_type

CTX = shlo.context()


@pytest.fixture(autouse=True)
def _in_context():
    with CTX, ir.Location.unknown():
        yield


def _sample(dtype: np.dtype) -> np.ndarray:
    """A 2x3 array of values exactly representable in `dtype`, with a negative where possible."""
    if dtype == np.bool_:
        return np.array([[True, False, True], [False, False, True]])
    if dtype == np.dtype(ml_dtypes.float8_e8m0fnu):   # powers of two only
        return np.array([[1, 2, 4], [0.5, 8, 16]]).astype(dtype)
    if types._family(dtype) == "i" and not str(dtype).startswith("int"):
        return np.array([[0, 1, 2], [3, 1, 0]]).astype(dtype)     # unsigned
    if types._family(dtype) == "c":
        return np.array([[1 + 2j, -0.5j, 0], [3, -1, 0.25 + 0.25j]]).astype(dtype)
    return np.array([[-1, 0, 1], [1, -1, 0]]).astype(dtype)


@pytest.mark.parametrize("dtype", types.SUPPORTED_DTYPES, ids=str)
@pytest.mark.every_case
def test_dtype_round_trips_through_text(dtype):
    arr = _sample(dtype)
    attr = dense_attr(arr)
    assert element_dtype(attr.type) == dtype
    assert element_dtype(element_type(dtype)) == dtype
    assert list(ir.RankedTensorType(attr.type).shape) == [2, 3]
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        func.FuncOp.from_py_func()(lambda: stablehlo.constant(arr))
    assert module.operation.verify()
    text = shlo.print_module(module)
    assert shlo.print_module(shlo.parse_module(text, context=CTX)) == text
    assert str(attr).split(":")[0] in text       # the values survive printing


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float16, np.float32,
                                   np.float64, np.bool_], ids=str)
@pytest.mark.every_case
def test_values_read_back_exactly(dtype):
    arr = _sample(np.dtype(dtype))
    back = np.array(dense_attr(arr))
    np.testing.assert_array_equal(back.reshape(arr.shape).astype(dtype), arr)


def test_bool_is_bit_exact_for_odd_sizes():
    arr = np.array([True, False] * 8 + [True])
    attr = dense_attr(arr)
    assert str(attr).startswith("dense<[true, false, true,") and "tensor<17xi1>" in str(attr)


def test_splat_and_cast():
    assert str(dense_attr(3.0, tensor_type([2, 2], np.float32))) == \
        "dense<3.000000e+00> : tensor<2x2xf32>"
    assert str(dense_attr(True, tensor_type([3], np.bool_))) == "dense<true> : tensor<3xi1>"
    assert "tensor<2xbf16>" in str(dense_attr([0.1, 2], tensor_type([2], ml_dtypes.bfloat16)))
    assert str(dense_attr([1, 2], tensor_type([2], ml_dtypes.int4))) == \
        "dense<[1, 2]> : tensor<2xi4>"
    big_endian = np.arange(6, dtype=">i4").reshape(2, 3).T
    assert str(dense_attr(big_endian)) == "dense<[[0, 3], [1, 4], [2, 5]]> : tensor<3x2xi32>"


@pytest.mark.parametrize("values,dtype,shape,message", [
    ([1, 300], np.int8, [2], "values do not fit"),
    ([1.5], np.int32, [1], "values do not fit"),
    ([np.nan], np.int32, [1], "values do not fit"),
    ([2], np.bool_, [1], "values do not fit"),
    ([-1], np.uint8, [1], "values do not fit"),
    ([9], ml_dtypes.int4, [1], "values do not fit"),
    ([1 + 1j], np.float32, [1], "complex values"),
    ([1, 2, 3], np.float32, [2], "does not match"),
    ([1, 2], np.float32, [None], "static shape"),
])
@pytest.mark.every_case
def test_dense_attr_rejects(values, dtype, shape, message):
    with pytest.raises(ArgumentError, match=message):
        dense_attr(values, tensor_type(shape, dtype))


def test_tensor_type():
    assert str(tensor_type([2, None, -1], np.float32)) == "tensor<2x?x?xf32>"
    assert str(tensor_type([], "complex128")) == "tensor<complex<f64>>"
    assert str(tensor_type([4], ir.F16Type.get())) == "tensor<4xf16>"
    assert str(tensor_type((1,), np.uint32)) == "tensor<1xui32>"
    for bad in ([2.5], [-3], "ab"):
        with pytest.raises(ArgumentError):
            tensor_type(bad, np.float32)
    with pytest.raises(ArgumentError, match="no MLIR element type"):
        tensor_type([2], np.float128 if hasattr(np, "float128") else object)


def test_element_dtype():
    assert element_dtype(ir.Type.parse("si32")) == np.int32
    assert element_dtype(ir.Type.parse("tensor<2xui4>")) == np.dtype(ml_dtypes.uint4)
    assert element_dtype(ir.Type.parse("f8E4M3FN")) == np.dtype(ml_dtypes.float8_e4m3fn)
    with pytest.raises(ArgumentError, match="no numpy dtype"):
        element_dtype(ir.IndexType.get())


def test_element_classes():
    k = {s: types.kind(ir.Type.parse(s)) for s in
         ["i1", "i8", "ui8", "si8", "f32", "bf16", "f8E5M2", "complex<f32>", "complex<f16>",
          "index", "tf32", "i3"]}
    assert k == {"i1": types.BOOL, "i8": types.SINT, "ui8": types.UINT, "si8": types.OTHER,
                 "f32": types.FLOAT, "bf16": types.FLOAT, "f8E5M2": types.FLOAT,
                 "complex<f32>": types.COMPLEX, "complex<f16>": types.OTHER,
                 "index": types.OTHER, "tf32": types.OTHER, "i3": types.OTHER}
    assert types.describe(types.SINT_FP_C) == "signed integer, floating-point or complex"
    assert types.describe(types.BOOL_INT) == "bool or integer"


def test_constant_values_of_integers_only():
    """constant_values reads integer constants, and gives None for float and complex ones
    (reading a complex dense attribute raised in the bindings: a loop carrying a complex
    constant stopped shlo-barrier-loop-results)."""
    from shlo.dialect.types import constant_values
    from shlo.module_io import parse_module
    module = parse_module("""func.func @f() -> (tensor<2xi32>, tensor<2xf32>, tensor<2xcomplex<f32>>) {
  %i = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %f = stablehlo.constant dense<1.5> : tensor<2xf32>
  %c = stablehlo.constant dense<(0.0, 1.0)> : tensor<2xcomplex<f32>>
  return %i, %f, %c : tensor<2xi32>, tensor<2xf32>, tensor<2xcomplex<f32>>
}""")
    i, f, c = (op.results[0] for op in list(
        module.body.operations[0].regions[0].blocks[0].operations)[:3])
    assert constant_values(i).tolist() == [3, 4]
    assert constant_values(f) is None and constant_values(c) is None
