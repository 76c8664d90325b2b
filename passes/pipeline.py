"""Textual pass pipelines in which shlo's Python passes and the wheel's C++ passes mix.

`builtin.module(func.func(shlo-legalize-chlo, canonicalize), cse)` is parsed
into a tree. C++ passes go to MLIR's parser unchanged; each Python pass becomes
an MLIR pass (`PassManager.add(callable)`) at the level of the nearest anchor
that can hold it, and visits the ops its nesting path selects. Because a nested
pass only sees the op it runs on, running it op by op at the parent's level is
observably the same as MLIR's nested run.
"""
from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir, passmanager

from ..errors import PassError, PipelineError, diagnostics_text
from .registry import create_pass, is_shlo_pass


@dataclasses.dataclass
class PassStep:
    name: str
    options: str = ""          # the text between the braces, as written

    def text(self) -> str:
        return f"{self.name}{{{self.options}}}" if self.options else self.name


@dataclasses.dataclass
class Nest:
    op_name: str
    steps: list

    def text(self) -> str:
        return f"{self.op_name}({','.join(s.text() for s in self.steps)})"

    def has_python(self) -> bool:
        return any(isinstance(s, PassStep) and is_shlo_pass(s.name)
                   or isinstance(s, Nest) and s.has_python() for s in self.steps)


_NAME = re.compile(r"[A-Za-z_][\w.\-$]*")


def parse_pipeline(text: str) -> Nest:
    """Parse `anchor(pass, nested(pass{opt=v}), ...)`; a bare list anchors on builtin.module."""
    parser = _Parser(text)
    steps = parser.steps()
    parser.expect_end()
    if len(steps) == 1 and isinstance(steps[0], Nest):
        return steps[0]
    return Nest("builtin.module", steps)


class _Parser:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def error(self, what: str):
        raise PipelineError(f"invalid pass pipeline '{self.text}': {what} at column {self.pos + 1}")

    def skip_space(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect_end(self):
        if self.peek():
            self.error(f"unexpected '{self.peek()}'")

    def steps(self) -> list:
        out = []
        if self.peek() in (")", ""):
            return out
        while True:
            out.append(self.step())
            if self.peek() != ",":
                return out
            self.pos += 1

    def step(self):
        self.skip_space()
        m = _NAME.match(self.text, self.pos)
        if not m:
            self.error("expected a pass or op name")
        self.pos = m.end()
        if self.peek() == "(":
            self.pos += 1
            nest = Nest(m.group(), self.steps())
            if self.peek() != ")":
                self.error("expected ')'")
            self.pos += 1
            return nest
        options = ""
        if self.peek() == "{":
            options = self.braced()
        return PassStep(m.group(), options)

    def braced(self) -> str:
        start, depth, quote = self.pos + 1, 0, None
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if quote:
                quote = None if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return self.text[start:self.pos - 1].strip()
            self.pos += 1
        self.error("unbalanced '{'")


def parse_options(text: str) -> dict[str, str]:
    """`a=1 b="x y" c={...}` -> {"a": "1", "b": "x y", "c": "..."}."""
    out, i = {}, 0
    pattern = re.compile(r'\s*([\w\-]+)(?:=("[^"]*"|\'[^\']*\'|\{[^}]*\}|[^\s]+))?')
    while i < len(text):
        m = pattern.match(text, i)
        if not m or m.end() == i:
            raise PipelineError(f"invalid pass options '{text}'")
        value = m.group(2) or ""
        if value[:1] in "\"'{" and len(value) >= 2:
            value = value[1:-1]
        out[m.group(1)] = value
        i = m.end()
        while i < len(text) and text[i].isspace():
            i += 1
    return out


def build_pass_manager(pipeline: str | Nest,
                       context: ir.Context | None = None) -> passmanager.PassManager:
    """A PassManager for a pipeline mixing Python and C++ passes."""
    root = parse_pipeline(pipeline) if isinstance(pipeline, str) else pipeline
    with (context or ir.Context.current):
        pm = passmanager.PassManager(root.op_name)
        _add_steps(pm, root.steps, [])
    return pm


def _add_steps(pm, steps, path):
    pending: list = []                    # consecutive C++ steps, added as one text

    def flush():
        if pending:
            _add_text(pm, _wrap(",".join(s.text() for s in pending), path))
            pending.clear()

    for step in steps:
        if isinstance(step, Nest) and step.has_python():
            flush()
            _add_steps(pm, step.steps, path + [step.op_name])
        elif isinstance(step, PassStep) and is_shlo_pass(step.name):
            flush()
            _add_python(pm, create_pass(step.name, parse_options(step.options)), path)
        else:
            pending.append(step)
    flush()


def _wrap(text: str, path: list[str]) -> str:
    for op_name in reversed(path):
        text = f"{op_name}({text})"
    return text


def _add_text(pm, text: str):
    try:
        pm.add(text)
    except ValueError as e:
        first = str(e).splitlines()[0] if str(e) else "invalid pipeline"
        raise PipelineError(f"{first.partition('error: ')[2] or first} in '{text}'") from None


def _add_python(pm, py_pass, path: list[str]):
    anchor = py_pass.ANCHOR
    if anchor and path and path[-1] not in (anchor, "any"):
        raise PipelineError(f"{py_pass.NAME} runs on '{anchor}' ops but is nested under "
                            f"'{path[-1]}'")

    def run(op, mlir_pass):
        try:
            for target in _select(op.operation, path):
                if not anchor or target.name == anchor:
                    py_pass.run(target)
        except PassError as e:
            (e.at or op).location.emit_error(e.message)
            mlir_pass.signal_pass_failure()
        except Exception as e:     # a bug in a pass must not take the process down
            op.location.emit_error(f"{py_pass.NAME}: internal error: {type(e).__name__}: {e}")
            mlir_pass.signal_pass_failure()

    pm.add(run, name=type(py_pass).__name__, argument=py_pass.NAME,
           description=py_pass.summary())


def _select(op: ir.Operation, path: list[str]):
    """The ops a nested pipeline at `path` below `op` runs on (direct children, level by level)."""
    current = [op]
    for op_name in path:
        current = [child.operation for parent in current for region in parent.regions
                   for block in region.blocks for child in block.operations
                   if op_name == "any" or child.operation.name == op_name]
    return current


def run_pipeline(module: ir.Module | ir.Operation, pipeline: str | Nest,
                 source_name: str | None = None) -> None:
    """Run a textual pipeline on a module in place; failures raise `PassError`."""
    op = module.operation if isinstance(module, ir.Module) else module
    pm = build_pass_manager(pipeline, op.context)
    _run(pm, op, source_name)


def run_passes(module: ir.Module | ir.Operation, passes: list) -> None:
    """Run Python pass instances in order on a module in place."""
    op = module.operation if isinstance(module, ir.Module) else module
    with op.context:
        pm = passmanager.PassManager(op.name)
        for p in passes:
            _add_python(pm, p, [])
    _run(pm, op, None)


def _run(pm, op, source_name):
    try:
        pm.run(op)
    except ir.MLIRError as e:
        raise PassError(diagnostics_text(e, source_name)) from None
