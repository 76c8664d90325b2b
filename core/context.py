"""The one MLIR context factory.

Every module shlo touches lives in a context made by `context()`. It is the
context of an IREE compiler session (so the in-process compiler can import the
module without any copy) and it has every registered dialect loaded eagerly:
IREE's own session context loads dialects lazily, and an op created before its
dialect is loaded can be silently corrupted.
"""
from __future__ import annotations

import threading

from iree.compiler import ir

_lock = threading.RLock()
_home_sessions: dict[int, object] = {}   # id(context) -> the IREE Session that made it
_default: ir.Context | None = None


# dialects of IREE's own IR that shlo reads (its fixups of IREE's SPIR-V) with no Python
# module in the wheel and no builder module of shlo's: empty modules stand in
_EMPTY_STAND_INS = "shlo._empty_dialect_modules"
_EMPTY_DIALECT_MODULES = ("spirv",)


def _stand_in_dialect_modules() -> None:
    """The wheel has no Python module for the stablehlo, chlo and spirv dialects, and the
    bindings retry that failed import each time they wrap an op of them (a filesystem search
    per op: most of a pattern rewrite's time). shlo's builder modules of the first two names
    stand in, and empty modules for the others; they register no op classes, so ops stay
    generic OpViews."""
    import sys
    import types

    from iree.compiler._mlir_libs import _mlir
    if "shlo.dialect" in _mlir.globals.dialect_search_modules:
        return
    _mlir.globals.append_dialect_search_prefix("shlo.dialect")
    package = types.ModuleType(_EMPTY_STAND_INS)
    package.__path__ = []
    sys.modules[_EMPTY_STAND_INS] = package
    for name in _EMPTY_DIALECT_MODULES:
        sys.modules[f"{_EMPTY_STAND_INS}.{name}"] = types.ModuleType(f"{_EMPTY_STAND_INS}.{name}")
    _mlir.globals.append_dialect_search_prefix(_EMPTY_STAND_INS)


_stand_in_dialect_modules()


def context(*, allow_unregistered_dialects: bool = False) -> ir.Context:
    """A new context with all dialects loaded, owned by a fresh IREE compiler session."""
    from iree.compiler.api import Session

    session = Session()
    ctx = session.context            # the session hands ownership to Python; it keeps a reference
    ctx.load_all_available_dialects()
    ctx.allow_unregistered_dialects = allow_unregistered_dialects
    with _lock:
        _home_sessions[id(ctx)] = session
    return ctx


def default_context() -> ir.Context:
    """The context in use: the innermost `with ctx:` if it is shlo's, else a shared default."""
    global _default
    current = _current()
    if current is not None and is_shlo_context(current):
        return current
    with _lock:
        if _default is None:
            _default = context()
        return _default


def home_session(ctx: ir.Context):
    """The IREE session whose context `ctx` is, or None if `ctx` was not made by `context()`."""
    return _home_sessions.get(id(ctx))


def is_shlo_context(ctx: ir.Context) -> bool:
    return id(ctx) in _home_sessions


def _current() -> ir.Context | None:
    try:
        return ir.Context.current
    except ValueError:
        return None
