"""Pipelines as values: parse mlir-opt's text, edit by pass name, print it back."""
import pytest

import shlo
from shlo.passes.pipeline import PassStep, Pipeline, parse_pipeline, run_pipeline
from shlo.pipelines import (DEFAULT, DEFAULT_PASSES, PIPELINES, TARGET_PASSES_BEFORE,
                            default_pipeline, target_pipeline, with_pass_options)
from shlo.pipelines.targets import KINDS, get_target

TARGETS = [*KINDS, "vulkan:vp_android_baseline_2022", "cuda:sm_90a", "cpu:aarch64-linux-gnu"]


def round_trips(text: str) -> bool:
    parsed = parse_pipeline(text)
    return parsed.text(", ") == text and parse_pipeline(parsed.text()) == parsed


@pytest.mark.parametrize("name", [n for n, text in PIPELINES.items() if text])
@pytest.mark.every_case
def test_every_named_pipeline_round_trips(name):
    assert round_trips(PIPELINES[name])


@pytest.mark.parametrize("spec", TARGETS)
@pytest.mark.every_case
def test_each_targets_default_pipeline_round_trips(spec):
    target = get_target(spec)
    text = target_pipeline(DEFAULT, target)
    assert round_trips(text)
    names = [step.name for step in parse_pipeline(text).steps]
    # the target's passes come after the other rewrites, before the final canonicalize and cse
    final = names.index(TARGET_PASSES_BEFORE)
    passes = [parse_pipeline(p).steps[0].name for p in target.passes]   # (a pass may have options)
    assert names[final - len(passes):final] == passes
    assert names == [*DEFAULT_PASSES[:DEFAULT_PASSES.index(TARGET_PASSES_BEFORE)],
                     *passes, *DEFAULT_PASSES[DEFAULT_PASSES.index(TARGET_PASSES_BEFORE):]]
    # each of the target's pass options is set on its pass
    steps = {step.name: step.values() for step in parse_pipeline(text).steps}
    for name, option in target.pass_options:
        key, _, value = option.partition("=")
        assert steps[name][key] == value, (name, option)


def test_removing_the_last_pass():
    """The regex edits of old could not remove a pass that came last."""
    from shlo.passes.numerics.accurate_math import without_accurate_math
    from shlo.passes.numerics.expand_f64_math import without_f64_expansion
    text = "builtin.module(cse, shlo-expand-f64-math, shlo-accurate-math{exp-log=true})"
    assert without_accurate_math(text) == "builtin.module(cse, shlo-expand-f64-math)"
    assert without_f64_expansion(without_accurate_math(text)) == "builtin.module(cse)"
    assert parse_pipeline("cse").remove("cse").text() == "builtin.module()"
    target = get_target("vulkan", demote_f64=True)
    last = target_pipeline("builtin.module(cse, shlo-accurate-math)", target, fast_math=True)
    assert last == "builtin.module(cse)"


def test_nested_pipelines():
    p = parse_pipeline("builtin.module(func.func(shlo-legalize-chlo, cse), canonicalize, "
                       "builtin.module(func.func(cse{a=1})))")
    assert "cse" in p and p.contains("shlo-legalize-chlo") and "symbol-dce" not in p
    p.insert_after("shlo-legalize-chlo", "func.func(canonicalize)")
    p.insert_before("canonicalize", "inline")           # the first canonicalize, depth first
    assert p.text() == ("builtin.module(func.func(shlo-legalize-chlo,func.func(inline,canonicalize)"
                        ",cse),canonicalize,builtin.module(func.func(cse{a=1})))")
    p.set_options("cse", "a=2 b=3").remove("shlo-legalize-chlo")
    assert p.text() == ("builtin.module(func.func(func.func(inline,canonicalize),cse{a=2 b=3}),"
                        "canonicalize,builtin.module(func.func(cse{a=1 b=3})))")
    p.replace("cse", "symbol-dce", PassStep("canonicalize", {"x": "1"}))
    assert p == parse_pipeline("builtin.module(func.func(func.func(inline, canonicalize), "
                               "symbol-dce, canonicalize{x=1}), canonicalize, "
                               "builtin.module(func.func(symbol-dce, canonicalize{x=1})))")
    with pytest.raises(shlo.PipelineError, match="has no pass 'shlo-legalize-chlo'"):
        p.insert_before("shlo-legalize-chlo", "cse")
    with pytest.raises(shlo.PipelineError, match="has no pass 'nope'"):
        p.replace("nope", "cse")


def test_options_with_braces_and_quotes():
    text = ("builtin.module(canonicalize{max-iterations=2 region-simplify=\"aggressive\"}, "
            "inline{default-pipeline= op-pipelines={func.func(cse{x=\"a}b\"})}}, "
            "test{s='x, y' flag})")
    assert round_trips(text)
    steps = {s.name: s for s in parse_pipeline(text).steps}
    assert steps["inline"].values() == {"default-pipeline": "",
                                        "op-pipelines": 'func.func(cse{x="a}b"})'}
    assert steps["test"].values() == {"s": "x, y", "flag": ""}
    p = parse_pipeline("builtin.module(test)").set_options("test", {"s": "x y"}, on=True,
                                                           max_length=4096)
    assert p.text() == 'builtin.module(test{s="x y" on=true max-length=4096})'
    assert parse_pipeline(p.text()).steps[0].values() == {"s": "x y", "on": "true",
                                                          "max-length": "4096"}



@pytest.mark.parametrize("text", [
    'builtin.module(canonicalize{max-iterations=2 region-simplify="aggressive"}, '
    'inline{default-pipeline= op-pipelines={func.func(cse)}}, func.func(cse))',
    'builtin.module(inline{default-pipeline="canonicalize{max-iterations=3}"}, symbol-dce)',
])
@pytest.mark.every_case
def test_mlir_reads_the_printed_text_as_it_reads_the_text(ctx, text):
    """MLIR's own parser and printer as the oracle, both ways."""
    from iree.compiler.passmanager import PassManager
    with ctx:
        mlir = str(PassManager.parse(text))
        assert str(PassManager.parse(parse_pipeline(text).text())) == mlir
        assert str(PassManager.parse(parse_pipeline(mlir).text())) == mlir
        edited = parse_pipeline("inline, cse").set_options(
            "inline", default_pipeline="canonicalize, cse", max_iterations=7)
        read = str(PassManager.parse(edited.text()))
    assert "default-pipeline={canonicalize, cse}" in read and " max-iterations=7" in read

def test_user_options_win():
    vulkan = get_target("vulkan")
    mine = "builtin.module(shlo-accurate-math{exp-log=false}, cse)"
    assert with_pass_options(mine, vulkan.pass_options) == mine
    # options the user did not give still come from the target (lavapipe's loop bound)
    text = with_pass_options("builtin.module(shlo-split-long-reduce{threads=true})",
                             vulkan.pass_options)
    assert text == "builtin.module(shlo-split-long-reduce{threads=true max-length=4096})"


@pytest.mark.parametrize("text, message", [
    ("builtin.module(func.func(cse)", "expected ')' at column 30"),
    ("builtin.module(cse{)", "unbalanced '{' at column 19"),
    ("builtin.module(cse, , canonicalize)", "expected a pass or op name at column 21"),
    ("builtin.module(cse) cse", "unexpected 'c' at column 21"),
    ("cse{a=1 a=2}", "option 'a' given twice at column 9"),
    ("cse{a=1}b", "unexpected 'b' at column 9"),
    ("cse{=1}", "expected an option name at column 5"),
    ("cse{a=\"x}", "unbalanced '{' at column 4"),
])
@pytest.mark.every_case
def test_malformed_text_names_the_position(text, message):
    with pytest.raises(shlo.PipelineError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_pipeline(text)


def test_edited_pipelines_run(ctx):
    """fast_math takes shlo-accurate-math out of the default pipeline: sine stays for IREE."""
    text = ("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = stablehlo.sine %x : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}")
    vulkan = get_target("vulkan")
    for fast_math in (False, True):
        module = shlo.parse_module(text, context=ctx)
        run_pipeline(module, target_pipeline(DEFAULT, vulkan, fast_math=fast_math))
        assert ("stablehlo.sine" in str(module)) == fast_math
    assert default_pipeline() == Pipeline().append(*DEFAULT_PASSES).text(", ")


def test_a_retry_with_passes_runs_them_and_appends_them_for_the_replay(ctx, monkeypatch):
    from shlo.runtime import compiler
    seen = []

    def compile_to_vmfb(module, target, **kw):
        seen.append((kw["pipeline"], str(module).count("stablehlo.add")))
        if len(seen) == 1:
            raise shlo.CompileError("refused")
        return b"vmfb"
    monkeypatch.setattr(compiler, "compile_to_vmfb", compile_to_vmfb)
    monkeypatch.setattr(compiler, "retry_with", lambda target: lambda error: ((), ("cse",)))
    text = ("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = stablehlo.add %x, %x : tensor<4xf32>\n"
            "  %1 = stablehlo.add %x, %x : tensor<4xf32>\n"
            "  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>\n  return %2 : tensor<4xf32>\n}")
    module = shlo.parse_module(text, context=ctx)
    vmfb = compiler.compile_module(module, get_target("vmvx"), pipeline="builtin.module(canonicalize)",
                                   cache=False, isolate=False)
    assert vmfb == b"vmfb"
    assert seen == [("builtin.module(canonicalize)", 2), ("builtin.module(canonicalize, cse)", 1)]
