"""`shlo.compile(module, specialize=True)`: one static compilation per input-shape signature.

A dynamic module compiles once into code that works for every shape (with run-time shape
checks); a specialising executable instead waits for a call, refines the called function's
argument types to the arrays' shapes (shlo-refine-arguments, then shlo-refine-shapes: every
shape becomes static, shape computations fold away), compiles that, and keeps it for the
next call with the same shapes and dtypes. The compiled specialisations also go to the
on-disk compile cache (`runtime/cache.py`), keyed by the refined module, so a new process
pays no IREE compile for shapes seen before.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from iree.compiler import ir

from ..dialect.types import element_type
from ..errors import Error, InvocationError
from ..module_io import module_bytecode, parse_module
from ..passes.pipeline import run_passes
from ..passes.shapes.refine_arguments import RefineArguments, entry_function
from ..passes.shapes.refine_shapes import RefineShapes


def _tensor_type(array: np.ndarray, context: ir.Context) -> str:
    with context, ir.Location.unknown():
        return str(ir.RankedTensorType.get(list(array.shape), element_type(array.dtype)))


class SpecializingExecutable:
    """Calls compile, per distinct argument shapes and dtypes, a refined static copy of the
    module (`specializations` maps each signature to its `Executable`)."""

    def __init__(self, module: ir.Module, compile_refined):
        self._bytecode = module_bytecode(module.operation)
        self._context = module.context
        self._compile = compile_refined            # ir.Module -> Executable
        self.specializations: dict[tuple, Any] = {}     # signature -> Executable

    def __call__(self, *args):
        return self.function("")(*args)

    def function(self, name: str):
        """The callable for function `name` ("" for `main` or the only public function)."""
        def call(*args):
            arrays = [np.asarray(a) for a in args]
            key = (name, tuple((a.shape, a.dtype.str) for a in arrays))
            executable = self.specializations.get(key)
            if executable is None:
                executable = self._specialize(name, arrays)
                self.specializations[key] = executable
            return executable.function(self._entry_name(executable, name))(*arrays)
        call.__name__ = name or "main"
        return call

    @staticmethod
    def _entry_name(executable, name: str) -> str:
        return name or executable.entry

    def _specialize(self, name: str, arrays: list[np.ndarray]):
        module = parse_module(self._bytecode, context=self._context)
        types = ",".join(_tensor_type(a, self._context) for a in arrays)
        try:
            func = entry_function(module.operation, name)
            function = ir.StringAttr(func.attributes["sym_name"]).value
            run_passes(module, [RefineArguments(types=types, function=function), RefineShapes()])
        except Error as e:
            raise InvocationError(f"{name or 'main'}: cannot specialize for arguments "
                                  f"{types}: {e.message}") from None
        return self._compile(module)
