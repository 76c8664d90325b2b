"""Sub-computations: an XlaComputation (called through func.call, inlined by build()) or a
Python callable receiving XlaOps, applied to values or turned into an op's region body."""
from __future__ import annotations

import inspect
from collections.abc import Sequence

from iree.compiler import ir
from iree.compiler.dialects import func

from .builder import XlaBuilder, XlaComputation, XlaOp
from .errors import fail
from .shapes import Shape


def apply(op: str, computation, args: list[XlaOp], b: XlaBuilder, role: str) -> XlaOp:
    """`computation(*args)` emitted into `b`'s block; `role` says what the seed passes."""
    shapes = [a.shape() for a in args]
    if isinstance(computation, XlaComputation):
        params = computation.program_shape().parameter_shapes()
        if len(params) != len(args):
            fail(op, f"the computation {computation.name()!r} takes {len(params)} parameters "
                 f"but {op} passes {len(args)}", f"{op} passes {role}")
        for i, (p, s) in enumerate(zip(params, shapes)):
            if p != s:
                fail(op, f"parameter {i} of computation {computation.name()!r} has shape {p} "
                     f"but {op} passes {s}", f"{op} passes {role}")
        symbol = b.callee(computation)
        result = computation.program_shape().result_shape()
        with b.emit(op):
            call = func.CallOp(result.ir_types(), symbol, [v for a in args for v in a.leaves()])
        return b.unflatten(list(call.results), [result])[0]
    if not callable(computation):
        fail(op, "the computation must be an XlaComputation or a Python callable taking "
             f"XlaOps, got {type(computation).__name__}")
    try:
        inspect.signature(computation).bind(*args)
    except TypeError:
        fail(op, f"the computation {getattr(computation, '__name__', '')!r} cannot take "
             f"{len(args)} parameters", f"{op} passes {role}")
    except ValueError:
        pass                       # builtins without a signature: call and see
    out = computation(*args)
    if isinstance(out, (list, tuple)):
        out = b.tuple_of(out)
    if not isinstance(out, XlaOp):
        fail(op, f"the computation must return an XlaOp, got {type(out).__name__}")
    if out.builder() is not b:
        fail(op, f"the computation returned an XlaOp of {out.builder()!r}; build its result "
             "from its parameters", "a sub-computation uses only its own parameters")
    return out


def region(op: str, computation, b: XlaBuilder, shapes: list[Shape], role: str,
           captured: Sequence[XlaOp] = ()):
    """A region body for shlo.dialect: block arguments (flattened `shapes`), or for argument-less
    regions (if, case) the `captured` outer XlaOps, are passed to `computation`."""
    def body(*block_args):
        sub = b.region_builder(ir.InsertionPoint.current.block)
        if captured:
            args = sub.unflatten([v for c in captured for v in c.leaves()],
                                 [c.shape() for c in captured])
        else:
            args = sub.unflatten(list(block_args), shapes)
        return apply(op, computation, args, sub, role).leaves()
    return body


def scalar_shapes(values) -> list[Shape]:
    """0-d shapes of the element types of `values` (a reducer's parameters)."""
    return [Shape.array_shape(Shape.from_ir(v.type).element_type(), ()) for v in values]
