"""Delta debugging of a failing program: keep one output, bypass nodes, cut nodes into
parameters (with an oracle's value as input), shrink parameter shapes, simplify inputs and
node seeds; keep every change after which the program still fails the same way."""
from __future__ import annotations

import dataclasses
import functools
import time

import numpy as np

from . import program as P


def _bypass(prog: P.Program, i: int) -> P.Program:
    """The program with node i replaced by its first argument."""
    p = prog.copy()
    node = p.nodes.pop(i)
    swap = lambda a: node.args[0] if a == node.id else a  # noqa: E731
    for n in p.nodes:
        n.args = [swap(a) for a in n.args]
    p.outputs = list(dict.fromkeys(swap(o) for o in p.outputs))
    return P.prune(p)


def _cut(prog: P.Program, i: int, value: np.ndarray, shape, dtype: str) -> P.Program:
    """The program with node i's value a new parameter."""
    p = prog.copy()
    node = p.nodes.pop(i)
    k = max([int(q.id[1:]) for q in p.params if q.id[1:].isdigit()] + [-1]) + 1
    pid = f"p{k}"
    p.params.append(P.Param(pid, tuple(shape), dtype))
    p.inputs.append(np.asarray(value).astype(P.NUMPY[dtype]))
    swap = lambda a: pid if a == node.id else a  # noqa: E731
    for n in p.nodes:
        n.args = [swap(a) for a in n.args]
    p.outputs = [swap(o) for o in p.outputs]
    return P.prune(p)


def _with_input(prog: P.Program, j: int, shape, value) -> P.Program:
    p = prog.copy()
    p.params[j] = dataclasses.replace(p.params[j], shape=tuple(shape))
    p.inputs[j] = value
    return p


def _shape_candidates(prog: P.Program):
    for j, (prm, a) in enumerate(zip(prog.params, prog.inputs)):
        for d, n in enumerate(prm.shape):
            if n > 1:
                half = np.take(a, range(n // 2), axis=d)
                yield _with_input(prog, j, half.shape, half)
            if n != 1 and n > 0:
                one = np.take(a, [0], axis=d)
                yield _with_input(prog, j, one.shape, one)
            if n == 1:
                dropped = np.take(a, 0, axis=d)
                yield _with_input(prog, j, dropped.shape, np.asarray(dropped))


def _input_candidates(prog: P.Program):
    for j, (prm, a) in enumerate(zip(prog.params, prog.inputs)):
        if a.size == 0:
            continue
        dtype = P.NUMPY[prm.dtype]
        for simple in (np.zeros(a.shape, dtype), np.ones(a.shape, dtype),
                       np.full(a.shape, a.flat[0], dtype)):
            if not np.array_equal(simple, a, equal_nan=a.dtype.kind in "fc"):
                yield _with_input(prog, j, a.shape, simple)


def _seed_candidates(prog: P.Program):
    for i, n in enumerate(prog.nodes):
        if n.seed != 0:
            p = prog.copy()
            p.nodes[i].seed = 0
            yield p


def shrink(fuzzer, finding, max_tests: int = 80, max_seconds: float = 600.0,
           timeout_s: float = 60.0):
    """A smaller program failing as `finding` does (the finding itself when none is found),
    trying at most `max_tests` candidates in about `max_seconds`; a timeout is shrunk with
    `timeout_s` per candidate."""
    best = P.prune(finding.program.copy())
    deadline = time.monotonic() + max_seconds
    if "timeout" in finding.detail:
        fuzzer.target_timeout_s = timeout_s
    try:
        return _shrink(fuzzer, finding, best, max_tests, deadline)
    finally:
        fuzzer.target_timeout_s = None


def _shrink(fuzzer, finding, best, max_tests, deadline):
    tests = 0

    def fails(candidate: P.Program) -> bool:
        nonlocal tests
        tests += 1
        return fuzzer.reproduces(finding, candidate)

    def first_accepted(candidates) -> P.Program | None:
        for c in candidates:
            if tests >= max_tests or time.monotonic() > deadline:
                return None
            if c.describe() != best.describe() or _inputs_differ(c, best):
                if fails(c):
                    return c
        return None

    if best.describe() != finding.program.describe() and not fails(best):
        best = finding.program
    changed = True
    while changed and tests < max_tests and time.monotonic() < deadline:
        changed = False
        for stage in (_outputs_stage, _bypass_stage, functools.partial(_cut_stage, fuzzer=fuzzer),
                      _shape_candidates, _input_candidates, _seed_candidates):
            found = first_accepted(stage(best))
            if found is not None:
                best, changed = found, True
                break
    return dataclasses.replace(finding, program=best,
                               detail=_final_detail(fuzzer, finding, best))


def _final_detail(fuzzer, finding, program) -> str:
    checked = fuzzer.check(program, [finding.target],
                           need_oracles=finding.kind == "mismatch")
    for f in checked.findings:
        if f.signature() == finding.signature():
            return f.detail
    return finding.detail


def _inputs_differ(a: P.Program, b: P.Program) -> bool:
    return len(a.inputs) != len(b.inputs) or any(
        x.shape != y.shape or x.dtype != y.dtype or not np.array_equal(x, y, equal_nan=True)
        for x, y in zip(a.inputs, b.inputs))


def _outputs_stage(prog: P.Program):
    if len(prog.outputs) > 1:
        for o in prog.outputs:
            yield P.prune(dataclasses.replace(prog.copy(), outputs=[o]))


def _bypass_stage(prog: P.Program):
    for i in reversed(range(len(prog.nodes))):
        yield _bypass(prog, i)


def _cut_stage(prog: P.Program, fuzzer):
    built = None
    for i in reversed(range(len(prog.nodes))):
        node = prog.nodes[i]
        if node.id in prog.outputs:
            continue
        if built is None:
            try:
                built = P.build(prog, fuzzer.max_elements)
            except Exception:       # noqa: BLE001
                return
        v = built.vals[node.id]
        value = fuzzer.value_of(prog, node.id)
        if value is None or tuple(np.shape(value)) != v.shape:
            continue
        yield _cut(prog, i, value, v.shape, v.dtype)
