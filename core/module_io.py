"""Parse and print modules: text or bytecode in, text or bytecode out, errors as `ParseError`."""
from __future__ import annotations

import io
import os
import sys

from iree.compiler import ir

from .context import default_context
from .errors import ParseError, diagnostics_text


def parse_module(source: str | bytes, *, context: ir.Context | None = None,
                 source_name: str = "-") -> ir.Module:
    """Parse MLIR text or bytecode into a verified module of a shlo context.

    A malformed input raises `ParseError` whose message is the parser's
    diagnostics as ``name:line:col: error: ...``.
    """
    ctx = context or default_context()
    try:
        return ir.Module.parse(source, ctx)
    except ir.MLIRError as e:
        raise ParseError(diagnostics_text(e, source_name)) from None


def read_module(path: str, *, context: ir.Context | None = None) -> ir.Module:
    """Read a module from a file, or from standard input when `path` is ``-``."""
    if path == "-":
        return parse_module(sys.stdin.buffer.read(), context=context, source_name="<stdin>")
    ctx = context or default_context()
    if not os.path.isfile(path):
        raise ParseError(f"cannot open input file '{path}': no such file")
    try:
        return ir.Module.parseFile(path, ctx)
    except ir.MLIRError as e:
        raise ParseError(diagnostics_text(e, path)) from None


def print_module(module: ir.Module | ir.Operation, *, generic: bool = False,
                 debuginfo: bool = False) -> str:
    """The module's text, as mlir-opt prints it (optionally generic form and locations)."""
    op = module.operation if isinstance(module, ir.Module) else module
    return op.get_asm(print_generic_op_form=generic, enable_debug_info=debuginfo,
                      assume_verified=False)


def module_bytecode(module: ir.Module | ir.Operation) -> bytes:
    """The module as MLIR bytecode."""
    op = module.operation if isinstance(module, ir.Module) else module
    buf = io.BytesIO()
    op.write_bytecode(buf)
    return buf.getvalue()
