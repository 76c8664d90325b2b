"""shlo-opt: an mlir-opt-compatible driver running shlo's Python passes beside the wheel's C++ passes.

    shlo-opt in.mlir --pass-pipeline='builtin.module(func.func(shlo-legalize-chlo),cse)'
    shlo-opt --shlo-legalize-chlo --canonicalize - -o out.mlir
    shlo-opt --split-input-file --verify-diagnostics tests.mlir

Flags are mlir-opt's (see `--help`, `opt_flags.py`); diagnostics print like mlir-opt's
(`file:line:col: error: ...` with the source line, `opt_diagnostics.py`), in the file's
own line numbers also for `--split-input-file` chunks (`opt_split.py`). The exit status
is 1 when any chunk fails (with `--verify-diagnostics`: when diagnostics and
expectations differ). Only what a run needs is imported: start-up stays close to
iree-opt's (`tools/bench_opt_startup.py` measures it).
"""
from __future__ import annotations

import os
import re
import shlex
import sys

from .opt_flags import Options, UsageError, help_text, int_value, parse_args

_GLOBAL_PRINTING_FLAGS = ("mlir-print-debuginfo", "mlir-print-op-generic",
                          "mlir-pretty-debuginfo", "mlir-print-local-scope")
# A StableHLO test op starting a statement, in its custom syntax (IREE's own `check` ops take a `(`).
_TEST_OP = re.compile(rb"^[ \t]*(?:%[^=\n]*=[ \t]*)?"
                      rb"(check\.expect_\w+|interpreter\.(?:probe|print))\b(?![ \t]*\()", re.M)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        options = parse_args(argv)
        if options.get("help"):
            sys.stdout.write(help_text())
            return 0
        if options.get("version"):
            return _version()
        if options.get("load-pass-plugin"):
            from .opt_passes import load_pass_plugin
            for path in options.get("load-pass-plugin"):
                load_pass_plugin(path)
        if options.get("list-passes"):
            from .opt_passes import list_passes
            sys.stdout.write(list_passes())
            return 0
        driver = Driver(options)
    except UsageError as e:
        print(f"shlo-opt: {e}", file=sys.stderr)
        return 1
    except Exception as e:                    # a plugin that does not load
        from shlo import Error
        if not isinstance(e, Error):
            raise
        print(f"shlo-opt: {e}", file=sys.stderr)
        return 1
    try:
        return driver.run()
    except BrokenPipeError:                 # `shlo-opt ... | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _version() -> int:
    from importlib.metadata import PackageNotFoundError, version

    def of(dist):
        try:
            return version(dist)
        except PackageNotFoundError:
            return "unknown"
    print(f"shlo-opt (shlo {of('shlo')}, iree-base-compiler {of('iree-base-compiler')})")
    return 0


class Driver:
    """One shlo-opt run: read the input, split it, parse, run the pipeline, print, verify."""

    def __init__(self, options: Options):
        self.options = options
        get = options.get
        self.split_marker = get("split-input-file")
        self.verify = get("verify-diagnostics")
        self.only_expected = self.verify == "only-expected"
        self.reproducer_path = get("mlir-pass-pipeline-crash-reproducer")
        self.output = get("o", "-")
        self.elide = int_value(options, "mlir-elide-elementsattrs-if-larger")
        self.bytecode_version = int_value(options, "emit-bytecode-version")
        if options.pass_flags and get("pass-pipeline") is not None:
            raise UsageError("'--pass-pipeline' can't be used with individual pass options")
        self.source_name = "<stdin>" if options.input == "-" else options.input

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> int:
        from .opt_diagnostics import SourceManager

        err = sys.stderr.buffer
        self.sources = SourceManager(err)
        data = self._read_input()
        if data is None:
            return 1
        if self.options.get("run-reproducer"):
            data = self._load_reproducer(data)
            if data is None:
                return 1
        self.sources.add(self.source_name, data)
        try:
            self._setup()
        except Exception as e:            # PipelineError (or a shlo.Error) before any parsing
            from shlo import Error
            if not isinstance(e, Error):
                raise
            err.write(f"shlo-opt: {e}\n".encode())
            err.flush()
            return 1

        chunks, separator = self._chunks(data)
        outputs: list[bytes] = []
        ok = True
        for chunk in chunks:
            if chunk.index:
                self._emit(separator, outputs)
            text = self._process(chunk, data)
            if text is None:
                ok = False
            else:
                self._emit(text, outputs)
        if self.verify:
            ok = self.verifier.finish()
        self._release()
        return self._finish_output(outputs, ok)

    def _chunks(self, data: bytes):
        """The chunks to process (one without --split-input-file) and the output separator."""
        from .opt_split import MARKER, OUTPUT_MARKER, Chunk, position, split_input
        separator = OUTPUT_MARKER
        if self.options.get("output-split-marker") is not None:
            separator = self.options.get("output-split-marker").encode() + b"\n"
        if not self.split_marker:
            return [Chunk(0, 0, len(data), 1, 1)], separator
        marker = MARKER if self.split_marker is True else self.split_marker.encode()
        chunks, near_misses = split_input(data, marker)
        for offset in near_misses:
            self.sources.print_at(self.source_name, *position(data, offset), "warning",
                                  "near miss with file split marker")
        return chunks, separator

    def _read_input(self) -> bytes | None:
        if self.options.input == "-":
            return sys.stdin.buffer.read()
        try:
            with open(self.options.input, "rb") as f:
                return f.read()
        except OSError as e:
            sys.stderr.write(f"cannot open input file '{self.options.input}': "
                             f"{e.strerror or 'cannot read'}\n")
            return None

    def _load_reproducer(self, data: bytes) -> bytes | None:
        from shlo.passes.pipeline import read_reproducer
        from shlo import PipelineError
        try:
            repro = read_reproducer(data.decode("latin-1"))
        except PipelineError as e:
            sys.stderr.write(f"shlo-opt: {self.source_name}: {e}\n")
            return None
        self.options.values["pass-pipeline"] = repro.pipeline
        self.options.pass_flags = []
        self.options.values.setdefault("mlir-disable-threading", repro.disable_threading)
        self.options.values.setdefault("verify-each", repro.verify_each)
        return repro.source.encode("latin-1")

    def _setup(self) -> None:
        """The context, its diagnostic handler, and the PassManager shared by every chunk."""
        import shlo
        from shlo.passes.pipeline import Instrumentation, PassStep, build_pass_manager, \
            nest_implicitly, parse_pipeline

        get = self.options.get
        self.ctx = ctx = shlo.context(allow_unregistered_dialects=bool(
            get("allow-unregistered-dialect")))
        if get("mlir-disable-threading"):
            ctx.enable_multithreading(False)
        self._set_printing_defaults()
        ctx.emit_error_diagnostics = True          # every diagnostic reaches our handler
        if self.verify:
            from .opt_diagnostics import Verifier
            data = self.sources.buffer(self.source_name)
            assert data is not None         # run() added it
            self.verifier = Verifier(self.sources, self.source_name, data, self.only_expected)
        self.errors = 0
        self._hinted = False
        self._handler = ctx.attach_diagnostic_handler(self._on_diagnostic)

        self.pipeline = None
        if get("pass-pipeline") is not None:
            self.pipeline = parse_pipeline(get("pass-pipeline"))
        elif self.options.pass_flags:
            self.pipeline = nest_implicitly(
                [PassStep(name, opts) for name, opts in self.options.pass_flags], ctx)
        self.instrumentation = Instrumentation(
            print_before_all=bool(get("mlir-print-ir-before-all")),
            print_after_all=bool(get("mlir-print-ir-after-all")),
            print_after_change=bool(get("mlir-print-ir-after-change")),
            print_after_failure=bool(get("mlir-print-ir-after-failure")),
            print_module_scope=bool(get("mlir-print-ir-module-scope")),
            print_tree_dir=get("mlir-print-ir-tree-dir"),
            generic=bool(get("mlir-print-op-generic")),
            debuginfo=bool(get("mlir-print-debuginfo")),
            large_elements_limit=self.elide,
            timing=bool(get("mlir-timing")),
            statistics=(get("mlir-pass-statistics-display") or "pipeline")
            if get("mlir-pass-statistics") else None,
            verify_each=get("verify-each", True) is not False)
        if self.instrumentation.print_module_scope and self.instrumentation.prints_ir() \
                and not get("mlir-disable-threading"):
            from shlo import PipelineError    # MLIR aborts the process on this combination
            raise PipelineError("IR print for module scope can't be setup on a pass-manager "
                                "without disabling multi-threading first (add "
                                "--mlir-disable-threading)")
        self._failure_dir = None
        if self.reproducer_path and not self.instrumentation.prints_ir() \
                and not self.instrumentation.print_tree_dir:
            import tempfile            # the failing pass names itself in an after-failure dump
            self._failure_dir = tempfile.mkdtemp(prefix="shlo-opt-")
            self.instrumentation.print_after_failure = True
            self.instrumentation.print_tree_dir = self._failure_dir
        needs_pm = self.pipeline is not None or self.instrumentation.timing \
            or self.instrumentation.statistics
        self.pm = build_pass_manager(self.pipeline or parse_pipeline("builtin.module()"), ctx,
                                     self.instrumentation) if needs_pm else None

    def _set_printing_defaults(self) -> None:
        """Give MLIR's own printing (the op in a diagnostic's note) mlir-opt's printing flags.

        iree-opt parses them into LLVM's global options, which every printer reads as its
        defaults; shlo-opt hands the same flags to the same library. (The output and IR dumps
        get them explicitly too.)
        """
        flags = [f"--{name}" for name in _GLOBAL_PRINTING_FLAGS if self.options.get(name)]
        if self.elide is not None:
            flags.append(f"--mlir-elide-elementsattrs-if-larger={self.elide}")
        if flags:
            from iree.compiler.api import ctypes_dl
            ctypes_dl._initializeGlobalCL("shlo-opt", *flags)

    def _on_diagnostic(self, diag) -> bool:
        from shlo.errors import Diagnostic
        record = Diagnostic.from_mlir(diag)
        if record.severity == "error":
            self.errors += 1
        if self.verify:
            self.verifier.process(record)
        else:
            self.sources.emit(record)
        return True

    # -- one chunk -------------------------------------------------------------------------

    def _process(self, chunk, data: bytes) -> bytes | None:
        """The printed result of one chunk, or None if it failed (diagnostics are out)."""
        from iree.compiler import ir
        from shlo.module_io import parse_source

        text = chunk.padded(data) if self.split_marker else data
        if self.options.get("allow-unregistered-dialect") and _has_test_ops(text):
            text = self._rewrite_test_ops(text)
            if text is None:
                return None
        module = parse_source(text, self.ctx, self.source_name)
        if module is None:
            if not self.options.get("allow-unregistered-dialect") and not self.verify:
                self._hint_test_ops(text)
            return None
        if chunk.index:
            self._locate_implicit_module(module, chunk)
        if self.pm is not None:
            before = module.operation.clone() if self.reproducer_path else None
            try:
                self.pm.run(module.operation)
            except ir.MLIRError:
                self._report_failure(module, before)
                return None
        return self._print(module)

    def _print(self, module) -> bytes:
        import shlo
        if self.options.get("emit-bytecode"):
            return shlo.module_bytecode(module, version=self.bytecode_version)
        text = shlo.print_module(
            module, generic=bool(self.options.get("mlir-print-op-generic")),
            debuginfo=bool(self.options.get("mlir-print-debuginfo")),
            pretty_debuginfo=bool(self.options.get("mlir-pretty-debuginfo")),
            local_scope=bool(self.options.get("mlir-print-local-scope")),
            large_elements_limit=self.elide)
        return text.encode() + b"\n"

    def _locate_implicit_module(self, module, chunk) -> None:
        """mlir-opt puts a split chunk's implicit module where the chunk starts, not at 0:0."""
        from iree.compiler import ir
        loc = module.operation.location
        if isinstance(loc, ir.FileLineColLoc) and loc.start_line == 0 \
                and loc.filename == self.source_name:
            module.operation.location = ir.Location.file(self.source_name, chunk.line,
                                                         chunk.col, context=self.ctx)

    def _rewrite_test_ops(self, text: bytes) -> bytes | None:
        """StableHLO test ops (`check.*`, `interpreter.probe`) in generic form (see module doc)."""
        from .conformance_syntax import rewrite_test_ops
        from shlo import Error
        try:
            return rewrite_test_ops(text.decode("latin-1")).encode("latin-1")
        except Error as e:
            self.sources.print_plain(self.source_name, "error", str(e))
            self.errors += 1
            return None

    def _hint_test_ops(self, text: bytes) -> None:
        """After a failed parse: point at a StableHLO test op, which needs a flag to parse."""
        from .opt_split import position
        found = _TEST_OP.search(text)
        if found and not self._hinted:
            self._hinted = True
            at, name = found.start(1), found.group(1).decode()
            self.sources.print_at(
                self.source_name, *position(text, at), "note",
                f"'{name}' is an op of StableHLO's test dialects, which IREE does not have "
                f"(its own 'check' dialect differs): --allow-unregistered-dialect parses it")

    # -- pass failures ---------------------------------------------------------------------

    def _report_failure(self, module, before) -> None:
        """After a failed pipeline: write the reproducer, or say how to reproduce the failure."""
        if self.verify:
            return
        where = module.operation.location
        pipeline = self.pipeline.text() if self.pipeline is not None else "builtin.module()"
        if before is None:
            self.sources.emit_at(where, "the pass pipeline failed; reproduce with `"
                                 + " ".join(shlex.quote(c) for c in self._command(pipeline))
                                 + "` (add --mlir-pass-pipeline-crash-reproducer=FILE to "
                                 "save this input and pipeline)", "note", show_source=False)
            return
        import shlo
        from shlo.passes.pipeline import reproducer_text
        text = reproducer_text(shlo.print_module(before, assume_verified=True), pipeline,
                               disable_threading=bool(self.options.get("mlir-disable-threading")),
                               verify_each=self.instrumentation.verify_each)
        try:
            with open(self.reproducer_path, "w") as f:
                f.write(text)
        except OSError as e:
            self.sources.emit_at(where, f"cannot write the reproducer "
                                        f"'{self.reproducer_path}': {e.strerror}", "error")
            return
        self.sources.emit_at(where, "Failures have been detected while processing an MLIR "
                                    "pass pipeline", "error")
        self.sources.emit_at(where, f"Pipeline failed while executing [{self._failed_pass()}]: "
                                    f"reproducer generated at `{self.reproducer_path}`", "note")

    def _command(self, pipeline: str) -> list[str]:
        """The shlo-opt command line that runs `pipeline` on this input again."""
        command = ["shlo-opt", self.options.input]
        if self.options.get("run-reproducer"):
            return command + ["--run-reproducer"]
        for path in self.options.get("load-pass-plugin") or ():
            command.append(f"--load-pass-plugin={path}")
        if self.split_marker:
            command.append("--split-input-file")
        if self.options.get("allow-unregistered-dialect"):
            command.append("--allow-unregistered-dialect")
        return command + [f"--pass-pipeline={pipeline}"]

    def _failed_pass(self) -> str:
        """`` `PassName` `` from the after-failure dump, else the whole pipeline."""
        import re
        if self._failure_dir:
            for root, _, files in os.walk(self._failure_dir):
                for name in sorted(files):
                    with open(os.path.join(root, name)) as f:
                        m = re.search(r"IR Dump After (\S+) Failed", f.readline())
                    os.remove(os.path.join(root, name))
                    if m:
                        return f"`{m.group(1)}`"
        return f"`{self.pipeline.text() if self.pipeline is not None else ''}`"

    # -- output ----------------------------------------------------------------------------

    def _emit(self, data: bytes, outputs: list) -> None:
        if self.output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            outputs.append(data)

    def _finish_output(self, outputs: list, ok: bool) -> int:
        if self.output != "-" and ok:        # like mlir-opt: no output file after a failure
            try:
                with open(self.output, "wb") as f:
                    f.write(b"".join(outputs))
            except OSError as e:
                sys.stderr.write(f"shlo-opt: cannot write '{self.output}': {e.strerror}\n")
                return 1
        return 0 if ok else 1

    def _release(self) -> None:
        """Drop the PassManager now: its timing report prints when it dies, as mlir-opt's does."""
        import gc
        import shutil
        sys.stdout.flush()
        self.pm = None
        gc.collect()
        self._handler.detach()
        if self._failure_dir:
            shutil.rmtree(self._failure_dir, ignore_errors=True)


def _has_test_ops(text: bytes) -> bool:
    return _TEST_OP.search(text) is not None


if __name__ == "__main__":
    sys.exit(main())
