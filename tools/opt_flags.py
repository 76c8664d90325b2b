"""shlo-opt's command line, as mlir-opt spells it: the flags as data, parsed like LLVM's cl.

Flags take one or two dashes (`-o`, `--split-input-file`); values come as `--flag=value`
or `--flag value` (an optional value only with `=`); booleans accept `=true`/`=false`.
Any other `--NAME[=OPTIONS]` adds the pass NAME to the pipeline, in order.
"""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Flag:
    """One flag: its name, what it does, and its value (metavar) if it takes one."""

    name: str
    help: str
    metavar: str = ""               # the flag takes a value
    optional: bool = False          # ... which may be left out (then only `--flag=value`)
    choices: tuple = ()


FLAGS: tuple[Flag, ...] = (
    Flag("o", "Output filename ('-' for standard output)", "filename"),
    Flag("pass-pipeline", "A textual pass pipeline to run, e.g. "
         "'builtin.module(func.func(shlo-legalize-chlo,cse))'", "pipeline"),
    Flag("split-input-file", "Split the input at the marker (default '// -----') and process "
         "each chunk independently", "marker", optional=True),
    Flag("output-split-marker", "Marker between the outputs of split chunks "
         "(default '// -----')", "marker"),
    Flag("verify-diagnostics", "Check that emitted diagnostics match the expected-* lines "
         "of the input", "mode", optional=True, choices=("all", "only-expected")),
    Flag("allow-unregistered-dialect", "Allow operations of unregistered dialects (and the "
         "check/interpreter test ops of StableHLO test files)"),
    Flag("mlir-print-ir-before-all", "Print the IR before each pass"),
    Flag("mlir-print-ir-after-all", "Print the IR after each pass"),
    Flag("mlir-print-ir-after-change", "When printing the IR after a pass, only print if "
         "the IR changed"),
    Flag("mlir-print-ir-after-failure", "Print the IR after a pass only if it failed"),
    Flag("mlir-print-ir-module-scope", "When printing IR before/after passes, always print "
         "the top-level operation"),
    Flag("mlir-print-ir-tree-dir", "Print the IR before/after passes into a file tree "
         "rooted at this directory", "dir"),
    Flag("mlir-print-op-generic", "Print the generic op form"),
    Flag("mlir-print-debuginfo", "Print debug info (locations) in MLIR output"),
    Flag("mlir-pretty-debuginfo", "Print debug info in a readable (not parsable) form"),
    Flag("mlir-print-local-scope", "Print with local scope and inline information"),
    Flag("mlir-elide-elementsattrs-if-larger", "Elide ElementsAttrs with '...' that have more "
         "elements than this", "uint"),
    Flag("mlir-timing", "Display pass execution times"),
    Flag("mlir-pass-statistics", "Display the statistics of each pass"),
    Flag("mlir-pass-statistics-display", "Display method for pass statistics",
         "mode", choices=("list", "pipeline")),
    Flag("mlir-disable-threading", "Disable multi-threading within MLIR"),
    Flag("verify-each", "Run the verifier after each transformation pass (default true)"),
    Flag("emit-bytecode", "Emit bytecode when generating output"),
    Flag("emit-bytecode-version", "Use this bytecode version when emitting bytecode", "int"),
    Flag("mlir-pass-pipeline-crash-reproducer", "Write a .mlir reproducer (the input and the "
         "pipeline) to this path if the pass pipeline fails", "path"),
    Flag("run-reproducer", "Run the pipeline stored in the input reproducer"),
    Flag("load-pass-plugin", "Load a Python file of shlo Pass subclasses and register them "
         "(may repeat)", "file.py"),
    Flag("list-passes", "Print the registered passes (shlo's and the C++ ones) and exit"),
    Flag("help", "Display this help and exit"),
    Flag("version", "Display the version and exit"),
)
_BY_NAME = {f.name: f for f in FLAGS}
_ALIASES = {"h": "help", "help-list": "help"}
_REPEATABLE = {"load-pass-plugin"}
_TRUE, _FALSE = ("", "true", "1", "on", "yes"), ("false", "0", "off", "no")


class UsageError(Exception):
    """A command line shlo-opt cannot run."""


@dataclasses.dataclass
class Options:
    """The parsed command line: flag values by name, the input, and pass flags in order."""

    values: dict
    input: str = "-"
    pass_flags: list = dataclasses.field(default_factory=list)   # (name, options text)

    def get(self, name: str, default=None):
        return self.values.get(name, default)


def parse_args(argv: list[str]) -> Options:
    """Options from argv (without the program name); `UsageError` on a bad command line."""
    options, inputs, i = Options({}), [], 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            inputs.append(arg)
            continue
        if arg == "--":
            inputs.extend(argv[i:])
            break
        name, eq, value = arg.lstrip("-").partition("=")
        name = _ALIASES.get(name, name)
        flag = _BY_NAME.get(name)
        if flag is None:
            options.pass_flags.append((name, value if eq else ""))
            continue
        if not flag.metavar:
            if value.lower() not in _TRUE + _FALSE:
                raise UsageError(f"'{value}' is invalid for the boolean flag '{_spelled(name)}'")
            options.values[name] = value.lower() in _TRUE
            continue
        if not eq and not flag.optional:
            if i >= len(argv):
                raise UsageError(f"'{_spelled(name)}' needs a value ({flag.metavar})")
            value = argv[i]
            i += 1
        if flag.choices and eq and value not in flag.choices:
            raise UsageError(f"'{_spelled(name)}={value}': expected one of "
                             f"{', '.join(flag.choices)}")
        if name in _REPEATABLE:
            options.values.setdefault(name, []).append(value)
        else:
            options.values[name] = value if eq or not flag.optional else True
    if len(inputs) > 1:
        raise UsageError(f"too many input files: {' '.join(inputs)} (give one, or '-')")
    if inputs:
        options.input = inputs[0]
    return options


def int_value(options: Options, name: str) -> int | None:
    text = options.get(name)
    if text is None:
        return None
    try:
        return int(text, 0)
    except ValueError:
        raise UsageError(f"'{_spelled(name)}={text}': expected an integer") from None


def _spelled(name: str) -> str:
    return f"-{name}" if len(name) == 1 else f"--{name}"


def help_text() -> str:
    lines = ["OVERVIEW: shlo-opt: an mlir-opt compatible driver for shlo's Python passes and "
             "the C++ passes of the IREE compiler wheel", "",
             "USAGE: shlo-opt [options] [input file, or - for standard input]", "",
             "OPTIONS:"]
    for flag in FLAGS:
        spelled = _spelled(flag.name)
        if flag.metavar:
            spelled += f"[=<{flag.metavar}>]" if flag.optional else f"=<{flag.metavar}>"
        lines.append(f"  {spelled:<48} - {flag.help}")
    lines += ["", "Any other --NAME[=OPTIONS] adds the pass NAME (a shlo Python pass or a C++ pass",
              "of the wheel) to the pipeline, in order; OPTIONS as 'key=value key2=value2'.",
              "--list-passes prints every pass with its options."]
    return "\n".join(lines) + "\n"
