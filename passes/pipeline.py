"""Textual pass pipelines in which shlo's Python passes and the wheel's C++ passes mix.

`builtin.module(func.func(shlo-legalize-chlo, canonicalize), cse)` is parsed
into a tree. C++ passes go to MLIR's parser unchanged; each Python pass becomes
an MLIR pass (`PassManager.add(callable)`) at the level of the nearest anchor
that can hold it, and visits the ops its nesting path selects. Because a nested
pass only sees the op it runs on, running it op by op at the parent's level is
observably the same as MLIR's nested run.

`Instrumentation` holds mlir-opt's pass-manager options (IR printing before/after
passes, on change, on failure; timing; statistics; verify-each), and
`reproducer_text`/`read_reproducer` write and read MLIR's crash-reproducer format
(the input module followed by its `mlir_reproducer` pipeline resource).
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


@dataclasses.dataclass
class Instrumentation:
    """mlir-opt's pass-manager options, applied to a PassManager by `apply`."""

    print_before_all: bool = False         # --mlir-print-ir-before-all
    print_after_all: bool = False          # --mlir-print-ir-after-all
    print_after_change: bool = False       # --mlir-print-ir-after-change
    print_after_failure: bool = False      # --mlir-print-ir-after-failure
    print_module_scope: bool = False       # --mlir-print-ir-module-scope
    print_tree_dir: str | None = None      # --mlir-print-ir-tree-dir
    generic: bool = False                  # --mlir-print-op-generic (IR dumps too)
    debuginfo: bool = False                # --mlir-print-debuginfo
    large_elements_limit: int | None = None
    timing: bool = False                   # --mlir-timing (report when the PassManager dies)
    statistics: str | None = None          # --mlir-pass-statistics: "pipeline" or "list"
    verify_each: bool = True               # --verify-each

    def prints_ir(self) -> bool:
        return self.print_before_all or self.print_after_all or self.print_after_failure

    def apply(self, pm: passmanager.PassManager) -> None:
        if self.prints_ir():
            # As mlir-opt: after-failure and after-change filter the after-pass dumps.
            pm.enable_ir_printing(
                print_before_all=self.print_before_all,
                print_after_all=self.print_after_all or self.print_after_failure,
                print_module_scope=self.print_module_scope,
                print_after_change=self.print_after_change,
                print_after_failure=self.print_after_failure,
                large_elements_limit=self.large_elements_limit,
                enable_debug_info=self.debuginfo,
                print_generic_op_form=self.generic,
                tree_printing_dir_path=self.print_tree_dir)
        if self.timing:
            pm.enable_timing()
        if self.statistics:
            pm.enable_statistics(getattr(passmanager.PassDisplayMode, self.statistics.upper()))
        pm.enable_verifier(self.verify_each)


def build_pass_manager(pipeline: str | Nest, context: ir.Context | None = None,
                       instrumentation: Instrumentation | None = None
                       ) -> passmanager.PassManager:
    """A PassManager for a pipeline mixing Python and C++ passes."""
    root = parse_pipeline(pipeline) if isinstance(pipeline, str) else pipeline
    with (context or ir.Context.current):
        pm = passmanager.PassManager(root.op_name)
        _add_steps(pm, root.steps, [])
        if instrumentation is not None:
            instrumentation.apply(pm)
    return pm


def nest_implicitly(steps: list[PassStep], context: ir.Context,
                    op_name: str = "builtin.module") -> Nest:
    """Pass flags as mlir-opt runs them: each pass nested under the op it is restricted to.

    `--chlo-legalize-to-stablehlo --cse` becomes
    `builtin.module(func.func(chlo-legalize-to-stablehlo), cse)` (MLIR's implicit nesting).
    """
    nested = []
    for step in steps:
        anchor = None
        if is_shlo_pass(step.name):
            anchor = create_pass(step.name, parse_options(step.options)).ANCHOR or None
        else:
            with context:
                try:
                    passmanager.PassManager(op_name).add(step.text())
                except ValueError as e:
                    m = re.search(r"restricted to '([^']+)'", str(e))
                    if not m:
                        _add_text(passmanager.PassManager(op_name), step.text())
                    anchor = m.group(1)
        nested.append(Nest(anchor, [step]) if anchor and anchor != op_name else step)
    return Nest(op_name, nested)


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
                 source_name: str | None = None, *,
                 instrumentation: Instrumentation | None = None) -> None:
    """Run a textual pipeline on a module in place; failures raise `PassError`."""
    op = module.operation if isinstance(module, ir.Module) else module
    pm = build_pass_manager(pipeline, op.context, instrumentation)
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


# -- crash reproducers (MLIR's format: the module, then its `mlir_reproducer` resource) --------

_REPRODUCER = re.compile(r"\{-#\s*external_resources:\s*\{\s*mlir_reproducer:\s*\{(?P<body>.*?)\}"
                         r"\s*\}\s*#-\}", re.S)


def reproducer_text(module_text: str, pipeline: str, *, disable_threading: bool = False,
                    verify_each: bool = True) -> str:
    """A reproducer: `module_text` and the pipeline that failed on it (`--run-reproducer`)."""
    quoted = pipeline.replace("\\", "\\\\").replace('"', '\\"')
    return (f"{module_text}\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n"
            f"      pipeline: \"{quoted}\",\n"
            f"      disable_threading: {str(disable_threading).lower()},\n"
            f"      verify_each: {str(verify_each).lower()}\n    }}\n  }}\n#-}}\n")


@dataclasses.dataclass
class Reproducer:
    """What a reproducer file holds: the module text (config blanked out) and how to run it."""

    source: str
    pipeline: str
    disable_threading: bool = False
    verify_each: bool = True


def read_reproducer(text: str) -> Reproducer:
    """Split a reproducer into its module and its configuration; `PipelineError` if it has none."""
    m = _REPRODUCER.search(text)
    if not m:
        raise PipelineError("the input has no 'mlir_reproducer' configuration to run "
                            "(expected a {-# external_resources: { mlir_reproducer: ... } #-} block)")
    fields = dict(re.findall(r'(\w+)\s*:\s*("(?:[^"\\]|\\.)*"|\w+)', m.group("body")))
    pipeline = fields.get("pipeline")
    if pipeline is None:
        raise PipelineError("the 'mlir_reproducer' configuration names no pipeline")
    pipeline = re.sub(r"\\(.)", r"\1", pipeline[1:-1])
    blank = re.sub(r"[^\n]", " ", m.group())          # keep the module's line numbers
    return Reproducer(text[:m.start()] + blank + text[m.end():], pipeline,
                      fields.get("disable_threading") == "true",
                      fields.get("verify_each", "true") == "true")
