"""Cross-check shlo's builders against real programs: every StableHLO/CHLO op in every function
of the StableHLO interpreter tests (../shared/conformance/stablehlo-interpret) is rebuilt
through its shlo builder (shlo.dialect.rebuild: the parsed op's operands, attributes decoded
back to keywords, regions cloned) right before the original; the result types shlo infers must
equal the file's.

Where the spec leaves a result open, the rebuild classifies instead of failing, and each class
is limited to the ops that may be in it:
  refined       shlo infers a dynamic dimension the file makes static (the number of processes
                is not in the module: collectives with cross-partition groups);
  element free  the spec fixes only the result's shape (dot_general, convolution: i8 x i8 ->
                i32): shapes must agree, the element type is the file's;
  given         the builder needs result_type= (quantized add: the result's scale and zero
                point are free); it is given the file's types and still runs every check.
`check.*` ops (IREE registers a `check` dialect of its own) are dropped before parsing and the
`interpreter.*` ops rewritten to their generic form, in a context of their own that allows
unregistered dialects.
"""
import collections
import os
import re

import pytest
from iree.compiler import ir

import shlo
from conftest import CONFORMANCE_SUITE, conformance_suite_or_skip
from shlo.dialect import ConstraintError
from shlo.dialect import rebuild as R
from shlo.dialect import types as T

ROOT = CONFORMANCE_SUITE
FILES = sorted(os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(ROOT)
               for f in fs if f.endswith(".mlir"))
CTX = shlo.context()
CTX.allow_unregistered_dialects = True

REFINED_OK = {"stablehlo.all_gather", "stablehlo.reduce_scatter", "stablehlo.all_to_all"}
ELEMENT_FREE = {"stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution",
                "stablehlo.dynamic_conv", "chlo.ragged_dot"}
GIVEN_OK = {"stablehlo.add": "quantized add: the result's scale and zero point are free"}
SUMMARY = collections.Counter()


def strip(text: str) -> str:
    """Drop `check.*` statements (possibly multi-line); interpreter.probe/print to generic."""
    text = re.sub(r"(%\w+) = interpreter\.probe (%\w+), probe_id = (\"[^\"]*\") : (\S+)",
                  r'\1 = "interpreter.probe"(\2) {probe_id = \3} : (\4) -> \4', text)
    text = re.sub(r"interpreter\.print (%\w+) : (\S+)", r'"interpreter.print"(\1) : (\2) -> ()',
                  text)
    out, depth, skipping = [], 0, False
    for line in text.split("\n"):
        if not skipping and re.match(r"\s*check\.\w+", line):
            skipping, depth = True, 0
        if skipping:
            depth += line.count("[") - line.count("]") + line.count("(") - line.count(")")
            if depth <= 0 and re.search(r":\s*(tensor|tuple|!)", line.split("//")[0]):
                skipping = False
            continue
        out.append(line)
    return "\n".join(out)


def chunks(path: str):
    with open(os.path.join(ROOT, path)) as f:
        return [c for c in strip(f.read()).split("// -----") if c.strip()]


def classify(op) -> tuple[str, str]:
    """(class, detail) of rebuilding `op`."""
    want = [r.type for r in op.results]
    try:
        out = R.rebuild(op)
    except ConstraintError as e:
        if op.name not in GIVEN_OK:
            return "failed", str(e)
        out = R.rebuild(op, result_type=want if len(want) > 1 else want[0])
        got = _types(out)
        _erase(out)
        return ("given", GIVEN_OK[op.name]) if got == want else ("failed", f"{got} != {want}")
    got = _types(out)
    _erase(out)
    if got == want:
        return "inferred", ""
    if len(got) == len(want) and all(_refines(w, g) for w, g in zip(want, got)):
        return ("refined", f"{got}") if op.name in REFINED_OK else ("failed", f"{got}")
    if op.name in ELEMENT_FREE and all(T.shape(g) == T.shape(w) for g, w in zip(got, want)):
        return "element free", f"{T.elem(got[0])} -> {T.elem(want[0])}"
    return "failed", f"inferred {[str(t) for t in got]}, file has {[str(t) for t in want]}"


def _types(out) -> list:
    values = [out] if isinstance(out, ir.Value) else list(out) if isinstance(out, tuple) else []
    return [v.type for v in values]


def _erase(out):
    if isinstance(out, ir.Value):
        out.owner.erase()
    elif isinstance(out, tuple) and out:
        out[0].owner.erase()
    elif out is not None:
        out.erase()


def _refines(file_type, inferred) -> bool:
    return (T.is_ranked_tensor(file_type) and T.is_ranked_tensor(inferred)
            and T.elem(file_type) == T.elem(inferred)
            and T.same_shape(T.shape(file_type), T.shape(inferred)))


def _ops(module) -> list:
    found = []

    def visit(o):
        if o.name in R.OPDEFS and o.name != "stablehlo.return":
            found.append(o)
        return ir.WalkResult.ADVANCE
    module.operation.walk(visit)
    return found


@pytest.mark.parametrize("path", FILES)
@pytest.mark.every_case
def test_inferred_types_match_the_file(path):
    results = collections.Counter()
    failures = []
    for i, chunk in enumerate(chunks(path)):
        module = ir.Module.parse(chunk, CTX)
        for op in _ops(module):
            with CTX:
                kind, detail = classify(op)
            results[kind] += 1
            if kind == "failed":
                failures.append(f"#{i} {op.name}: {detail}")
    SUMMARY.update(results)
    assert not failures, "\n".join(failures)


def test_every_file_is_read_and_most_ops_are_inferred():
    """All 103 files parse (the tests above parse them); over the whole corpus, inference
    alone gives the file's types for nearly every op."""
    conformance_suite_or_skip()
    assert len(FILES) >= 100
    total = sum(SUMMARY.values())
    if total:     # only when the per-file tests ran in this session
        print(f"\nconformance cross-check: {dict(SUMMARY)}")
        assert SUMMARY["inferred"] / total > 0.99
