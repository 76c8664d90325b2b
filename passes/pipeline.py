"""Textual pass pipelines in which shlo's Python passes and the wheel's C++ passes mix.

`builtin.module(func.func(shlo-legalize-chlo, canonicalize), cse)` is parsed
into a `Pipeline` value: entries (`PassStep`: name and options; nested `Pipeline`s
for op-anchored lists) edited by pass name (remove, insert_before/after, replace,
set_options, contains) and printed back as mlir-opt's text. C++ passes go to MLIR's parser unchanged; each Python pass becomes
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

import copy
import dataclasses
import re
from typing import NoReturn

from iree.compiler import ir, passmanager

from ..errors import PassError, PipelineError, diagnostics_text
from .registry import create_pass, is_shlo_pass


@dataclasses.dataclass
class PassStep:
    """One pass of a pipeline: its name and its options (option -> value text as written, quotes
    or braces kept; None for a bare flag). Options given as text are parsed."""

    name: str
    options: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        if isinstance(self.options, str):
            parser = _Parser(self.options, "pass options")
            self.options = parser.options(0, len(self.options))

    def text(self, separator: str = ",") -> str:
        """mlir-opt's text: `name` or `name{a=1 b="x y" flag}`."""
        if not self.options:
            return self.name
        return f"{self.name}{{{' '.join(_option_text(k, v) for k, v in self.options.items())}}}"

    def values(self) -> dict[str, str]:
        """The options with their quotes or braces taken off (what a Python pass is made from)."""
        return {key: _unquote(value) for key, value in self.options.items()}


@dataclasses.dataclass
class Pipeline:
    """A pass pipeline as a value: the op it runs on and its entries in order, each a `PassStep`
    or a nested `Pipeline` (`func.func(...)`). `parse` reads mlir-opt's text and `text` writes
    it. The edits act on passes at any depth, in place, and return the pipeline; an entry is a
    `PassStep`, a `Pipeline` or the text of one (`"cse"`, `"func.func(cse)"`)."""

    op_name: str = "builtin.module"
    steps: list = dataclasses.field(default_factory=list)

    @staticmethod
    def parse(text: str) -> Pipeline:
        return parse_pipeline(text)

    def text(self, separator: str = ",") -> str:
        """mlir-opt's text (which joins entries with ','; shlo's named pipelines use ', ')."""
        return f"{self.op_name}({separator.join(s.text(separator) for s in self.steps)})"

    def has_python(self) -> bool:
        return any(isinstance(s, PassStep) and is_shlo_pass(s.name)
                   or isinstance(s, Pipeline) and s.has_python() for s in self.steps)

    def copy(self) -> Pipeline:
        return copy.deepcopy(self)

    def contains(self, name: str) -> bool:
        """Whether the pass `name` runs anywhere in the pipeline."""
        return any(self._find(name))

    __contains__ = contains

    def append(self, *entries) -> Pipeline:
        self.steps.extend(_entry(e) for e in entries)
        return self

    def remove(self, name: str) -> Pipeline:
        """Without the pass `name` (every occurrence, if any)."""
        for steps, i in reversed(list(self._find(name))):
            del steps[i]
        return self

    def replace(self, name: str, *entries) -> Pipeline:
        """`entries` in place of each occurrence of the pass `name` (which must be there)."""
        for steps, i in reversed(self._found(name)):
            steps[i:i + 1] = [_entry(e) for e in entries]
        return self

    def insert_before(self, anchor: str, *entries) -> Pipeline:
        """`entries` just before the first occurrence of the pass `anchor` (which must be there)."""
        steps, i = self._found(anchor)[0]
        steps[i:i] = [_entry(e) for e in entries]
        return self

    def insert_after(self, anchor: str, *entries) -> Pipeline:
        """`entries` just after the first occurrence of the pass `anchor` (which must be there)."""
        steps, i = self._found(anchor)[0]
        steps[i + 1:i + 1] = [_entry(e) for e in entries]
        return self

    def set_options(self, name: str, options: str | dict | tuple = (), /, **kwargs) -> Pipeline:
        """Options on each occurrence of the pass `name` (if any), from option text
        (`"exp-log=true"`), a dict or keywords (`exp_log=True`); an option the pass already has
        keeps its value (the user's own options win)."""
        if isinstance(options, str):
            options = _Parser(options, "pass options").options(0, len(options))
        else:
            options = {k: _option_value(k, v) for k, v in dict(options).items()}
        options.update({k.replace("_", "-"): _option_value(k.replace("_", "-"), v)
                        for k, v in kwargs.items()})
        for steps, i in self._find(name):
            step = steps[i]
            step.options.update({k: v for k, v in options.items() if k not in step.options})
        return self

    def _find(self, name: str):
        """(list, index) of each occurrence of the pass `name`, depth first, in order."""
        for i, step in enumerate(self.steps):
            if isinstance(step, Pipeline):
                yield from step._find(name)
            elif step.name == name:
                yield self.steps, i

    def _found(self, name: str) -> list:
        """`_find`'s occurrences; an error naming the pipeline where there are none."""
        found = list(self._find(name))
        if not found:
            text = self.text(", ")
            text = text if len(text) <= 120 else f"{text[:100]} ... {text[-16:]}"
            raise PipelineError(f"the pipeline '{text}' has no pass '{name}'")
        return found


Nest = Pipeline             # the name of this class before it had edits


def parse_pipeline(text: str) -> Pipeline:
    """Parse `anchor(pass, nested(pass{opt=v}), ...)`; a bare list anchors on builtin.module."""
    parser = _Parser(text)
    steps = parser.steps()
    parser.expect_end()
    if len(steps) == 1 and isinstance(steps[0], Pipeline):
        return steps[0]
    return Pipeline("builtin.module", steps)


def parse_options(text: str) -> dict[str, str]:
    """`a=1 b="x y" c={...} d` -> {"a": "1", "b": "x y", "c": "...", "d": ""}."""
    return PassStep("", text).values()  # type: ignore[arg-type]  # parsed in __post_init__


_NAME = re.compile(r"[A-Za-z_][\w.\-$]*")
_KEY = re.compile(r"[\w.\-$]+")


class _Parser:
    """mlir-opt's pipeline text, or a pass's option text; errors name the column."""

    def __init__(self, text: str, what: str = "pass pipeline"):
        self.text, self.what, self.pos = text, what, 0

    def error(self, message: str, pos: int | None = None) -> NoReturn:
        column = (self.pos if pos is None else pos) + 1
        raise PipelineError(f"invalid {self.what} '{self.text}': {message} at column {column}")

    def skip_space(self, end: int | None = None):
        end = len(self.text) if end is None else end
        while self.pos < end and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect_end(self):
        if self.peek():
            self.error(f"unexpected '{self.peek()}'")

    def steps(self) -> list:
        out: list = []
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
            nest = Pipeline(m.group(), self.steps())
            if self.peek() != ")":
                self.error("expected ')'")
            self.pos += 1
            return nest
        options = {}
        if self.peek() == "{":
            close = self.closing_brace()
            options = self.options(self.pos + 1, close)
            self.pos = close + 1
        return PassStep(m.group(), options)

    def closing_brace(self) -> int:
        """The position of the '}' that closes the '{' at the current position."""
        depth, i = 0, self.pos
        while i < len(self.text):
            c = self.text[i]
            if c in "\"'":
                i = self.text.find(c, i + 1)
                if i < 0:
                    break
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        self.error("unbalanced '{'")

    def options(self, start: int, end: int) -> dict:
        """`a=1 b="x y" c={d=e} flag` between `start` and `end`: option -> value as written."""
        out = {}
        self.pos = start
        self.skip_space(end)
        while self.pos < end:
            m = _KEY.match(self.text, self.pos, end)
            if not m:
                self.error("expected an option name")
            key, value, self.pos = m.group(), None, m.end()
            if key in out:
                self.error(f"option '{key}' given twice", m.start())
            if self.pos < end and self.text[self.pos] == "=":
                self.pos += 1
                value = self.value(end)
            if self.pos < end and not self.text[self.pos].isspace():
                self.error("expected a space between options")
            out[key] = value
            self.skip_space(end)
        return out

    def value(self, end: int) -> str:
        """An option's value up to the next space outside quotes and braces."""
        start, depth = self.pos, 0
        while self.pos < end and (depth or not self.text[self.pos].isspace()):
            c = self.text[self.pos]
            if c in "\"'":
                close = self.text.find(c, self.pos + 1, end)
                if close < 0:
                    self.error(f"unterminated {c}")
                self.pos = close
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth < 0:
                    self.error("unbalanced '}'")
            self.pos += 1
        if depth:
            self.error("unbalanced '{'", start)
        return self.text[start:self.pos]


def _unquote(value: str | None) -> str:
    if value is None:
        return ""
    if len(value) >= 2 and (value[0] == value[-1] in "\"'" or value[0] + value[-1] == "{}"):
        return value[1:-1]
    return value


def _option_text(key: str, value: str | None) -> str:
    return key if value is None else f"{key}={value}"


def _option_value(key: str, value) -> str:
    """A Python value as the text of option `key`, quoted where it must be."""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    candidates = ([text] if not re.search(r"[\s{}\"']", text) else []) + \
        [f'"{text}"', f"'{text}'", f"{{{text}}}"]
    for raw in candidates:
        try:
            if PassStep("", f"{key}={raw}").values() == {key: text}:  # type: ignore[arg-type]
                return raw
        except PipelineError:
            pass
    raise PipelineError(f"option {key}={text!r} cannot be written in a pass pipeline")


def _entry(entry):
    if isinstance(entry, (PassStep, Pipeline)):
        return copy.deepcopy(entry)
    parser = _Parser(entry)
    step = parser.step()
    parser.expect_end()
    return step


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


def build_pass_manager(pipeline: str | Pipeline, context: ir.Context | None = None,
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
                    op_name: str = "builtin.module") -> Pipeline:
    """Pass flags as mlir-opt runs them: each pass nested under the op it is restricted to.

    `--chlo-legalize-to-stablehlo --cse` becomes
    `builtin.module(func.func(chlo-legalize-to-stablehlo), cse)` (MLIR's implicit nesting).
    """
    nested = []
    for step in steps:
        anchor = None
        if is_shlo_pass(step.name):
            anchor = create_pass(step.name, step.values()).ANCHOR or None
        else:
            with context:
                try:
                    passmanager.PassManager(op_name).add(step.text())
                except ValueError as e:
                    m = re.search(r"restricted to '([^']+)'", str(e))
                    if not m:
                        _add_text(passmanager.PassManager(op_name), step.text())
                        raise
                    anchor = m.group(1)
        nested.append(Pipeline(anchor, [step]) if anchor and anchor != op_name else step)
    return Pipeline(op_name, nested)


def _add_steps(pm, steps, path):
    pending: list = []                    # consecutive C++ steps, added as one text

    def flush():
        if pending:
            _add_text(pm, _wrap(",".join(s.text() for s in pending), path))
            pending.clear()

    for step in steps:
        if isinstance(step, Pipeline) and step.has_python():
            flush()
            _add_steps(pm, step.steps, path + [step.op_name])
        elif isinstance(step, PassStep) and is_shlo_pass(step.name):
            flush()
            _add_python(pm, create_pass(step.name, step.values()), path)
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


def run_pipeline(module: ir.Module | ir.Operation, pipeline: str | Pipeline,
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
