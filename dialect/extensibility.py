"""StableHLO extensibility ops: custom_call and composite, declared as data with the spec's
constraints.

custom_call's results cannot be inferred: `result_type=` (a list of types, possibly empty) is
required. composite's results are its decomposition's: the function named `decomposition` is
looked up in the module being built (C2). custom_call's checks (not in the spec) carry these
ids: (C1) a dict backend_config needs api_version API_VERSION_TYPED_FFI, a str any other;
(C2) operand_layouts and result_layouts come together, one per operand / result, each a
permutation of that tensor's dimensions; (C3) output_operand_aliases name existing operands
and results.
"""
from __future__ import annotations

import re

from iree.compiler import ir

from . import attributes as A
from . import types as T
from .opdef import Attr, Check, OpDef, Operand

# --- custom_call ---------------------------------------------------------------------------------


def _backend_config(b):
    cfg = b.backend_config
    if isinstance(cfg, dict) and b.api_version != "API_VERSION_TYPED_FFI":
        return f"a dict backend_config needs api_version API_VERSION_TYPED_FFI, got {b.api_version}"
    if isinstance(cfg, str) and b.api_version == "API_VERSION_TYPED_FFI":
        return "api_version API_VERSION_TYPED_FFI needs a dict backend_config, got a str"


def _layouts(b):
    ops, res = b.operand_layouts, b.result_layouts
    if (ops is None) != (res is None):
        return "operand_layouts and result_layouts must be given together"
    if ops is None:
        return None
    for what, layouts, types in (("operand", ops, b.inputs), ("result", res, b.result_type)):
        if len(layouts) != len(types):
            return f"{what}_layouts has {len(layouts)} entries for {len(types)} {what}s"
        for i, (layout, t) in enumerate(zip(layouts, types)):
            if T.is_ranked_tensor(t) and sorted(layout) != list(range(T.rank(t))):
                return (f"{what}_layouts[{i}] {list(layout)} is not a permutation of the "
                        f"dimensions of {t}")


def _aliases(b):
    results = b.result_type
    if len(results) == 1 and T.is_tuple(results[0]):     # indices into the one tuple result
        results = T.tuple_elements(results[0])
    for output, operand, _ in b.output_operand_aliases or ():
        if not 0 <= operand < len(b.inputs):
            return f"output_operand_aliases names operand {operand} of {len(b.inputs)}"
        if output and not 0 <= output[0] < len(results):
            return f"output_operand_aliases names result {output[0]} of {len(results)}"


CUSTOM_CALL = OpDef(
    "stablehlo.custom_call",
    [Operand("inputs", variadic=True, what="value"), Attr("call_target_name", A.STRING),
     Attr("has_side_effect", A.BOOL, default=False),
     Attr("backend_config", A.STRING_OR_DICT, default=None),
     Attr("api_version", A.API_VERSION, default="API_VERSION_ORIGINAL"),
     Attr("called_computations", A.SYMBOL_ARRAY, default=None),
     Attr("operand_layouts", A.LAYOUTS, default=None),
     Attr("result_layouts", A.LAYOUTS, default=None),
     Attr("output_operand_aliases", A.OUTPUT_OPERAND_ALIASES, default=None)],
    checks=[Check("C1", _backend_config), Check("C2", _layouts), Check("C3", _aliases)],
    result_type="required_many", result_what="value", infer=lambda b: list(b.result_type))

# --- composite -----------------------------------------------------------------------------------

_NAMESPACED = re.compile(r"^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)+$")


def _namespaced(b):
    if not _NAMESPACED.match(b.name):
        return f"name {b.name!r} must be a namespaced op name like 'my_namespace.my_op'"


def _decomposition_type(b) -> ir.FunctionType | None:
    """The function type of the `decomposition` function in the module being built."""
    op = b.ip.block.owner if b.ip is not None else None
    while op is not None and op.name != "builtin.module":
        op = op.parent
    if op is None:
        return None
    for f in op.regions[0].blocks[0].operations:
        attrs = f.operation.attributes
        if "sym_name" in attrs and ir.StringAttr(attrs["sym_name"]).value == b.decomposition \
                and "function_type" in attrs:
            return ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value)
    return None


def _defined(b):
    if _decomposition_type(b) is None:
        return (f"decomposition @{b.decomposition} is not a function of the module being built "
                f"(define it first)")


def _input_types(b):
    ft = _decomposition_type(b)
    want = [str(t) for t in ft.inputs]  # type: ignore[union-attr]  # C2 (checked first) found it
    got = [str(t) for t in b.inputs]
    if want != got:
        return (f"inputs ({', '.join(got)}) must match decomposition @{b.decomposition}'s "
                f"inputs ({', '.join(want)})")


COMPOSITE = OpDef(
    "stablehlo.composite",
    [Operand("inputs", variadic=True, what="value"), Attr("name", A.STRING),
     Attr("composite_attributes", A.DICT, default=None), Attr("decomposition", A.SYMBOL),
     Attr("version", A.I32, default=None)],
    checks=[Check("C1", _namespaced), Check("C2", _defined), Check("C3", _input_types)],
    result_id="C4", result_what="value",
    infer=lambda b: list(_decomposition_type(b).results))  # type: ignore[union-attr]  # C2 found it

CHAPTER = "extensibility"
OPS: list[OpDef] = [CUSTOM_CALL, COMPOSITE]
