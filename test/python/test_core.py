"""shlo's context factory, parse/print helpers and the error family."""
import pytest
from iree.compiler import ir

import shlo

ADD = """func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %a : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"""


def test_context_loads_every_dialect_eagerly():
    ctx = shlo.context()
    for name in ("stablehlo", "chlo", "shape", "vhlo", "func", "arith", "tensor"):
        assert ctx.is_dialect_loaded(name), name


def test_context_is_an_iree_session_context():
    from shlo.context import home_session
    ctx = shlo.context()
    assert home_session(ctx).context is ctx


def test_contexts_are_independent():
    a, b = shlo.context(), shlo.context()
    assert a is not b
    assert shlo.parse_module(ADD, context=a).context is a


def test_parse_print_round_trip(ctx):
    text = shlo.print_module(shlo.parse_module(ADD, context=ctx))
    assert shlo.print_module(shlo.parse_module(text, context=ctx)) == text
    assert "stablehlo.add" in text


def test_print_generic_and_debuginfo(ctx):
    m = shlo.parse_module(ADD, context=ctx)
    assert '"stablehlo.add"' in shlo.print_module(m, generic=True)
    assert "loc(" in shlo.print_module(m, debuginfo=True)


def test_bytecode_round_trip(ctx):
    m = shlo.parse_module(ADD, context=ctx)
    again = shlo.parse_module(shlo.module_bytecode(m), context=ctx)
    assert shlo.print_module(again) == shlo.print_module(m)


@pytest.mark.parametrize("text, fragment", [
    ("func.func @f(", "expected non-function type"),
    ("func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n return %a : tensor<2xf32>\n}",
     "type of return operand 0"),
    ("%0 = stablehlo.add", "expected SSA operand"),
])
@pytest.mark.every_case
def test_parse_errors_are_one_clean_error_with_location(ctx, text, fragment):
    with pytest.raises(shlo.ParseError) as info:
        shlo.parse_module(text, context=ctx)
    message = str(info.value)
    assert fragment in message
    assert message.startswith("-:") and ": error: " in message


def test_read_module_names_the_file(tmp_path, ctx):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f() {\n  %x = stablehlo.nope\n}\n")
    with pytest.raises(shlo.ParseError, match=r"bad\.mlir:2:\d+: error:"):
        shlo.read_module(str(path), context=ctx)
    with pytest.raises(shlo.ParseError, match="no such file"):
        shlo.read_module(str(tmp_path / "missing.mlir"), context=ctx)


def test_every_error_is_a_shlo_error():
    for cls in (shlo.ParseError, shlo.BuildError, shlo.PipelineError, shlo.PassError,
                shlo.CompileError, shlo.InvocationError, shlo.DeviceError):
        assert issubclass(cls, shlo.Error)


def test_default_context_follows_an_enclosing_shlo_context():
    from shlo.context import default_context, is_shlo_context
    ctx = shlo.context()
    with ctx:
        assert default_context() is ctx
    with ir.Context() as foreign:          # a foreign context is never used implicitly
        chosen = default_context()
        assert chosen is not foreign and is_shlo_context(chosen)
