"""Shared helpers of the dialect test tables (one MLIR context for all of them): `ty` parses a
type, `build` makes a module whose function body is a callable, `cst` a float32 constant.
No tests here: the tables live in test_dialect_ops.py and test_dialect_cases_*.py."""
import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import func

import shlo
from shlo.dialect import chlo, stablehlo
from shlo.dialect import types as T
from shlo.dialect.registry import pyname

CTX = shlo.context()
EXAMPLE = {T.BOOL: "i1", T.SINT: "i32", T.UINT: "ui8", T.FLOAT: "f32", T.COMPLEX: "complex<f32>"}


def ty(text: str) -> ir.Type:
    with CTX:
        return ir.Type.parse(text)


def builder_of(opdef):
    ns = stablehlo if opdef.name.startswith("stablehlo.") else chlo
    return getattr(ns, pyname(opdef.mnemonic))


def build(arg_types, fn, *, module_attrs: str = ""):
    """A module with one function whose body is `fn(*args)`; returns the module."""
    with CTX, ir.Location.unknown():
        module = ir.Module.parse(f"module {module_attrs} {{}}") if module_attrs \
            else ir.Module.create()
        with ir.InsertionPoint(module.body):
            func.FuncOp.from_py_func(*[ty(t) for t in arg_types], name="f")(
                lambda *args: fn(*args))
    return module


def cst(value, dtype=np.float32):
    return stablehlo.constant(np.asarray(value, dtype))
