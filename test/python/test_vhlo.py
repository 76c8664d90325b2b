"""VHLO portable artifacts (StableHLO's serialized form) become StableHLO at parse time, so
shlo's passes run on them. Artifacts are written by StableHLO's own serializer (jaxlib's) at
old and current versions; the oracle is the same program compiled from its text."""
import numpy as np
import pytest

import shlo
from shlo.vhlo import VhloError, to_stablehlo_text

jax = pytest.importorskip("jax")
from jaxlib.mlir._mlir_libs import _stablehlo  # noqa: E402  (StableHLO's serializer)

# Ops whose VHLO forms differ from StableHLO's: gather/scatter/dot/convolution dimension
# numbers, a LAPACK custom call (output_operand_aliases, api_version, backend_config), a call
# of a private function, an empty-input function, regions (reduce_window, while, sort), fft.
PROGRAM = """
func.func @main(%x: tensor<6x5xf32>, %i: tensor<3x1xi32>) -> (tensor<3x5xf32>, tensor<6x5xf32>,
    tensor<6x6xf32>, tensor<1x6x5x2xf32>, tensor<6x6xf32>, tensor<5x5xf32>, tensor<6x5xf32>,
    tensor<6x5xcomplex<f32>>, tensor<6x5xf32>) {
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5>}> : (tensor<6x5xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  %one = stablehlo.constant dense<1.0> : tensor<3x5xf32>
  %s = "stablehlo.scatter"(%x, %i, %one) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<6x5xf32>, tensor<3x1xi32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1], precision = [DEFAULT, HIGHEST] : (tensor<6x5xf32>, tensor<6x5xf32>) -> tensor<6x6xf32>
  %in = stablehlo.reshape %x : (tensor<6x5xf32>) -> tensor<1x6x5x1xf32>
  %k = stablehlo.constant dense<0.5> : tensor<3x3x1x2xf32>
  %c = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x5x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x6x5x2xf32>
  %spd = stablehlo.add %d, %d : tensor<6x6xf32>
  %eye = stablehlo.constant dense<50.0> : tensor<6xf32>
  %diag = stablehlo.broadcast_in_dim %eye, dims = [0] : (tensor<6xf32>) -> tensor<6x6xf32>
  %io = stablehlo.iota dim = 0 : tensor<6x6xi32>
  %jo = stablehlo.iota dim = 1 : tensor<6x6xi32>
  %on = stablehlo.compare EQ, %io, %jo : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
  %z = stablehlo.constant dense<0.0> : tensor<6x6xf32>
  %dd = stablehlo.select %on, %diag, %z : tensor<6x6xi1>, tensor<6x6xf32>
  %m = stablehlo.add %spd, %dd : tensor<6x6xf32>
  %l:2 = stablehlo.custom_call @lapack_spotrf_ffi(%m) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<i32>)
  %w = call @windows(%x) : (tensor<6x5xf32>) -> tensor<5x5xf32>
  %sorted = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %cx = stablehlo.convert %x : (tensor<6x5xf32>) -> tensor<6x5xcomplex<f32>>
  %f = stablehlo.fft %cx, type = FFT, length = [5] : (tensor<6x5xcomplex<f32>>) -> tensor<6x5xcomplex<f32>>
  %n = call @three() : () -> tensor<i32>
  %loop:2 = stablehlo.while(%it = %n, %acc = %x) : tensor<i32>, tensor<6x5xf32>
  cond {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare GT, %it, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.subtract %it, %step : tensor<i32>
    %twice = stablehlo.add %acc, %acc : tensor<6x5xf32>
    stablehlo.return %next, %twice : tensor<i32>, tensor<6x5xf32>
  }
  return %g, %s, %d, %c, %l#0, %w, %sorted, %f, %loop#1 : tensor<3x5xf32>, tensor<6x5xf32>,
      tensor<6x6xf32>, tensor<1x6x5x2xf32>, tensor<6x6xf32>, tensor<5x5xf32>, tensor<6x5xf32>,
      tensor<6x5xcomplex<f32>>, tensor<6x5xf32>
}
func.func private @windows(%x: tensor<6x5xf32>) -> tensor<5x5xf32> {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<6x5xf32>, tensor<f32>) -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}
func.func private @three() -> tensor<i32> {
  %0 = stablehlo.constant dense<3> : tensor<i32>
  return %0 : tensor<i32>
}
"""


@pytest.fixture(scope="module")
def expected():
    x = np.random.default_rng(0).standard_normal((6, 5)).astype(np.float32)
    i = np.array([[0], [2], [5]], np.int32)
    return (x, i), [np.asarray(r) for r in shlo.compile(PROGRAM, target="cpu")(x, i)]


@pytest.mark.parametrize("version", ["0.9.0", "1.0.0", _stablehlo.get_current_version()])
@pytest.mark.every_case
def test_an_artifact_becomes_stablehlo_and_computes_what_its_text_does(expected, version):
    artifact = _stablehlo.serialize_portable_artifact_str(PROGRAM, version)
    assert artifact.startswith(b"ML\xefR")
    module = shlo.parse_module(artifact)
    names = {op.operation.name for op in module.body.operations}
    assert names == {"func.func"}, names                      # no vhlo.func_v1 left
    args, want = expected
    got = shlo.compile(module, target="cpu")(*args)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)


def test_vhlo_spellings_that_differ_from_stablehlos():
    text = to_stablehlo_text(
        '"vhlo.func_v1"() <{function_type = #vhlo.type_v1<!vhlo.func_v1<(()) -> '
        '!vhlo.tensor_v1<2x!vhlo.f32_v1>, !vhlo.tensor_v1<!vhlo.bool_v1>>>, '
        'sym_name = #vhlo.string_v1<"main">, arg_attrs = #vhlo.array_v1<[]>}> ({\n'
        '  %0 = "vhlo.custom_call_v1"() <{api_version = #vhlo<api_version_v1 '
        'API_VERSION_STATUS_RETURNING>, called_computations = #vhlo.array_v1<[#vhlo.string_v1'
        '<"f">]>, output_operand_aliases = #vhlo.array_v1<[#vhlo.output_operand_alias_v1<'
        'outputTupleIndices = [], operandIndex = 0, operandTupleIndices = []>]>}> : () -> '
        '!vhlo.tensor_v1<2x!vhlo.f32_v1>\n'
        '  "vhlo.return_v1"(%0) : (!vhlo.tensor_v1<2x!vhlo.f32_v1>) -> ()\n'
        '}) : () -> ()')
    assert 'function_type = () -> (tensor<2xf32>, tensor<i1>)' in text
    assert "arg_attrs" not in text
    assert "api_version = 2 : i32" in text and "called_computations = [@f]" in text
    assert ("#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, "
            "operand_tuple_indices = []>") in text
    assert '"func.return"(%0)' in text


def test_a_construct_without_a_conversion_is_named():
    with pytest.raises(VhloError, match=r"VHLO type !vhlo.mystery_v1 has no StableHLO "
                                        r"conversion in shlo"):
        to_stablehlo_text('%0 = "vhlo.constant_v1"() : () -> !vhlo.mystery_v1')


def test_an_artifact_shlo_cannot_convert_stays_vhlo_and_its_failure_says_why(monkeypatch):
    """IREE still reads VHLO, so such a module compiles when it needs none of shlo's passes;
    a LAPACK custom call then reaches IREE, and the error names the cause."""
    import shlo.module_io

    def unknown(text):
        raise VhloError("VHLO type !vhlo.mystery_v1 has no StableHLO conversion in shlo")
    monkeypatch.setattr(shlo.module_io, "to_stablehlo_text", unknown)
    call = PROGRAM[PROGRAM.index("%l:2"):PROGRAM.index("%w = call")]
    text = ("func.func @main(%m: tensor<6x6xf32>) -> tensor<6x6xf32> {\n  " + call +
            "  return %l#0 : tensor<6x6xf32>\n}")
    module = shlo.parse_module(_stablehlo.serialize_portable_artifact_str(text, "1.0.0"))
    assert {op.operation.name for op in module.body.operations} == {"vhlo.func_v1"}
    with pytest.raises(shlo.CompileError, match=r"the module is a VHLO portable artifact, "
                                                r"which IREE reads but shlo's passes do not"):
        shlo.compile(module, target="cpu", cache=False)


def test_jax_serialized_exports_carry_shardy_attributes_that_bytecode_cannot_hold():
    a = np.array([[4.0, 2.0], [2.0, 5.0]], np.float32)
    exported = jax.export.export(jax.jit(jax.numpy.linalg.cholesky))(a)
    with pytest.raises(shlo.ParseError, match=r"Shardy annotations in MLIR bytecode, as in "
                                              r"jax's serialized exports"):
        shlo.parse_module(exported.mlir_module_serialized)
    got = shlo.compile(exported.mlir_module(), target="cpu")(a)
    np.testing.assert_allclose(got, np.linalg.cholesky(a), rtol=1e-6)
