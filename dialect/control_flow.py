"""StableHLO control flow: if (`true_branch`/`false_branch`), case (`branches`), while
(`cond`/`body`), map (`computation`), optimization_barrier, after_all and the deprecated
create_token, declared as data with the spec's constraints.

if, case and map take their result types from what their regions yield: the builder builds
the regions first (see opdef.py). Branch callables take no arguments; while's and map's take
the block arguments.
"""
from __future__ import annotations

from . import attributes as A
from . import checks as K
from . import types as T
from .opdef import Attr, Check, OpDef, Operand, Region


def _types(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


# --- if / case -----------------------------------------------------------------------------------


def _same_branch_outputs(b):
    """(C2 of if) output_types(true_branch) = output_types(false_branch)."""
    t, f = b.yielded["true_branch"], b.yielded["false_branch"]
    if [str(x) for x in t] != [str(x) for x in f]:
        return f"true_branch returns {_types(t)} but false_branch returns {_types(f)}"


def _case_nonempty(b):
    if not b.regions["branches"]:
        return "branches must not be empty"


def _case_same_outputs(b):
    """(C3 of case) same(output_types(branches...))."""
    outs = b.yielded["branches"]
    for i, o in enumerate(outs[1:], 1):
        if [str(x) for x in o] != [str(x) for x in outs[0]]:
            return f"branches[0] returns {_types(outs[0])} but branches[{i}] returns {_types(o)}"


def _i32_index(b):
    if str(T.elem(b.index)) != "i32":
        return f"index must be a tensor<i32>, got {b.index}"


IF = OpDef("stablehlo.if",
           [Operand("pred", frozenset({T.BOOL}), rank0=True), Region("true_branch"),
            Region("false_branch")],
           post_checks=[Check("C2", _same_branch_outputs)], infer_from_regions=True,
           result_what="value", result_id="C3", infer=lambda b: b.yielded["true_branch"])

CASE = OpDef("stablehlo.case",
             [Operand("index", frozenset({T.SINT}), rank0=True),
              Region("branches", variadic=True)],
             checks=[Check("I1", _i32_index), Check("C1", _case_nonempty)],
             post_checks=[Check("C3", _case_same_outputs)], infer_from_regions=True,
             result_what="value", result_id="C4", infer=lambda b: b.yielded["branches"][0])

# --- while -------------------------------------------------------------------------------------


def _cond_check(b, types):
    """(C1) cond: (T0, ..., TN-1) -> tensor<i1>."""
    if [str(t) for t in types] != ["tensor<i1>"]:
        return f"cond must return (tensor<i1>), got {_types(types)}"


def _body_check(b, types):
    """(C2) body: (T0, ..., TN-1) -> (T0, ..., TN-1)."""
    if [str(t) for t in types] != [str(t) for t in b.operand]:
        return f"body must return {_types(b.operand)}, got {_types(types)}"


WHILE = OpDef("stablehlo.while",
              [Operand("operand", variadic=True, what="tensor_or_token"),
               Region("cond", check=Check("C1", _cond_check)),
               Region("body", check=Check("C2", _body_check))],
              region_args=lambda b, name: list(b.operand), result_what="value",
              result_id="C3", infer=lambda b: list(b.operand))

# --- map ---------------------------------------------------------------------------------------


def _map_dimensions(b):
    r = T.rank(b.inputs[0])
    if list(b.dimensions) != list(range(r)):
        return f"dimensions {list(b.dimensions)} must be {list(range(r))} (all of inputs[0])"


def _map_computation(b, types):
    """(C4) computation: (tensor<E0>, ..., tensor<EN-1>) -> tensor<E'>."""
    if len(types) != 1 or not T.is_ranked_tensor(types[0]) or T.rank(types[0]) != 0:
        return f"computation must return one 0-d tensor, got {_types(types)}"


MAP = OpDef("stablehlo.map",
            [Operand("inputs", variadic=True), Attr("dimensions", A.I64_ARRAY),
             Region("computation", check=Check("C4", _map_computation))],
            checks=[Check("C2", K.nonempty("inputs")), Check("C1", K.same_shape("inputs")),
                    Check("C3", _map_dimensions)],
            region_args=lambda b, name: [T.with_shape(t, [], T.elem(t)) for t in b.inputs],
            infer_from_regions=True, result_id="C1", result_element_id="C4",
            infer=lambda b: T.with_shape(b.inputs[0], T.shape(b.inputs[0]),
                                         T.elem(b.yielded["computation"][0])))

# --- barriers and tokens -------------------------------------------------------------------------

OPTIMIZATION_BARRIER = OpDef(
    "stablehlo.optimization_barrier",
    [Operand("operand", variadic=True, what="tensor_or_token")], result_what="value",
    infer=lambda b: list(b.operand))

AFTER_ALL = OpDef("stablehlo.after_all", [Operand("inputs", variadic=True, what="token")],
                  result_type="none", result_what="value",
                  infer=lambda b: T.token_type())

CREATE_TOKEN = OpDef("stablehlo.create_token", [], result_type="none", result_what="value",
                     infer=lambda b: T.token_type(),
                     summary="Deprecated: use after_all with no inputs.")

CHAPTER = "control flow"
OPS: list[OpDef] = [IF, CASE, WHILE, MAP, OPTIMIZATION_BARRIER, AFTER_ALL, CREATE_TOKEN]
