"""The shared StableHLO interpret suite through shlo-conformance, judged by the ledgers.

The whole suite runs on CPU and in the reference interpreter, a subset on Vulkan. Each run
fails on a failure its ledger does not list (a regression, or a new gap to explain) and on
a listed function that passes (fixed: remove it), so the ledgers stay true.
"""
from pathlib import Path

import pytest

from conftest import CONFORMANCE_SUITE, conformance_suite_or_skip, vulkan_or_skip

REPO = Path(__file__).resolve().parents[2]
SUITE = Path(CONFORMANCE_SUITE)
LEDGERS = REPO / "test" / "conformance"
# Vulkan compiles are slower: a subset with integers, floats, f64, reductions, control flow.
VULKAN_FILES = ["add.mlir", "compare.mlir", "dot_general.mlir", "iota.mlir", "reduce.mlir",
                "select.mlir", "sort.mlir", "while.mlir", "maximum.mlir", "sine.mlir"]


def _run_and_judge(target: str, files):
    from shlo.tools.conformance_ledger import judge, read_ledger
    from shlo.tools.conformance_report import summary_line
    from shlo.tools.conformance_runner import Runner

    outcomes = Runner(target, jobs=2).run(files)
    verdict = judge(outcomes, read_ledger(str(LEDGERS / f"ledger_{target}.txt")))
    print(f"{target}: {summary_line(outcomes)}")
    assert outcomes, "the suite produced no test functions"
    assert verdict.ok, "\n".join(verdict.lines())
    return outcomes


@pytest.mark.slow
def test_whole_suite_on_cpu_matches_the_ledger():
    conformance_suite_or_skip()
    from shlo.tools.conformance_runner import discover
    outcomes = _run_and_judge("cpu", discover([str(SUITE)]))
    assert sum(o.status == "passed" for o in outcomes) > 300


@pytest.mark.slow
def test_vulkan_subset_matches_the_ledger():
    conformance_suite_or_skip()
    vulkan_or_skip()
    files = [(str(SUITE / name), name) for name in VULKAN_FILES]
    outcomes = _run_and_judge("vulkan", files)
    assert {o.file for o in outcomes} == set(VULKAN_FILES)


def test_whole_suite_in_the_reference_interpreter_matches_the_ledger():
    conformance_suite_or_skip()
    pytest.importorskip("jaxlib")
    from shlo.tools.conformance_runner import discover
    _run_and_judge("reference", discover([str(SUITE)]))
