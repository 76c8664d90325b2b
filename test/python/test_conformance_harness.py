"""shlo-conformance's parts: check semantics, literals, test-op syntax, instrumentation, ledgers.

Check semantics are checked against cases worked out by hand from the StableHLO reference
interpreter's rules, and ULP distances against numpy's nextafter; decoded literals against
arrays built directly with numpy/ml_dtypes.
"""
import os
import textwrap

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.tools import conformance_checks as checks
from shlo.tools.conformance_instrument import Options, instrument
from shlo.tools.conformance_ledger import judge, read_ledger
from shlo.tools.conformance_syntax import rewrite_test_ops, split_chunks
from shlo.tools.conformance_values import ConformanceError, decode_dense, split_typed_attr
from shlo.tools.conformance_worker import FileRun, Outcome

MALLOC_DEBUG = "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"   # glibc's checking malloc

EQ = checks.CHECK_OPS["check.expect_eq"]
ALMOST = checks.CHECK_OPS["check.expect_almost_eq"]
CLOSE = checks.CHECK_OPS["check.expect_close"]
CUSTOM = checks.CUSTOM_CALL_CHECKS
NAN, INF = float("nan"), float("inf")


# --- check semantics ----------------------------------------------------------------------------

@pytest.mark.parametrize("got, want, passes", [
    ([1.0, 2.0], [1.0, 2.0], True),
    ([NAN], [NAN], False),                 # NaN never equals NaN
    ([0.0], [-0.0], True),                 # IEEE: +0 == -0
    ([INF], [INF], True),
    ([1.0], [np.nextafter(1.0, 2.0)], False),
])
@pytest.mark.every_case
def test_expect_eq_is_exact(got, want, passes):
    assert (checks.evaluate(EQ, np.array(got), np.array(want)) is None) == passes


def test_expect_eq_compares_both_parts_of_complex_values():
    assert checks.evaluate(EQ, np.array([1 + 2j]), np.array([1 + 2j])) is None
    m = checks.evaluate(EQ, np.array([1 + 2j, 3 + 4j]), np.array([1 + 2j, 3 - 4j]))
    assert m.index == (1,) and m.got == "(3.0, 4.0)" and m.want == "(3.0, -4.0)"


@pytest.mark.parametrize("got, want, tolerance, passes", [
    (NAN, NAN, 1e-4, True),                # two NaNs are almost equal
    (NAN, 1.0, 1e-4, False),
    (INF, INF, 1e-4, True),
    (INF, 1e300, 1e300, False),            # an infinity is only near itself
    (0.0, 1e-5, 1e-4, True),               # zero is near a small number of its sign
    (-0.0, 1e-5, 1e-4, False),             # ... but not of the other sign
    (-1e-5, 1e-5, 1.0, False),             # signs differ
    (1.0, 1.5, 0.5, True),                 # the tolerance is inclusive
    (1.0, 1.5, 0.25, False),
])
@pytest.mark.every_case
def test_expect_almost_eq_follows_the_reference(got, want, tolerance, passes):
    result = checks.evaluate(ALMOST, np.array([got]), np.array([want]), tolerance=tolerance)
    assert (result is None) == passes


def test_almost_eq_defaults_differ_between_check_ops_and_custom_calls():
    got, want = np.array([1.0]), np.array([1.0005])
    assert checks.evaluate(ALMOST, got, want) is not None                      # 1e-4
    assert checks.evaluate(CUSTOM["check.expect_almost_eq"], got, want) is None  # 1e-3


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.every_case
def test_ulp_distance_counts_nextafter_steps(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(50).astype(dtype) * dtype(100)
    for k in range(6):
        y = x.copy()
        for _ in range(k):
            y = np.nextafter(y, dtype(np.inf))
        assert (checks.ulp_distance(x, y) == k).all()


def test_ulp_distance_of_bfloat16_by_its_spacing():
    x = np.array([1.0, 3.0, -0.5], ml_dtypes.bfloat16)
    spacing = np.array([2.0 ** -7, 2.0 ** -6, 2.0 ** -8])    # 8-bit significand
    wide = x.astype(np.float64)
    y = (wide + np.sign(wide) * 3 * spacing).astype(ml_dtypes.bfloat16)   # away from zero
    assert list(checks.ulp_distance(x, y)) == [3, 3, 3]


def test_ulp_distance_across_zero_and_for_special_values():
    tiny = np.float32(1e-45)                      # the smallest subnormal
    assert checks.ulp_distance(np.array([-tiny]), np.array([tiny]))[0] == 2
    assert checks.ulp_distance(np.array([-0.0]), np.array([0.0]))[0] == 0
    assert checks.ulp_distance(np.array([NAN]), np.array([-NAN]))[0] == 0
    assert checks.ulp_distance(np.array([INF]), np.array([1e308]))[0] == checks.FAR


def test_expect_close_bounds_are_inclusive_and_custom_call_allows_three():
    one = np.array([1.0], np.float32)
    three_up = np.nextafter(np.nextafter(np.nextafter(one, 2), 2), 2)
    assert checks.evaluate(CLOSE, one, three_up, max_ulp=3) is None
    assert checks.evaluate(CLOSE, one, three_up, max_ulp=2).ulp == 3
    assert checks.evaluate(CLOSE, one, three_up, min_ulp=4, max_ulp=9) is not None
    assert checks.evaluate(CUSTOM["check.expect_close"], one, three_up) is None


def test_custom_call_check_eq_is_exact_for_integers_and_approximate_for_floats():
    eq = CUSTOM["check.eq"]
    assert checks.evaluate(eq, np.array([1, 2]), np.array([1, 3])) is not None
    assert checks.evaluate(eq, np.array([1.0]), np.array([1.00005])) is None


def test_a_check_on_values_it_cannot_compare_says_why():
    with pytest.raises(checks.CheckMisuse, match="shape"):
        checks.evaluate(EQ, np.zeros(2), np.zeros(3))
    with pytest.raises(checks.CheckMisuse, match="floating-point or complex"):
        checks.evaluate(ALMOST, np.array([1]), np.array([1]))


def test_mismatch_text_names_index_values_ulps_and_count():
    m = checks.evaluate(EQ, np.array([[1.0, 2.0], [3.0, 4.0]], np.float32),
                        np.array([[1.0, 2.0], [3.5, 4.5]], np.float32))
    assert m.text() == ("index [1, 0]: got 3.0, want 3.5, ULP distance 2097152 "
                        "(2 of 4 elements differ)")


# --- dense literals ----------------------------------------------------------------------------

def _printed_constant(ctx, literal: str, type_: str) -> tuple[str, str]:
    """The literal as MLIR prints it back (hex blobs for large ones)."""
    src = f"func.func @f() -> {type_} {{\n %0 = stablehlo.constant {literal} : {type_}\n" \
          f" return %0 : {type_}\n}}"
    module = shlo.parse_module(src, context=ctx)
    op = module.body.operations[0].regions[0].blocks[0].operations[0]
    return split_typed_attr(op.get_asm().split("stablehlo.constant", 1)[1].strip())


@pytest.mark.parametrize("values, element, dtype", [
    ([1, -2, 7, -8], "i4", ml_dtypes.int4),
    ([0, 3, 1, 2], "ui2", ml_dtypes.uint2),
    ([18446744073709551615, 0, 1, 2], "ui64", np.uint64),
    ([True, False, True, True], "i1", np.bool_),
    ([1.5, -0.0, NAN, INF], "bf16", ml_dtypes.bfloat16),
    ([1.0, 2.5, -0.25, 0.125], "f8E3M4", ml_dtypes.float8_e3m4),
    ([1.5, -2.0, 0.5, 4.0], "f4E2M1FN", ml_dtypes.float4_e2m1fn),
    ([1 + 2j, -0.5j, complex(INF, 1), 3 + 0j], "complex<f64>", np.complex128),
])
@pytest.mark.parametrize("repeat", [1, 64])            # 64 copies: printed as a hex blob
@pytest.mark.every_case
def test_decode_dense_reads_what_mlir_prints(ctx, values, element, dtype, repeat):
    want = np.array(values * repeat, dtype=dtype).reshape(repeat, len(values))
    items = ", ".join(_literal(v, element) for v in values)
    rows = ", ".join([f"[{items}]"] * repeat)
    literal, type_ = _printed_constant(ctx, f"dense<[{rows}]>",
                                       f"tensor<{repeat}x{len(values)}x{element}>")
    got = decode_dense(literal, type_, np.dtype(dtype))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()            # bit for bit, NaN and -0.0 included


def _literal(v, element):
    if element == "i1":
        return "true" if v else "false"
    if element.startswith("complex"):
        return f"({_literal(v.real, 'f64')}, {_literal(v.imag, 'f64')})"
    if isinstance(v, float):
        if np.isnan(v):
            return "0x7FC0"
        if np.isinf(v):
            return "0x7FF0000000000000" if element == "f64" else "0x7F80"
        return repr(v)
    return str(v)


def test_decode_dense_splats_and_empty_tensors(ctx):
    assert (decode_dense("dense<2.5>", "tensor<2x3xf32>", np.dtype(np.float32)) == 2.5).all()
    assert decode_dense("dense<>", "tensor<0x2xi8>", np.dtype(np.int8)).shape == (0, 2)
    with pytest.raises(ConformanceError, match="needs 3"):
        decode_dense("dense<[1, 2]>", "tensor<3xi8>", np.dtype(np.int8))


# --- test-op syntax ------------------------------------------------------------------------------

SAMPLE = textwrap.dedent("""\
    func.func @one() {
      %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      check.expect_almost_eq_const %0,
          dense<[1.0, 2.0]> : tensor<2xf32> {tolerance = 0.5 : f64}
      check.expect_close %0, %0, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
      func.return
    }

    // -----

    func.func @two() {
      %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
      %1 = interpreter.probe %0, probe_id = "p" : tensor<2xi32>
      check.expect_serialized_eq %1, probe_id = "p", iter = 0 : tensor<2xi32>
      interpreter.print %1 : tensor<2xi32>
      func.return
    }
    """)


def test_chunks_keep_the_file_line_numbers(ctx):
    chunks = split_chunks(SAMPLE)
    assert [c.line for c in chunks] == [1, 9]      # a chunk starts right after `// -----`
    text = rewrite_test_ops(chunks[1].text)
    module = shlo.parse_module(text, context=shlo.context(allow_unregistered_dialects=True),
                               source_name="sample.mlir")
    func = module.body.operations[0]
    assert '"sample.mlir":11:' in str(func.location)
    assert text.count("\n") == chunks[1].text.count("\n")      # rewritten on the same lines


def test_check_ops_become_generic_ops_with_their_attributes():
    text = rewrite_test_ops(split_chunks(SAMPLE)[0].text)
    assert '"conformance.expect_almost_eq_const"(%0, %conformance_expected_3) ' \
           '{tolerance = 0.5 : f64}' in text
    assert '"conformance.expect_close"(%0, %0) {max_ulp_difference = 3, ' \
           'min_ulp_difference = 1} : (tensor<2xf32>, tensor<2xf32>) -> ()' in text
    probe = rewrite_test_ops(split_chunks(SAMPLE)[1].text)
    assert '%1 = "conformance.probe"(%0) {probe_id = "p"} : (tensor<2xi32>) -> tensor<2xi32>' \
        in probe
    assert '"conformance.print"(%1) : (tensor<2xi32>) -> ()' in probe


def test_a_malformed_check_names_its_line():
    with pytest.raises(ConformanceError, match="line 2: cannot read 'check.expect_eq"):
        rewrite_test_ops("func.func @f() {\n  check.expect_eq %0, %1\n}")


# --- instrumentation ----------------------------------------------------------------------------

def _instrument(source: str, options=Options()):
    ctx = shlo.context(allow_unregistered_dialects=True)
    module = shlo.parse_module(rewrite_test_ops(source), context=ctx)
    return module, instrument(module, 0, options)


def test_constants_become_arguments_and_expected_values_stay_on_the_host():
    module, (test,) = _instrument(textwrap.dedent("""\
        func.func @t() {
          %a = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
          %b = stablehlo.constant dense<[3, 4]> : tensor<2xi4>
          %c = stablehlo.convert %b : (tensor<2xi4>) -> tensor<2xui8>
          %d = stablehlo.add %a, %c : tensor<2xui8>
          check.expect_eq_const %d, dense<[4, 6]> : tensor<2xui8>
          func.return
        }"""))
    text = shlo.print_module(module)
    assert "stablehlo.constant" not in text                   # nothing left to fold
    assert [(e.element, e.carrier) for e in test.args] == [("ui8", None), ("i4", "i8")]
    assert [list(e.value) for e in test.args] == [[1, 2], [3, 4]]
    assert (test.checks[0].expected == [4, 6]).all() and test.checks[0].actual == 0
    assert "func.func @t(%arg0: tensor<2xui8>, %arg1: tensor<2xi8>) -> tensor<2xui8>" in text


def test_shape_operands_stay_constant():
    module, (test,) = _instrument(textwrap.dedent("""\
        func.func @t() {
          %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
          %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<3xi32>
          check.expect_eq_const %0, dense<[0, 1, 2]> : tensor<3xi32>
          func.return
        }"""))
    assert not test.args and "stablehlo.constant dense<3>" in shlo.print_module(module)


def test_a_custom_calls_scalar_flags_stay_constant_and_its_matrices_become_arguments():
    """jaxlib's old LAPACK calls take sizes and flags as scalar operands, which their
    decompositions read at compile time."""
    module, (test,) = _instrument(textwrap.dedent("""\
        func.func @t() {
          %lower = stablehlo.constant dense<1> : tensor<i32>
          %a = stablehlo.constant dense<[[4.0, 0.0], [2.0, 5.0]]> : tensor<2x2xf32>
          %0:2 = stablehlo.custom_call @lapack_spotrf(%lower, %lower, %lower, %a)
              : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
          check.expect_eq_const %0#1, dense<0> : tensor<i32>
          func.return
        }"""))
    assert [e.element for e in test.args] == ["f32"]
    assert "stablehlo.constant dense<1> : tensor<i32>" in shlo.print_module(module)


GATHER_PROGRAM = """\
    func.func @gather(%x: tensor<2xi64>, %t: !stablehlo.token) -> (!stablehlo.token, tensor<4xi64>) {
      %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
      return %t, %0 : !stablehlo.token, tensor<4xi64>
    }
"""


def test_communicating_programs_run_on_the_host_with_constant_operands():
    module, (test,) = _instrument(textwrap.dedent(GATHER_PROGRAM) + textwrap.dedent("""\
        func.func @main() {
          %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
          %b = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
          %t = stablehlo.after_all : !stablehlo.token
          %r:4 = "interpreter.run_parallel"(%a, %t, %b, %t) {programs = [[@gather], [@gather]]}
            : (tensor<2xi64>, !stablehlo.token, tensor<2xi64>, !stablehlo.token)
            -> (!stablehlo.token, tensor<4xi64>, !stablehlo.token, tensor<4xi64>)
          check.expect_eq_const %r#3, dense<[1, 2, 3, 4]> : tensor<4xi64>
          func.return
        }"""))
    run = test.parallel
    assert test.name == "main" and test.processes == 2 and not test.unsupported
    assert (run.replicas, run.partitions, run.programs) == (2, 1, ["gather", "gather"])
    assert [[list(v) for v in args] for args in run.inputs] == [[[1, 2]], [[3, 4]]]
    assert run.results == [None, (0, 0), None, (1, 0)]          # tokens have no value
    (check,) = test.checks
    assert check.actual == 3 and list(check.expected) == [1, 2, 3, 4]
    text = shlo.print_module(module)
    assert "mhlo.num_replicas = 2" in text and "@main" not in text
    assert "func.func @gather(%arg0: tensor<2xi64>) -> tensor<4xi64>" in text   # no tokens


def test_communicating_programs_need_constant_operands():
    _, (test,) = _instrument(textwrap.dedent(GATHER_PROGRAM) + textwrap.dedent("""\
        func.func @helper() -> tensor<2xi64> {
          %0 = stablehlo.constant dense<1> : tensor<2xi64>
          return %0 : tensor<2xi64>
        }
        func.func @main() {
          %0 = func.call @helper() : () -> tensor<2xi64>
          %t = stablehlo.after_all : !stablehlo.token
          %r:4 = "interpreter.run_parallel"(%0, %t, %0, %t) {programs = [[@gather], [@gather]]}
            : (tensor<2xi64>, !stablehlo.token, tensor<2xi64>, !stablehlo.token)
            -> (!stablehlo.token, tensor<4xi64>, !stablehlo.token, tensor<4xi64>)
          check.expect_eq_const %r#1, dense<1> : tensor<4xi64>
          func.return
        }"""))
    assert test.parallel is None
    assert test.unsupported == "unsupported: a run_parallel operand that is not a constant"


def test_a_check_inside_a_region_is_unsupported_and_arguments_are_skipped():
    _, tests = _instrument(textwrap.dedent("""\
        func.func @nested() {
          %p = stablehlo.constant dense<true> : tensor<i1>
          "stablehlo.if"(%p) ({
            %0 = stablehlo.constant dense<1> : tensor<i32>
            check.expect_eq_const %0, dense<1> : tensor<i32>
            stablehlo.return
          }, {
            stablehlo.return
          }) : (tensor<i1>) -> ()
          func.return
        }
        func.func @takes(%a: tensor<i32>) {
          func.return
        }"""))
    nested, = tests                  # @takes is referenced by nothing but has arguments
    assert nested.unsupported.startswith("unsupported: check.expect_eq_const inside a region")


# --- running -------------------------------------------------------------------------------------

def test_a_file_compiles_once_and_a_failing_chunk_does_not_sink_the_others(tmp_path):
    path = tmp_path / "mixed.mlir"
    path.write_text(textwrap.dedent("""\
        func.func @good() {
          %0 = stablehlo.constant dense<[1.0, 4.0]> : tensor<2xf32>
          %1 = stablehlo.sqrt %0 : tensor<2xf32>
          check.expect_almost_eq_const %1, dense<[1.0, 2.0]> : tensor<2xf32>
          func.return
        }

        // -----

        func.func @cannot_compile() {
          %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
          %c = stablehlo.constant dense<0.0> : tensor<f32>
          %1 = "stablehlo.reduce_window"(%0, %c) <{window_dimensions = array<i64: 2>,
                padding = dense<[[1, 0]]> : tensor<1x2xi64>}> ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            %o = stablehlo.sine %s : tensor<f32>
            stablehlo.return %o : tensor<f32>
          }) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
          check.expect_almost_eq_const %1, dense<[1.0, 2.0]> : tensor<2xf32>
          func.return
        }
        """))
    events = []
    FileRun(str(path), "mixed.mlir", "cpu", events.append).run()
    compiles = [e for e in events if e["event"] == "phase" and "compiling" in e["what"]]
    outcomes = {e["function"]: e for e in events if e["event"] == "outcome"}
    assert outcomes["good"]["status"] == "passed"
    assert outcomes["cannot_compile"]["status"] == "failed"
    assert outcomes["cannot_compile"]["cause"] == "compile"
    assert outcomes["cannot_compile"]["line"] == 10
    assert len(compiles) == 2                 # the file, then the file without the bad chunk
    # (IREE 3.13 cannot compile a sine, as shlo expands it, in a cumulative window's body)


@pytest.mark.slow
def test_a_hanging_function_times_out_and_finished_ones_are_kept(tmp_path):
    from shlo.tools.conformance_runner import Runner
    path = tmp_path / "hang.mlir"
    path.write_text(textwrap.dedent("""\
        func.func @quick() {
          %0 = stablehlo.constant dense<2> : tensor<i32>
          check.expect_eq_const %0, dense<2> : tensor<i32>
          func.return
        }

        // -----

        func.func @forever() {
          %zero = stablehlo.constant dense<0> : tensor<i32>
          %ten = stablehlo.constant dense<10> : tensor<i32>
          %r = stablehlo.while(%i = %zero) : tensor<i32>
          cond {
            %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
            stablehlo.return %c : tensor<i1>
          } do {
            %n = stablehlo.add %i, %zero : tensor<i32>
            stablehlo.return %n : tensor<i32>
          }
          check.expect_eq_const %r, dense<10> : tensor<i32>
          func.return
        }
        """))
    outcomes = Runner("cpu", jobs=1, timeout=10).run([(str(path), "hang.mlir")])
    by_name = {o.function: o for o in outcomes}
    assert by_name["quick"].status == "passed"
    assert by_name["forever"].cause == "timeout" and by_name["forever"].line == 9
    assert "no result within 10 s while running @forever" in by_name["forever"].message


def test_custom_call_checks_that_return_their_verdict_run_in_a_worker(tmp_path, monkeypatch):
    """StableHLO's testdata returns `custom_call @check.eq`'s i1 from `@main`. Erasing such a
    check while the return still read it corrupted the heap: the worker died at a later malloc
    ("unaligned tcache chunk"). glibc's malloc checks, where the system has them, make that
    deterministic; a cold cache makes the worker compile."""
    from shlo.tools.conformance_runner import Runner
    path = tmp_path / "testdata.mlir"
    path.write_text(textwrap.dedent("""\
        module @jit_testcase {
          func.func public @main() -> tensor<i1> {
            %0 = stablehlo.constant dense<[1.5, -2.0, 3.0]> : tensor<3xf32>
            %1 = stablehlo.constant dense<[1.5, 2.0, 3.0]> : tensor<3xf32>
            %2 = stablehlo.abs %0 : tensor<3xf32>
            %3 = stablehlo.custom_call @check.eq(%2, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<i1>
            return %3 : tensor<i1>
          }
        }

        // -----

        func.func @main() -> tensor<i1> {
          %0 = stablehlo.constant dense<[1, -2]> : tensor<2xi32>
          %1 = stablehlo.negate %0 : tensor<2xi32>
          %2 = stablehlo.custom_call @check.eq(%1, %1) : (tensor<2xi32>, tensor<2xi32>) -> tensor<i1>
          %3 = stablehlo.custom_call @check.eq(%1, %0) : (tensor<2xi32>, tensor<2xi32>) -> tensor<i1>
          %4 = stablehlo.and %2, %3 : tensor<i1>
          return %4 : tensor<i1>
        }
        """))
    monkeypatch.setenv("SHLO_CACHE_DIR", str(tmp_path / "cache"))
    if os.path.exists(MALLOC_DEBUG):
        monkeypatch.setenv("LD_PRELOAD", MALLOC_DEBUG)
        monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.check=3")
    outcomes = Runner("cpu", jobs=1).run([(str(path), "testdata.mlir")])
    assert [(o.line, o.status, o.cause) for o in outcomes] == \
        [(2, "passed", ""), (13, "failed", "mismatch")]
    assert "custom_call @check.eq at line 17" in outcomes[1].message


def test_quantized_tests_are_skipped_by_the_reference_target_and_say_why(tmp_path):
    path = tmp_path / "quantized.mlir"
    path.write_text(textwrap.dedent("""\
        func.func @main() {
          %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
          %1 = stablehlo.uniform_quantize %0 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.05:0>>
          %2 = stablehlo.uniform_dequantize %1 : (tensor<2x!quant.uniform<i8:f32, 0.05:0>>) -> tensor<2xf32>
          check.expect_almost_eq_const %2, dense<[1.0, 2.0]> : tensor<2xf32>
          func.return
        }
        """))
    events = []
    FileRun(str(path), "quantized.mlir", "reference", events.append).run()
    outcome, = [e for e in events if e["event"] == "outcome"]
    assert (outcome["status"], outcome["cause"]) == ("skipped", "reference")
    assert "no quant dialect" in outcome["message"]


def test_forms_of_older_test_files_run(tmp_path):
    """StableHLO's interpreter tests of 2023: `check.almost_eq` (before `expect_`), checks on
    tokens, and run_parallel naming its programs (and infeed functions) as strings, or its
    programs as one row for `num_replicas` replicas."""
    path = tmp_path / "old.mlir"
    path.write_text(textwrap.dedent("""\
        func.func @real() {
          %0 = stablehlo.constant dense<[0.5, -2.0]> : tensor<2xf64>
          %1 = stablehlo.real %0 : tensor<2xf64>
          check.almost_eq %1, dense<[0.5, -2.0]> : tensor<2xf64>
          check.eq %1, dense<[0.5, -2.5]> : tensor<2xf64>
          func.return
        }

        // -----

        func.func @tokens() {
          %a = stablehlo.after_all : !stablehlo.token
          %b = stablehlo.after_all %a, %a : !stablehlo.token
          check.expect_eq %b, %a : !stablehlo.token
          func.return
        }

        // -----

        module @distribution_ops {
          func.func public @replica_id() -> tensor<ui32> {
            %result = stablehlo.replica_id : tensor<ui32>
            return %result : tensor<ui32>
          }
          func.func public @main() {
            %results:2 = "interpreter.run_parallel"() {
              programs=["replica_id"], num_replicas=2, num_partitions=1
            } : () -> (tensor<ui32>, tensor<ui32>)
            check.expect_eq_const %results#0, dense<0> : tensor<ui32>
            check.expect_eq_const %results#1, dense<1> : tensor<ui32>
            %named:2 = "interpreter.run_parallel"() {
              programs=[["replica_id"], ["replica_id"]]
            } : () -> (tensor<ui32>, tensor<ui32>)
            check.expect_eq_const %named#1, dense<1> : tensor<ui32>
            func.return
          }
        }

        // -----

        module @fed {
          func.func public @reader(%t: !stablehlo.token) -> (tensor<2xi64>, !stablehlo.token) {
            %r:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
            return %r#0, %r#1 : tensor<2xi64>, !stablehlo.token
          }
          func.func public @queue() -> tensor<2xi64> {
            %q = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
            return %q : tensor<2xi64>
          }
          func.func public @main() {
            %t = stablehlo.after_all : !stablehlo.token
            %r:2 = "interpreter.run_parallel"(%t) {programs=[["reader"]], infeed=["queue"]}
                : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
            check.expect_eq_const %r#0, dense<[5, 6]> : tensor<2xi64>
            func.return
          }
        }
        """))
    events = []
    FileRun(str(path), "old.mlir", "cpu", events.append).run()
    outcomes = {e["function"]: e for e in events if e["event"] == "outcome"}
    assert outcomes["real"]["status"] == "failed" and "line 5" in outcomes["real"]["message"]
    assert outcomes["tokens"]["status"] == "passed"
    mains = [e for e in events if e["event"] == "outcome" and e["function"] == "main"]
    assert [e["status"] for e in mains] == ["passed", "passed"], mains


# --- ledgers -------------------------------------------------------------------------------------

def _outcome(test_id, status):
    return Outcome("f.mlir", 1, test_id.split("::")[1], test_id, "cpu", status)


def test_a_ledger_flags_new_failures_and_unexpected_passes(tmp_path):
    ledger = tmp_path / "ledger.txt"
    ledger.write_text("# comment\nf.mlir::a  known gap\nf.mlir::b  fixed by now\n")
    entries = read_ledger(str(ledger))
    verdict = judge([_outcome("f.mlir::a", "failed"), _outcome("f.mlir::b", "passed"),
                     _outcome("f.mlir::c", "failed"), _outcome("f.mlir::d", "skipped")],
                    entries)
    assert [o.id for o in verdict.new_failures] == ["f.mlir::c"]
    assert [o.id for o in verdict.unexpected_passes] == ["f.mlir::b"]
    assert judge([_outcome("f.mlir::a", "failed")], entries).ok       # b was not run


def test_a_flaky_ledger_entry_may_pass_or_fail(tmp_path):
    ledger = tmp_path / "ledger.txt"
    ledger.write_text("f.mlir::a  flaky: reads uninitialised memory\n")
    entries = read_ledger(str(ledger))
    assert judge([_outcome("f.mlir::a", "passed")], entries).ok
    assert judge([_outcome("f.mlir::a", "failed")], entries).ok


@pytest.mark.parametrize("text, error", [
    ("f.mlir::a\n", "f.mlir::a' needs a reason"),
    ("f.mlir::a  x\nf.mlir::a  y\n", "listed twice"),
])
@pytest.mark.every_case
def test_a_ledger_entry_needs_one_line_and_a_reason(tmp_path, text, error):
    ledger = tmp_path / "ledger.txt"
    ledger.write_text(text)
    with pytest.raises(ConformanceError, match=error):
        read_ledger(str(ledger))


def test_the_command_line_reports_bad_arguments_in_one_line(capsys, tmp_path):
    from shlo.tools.shlo_conformance import main
    assert main(["--target", "tpu", str(tmp_path)]) == 2
    assert "unknown target 'tpu'" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.mlir")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    os.mkdir(empty)
    assert main([str(empty)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 0 failed, 0 skipped"


def test_complex_almost_eq_forms_run(tmp_path):
    """check.expect_almost_eq[_const] on complex tensors in the forms test files write them
    (lists, splats, hex blobs, NaN/inf bit patterns, a tolerance attribute, a literal over
    two lines, the older check.almost_eq): each passes, and a wrong part fails."""
    blob = "0x" + np.array([1 + 2j, 3 - 4j], np.complex64).tobytes().hex().upper()
    path = tmp_path / "complex.mlir"
    forms = [
        "dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>",
        f'dense<"{blob}"> : tensor<2xcomplex<f32>>',
        "dense<[(1.0, 2.0),\n      (3.0, -4.0)]> : tensor<2xcomplex<f32>>",
        "dense<[(1.0, 2.0), (3.0, -4.05)]> : tensor<2xcomplex<f32>> {tolerance = 0.1 : f64}",
        "dense<[(1.0, 2.0), (3.0, -4.05)]> : tensor<2xcomplex<f32>>",
    ]
    chunks = [textwrap.dedent(f"""\
        func.func @form{i}() {{
          %0 = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
          check.expect_almost_eq_const %0, {form}
          func.return
        }}""") for i, form in enumerate(forms)]
    chunks.append(textwrap.dedent("""\
        func.func @special() {
          %0 = stablehlo.constant dense<(0x7FF0000000000000, 0x7FF8000000000000)> : tensor<2xcomplex<f64>>
          %1 = stablehlo.constant dense<(0x7FF0000000000000, 0x7FF8000000000000)> : tensor<2xcomplex<f64>>
          check.expect_almost_eq %0, %1, tolerance = 0.1 : tensor<2xcomplex<f64>>
          check.almost_eq %0, dense<(0x7FF0000000000000, 0x7FF8000000000000)> : tensor<2xcomplex<f64>>
          func.return
        }"""))
    path.write_text("\n\n// -----\n\n".join(chunks) + "\n")
    events = []
    FileRun(str(path), "complex.mlir", "reference", events.append).run()
    outcomes = {e["function"]: e["status"] for e in events if e["event"] == "outcome"}
    assert outcomes == {"form0": "passed", "form1": "passed", "form2": "passed",
                        "form3": "passed", "form4": "failed", "special": "passed"}
