"""Textual pipelines mixing shlo's Python passes with C++ passes, at any nesting."""
import dataclasses
import sys
import types

import pytest

import shlo
from shlo.passes import registry
from shlo.passes.base import Pass, nested_ops
from shlo.passes.pipeline import Nest, PassStep, parse_options, parse_pipeline, run_pipeline

TWO_FUNCS = """
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }
"""


@dataclasses.dataclass
class Record(Pass):
    """Records the ops it runs on and the number of stablehlo ops it sees (a test pass)."""

    NAME = "test-record"
    tag: str = "x"
    fail: bool = False
    crash: bool = False

    LOG = []

    def run(self, op):
        count = nested_ops(op, "stablehlo.")
        Record.LOG.append((self.tag, op.name, len(count)))
        if self.fail:
            raise shlo.PassError(f"{self.NAME}: refused {op.name}", at=op)
        if self.crash:
            raise ZeroDivisionError("bug")


@pytest.fixture(autouse=True)
def registered():
    module = types.ModuleType("shlo_test_passes")
    module.Record = Record
    sys.modules[module.__name__] = module
    registry.PASSES["test-record"] = (module.__name__, "Record")
    Record.LOG.clear()
    yield
    del registry.PASSES["test-record"]


def parse(ctx):
    return shlo.parse_module(TWO_FUNCS, context=ctx)


def test_parse_tree():
    tree = parse_pipeline("builtin.module(func.func(test-record{tag=a fail=0}, cse), canonicalize)")
    assert tree == Nest("builtin.module", [
        Nest("func.func", [PassStep("test-record", "tag=a fail=0"), PassStep("cse")]),
        PassStep("canonicalize")])
    assert parse_pipeline("cse,canonicalize") == Nest(
        "builtin.module", [PassStep("cse"), PassStep("canonicalize")])


def test_options_text():
    assert parse_options('a=1 b="x y" c={p=q} d') == {"a": "1", "b": "x y", "c": "p=q", "d": ""}


def test_python_pass_nested_between_cpp_passes_sees_their_effect(ctx):
    m = parse(ctx)
    run_pipeline(m, "builtin.module(func.func(test-record{tag=before}, cse, "
                    "test-record{tag=after}), test-record{tag=module})")
    # cse removed one of the two identical adds in @f between the two nested runs.
    assert Record.LOG == [("before", "func.func", 3), ("before", "func.func", 0),
                          ("after", "func.func", 2), ("after", "func.func", 0),
                          ("module", "builtin.module", 2)]


def test_any_nesting_and_deep_nesting(ctx):
    m = shlo.parse_module("module { module @inner {" + TWO_FUNCS + "} }", context=ctx)
    run_pipeline(m, "builtin.module(builtin.module(func.func(test-record{tag=deep})))")
    assert [entry[1] for entry in Record.LOG] == ["func.func", "func.func"]
    Record.LOG.clear()
    run_pipeline(m, "builtin.module(any(test-record{tag=any}))")
    assert Record.LOG == [("any", "builtin.module", 3)]


def test_failure_is_reported_at_the_op(ctx):
    with pytest.raises(shlo.PassError, match=r"-:2:1: error: test-record: refused func.func"):
        run_pipeline(parse(ctx), "builtin.module(func.func(test-record{fail=true}))")


def test_a_crashing_python_pass_is_an_error_not_a_crash(ctx):
    with pytest.raises(shlo.PassError, match="internal error: ZeroDivisionError: bug"):
        run_pipeline(parse(ctx), "builtin.module(test-record{crash=1})")


def test_a_rule_that_fails_after_building_ops_reports_its_error(ctx):
    """The ops a failed rule left behind must not keep the greedy driver busy (it used to end
    with "pattern application failed to converge" instead of the rule's error)."""
    from shlo.dialect import stablehlo
    from shlo.passes.op_rules import apply_rules

    def half_built(op):
        stablehlo.constant(1.0, result_type=op.results[0].type)
        raise ValueError("gave up")
    module = parse(ctx)
    with pytest.raises(shlo.PassError, match="test: internal error rewriting stablehlo.multiply: "
                                             "ValueError: gave up"):
        apply_rules(module.operation, {"stablehlo.multiply": half_built}, "test")


@pytest.mark.parametrize("pipeline, message", [
    ("builtin.module(no-such-pass)", "'no-such-pass' does not refer to a registered pass"),
    ("builtin.module(test-record{colour=red})", "test-record: unknown option 'colour'"),
    ("builtin.module(test-record{fail=maybe})", "option 'fail' expects bool, got 'maybe'"),
    ("builtin.module(func.func(cse)", "expected ')'"),
    ("builtin.module(cse{)", "unbalanced '{'"),
    ("builtin.module(,)", "expected a pass or op name"),
])
@pytest.mark.every_case
def test_bad_pipelines(ctx, pipeline, message):
    with pytest.raises(shlo.PipelineError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_pipeline(parse(ctx), pipeline)


def test_pass_apply_runs_it_alone(ctx):
    m = parse(ctx)
    Record(tag="alone").apply(m)
    assert Record.LOG == [("alone", "builtin.module", 3)]


def test_the_default_pipeline_inlines_private_functions(ctx):
    # jax wraps argmax, clip, ... in private functions; IREE 3.13 compiles a call to one
    # into much slower code (docs/performance.md), so shlo inlines them first.
    text = """
    func.func public @main(%a: tensor<4x8xf32>) -> tensor<4xf32> {
      %0 = call @rowmax(%a) : (tensor<4x8xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @rowmax(%a: tensor<4x8xf32>) -> tensor<4xf32> {
      %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %0 = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1]
        : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    from shlo.pipelines import DEFAULT
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation, DEFAULT)
    assert "call @rowmax" not in str(module) and "@rowmax" not in str(module)
    assert "stablehlo.reduce" in str(module)
