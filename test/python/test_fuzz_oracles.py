"""shlo-fuzz's lazy oracles (the loop's default): XLA runs only for a program the reference
interpreter does not answer or whose target disagrees with it; a disagreement is still judged
against both."""
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
    for i in range(200):
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
