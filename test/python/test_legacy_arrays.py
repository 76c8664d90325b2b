"""Pre-2024 StableHLO text (array attributes as 1-D dense tensors) parses, compiles and
computes what numpy does; everything else in such text is left as written."""
import numpy as np
import pytest

import shlo
from shlo.legacy_arrays import upgrade_arrays

# As StableHLO's testdata and jax printed it in 2023.
LEGACY = """\
func.func @main(%arg0: tensor<4x6xf32>) -> (tensor<2x3xf32>, tensor<6x4xf32>, tensor<3x5xf32>, tensor<2x4x6xf32>) {
  %0 = "stablehlo.slice"(%arg0) {limit_indices = dense<[4, 6]> : tensor<2xi64>, start_indices = dense<0> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.transpose"(%arg0) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = "stablehlo.reduce_window"(%arg0, %cst) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {padding = dense<0> : tensor<2x2xi64>, window_dimensions = dense<2> : tensor<2xi64>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32>
  %3 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = dense<[1, 2]> : tensor<2xi64>} : (tensor<4x6xf32>) -> tensor<2x4x6xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<6x4xf32>, tensor<3x5xf32>, tensor<2x4x6xf32>
}
"""


def test_legacy_array_attributes_parse_and_compute_what_numpy_does(ctx):
    module = shlo.parse_module(LEGACY, context=ctx)
    text = shlo.print_module(module)
    assert "dense<[4, 6]>" not in text and "tensor<2x2xi64>" in text   # padding stays a tensor
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    sliced, transposed, windows, broadcast = shlo.compile(module, target="cpu")(x)
    np.testing.assert_array_equal(sliced, x[::2, ::2])
    np.testing.assert_array_equal(transposed, x.T)
    np.testing.assert_array_equal(windows, x[:-1, :-1] + x[1:, :-1] + x[:-1, 1:] + x[1:, 1:])
    np.testing.assert_array_equal(broadcast, np.broadcast_to(x, (2, 4, 6)))


@pytest.mark.parametrize("before, after", [
    ("start_indices = dense<0> : tensor<3xi64>", "start_indices = array<i64: 0, 0, 0>"),
    ("permutation = dense<[1, 0]> : tensor<2xi64>", "permutation = array<i64: 1, 0>"),
    ("dimensions = dense<1> : tensor<i64>", "dimensions = array<i64: 1>"),
    ("known_expanding_dimensions = dense<> : tensor<0xi64>", "known_expanding_dimensions = array<i64>"),
    ("window_reversal = dense<[false, true]> : tensor<2xi1>",
     "window_reversal = array<i1: false, true>"),
    # not array attributes, or not of their type: as written
    ("value = dense<[1, 2]> : tensor<2xi64>", None),
    ("padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>", None),
    ("window_reversal = dense<1> : tensor<2xi64>", None),
    ("dimensions = dense<[0, 1, 2]> : tensor<2xi64>", None),          # wrong count
])
@pytest.mark.every_case
def test_only_one_dimensional_array_attributes_change(before, after):
    assert upgrade_arrays(f"{{{before}}}") == f"{{{after or before}}}"


def test_a_legacy_file_with_another_error_reports_that_error_on_its_line(ctx):
    bad = LEGACY.replace("stablehlo.add %a, %b", "stablehlo.nope %a, %b")
    with pytest.raises(shlo.ParseError, match=r"^legacy\.mlir:7:\d+: error: .*stablehlo\.nope"):
        shlo.parse_module(bad, context=ctx, source_name="legacy.mlir")


def test_an_unupgradable_array_attribute_keeps_the_parser_message(ctx):
    text = LEGACY.replace("dense<[1, 0]> : tensor<2xi64>", "dense<[1, 0]> : tensor<2xi32>")
    with pytest.raises(shlo.ParseError, match=r"^legacy\.mlir:3:\d+: error: .*'permutation' "
                                              r"failed to satisfy constraint: i64 dense array"):
        shlo.parse_module(text, context=ctx, source_name="legacy.mlir")
