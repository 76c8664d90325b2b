"""The one registry of shlo's Python passes: pass name -> the module and class that define it.

Modules are imported only when a pass is used, so listing and parsing stay fast.
To add a pass: write `passes/<name>.py` with a `Pass` subclass and add one line here.
"""
from __future__ import annotations

import importlib

from ..errors import PipelineError

PASSES: dict[str, tuple[str, str]] = {
    "shlo-legalize-chlo": ("shlo.passes.legalize_chlo", "LegalizeChlo"),
}


def is_shlo_pass(name: str) -> bool:
    return name in PASSES


def pass_class(name: str):
    """The `Pass` subclass registered under `name`."""
    try:
        module_name, class_name = PASSES[name]
    except KeyError:
        raise PipelineError(f"'{name}' is not a registered shlo pass") from None
    return getattr(importlib.import_module(module_name), class_name)


def create_pass(name: str, options: dict[str, str] | None = None):
    """An instance of the pass `name` configured from textual options."""
    return pass_class(name).from_options(options or {})
