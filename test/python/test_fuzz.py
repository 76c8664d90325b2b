"""shlo-fuzz: programs are valid and deterministic per seed, the loop runs on cpu and vulkan
against the reference interpreter and XLA, a planted miscompilation is found and shrunk to a
minimal program, a crash of the child process is reported, not fatal."""
import io

import numpy as np
import pytest
from conftest import vulkan_or_skip
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz import program as P
from shlo.tools.fuzz.compare import OutputMeta, compare, meta_of
from shlo.tools.fuzz.runner import InProcess, Result, Worker
from shlo.tools.fuzz.shrink import _cut_stage, shrink


def _same(a: P.Program, b: P.Program) -> bool:
    return a.describe() == b.describe() and all(
        x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True)
        for x, y in zip(a.inputs, b.inputs))


def test_programs_are_valid_and_deterministic_per_seed():
    kinds = set()
    for i in range(60):
        a, b = P.random_program(f"7:{i}"), P.random_program(f"7:{i}")
        assert _same(a, b)
        built = P.build(a)
        assert str(built.module) == str(P.build(b).module)
        assert built.fallbacks == []
        P.build(a, exchange=True)       # the interpreter's form builds too
        kinds |= {n.kind for n in a.nodes}
    assert kinds == set(P.OPS)
    assert not _same(P.random_program("7:0"), P.random_program("8:0"))


def test_compare_rules():
    f32 = OutputMeta("F32", 0.0, False, False)
    one = {"reference": [np.array([1.0, np.nan], np.float32)]}
    assert compare([np.array([1.0, np.nan], np.float32)], one, [f32]) is None
    assert "1 of 2" in compare([np.array([1.0, 2.0], np.float32)], one, [f32])
    # exact values: one ULP off is a mismatch; with an error estimate it is not
    off = np.nextafter(np.float32(1), np.float32(2))
    assert compare([np.array([off, np.nan], np.float32)], one, [f32])
    assert compare([np.array([off, np.nan], np.float32)], one,
                   [OutputMeta("F32", 1e-7, False, False)]) is None
    # an infinity is never close to a finite value, whatever the tolerance
    inf = {"reference": [np.array([np.inf], np.float32)]}
    assert compare([np.array([3e38], np.float32)], inf, [OutputMeta("F32", 0.1, True, False)])
    # close to either oracle; subnormals count as zero
    both = {"reference": [np.array([1e-40], np.float32)], "xla": [np.array([0.0], np.float32)]}
    assert compare([np.array([0.0], np.float32)], both, [f32]) is None
    # a cancelling complex value: each part's tolerance is relative to the largest |z|
    c64 = OutputMeta("C64", 1e-6, True, False)
    fft = {"xla": [np.array([13, 0, 0], np.complex64)]}
    assert compare([np.array([13, 3e-7 - 2e-7j, 0], np.complex64)], fft, [c64]) is None
    assert compare([np.array([13, 1e-3j, 0], np.complex64)], fft, [c64])
    # a complex NaN is one value: -0+nanj agrees with nan+nanj, inf+nanj does not
    nan = {"xla": [np.array([complex(np.nan, np.nan)], np.complex64)]}
    assert compare([np.array([complex(-0.0, np.nan)], np.complex64)], nan, [c64]) is None
    assert compare([np.array([complex(np.inf, np.nan)], np.complex64)], nan, [c64])
    ints = {"reference": [np.arange(300, dtype=np.int32)]}
    got = np.arange(300, dtype=np.int32)
    got[5] += 1
    assert compare([got], ints, [OutputMeta("S32", 0.0, False, False)])
    assert compare([got], ints, [OutputMeta("S32", 0.0, False, True)]) is None


def test_fuzz_runs_on_cpu():
    out = io.StringIO()
    result = fuzz.run(10, 3, ["cpu"], max_elements=4096, max_nodes=5, stream=out)
    assert result["programs"] == 10
    assert result["summary"].startswith("10 programs, 0 mismatches, 0 crashes, 0 errors")
    assert "10/10" in out.getvalue()


def test_fuzz_runs_on_vulkan():
    vulkan_or_skip()
    result = fuzz.run(5, 3, ["vulkan"], max_elements=4096, max_nodes=5, stream=io.StringIO())
    assert result["summary"].startswith("5 programs, 0 mismatches, 0 crashes, 0 errors")


def _planted_failure(fuzzer, op: str, min_nodes: int):
    """The first failure `fuzzer` finds in random programs with `op` among at least
    `min_nodes` nodes."""
    for i in range(200):
        p = P.random_program(f"planted:{i}", max_elements=4096, max_nodes=8)
        text = str(P.build(p, 4096).module)
        # (the fake target runs the interpreter, which takes no complex or bf16 arrays)
        if len(p.nodes) < min_nodes or f"stablehlo.{op} " not in text or "complex" in text \
                or "bf16" in text:
            continue
        found = fuzzer.check(p).findings
        if found:
            return found[0]
    raise AssertionError(f"no failing program with {op}")


def test_shrinker_reduces_a_planted_miscompilation(tmp_path):
    """A fake target computes `minimum` as `maximum` (the reference interpreter on the
    swapped program): the fuzzer reports a mismatch and shrinks it to that one op. (Not
    `maximum`: the generator's scaling of inexact values takes a maximum, which a one-node
    program of such a value keeps.)"""
    fuzzer = fuzz.Fuzzer(["fake-swap:minimum:maximum"], InProcess(), max_elements=4096)
    found = _planted_failure(fuzzer, "minimum", 4)
    assert found.kind == "mismatch"
    small = shrink(fuzzer, found, max_tests=150)
    assert fuzzer.reproduces(found, small.program)
    text = str(P.build(small.program, 4096).module)
    assert "stablehlo.minimum" in text
    assert len(small.program.nodes) == 1 < len(found.program.nodes)
    assert sum(a.size for a in small.program.inputs) <= sum(a.size for a in found.program.inputs)
    where = fuzz.write_reproducer(fuzzer, small, str(tmp_path / "repro"))
    assert fuzz.replay(where, worker=InProcess())
    assert fuzz.replay(where, "fake-swap:minimum:minimum", InProcess()) is None


def test_shrinker_cuts_an_inner_value_into_a_parameter():
    """The shrinker's cut stage: an inner node replaced by a parameter holding its XLA value
    leaves a smaller program with the same outputs (XLA on both, the fuzzer's tolerances)."""
    worker = InProcess()
    fuzzer = fuzz.Fuzzer(["cpu"], worker, max_elements=4096)
    cut = 0
    for i in range(12):
        prog = P.random_program(f"3:{i}", 4096, 4)
        if all(n.id in prog.outputs for n in prog.nodes):
            continue
        built = P.build(prog, 4096)
        want = worker.call("xla", str(built.module), list(prog.inputs)).values()
        metas = meta_of(prog, built.vals)
        for c in _cut_stage(prog, fuzzer):
            assert len(c.nodes) < len(prog.nodes) and c.outputs == prog.outputs
            got = worker.call("xla", str(P.build(c, 4096).module), list(c.inputs)).values()
            assert compare(got, {"xla": want}, metas) is None, (i, c.describe())
            cut += 1
        if cut >= 3:
            break
    assert cut >= 3


def test_a_crashing_child_is_reported_not_fatal():
    out = io.StringIO()
    result = fuzz.run(2, 0, ["fake-crash:any"], shrink_tests=0, stream=out,
                      worker=Worker(timeout_s=120))
    assert result["programs"] == 2 and result["crashes"] == 2
    assert all("SIGABRT" in f.detail for f, _, _ in result["findings"])
    with pytest.raises(RuntimeError, match="'crash', not 'ok' with outputs: worker died"):
        Result("crash", error="worker died").values()


def test_reproducers_keep_bf16_and_complex_inputs(tmp_path):
    import ml_dtypes
    program = P.Program([P.Param("p0", (3,), "BF16"), P.Param("p1", (2,), "C64")],
                        [P.Node("n0", "reverse", ["p0"], 1)], ["n0", "p1"],
                        [np.array([1, 2.5, -3], ml_dtypes.bfloat16),
                         np.array([1 + 2j, -1j], np.complex64)])
    finding = fuzz.Finding("error", "cpu", "planted", program)
    where = fuzz.write_reproducer(fuzz.Fuzzer(["cpu"], InProcess()), finding, str(tmp_path))
    _, _, inputs, metas, _ = fuzz.load_reproducer(where)
    assert [a.dtype for a in inputs] == [np.dtype(ml_dtypes.bfloat16), np.dtype(np.complex64)]
    assert all(np.array_equal(a, b) for a, b in zip(inputs, program.inputs))
    assert [m.dtype for m in metas] == ["BF16", "C64"]


def test_a_wrong_second_call_is_a_mismatch():
    """shlo's targets run each program twice: a second call that differs from the first and
    from the oracles is reported (IREE's memoized command buffers made later calls wrong on
    Vulkan), a second call like the first is not kept, and a right first call does not hide
    a wrong second one."""
    from shlo.tools.fuzz.worker import _twice
    calls = []

    def drifting(x):
        calls.append(1)
        return x + len(calls) - 1          # the second call adds 1
    run = _twice(drifting, [np.arange(4, dtype=np.float32)])
    np.testing.assert_array_equal(run.outputs[0], np.arange(4))
    np.testing.assert_array_equal(run.repeat[0], np.arange(4) + 1)
    assert _twice(lambda x: np.full(3, np.nan), [np.zeros(3)]).repeat is None
    fuzzer = fuzz.Fuzzer(["cpu"], InProcess(), max_elements=4096)
    program = P.random_program("5:0", 4096, 3)
    right = fuzzer.check(program).oracles
    want = right.get("reference") or right["xla"]
    wrong = [np.asarray(w) + 1 if np.asarray(w).dtype.kind in "fiuc" else ~np.asarray(w)
             for w in want]
    found = fuzzer.check(program, given={"cpu": Result("ok", outputs=want, repeat=wrong)})
    assert [f.kind for f in found.findings] == ["mismatch"]
    assert found.findings[0].detail.startswith("on the second call: ")
    assert not fuzzer.check(program, given={"cpu": Result("ok", outputs=want)}).findings


@pytest.mark.parametrize("kind", ["cholesky", "triangular_solve"])
def test_linear_algebra_programs_agree_and_a_wrong_factor_is_found(kind):
    """Cholesky factors and triangular solves of well-conditioned matrices made of f32 data
    (batched, both triangles) agree with XLA on cpu; a result 1e-3 off in one element does
    not."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 40)).astype(np.float32)
    fuzzer = fuzz.Fuzzer(["cpu"])
    try:
        for seed in range(4):
            program = P.Program([P.Param("p0", x.shape, "F32")],
                                [P.Node("n0", kind, ["p0"] * P.ARITY[kind], 97 * seed + 1)],
                                ["n0"], [x])
            assert f"stablehlo.{kind}" in str(P.build(program).module)
            checked = fuzzer.check(program)
            assert checked.findings == [] and checked.oracles["xla"] is not None
            got = np.array(InProcess().call("cpu", str(P.build(program).module), [x]).values()[0])
            got.flat[np.argmax(np.abs(got))] *= 1 + 1e-3
            metas = meta_of(program, P.build(program).vals)
            assert compare([got], checked.oracles, metas) is not None
    finally:
        fuzzer.close()


def test_identity_operands_return_the_other_operand():
    """The generator's identity constants (`identity_value`) leave every value as it is, -0,
    infinities, NaN and the integer extremes included (numpy); +0.0 for a float sum is the
    look-alike that does not."""
    ops = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Pow": np.power,
           "Max": np.maximum, "Min": np.minimum, "And": np.bitwise_and, "Or": np.bitwise_or,
           "Xor": np.bitwise_xor, "ShiftLeft": np.left_shift,
           "ShiftRightArithmetic": np.right_shift, "ShiftRightLogical": np.right_shift}
    checked = 0
    for dtype in P.DTYPES:
        t = P.NUMPY[dtype]
        if dtype in P.INTS:
            info = np.iinfo(t)
            x = np.array([0, 1, 7, info.min, info.max, info.max // 3], t)
        elif dtype == "PRED":
            x = np.array([False, True])
        else:
            x = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-30], t)
        names = {"PRED": P.BINARY_PRED, "C64": P.BINARY_COMPLEX}.get(
            dtype, P.BINARY_INT if dtype in P.INTS else P.BINARY_FLOAT)
        for name in names:
            value = P.identity_value(name, dtype)
            if value is None:
                continue
            op = ops.get(name, np.floor_divide if dtype in P.INTS else np.true_divide)
            if dtype == "PRED":
                op = {"And": np.logical_and, "Min": np.logical_and}.get(name, np.logical_or)
            with np.errstate(all="ignore"):
                got = op(x, np.array(value).astype(t))
            assert got.dtype == x.dtype and got.tobytes() == x.tobytes(), (dtype, name)
            checked += 1
    assert checked > 80
    with np.errstate(all="ignore"):
        assert np.signbit(np.float32(-0.0) + np.float32(P.identity_value("Add", "F32", True))) \
            == np.False_
