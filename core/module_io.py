"""Parse and print modules: text or bytecode in, text or bytecode out, errors as `ParseError`.

Modules of a shlo context are parsed by the IREE session's own parser under the
source's real name, so every location says `in.mlir:3:5` (not `-:3:5`), as in
mlir-opt; text padded with blank lines keeps the line numbers of a larger file.
Text from before 2024, with array attributes as 1-D dense tensors, is upgraded and parsed
again (legacy_arrays); Shardy annotations are dropped (shardy); a VHLO module (a portable
artifact) becomes StableHLO (vhlo). `shlo-opt` parses as written, as stablehlo-opt does.
"""
from __future__ import annotations

import io
import os
import sys

from iree.compiler import ir

from .context import default_context, home_session
from .errors import Diagnostic, ParseError, diagnostics_text
from .legacy_arrays import mentions_legacy_arrays, upgrade_arrays
from .shardy import (drop_shardy, generic_form, is_sharded_program, mentions_shardy,
                     per_device_program)
from .vhlo import is_vhlo, to_stablehlo_text


def parse_module(source: str | bytes, *, context: ir.Context | None = None,
                 source_name: str = "-") -> ir.Module:
    """Parse MLIR text or bytecode into a verified module of a shlo context.

    A malformed input raises `ParseError` whose message is the parser's
    diagnostics as ``name:line:col: error: ...`` (and `.diagnostics` holds them).
    """
    ctx = context or default_context()
    if home_session(ctx) is None:                 # a foreign context: MLIR's plain parser
        try:
            return ir.Module.parse(source, ctx)
        except ir.MLIRError as e:
            raise ParseError(diagnostics_text(e, source_name)) from None
    captured: list[Diagnostic] = []

    def capture(diag):
        captured.append(Diagnostic.from_mlir(diag))
        return True

    handler = ctx.attach_diagnostic_handler(capture)
    shardy = False
    try:
        if isinstance(source, str) and is_sharded_program(source) and "sdy.mesh" not in source:
            source = per_device_program(source, source_name)      # GSPMD shardings
        module = parse_source(source, ctx, source_name)
        if module is None and mentions_legacy_arrays([d.message for d in captured]):
            upgraded = _upgraded_text(source)
            if upgraded is not None:      # the second parse's diagnostics are the ones to show
                captured.clear()
                source = upgraded
                module = parse_source(source, ctx, source_name)
        shardy = module is None and mentions_shardy([d.message for d in captured], source)
        if shardy:                     # the second parse's diagnostics are the ones to show
            captured.clear()
            module = _parse_with_shardy(source, ctx, source_name)
    finally:
        handler.detach()
    if module is not None and is_vhlo(module):
        module = _as_stablehlo(module, ctx, source_name)
    if module is None:
        errors = [d for d in captured if d.severity == "error"] or captured
        lines = [line for d in errors for line in d.lines(source_name)]
        if shardy and _is_bytecode(source):
            lines = [lines[0] + " (Shardy annotations in MLIR bytecode, as in jax's serialized "
                     "exports: IREE has no Shardy dialect to read them; pass the module as "
                     "text, e.g. jax's exported.mlir_module())"]
        elif shardy and any("sdy" in d.message or "unregistered dialect" in d.message
                            for d in errors[:1]):
            lines = [lines[0] + " (a Shardy op: its dialect is not in IREE, and shlo compiles "
                     "single-device programs; lower the function without a mesh)"]
        raise ParseError("\n".join(lines) or f"{source_name}: cannot parse", diagnostics=captured)
    return module


def vhlo_to_stablehlo(module: ir.Module | ir.Operation, context: ir.Context,
                      source_name: str = "-") -> ir.Module:
    """A new module: the VHLO module (a portable artifact) as StableHLO (shlo.vhlo); a
    ParseError (a VhloError) when the conversion does not know one of its constructs."""
    text = to_stablehlo_text(print_module(module, generic=True, debuginfo=True))
    return parse_module(text, context=context, source_name=source_name)


def _as_stablehlo(module: ir.Module, ctx: ir.Context, source_name: str) -> ir.Module:
    """vhlo_to_stablehlo, or the module as it is when that fails: IREE compiles VHLO itself."""
    try:
        return vhlo_to_stablehlo(module, ctx, source_name)
    except ParseError:
        return module


def _is_bytecode(source: str | bytes) -> bool:
    return not isinstance(source, str) and bytes(source).startswith(b"ML\xefR")


def _upgraded_text(source: str | bytes) -> str | None:
    """Text `source` with pre-2024 array attributes upgraded (legacy_arrays), or None when
    it is bytecode or nothing changes."""
    if _is_bytecode(source):
        return None
    if not isinstance(source, str):
        source = bytes(source).decode("utf-8", "replace")
    upgraded = upgrade_arrays(source)
    return upgraded if upgraded != source else None


def _parse_with_shardy(source, ctx: ir.Context, source_name: str) -> ir.Module | None:
    """The module once more, with Shardy's unregistered attributes and ops allowed, and
    then dropped (shlo.shardy)."""
    allowed = ctx.allow_unregistered_dialects
    ctx.allow_unregistered_dialects = True
    if not _is_bytecode(source):
        text = source if isinstance(source, str) else bytes(source).decode("utf-8", "replace")
        source = per_device_program(text, source_name) if is_sharded_program(text) else \
            generic_form(text)          # (a sharded program: one device's part of it)
    try:
        module = parse_source(source, ctx, source_name)
        if module is not None:
            drop_shardy(module, source_name)
    finally:
        ctx.allow_unregistered_dialects = allowed
    return module


def parse_source(source: str | bytes, ctx: ir.Context, source_name: str) -> ir.Module | None:
    """Parse with IREE's parser under `source_name`, or None if it fails.

    Diagnostics go to the context's handlers (attach one to see them). A file
    without a top-level `module` is wrapped in one located at `source_name:0:0`,
    as mlir-opt does.
    """
    from iree.compiler.api import Source

    session = home_session(ctx)
    data = source.encode() if isinstance(source, str) else bytes(source)
    invocation = session.invocation()
    try:
        source_handle = Source.wrap_buffer(session, data, buffer_name=source_name)
        invocation._sources.append(source_handle)     # the invocation owns it, as parse_source does
        if not _parse_entry()(invocation._inv_p, source_handle._source_p):
            return None
        parsed = invocation.export_module()
    finally:
        invocation.close()
    return _as_module(parsed)


_PARSE_ENTRY = None


def _parse_entry():
    """`ireeCompilerInvocationParseSource`, called with the GIL held.

    `Invocation.parse_source` calls it through `ctypes.CDLL`, which releases the GIL;
    a Python diagnostic handler that MLIR calls during the parse then aborts the
    process. The same function through `ctypes.PyDLL` keeps the GIL.
    """
    global _PARSE_ENTRY
    if _PARSE_ENTRY is None:
        import ctypes

        from iree.compiler.api import ctypes_dl
        entry = ctypes.PyDLL(ctypes_dl._dylib._name).ireeCompilerInvocationParseSource
        entry.restype, entry.argtypes = ctypes.c_bool, [ctypes.c_void_p, ctypes.c_void_p]
        _PARSE_ENTRY = entry
    return _PARSE_ENTRY


def _as_module(parsed: ir.Operation) -> ir.Module:
    """An `ir.Module` holding what IREE parsed (its ops, attributes and location move over)."""
    with parsed.context:
        module = ir.Module.create(parsed.location)
        for name in list(parsed.attributes):
            name = name if isinstance(name, str) else name.name
            module.operation.attributes[name] = parsed.attributes[name]
        for op in list(parsed.regions[0].blocks[0].operations):
            module.body.append(op)
    return module


def read_module(path: str, *, context: ir.Context | None = None) -> ir.Module:
    """Read a module from a file, or from standard input when `path` is ``-``."""
    if path == "-":
        return parse_module(sys.stdin.buffer.read(), context=context, source_name="<stdin>")
    return parse_module(read_source(path), context=context, source_name=path)


def read_source(path: str) -> bytes:
    """A file's bytes (``-`` reads standard input); a missing file raises `ParseError`."""
    if path == "-":
        return sys.stdin.buffer.read()
    if not os.path.isfile(path):
        raise ParseError(f"cannot open input file '{path}': no such file")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ParseError(f"cannot open input file '{path}': {e.strerror}") from None


def print_module(module: ir.Module | ir.Operation, *, generic: bool = False,
                 debuginfo: bool = False, pretty_debuginfo: bool = False,
                 local_scope: bool = False, large_elements_limit: int | None = None,
                 assume_verified: bool = False) -> str:
    """The module's text, as mlir-opt prints it (optionally generic form and locations)."""
    op = module.operation if isinstance(module, ir.Module) else module
    return op.get_asm(print_generic_op_form=generic, enable_debug_info=debuginfo,
                      pretty_debug_info=pretty_debuginfo, use_local_scope=local_scope,
                      large_elements_limit=large_elements_limit,
                      assume_verified=assume_verified)


def module_bytecode(module: ir.Module | ir.Operation, *, version: int | None = None) -> bytes:
    """The module as MLIR bytecode (optionally of an older bytecode `version`)."""
    op = module.operation if isinstance(module, ir.Module) else module
    buf = io.BytesIO()
    op.write_bytecode(buf, desired_version=version)
    return buf.getvalue()
