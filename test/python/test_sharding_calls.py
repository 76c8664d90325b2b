"""Sharding, layout and placement annotations on single-device programs: Shardy's `sdy`
attributes and ops (shlo.shardy; generic and custom forms) and the annotation custom calls
(shlo.passes.custom_calls.sharding_calls) change nothing in what a program computes; code written per
device for several devices is a clear error. numpy and jax's stored modules are the oracles."""
import numpy as np
import pytest

import shlo

SHARDED = """
module {
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2]>}> : () -> ()
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = "sdy.sharding_constraint"(%a) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.add %0, %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}"""

# The same in Shardy's custom form, as MLIR prints it with the dialect loaded, with a reshard.
CUSTOM_FORM = """
module {
  sdy.mesh @mesh = <["x"=2, "y"=1]> loc(#loc)
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %a <@mesh, [{}]> : tensor<8xf32> loc(#loc)
    %1 = sdy.reshard %0 <@mesh, [{"x", "y"}]> : tensor<8xf32>
    %2 = stablehlo.add %1, %0 : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
#loc = loc(unknown)"""

ANNOTATED = """
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[1,1]0}"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.custom_call @annotate_device_placement(%0) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.custom_call @LayoutConstraint(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.custom_call @MoveToHost(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = stablehlo.custom_call @SPMDFullToShardShape(%3) {mhlo.sharding = "{manual}"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = stablehlo.multiply %4, %4 : tensor<2x3xf32>
  %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  stablehlo.custom_call @xla.sdy.ShardingGroup(%6) {has_side_effect = true} : (tensor<2x3xf32>) -> ()
  %7 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%6) {has_side_effect = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}"""


def test_shardy_annotations_are_dropped(ctx):
    module = shlo.parse_module(SHARDED, context=ctx)
    assert "sdy" not in str(module)
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(shlo.compile(module, target="cpu", cache=False)(x), 2 * x)


def test_shardy_custom_form_is_read(ctx):
    module = shlo.parse_module(CUSTOM_FORM, context=ctx)
    assert "sdy" not in str(module)
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(shlo.compile(module, target="cpu")(x), 2 * x)


def test_per_device_shardy_code_is_a_parse_error(ctx):
    manual = SHARDED.replace('"sdy.sharding_constraint"', '"sdy.manual_computation"')
    with pytest.raises(shlo.ParseError, match="sdy.manual_computation.*single-device"):
        shlo.parse_module(manual, context=ctx)
    custom = CUSTOM_FORM.replace("sdy.reshard %0 <@mesh, [{\"x\", \"y\"}]> : tensor<8xf32>",
                                 "sdy.manual_computation(%0) in_shardings=[<@mesh, [{}]>] "
                                 "out_shardings=[<@mesh, [{}]>] manual_axes={} (%b: "
                                 "tensor<8xf32>) {\n sdy.return %b : tensor<8xf32>\n } : "
                                 "(tensor<8xf32>) -> tensor<8xf32>")
    with pytest.raises(shlo.ParseError, match="'sdy.manual_computation'.*single-device") as info:
        shlo.parse_module(custom, context=ctx)
    assert "\n" not in str(info.value)                    # one line


def test_annotation_calls_are_their_operands(ctx):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    got = shlo.compile(shlo.parse_module(ANNOTATED, context=ctx), target="cpu")(x)
    np.testing.assert_array_equal(got, x * x)


def test_per_device_shapes_are_a_clear_error(ctx):
    text = ANNOTATED.replace(
        "@SPMDFullToShardShape(%3) {mhlo.sharding = \"{manual}\"} : (tensor<2x3xf32>) -> "
        "tensor<2x3xf32>", "@SPMDFullToShardShape(%3) : (tensor<2x3xf32>) -> tensor<1x3xf32>")
    text = text.replace("%5 = stablehlo.multiply %4, %4 : tensor<2x3xf32>",
                        "%m = stablehlo.multiply %4, %4 : tensor<1x3xf32>\n  %5 = "
                        "stablehlo.concatenate %m, %m, dim = 0 : (tensor<1x3xf32>, "
                        "tensor<1x3xf32>) -> tensor<2x3xf32>")
    with pytest.raises(shlo.Error, match=r"@SPMDFullToShardShape \(the entry of per-device "
                                         r"code\) turns tensor<2x3xf32> into tensor<1x3xf32>: "
                                         r"the program is written per device"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)


def _stored_placement_modules():
    data = pytest.importorskip("jax._src.internal_test_util.export_back_compat_test_data."
                               "annotate_data_placement")
    return [(f"{name}[{key}]", entry) for name in dir(data) if name.startswith("data_")
            for key, entry in getattr(data, name).items()]


@pytest.mark.parametrize("name, stored", _stored_placement_modules())
def test_jax_stored_placement_modules(ctx, name, stored):
    """jax's back-compat modules with memory kinds (GSPMD and Shardy, CUDA, ROCm and TPU
    exports of a one-device mesh): annotate_device_placement and xla.sdy.FuncResultSharding
    calls, sdy meshes in custom form; their stored outputs."""
    got = shlo.compile(shlo.parse_module(stored["mlir_module_text"], context=ctx),
                       target="cpu")(*[np.asarray(x) for x in stored["inputs"]])
    got = got if isinstance(got, (list, tuple)) else [got]
    for g, w in zip(got, stored["expected_outputs"]):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
