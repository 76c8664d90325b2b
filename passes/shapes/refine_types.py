"""Result-type inference for shape refinement: what an op's results would be given its operands'
current types, and how a known type merges with an inferred one.

Inference asks MLIR first (ops implementing InferTypeOpInterface, through a detached op
created with `infer_type=True`), then shlo's own op tables (the op rebuilt through its typed
builder, which also checks the spec's constraints: a contradiction is reported with the
constraint's id). Ops neither knows keep their types.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect.errors import ArgumentError
from shlo.dialect.rebuild import OPDEFS, rebuild
from shlo.dialect.types import DYN
from shlo.errors import Error, PassError
from ..lib.expr import attributes

# Op names MLIR cannot infer without regions or explicit result types (learned at run time).
_NO_MLIR_INFERENCE: set[str] = set()


def is_dynamic(t: ir.Type) -> bool:
    """A ranked tensor type with a dynamic dimension (unranked and other types: False)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and not t.has_static_shape


def _mlir_inference(op: ir.Operation) -> list[ir.Type] | None:
    if len(op.regions) or op.name in _NO_MLIR_INFERENCE:
        return None
    try:
        ir.InferTypeOpInterface(op)
    except (ValueError, RuntimeError, TypeError):
        _NO_MLIR_INFERENCE.add(op.name)
        return None
    messages: list[str] = []

    def capture(diagnostic):
        messages.append(diagnostic.message)
        return True                        # reported below, as the pass's own error
    handler = op.context.attach_diagnostic_handler(capture)
    try:
        probe = ir.Operation.create(op.name, operands=list(op.operands),
                                    attributes=attributes(op), infer_type=True,
                                    loc=op.location, ip=False)
    except (ir.MLIRError, RuntimeError, ValueError, TypeError) as e:
        reason = messages[0] if messages else _first_line(e)
        raise PassError(f"{op.name}: the refined operand types "
                        f"({', '.join(str(v.type) for v in op.operands)}) do not fit: "
                        f"{reason}", at=op) from None
    finally:
        handler.detach()
    types = [r.type for r in probe.results]
    probe.erase()
    return types


def _shlo_inference(op: ir.Operation) -> list[ir.Type] | None:
    if op.name not in OPDEFS:
        return None
    try:
        built = rebuild(op)
    except ArgumentError:
        return None                       # an attribute the builder cannot decode back
    except Error as e:
        raise PassError(f"{op.name}: the refined operand types "
                        f"({', '.join(str(v.type) for v in op.operands)}) do not fit: "
                        f"{e.message}", at=op) from None
    values = built if isinstance(built, tuple) else (built,)
    if isinstance(built, (ir.Operation, ir.OpView)):
        return None
    types = [v.type for v in values]
    owner = values[0].owner if values else None
    if owner is not None:
        owner.erase()
    return types


# Ops whose result has the operand's shape and an element type of its own.
SAME_SHAPE = {"stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.uniform_quantize",
              "stablehlo.uniform_dequantize", "stablehlo.reduce_precision"}


def _same_shape(op: ir.Operation) -> list[ir.Type] | None:
    operand = op.operands[0].type.maybe_downcast()
    result = op.results[0].type.maybe_downcast()
    if not (isinstance(operand, ir.RankedTensorType) and isinstance(result, ir.RankedTensorType)
            and operand.rank == result.rank):
        return None
    return [ir.RankedTensorType.get(operand.shape, result.element_type,
                                    operand.encoding if not operand.has_static_shape else None)]


def inferred_types(op: ir.Operation) -> list[ir.Type] | None:
    """The result types `op` gets from its operands' current types, or None if unknown."""
    if op.name in SAME_SHAPE:
        return _same_shape(op)
    types = _mlir_inference(op)
    if types is None:
        types = _shlo_inference(op)
    if types is None or len(types) != len(op.results):
        return None
    return types


def merge(current: ir.Type, inferred: ir.Type, op: ir.Operation, index: int = 0) -> ir.Type:
    """`current` with its dynamic dimensions taken from `inferred`; a static dimension the two
    disagree on is an error at `op`."""
    c, i = current.maybe_downcast(), inferred.maybe_downcast()
    if not (isinstance(c, ir.RankedTensorType) and isinstance(i, ir.RankedTensorType)):
        return current
    if c.rank != i.rank or c.element_type != i.element_type:
        return current
    dims = []
    for d, (a, b) in enumerate(zip(c.shape, i.shape)):
        if a != DYN and b != DYN and a != b:
            raise PassError(f"{op.name}: result {index} has type {current} but its operands "
                            f"give {inferred} (dimension {d}: {a} vs {b})", at=op)
        dims.append(b if a == DYN else a)
    if dims == list(c.shape):
        return current
    encoding = c.encoding if DYN in dims else None
    return ir.RankedTensorType.get(dims, c.element_type, encoding)


def join(types: list[ir.Type]) -> ir.Type:
    """The most refined type all of `types` are instances of (dims that differ are dynamic)."""
    first = types[0].maybe_downcast()
    if not isinstance(first, ir.RankedTensorType) or all(t == types[0] for t in types):
        return types[0]
    ranked = [t.maybe_downcast() for t in types]
    if any(not isinstance(t, ir.RankedTensorType) or t.rank != first.rank for t in ranked):
        return types[0]
    dims = [d if all(t.shape[k] == d for t in ranked) else DYN
            for k, d in enumerate(first.shape)]
    return ir.RankedTensorType.get(dims, first.element_type,
                                   first.encoding if DYN in dims else None)


def _first_line(e: Exception) -> str:
    text = str(e).replace("Operation creation failed:", "").strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for line in lines:
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return lines[0] if lines else type(e).__name__
