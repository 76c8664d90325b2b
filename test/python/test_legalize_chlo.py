"""shlo-legalize-chlo as a pass: every CHLO op has a rule, errors name the op and its location,
recorded expansions replay exactly, the shared conformance files (mulhi, ragged_dot, scan) run
on IREE's CPU backend, and a subset of the math ops runs on Vulkan.

Numerics per op family: test_legalize_chlo_math.py (mpmath), _broadcast.py and _structure.py.
"""
import os
import re

import numpy as np
import pytest

import shlo
from conftest import CONFORMANCE_SUITE, conformance_suite_or_skip, vulkan_or_skip
from shlo.passes.chlo import legalize_chlo
from shlo.passes.chlo.legalize_chlo import LegalizeChlo
from shlo.tools.chlo_accuracy import _ops, function_text, make_case, ulp_distance

# The 51 ops of the CHLO dialect in iree-base-compiler 3.13.
CHLO_OPS = """_asin_acos_kernel acos acosh asin asinh atan atanh bessel_i1e broadcast_add
broadcast_and broadcast_atan2 broadcast_compare broadcast_complex broadcast_divide
broadcast_maximum broadcast_minimum broadcast_multiply broadcast_next_after broadcast_or
broadcast_polygamma broadcast_power broadcast_remainder broadcast_select broadcast_shift_left
broadcast_shift_right_arithmetic broadcast_shift_right_logical broadcast_subtract broadcast_xor
broadcast_zeta conj constant constant_like cosh digamma erf erf_inv erfc is_inf is_neg_inf
is_pos_inf lgamma mulhi next_after polygamma ragged_dot scan sinh square tan top_k zeta""".split()
RNG = np.random.default_rng(5)
CONFORMANCE = os.path.join(CONFORMANCE_SUITE, "chlo")


def test_every_chlo_op_has_a_rule():
    assert len(CHLO_OPS) == 51
    assert sorted(legalize_chlo.RULES) == sorted(f"chlo.{name}" for name in CHLO_OPS)


def test_unsupported_form_fails_at_the_op_location(ctx):
    with open(os.path.join(os.path.dirname(__file__), "../lit/passes/Inputs/unsupported.mlir")) as f:
        module = shlo.parse_module(f.read(), context=ctx)
    with pytest.raises(shlo.PassError, match=r"-:3:8: error: shlo-legalize-chlo: "
                                             r"chlo.ragged_dot with dynamic shapes is not"):
        LegalizeChlo().apply(module)


def test_op_without_a_rule_fails_with_its_name(ctx, monkeypatch):
    rules = dict(legalize_chlo.RULES)
    del rules["chlo.lgamma"]
    monkeypatch.setattr(legalize_chlo, "RULES", rules)
    module = shlo.parse_module("""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }""", context=ctx)
    with pytest.raises(shlo.PassError, match=r"-:2:12: error: shlo-legalize-chlo: no lowering "
                                             r"for 'chlo.lgamma'"):
        LegalizeChlo().apply(module)


def _body(module) -> list[str]:
    """The op names of each function, in order."""
    out = []
    for f in module.body.operations:
        out.append([o.operation.name for o in f.regions[0].blocks[0].operations])
    return out


def test_ops_of_one_signature_replay_one_recording(ctx, monkeypatch):
    recorded = []
    record = legalize_chlo._record
    monkeypatch.setattr(legalize_chlo, "_record",
                        lambda rule, op: recorded.append(op.name) or record(rule, op))
    text = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
      %1 = chlo.digamma %0 : tensor<4xf32> -> tensor<4xf32>
      %2 = chlo.digamma %1 : tensor<4xf32> -> tensor<4xf32>
      return %2 : tensor<4xf32>
    }"""
    module = shlo.parse_module(text, context=ctx)
    LegalizeChlo().apply(module)
    assert recorded == ["chlo.digamma"]          # one recording, three expansions
    names = [n for n in _body(module)[0] if n != "stablehlo.constant"]
    once = shlo.parse_module("""func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }""", context=ctx)
    LegalizeChlo().apply(once)
    single = [n for n in _body(once)[0] if n != "stablehlo.constant"][:-1]
    assert names == single * 3 + ["func.return"]
    assert not any(n.startswith("chlo.") for n in names)


@pytest.mark.slow
def test_complex_constants_survive_replay(ctx):
    """The Python bindings cannot hold dense complex attributes: such ops go through text."""
    # (the constant is added to an argument: IREE 3.13 dies of SIGFPE compiling a function
    # that returns a complex<f64> constant as is, whichever lowering made it)
    module = shlo.parse_module("""func.func @f(%z: tensor<3xcomplex<f32>>, %w: tensor<2xcomplex<f64>>)
        -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xcomplex<f64>>) {
      %0 = chlo.bessel_i1e %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
      %1 = chlo.bessel_i1e %0 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
      %2 = chlo.constant dense<[(1.0, -2.0), (3.5, 0.0)]> : tensor<2xcomplex<f64>>
      %3 = stablehlo.add %2, %w : tensor<2xcomplex<f64>>
      return %0, %1, %3 : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xcomplex<f64>>
    }""", context=ctx)
    exe = shlo.compile(module, target="cpu")
    z = np.array([0.5 + 1j, -3 + 0.25j, 20 - 4j], np.complex64)
    first, second, constant = exe(z, np.zeros(2, np.complex128))
    import mpmath
    want = [complex(mpmath.besseli(1, complex(v)) * mpmath.exp(-abs(v.real))) for v in z]
    np.testing.assert_allclose(first, want, rtol=1e-6)
    np.testing.assert_allclose(second, [complex(mpmath.besseli(1, complex(v))
                                                * mpmath.exp(-abs(v.real))) for v in first],
                               rtol=1e-6)
    np.testing.assert_array_equal(constant, [1 - 2j, 3.5])


# --- the shared conformance files ---------------------------------------------------------

_CHECK = re.compile(r"check\.(expect_eq_const|expect_almost_eq_const)\s+(%[\w#]+)\s*,\s*"
                    r"(dense<.*?>)\s*:\s*(tensor<[^>]*>)", re.S)


def conformance_functions(text: str):
    """Each test function with its check.* ops (which IREE's own `check` dialect would take)
    turned into results: (name, kinds, function returning (got, want) pairs)."""
    out = []
    for chunk in text.split("// -----"):
        found = re.search(r"func\.func @(\w+)\(\)\s*\{(.*)\}", chunk, re.S)
        if not found:
            continue
        name, body = found.groups()
        checks = _CHECK.findall(body)
        body = _CHECK.sub("", body).replace("func.return", "")
        results, types = [], []
        for i, (_, value, literal, type_) in enumerate(checks):
            body += f"\n  %want{i} = stablehlo.constant {literal} : {type_}"
            results += [value, f"%want{i}"]
            types += [type_, type_]
        body += f"\n  return {', '.join(results)} : {', '.join(types)}\n"
        out.append((name, [c[0] for c in checks],
                    f"func.func @{name}() -> ({', '.join(types)}) {{{body}}}"))
    return out


@pytest.mark.parametrize("name", ["mulhi", "ragged_dot", "scan"])
def test_conformance_file_legalizes_and_runs(ctx, name):
    path = os.path.join(CONFORMANCE, f"{name}.mlir")
    conformance_suite_or_skip()
    with open(path) as f:
        functions = conformance_functions(f.read())
    module = shlo.parse_module("\n".join(text for _, _, text in functions), context=ctx)
    before = shlo.print_module(module)
    assert "chlo." in before
    exe = shlo.compile(module, target="cpu")
    for fname, kinds, _ in functions:
        out = exe.function(fname)()
        out = out if isinstance(out, tuple) else (out,)
        for i, kind in enumerate(kinds):
            got, want = out[2 * i], out[2 * i + 1]
            if kind == "expect_eq_const":
                np.testing.assert_array_equal(got, want, err_msg=fname)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=fname)


# --- a Vulkan subset ----------------------------------------------------------------------
# (op, max ULP, p99 ULP): lavapipe's exp loses about |x| ULP for large x (sinh, cosh, erfc's
# tail), which the CPU's does not
VULKAN = [("erf", 4, 2), ("erfc", 20, 4), ("erf_inv", 4, 2), ("lgamma", 200, 50),
          ("digamma", 300, 12), ("sinh", 32, 24), ("cosh", 32, 24), ("tan", 4, 2),
          ("atan", 4, 2), ("asin", 4, 2), ("acosh", 4, 2), ("bessel_i1e", 8, 4)]


@pytest.mark.slow
def test_math_on_vulkan(ctx):
    vulkan_or_skip()
    specs = _ops()
    cases = [make_case(specs[op], "f32", 300, max_points=800) for op, _, _ in VULKAN]
    text = "\n".join(function_text(f"f{i}", op, "f32", c.want.size)
                     for i, ((op, _, _), c) in enumerate(zip(VULKAN, cases)))
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target="vulkan")
    for i, ((op, top, p99), case) in enumerate(zip(VULKAN, cases)):
        got = exe.function(f"f{i}")(case.args[0])
        errors = ulp_distance(np.asarray(got, np.float32), case.want)
        assert np.percentile(errors, 99) <= p99, op
        assert errors.max() <= top, (op, case.args[0][int(np.argmax(errors))])


def test_top_k_on_a_dynamic_batch_is_stable_with_nan_largest(ctx):
    module = shlo.parse_module("""func.func @main(%x: tensor<?x6xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>) {
      %v, %i = chlo.top_k(%x, k = 3) : tensor<?x6xf32> -> (tensor<?x3xf32>, tensor<?x3xi32>)
      return %v, %i : tensor<?x3xf32>, tensor<?x3xi32>
    }""", context=ctx)
    exe = shlo.compile(module, target="cpu")
    for rows in (1, 4, 9):
        x = RNG.integers(-2, 3, (rows, 6)).astype(np.float32)
        x[0, 2] = np.nan
        values, indices = exe(x)
        # descending, NaN above everything, ties to the lower index
        want = np.array([sorted(range(6), key=lambda j: (not np.isnan(r[j]), -np.nan_to_num(r[j]), j))[:3]
                         for r in x])
        np.testing.assert_array_equal(indices, want)
        np.testing.assert_array_equal(values, np.take_along_axis(x, want, axis=1))


def test_rule_tables_merge_only_when_disjoint():
    from shlo.passes.op_rules import merge_rules
    rule = lambda op: None
    assert merge_rules({"chlo.a": rule}, {"chlo.b": rule}).keys() == {"chlo.a", "chlo.b"}
    with pytest.raises(ValueError, match="rule tables both rule chlo.b"):
        merge_rules({"chlo.a": rule, "chlo.b": rule}, {"chlo.b": rule})
