"""shlo-opt's passes: `--list-passes` in mlir-opt's format, and `--load-pass-plugin`.

The C++ passes (name, one-line summary, options) come from `iree-opt --list-passes` of the
same wheel; shlo's passes are formatted alike from their docstrings and dataclass fields
(a field's `metadata={"help": ...}` is its description), and every pass is sorted by name.
A pass plugin is a Python file of `shlo.passes.base.Pass` subclasses: loading it registers
each one under its NAME (mlir-opt's plugins are shared libraries; shlo's passes are Python).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys

PASS_COLUMN = 52            # where iree-opt puts the ` - ` of a pass or option line
_TYPES = {"bool": "", "int": "=<long>", "float": "=<number>", "str": "=<string>"}


def list_passes() -> str:
    """The text of `--list-passes`: `Passes:`, then each pass and its options."""
    blocks, note = _cpp_pass_blocks()
    blocks.update(_shlo_pass_blocks())
    text = "Passes:\n" + "".join(blocks[name] for name in sorted(blocks))
    return text + (f"\n{note}\n" if note else "")


def _cpp_pass_blocks() -> tuple[dict[str, str], str]:
    """Pass name -> its lines in `iree-opt --list-passes`, or ({}, why not)."""
    try:
        from iree.compiler.tools.binaries import find_tool
        listing = subprocess.run([find_tool("iree-opt"), "--list-passes"], capture_output=True,
                                 text=True, check=True).stdout
    except Exception as e:       # no iree-opt binary in this install: list shlo's passes only
        return {}, f"(C++ passes not listed: iree-opt --list-passes failed: {e})"
    blocks: dict[str, str] = {}
    name = None
    for line in listing.splitlines(keepends=True):
        if line.startswith("  --"):
            name = line[4:].split()[0]
            blocks[name] = line
        elif line.startswith("    ") and name is not None:
            blocks[name] += line
        else:
            name = None                # a section title ("Passes:", "Pass Pipelines:")
    return blocks, ""


def _shlo_pass_blocks() -> dict[str, str]:
    from shlo.passes.registry import PASSES, pass_class
    blocks = {}
    for name in PASSES:
        cls = pass_class(name)
        lines = [_row(f"  --{name}", f"  {cls.summary()}")]
        for field in sorted(cls.option_fields(), key=lambda f: f.name):
            lines.append(_row(f"    --{field.name.replace('_', '-')}{_type_suffix(field)}",
                              _option_help(field)))
        blocks[name] = "".join(lines)
    return blocks


def _row(left: str, right: str) -> str:
    return f"{left:<{PASS_COLUMN}} - {right}\n"


def _type_suffix(field: dataclasses.Field) -> str:
    kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
    return _TYPES.get(kind, "=<string>")


def _option_help(field: dataclasses.Field) -> str:
    text = field.metadata.get("help", "")
    default = field.default if field.default is not dataclasses.MISSING else None
    return f"{text} (default: {default})".strip() if default is not None else text


def load_pass_plugin(path: str) -> list[str]:
    """Import a Python file and register its Pass subclasses; their names, in file order."""
    from shlo import PipelineError
    from shlo.passes import registry
    from shlo.passes.base import Pass

    if not os.path.isfile(path):
        raise PipelineError(f"cannot load pass plugin '{path}': no such file")
    module_name = "shlo_pass_plugin_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PipelineError(f"cannot load pass plugin '{path}': not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise PipelineError(f"cannot load pass plugin '{path}': {type(e).__name__}: {e}") from None
    names = []
    for attr, value in vars(module).items():
        if isinstance(value, type) and issubclass(value, Pass) and value.NAME \
                and value.__module__ == module_name:
            registry.PASSES[value.NAME] = (module_name, attr)
            names.append(value.NAME)
    if not names:
        raise PipelineError(f"pass plugin '{path}' defines no Pass subclass with a NAME")
    return names
