"""The `reference` target: run a test function in the StableHLO reference interpreter.

The interpreter is jaxlib's (`jaxlib.mlir._mlir_libs._stablehlo.eval_module`), which lives in
jaxlib's own MLIR: modules cross over as text, results come back as attribute text. It runs
the function named `main`, so each test function is printed in a copy of its chunk under
that name; CHLO ops are first legalized by jaxlib's own pass, as the files' RUN lines do.
"""
from __future__ import annotations

import functools

import numpy as np
from iree.compiler import ir

from .conformance_instrument import TestFunction, host_results, tensor_dtype
from .conformance_values import decode_dense, split_typed_attr


LEGALIZE_CHLO = "builtin.module(func.func(chlo-legalize-to-stablehlo))"


@functools.lru_cache(maxsize=1)
def jaxlib_context():
    from jaxlib.mlir import ir as jir
    from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _stablehlo

    registry = jir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)          # func and the upstream dialects
    ctx = jir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    _stablehlo.register_dialect(ctx)
    _chlo.register_dialect(ctx)
    _stablehlo.register_interpreter_dialect(ctx)       # run_parallel, probe, print
    _stablehlo.register_stablehlo_passes()
    return jir, _stablehlo, ctx


def module_text(module: ir.Module, test: TestFunction) -> str:
    """The chunk's text with `test` as its `main`."""
    with module.context:
        copy = module.operation.clone(ip=False)
        for op in copy.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == \
                    test.symbol and test.symbol != "main":
                ir.SymbolTable.set_symbol_name(op, "main")
        text = copy.get_asm(assume_verified=True)
        copy.erase()
    return text


def run_reference(module: ir.Module, test: TestFunction, ctx: ir.Context) -> list[np.ndarray]:
    """Evaluate `test` in the interpreter; its results as host arrays (one per result edge)."""
    jir, stablehlo, jctx = jaxlib_context()
    text = module_text(module, test)
    try:
        with jctx:
            jmodule = jir.Module.parse(text)
            if "chlo." in text:          # as the files' RUN lines do before interpreting
                from jaxlib.mlir.passmanager import PassManager
                PassManager.parse(LEGALIZE_CHLO).run(jmodule.operation)
            attrs = stablehlo.eval_module(jmodule, [])
            texts = [str(a) for a in attrs]
    except Exception as e:          # jaxlib's MLIRError and friends: one line, ours
        message = " ".join(str(e).split())
        raise RuntimeError(f"reference interpreter: {message}") from None
    arrays = []
    for t in texts:
        literal, type_ = split_typed_attr(t)
        arrays.append(decode_dense(literal, type_, tensor_dtype(type_, ctx)))
    return host_results(test, arrays)
