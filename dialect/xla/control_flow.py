"""Control flow: Call, CompositeCall, Conditional (predicate and branch-index forms), While
and OptimizationBarrier. Computations are XlaComputations or Python callables."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect import types as T

from .builder import XlaBuilder, XlaComputation, XlaOp
from .computations import apply, region
from .errors import fail
from .operands import array, builder_of, op_list


def Call(computation, operands=(), *rest) -> XlaOp:
    """XLA Call(computation, operands...): the computation applied to the operands (a
    func.call that build() inlines). C++'s Call(builder, computation, operands) also works."""
    b = None
    if isinstance(computation, XlaBuilder):
        b, computation, operands = computation, operands, rest[0] if rest else ()
    ops = op_list("Call", "operands", operands)
    if b is None:
        if not ops:
            fail("Call", "with no operands, pass the builder first: Call(b, computation)")
        b = builder_of("Call", ops)
    elif ops and builder_of("Call", ops) is not b:
        fail("Call", "the operands belong to another builder")
    return apply("Call", computation, ops, b, f"{len(ops)} operands")


def _as_computation(op: str, computation, shapes, name: str) -> XlaComputation:
    """An XlaComputation for a callable (built by its own XlaBuilder over `shapes`)."""
    if isinstance(computation, XlaComputation) or not callable(computation):
        return computation
    sub = XlaBuilder(name)
    params = [sub.parameter(i, s, f"p{i}") for i, s in enumerate(shapes)]
    out = apply(op, computation, params, sub, f"{len(shapes)} operands")
    return sub.build(out)


def CompositeCall(computation, operands, name: str, attributes: str | dict | None = None,
                  version: int | None = None) -> XlaOp:
    """XLA CompositeCall(computation, operands..., name, attributes, version): a
    stablehlo.composite whose decomposition is the computation; attributes is an MLIR
    dictionary string ("{n = 1 : i32}") or a dict."""
    ops = op_list("CompositeCall", "operands", operands)
    b = builder_of("CompositeCall", ops) if ops else fail(
        "CompositeCall", "needs at least one operand")
    comp = _as_computation("CompositeCall", computation, [o.shape() for o in ops], name)
    if not isinstance(comp, XlaComputation):
        fail("CompositeCall", "computation must be an XlaComputation or a Python callable")
    if isinstance(attributes, str):
        with b.context:
            try:
                attrs = ir.DictAttr(ir.Attribute.parse(attributes or "{}"))
            except (ir.MLIRError, ValueError) as e:
                fail("CompositeCall", f"attributes {attributes!r} is not an MLIR dictionary: {e}")
            attributes = {a.name: a.attr for a in attrs}
    symbol = b.callee(comp)
    with b.emit("CompositeCall"):
        out = stablehlo.composite([v for o in ops for v in o.leaves()], name=name,
                                  composite_attributes=attributes or None,
                                  decomposition=symbol, version=version)
    values = list(out) if isinstance(out, tuple) else [out]
    return b.unflatten(values, [comp.program_shape().result_shape()])[0]


def Conditional(*args, **kwargs) -> XlaOp:
    """XLA Conditional(predicate, true_operand, true_computation, false_operand,
    false_computation) or Conditional(branch_index, branch_computations, branch_operands)
    (an out-of-range index runs the last branch)."""
    if len(args) + len(kwargs) == 5 or "predicate" in kwargs:
        return _if(*args, **kwargs)
    return _case(*args, **kwargs)


def _if(predicate, true_operand, true_computation, false_operand, false_computation):
    b = builder_of("Conditional", predicate, true_operand, false_operand)
    p = array("Conditional", predicate, "predicate")
    if T.shape(p.type) != [] or str(T.elem(p.type)) != "i1":
        fail("Conditional", f"predicate must be PRED[], got {predicate.shape()}",
             "predicate is a scalar of type PRED")
    with b.emit("Conditional"):
        out = stablehlo.if_(p, true_branch=region("Conditional", true_computation, b, [],
                                                  "the true_operand", [true_operand]),
                            false_branch=region("Conditional", false_computation, b, [],
                                                "the false_operand", [false_operand]))
    return _branch_results(b, out, true_computation, false_computation)


def _case(branch_index, branch_computations, branch_operands):
    ops = op_list("Conditional", "branch_operands", branch_operands)
    comps = list(branch_computations) if isinstance(branch_computations, (list, tuple)) else \
        fail("Conditional", "branch_computations must be a list")
    if len(comps) != len(ops) or not comps:
        fail("Conditional", f"{len(comps)} branch_computations for {len(ops)} branch_operands",
             "one operand per branch computation, N >= 1")
    b = builder_of("Conditional", branch_index, ops)
    i = array("Conditional", branch_index, "branch_index")
    if T.shape(i.type) != [] or str(T.elem(i.type)) != "i32":
        fail("Conditional", f"branch_index must be S32[], got {branch_index.shape()}",
             "branch_index is a scalar of type S32")
    with b.emit("Conditional"):
        out = stablehlo.case(i, branches=[
            region("Conditional", c, b, [], f"branch_operands[{k}]", [o])
            for k, (c, o) in enumerate(zip(comps, ops))])
    return _branch_results(b, out, *comps)


def _branch_results(b: XlaBuilder, out, *computations) -> XlaOp:
    values = list(out) if isinstance(out, tuple) else [] if isinstance(out, ir.Operation) \
        else [out]
    for c in computations:
        if isinstance(c, XlaComputation):
            return b.unflatten(values, [c.program_shape().result_shape()])[0]
    if len(values) == 1:
        return b.wrap(values[0])
    return b.tuple_of(values)


def While(condition, body, init: XlaOp) -> XlaOp:
    """XLA While(condition, body, init): body runs while condition(state) is true; the state
    (often a tuple) keeps init's shape."""
    b = builder_of("While", init)
    shape = init.shape()
    with b.emit("While"):
        out = stablehlo.while_(init.leaves(),
                               cond=region("While", condition, b, [shape], "the state"),
                               body=region("While", body, b, [shape], "the state"))
    values = list(out) if isinstance(out, tuple) else [out]
    return b.unflatten(values, [shape])[0]


def OptimizationBarrier(operand: XlaOp) -> XlaOp:
    """XLA OptimizationBarrier: the operand (array or tuple) unchanged; no computation moves
    across it."""
    b = builder_of("OptimizationBarrier", operand)
    with b.emit("OptimizationBarrier"):
        out = stablehlo.optimization_barrier(operand.leaves())
    values = list(out) if isinstance(out, tuple) else [out]
    return b.unflatten(values, [operand.shape()])[0]


OPS = dict(Call=Call, CompositeCall=CompositeCall, Conditional=Conditional, While=While,
           OptimizationBarrier=OptimizationBarrier)
