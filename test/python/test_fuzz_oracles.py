"""shlo-fuzz's lazy oracles (the loop's default): XLA runs only for a program the reference
interpreter does not answer or whose target disagrees with it; a disagreement is still judged
against both."""
import numpy as np
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz import program as P
from shlo.tools.fuzz.runner import InProcess


class _Counting(InProcess):
    """InProcess that records the kind of every call."""

    def __init__(self):
        self.kinds: list[str] = []

    def call(self, kind, text, inputs, timeout_s=None):
        self.kinds.append(kind)
        return super().call(kind, text, inputs, timeout_s)


def test_xla_runs_only_where_the_interpreter_disagrees():
    for i in range(1000):
        program = P.random_program(f"planted:{i}", max_elements=4096, max_nodes=8)
        built = P.build(program, 4096)
        text = str(built.module)
        # (the fake targets run the interpreter, which takes no complex or bf16 arrays)
        if "stablehlo.minimum " not in text or "complex" in text or "bf16" in text or \
                not fuzz.interpretable(text) or built.xla_wrong:
            continue
        wrong = _Counting()
        checked = fuzz.Fuzzer(["fake-swap:minimum:maximum"], wrong, 4096, lazy=True).check(program)
        if checked.findings:
            break
    else:
        raise AssertionError("no program where minimum -> maximum changes the result")
    assert [f.kind for f in checked.findings] == ["mismatch"]
    assert wrong.kinds.count("xla") == 1 and checked.oracles.get("xla") is not None
    agree = _Counting()
    checked = fuzz.Fuzzer(["fake-swap:minimum:minimum"], agree, 4096, lazy=True).check(program)
    assert checked.findings == [] and agree.kinds.count("reference") == 1
    assert "xla" not in agree.kinds and "xla" not in checked.oracles


def test_max_reduce_without_the_interpreter_is_checked_by_xla():
    """A float max/min reduce with NaN (XLA's CPU drops NaN) in a program the interpreter does
    not run (an fft): built xla_safe, the reduce reads NaN as 0 and XLA checks the program (2.75%
    of random programs, seed 47, had no oracle at all before)."""
    x = np.random.default_rng(0).uniform(-4, 4, (8, 16)).astype(np.float32)
    x[1, 3], x[5, 0] = np.nan, -np.inf
    for seed in range(200):
        program = P.Program([P.Param("p0", x.shape, "F32")],
                            [P.Node("n1", "reduce", ["p0"], seed),
                             P.Node("n2", "fft", ["p0"], 1)], ["n1", "n2"], [x])
        if P.build(program).xla_wrong:
            break
    else:
        raise AssertionError("no node seed gives a float max/min reduce")
    fuzzer = fuzz.Fuzzer(["cpu"], lazy=True)
    try:
        built, text, _ = fuzzer.texts(program)
        assert built.xla_wrong == [] and "stablehlo.fft" in text
        checked = fuzzer.check(program)
    finally:
        fuzzer.close()
    assert checked.findings == [] and checked.oracles.get("xla") is not None


def test_the_scale_of_a_real_part_is_the_complex_magnitude():
    """A real part (a convert of complex values) errs relative to |z|: its scale is the
    complex value's largest magnitude, 8 for the FFT of 8 values of 1j, not the largest real
    part (about 0: the complex array was cast to real, seed 162's ComplexWarning)."""
    x = (1j * np.ones((4, 8))).astype(np.complex64)
    program = P.Program([P.Param("p0", x.shape, "C64")],
                        [P.Node("n1", "fft", ["p0"], 1), P.Node("n2", "convert", ["n1"], 2)],
                        ["n2"], [x])
    built = P.build(program)
    assert built.vals["n2"].scale == "n1" and "type = FFT" in str(built.module)
    checker = fuzz.Fuzzer(["cpu"])
    try:
        metas = checker.scaled(program, built, fuzz.meta_of(program, built.vals))
    finally:
        checker.close()
    assert metas[0].scale == 8.0
