"""The Python pass base class: a name, a docstring, options as typed dataclass fields, `run(op)`.

A pass reports a failure by raising `shlo.PassError(message, at=op)`; the
pass manager turns it into an MLIR error diagnostic at that op's location.
"""
from __future__ import annotations

import dataclasses
from typing import ClassVar

from iree.compiler import ir

from ..errors import PassError, PipelineError


@dataclasses.dataclass
class Pass:
    """Subclass as a dataclass: set NAME, write a docstring, declare options as fields."""

    NAME: ClassVar[str] = ""
    # The op the pass anchors on ("" runs on any op, like an op-agnostic MLIR pass).
    ANCHOR: ClassVar[str] = ""

    def run(self, op: ir.Operation) -> None:
        raise PassError(f"{self.NAME}: pass defines no run()")

    @classmethod
    def summary(cls) -> str:
        return (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""

    @classmethod
    def option_fields(cls):
        return dataclasses.fields(cls)

    @classmethod
    def from_options(cls, options: dict[str, str]) -> "Pass":
        """Build the pass from textual options (`{opt=value}` in a pipeline)."""
        fields = {f.name.replace("_", "-"): f for f in cls.option_fields()}
        kwargs = {}
        for key, text in options.items():
            field = fields.get(key)
            if field is None:
                known = ", ".join(fields) or "none"
                raise PipelineError(f"{cls.NAME}: unknown option '{key}' (options: {known})")
            kwargs[field.name] = _parse_option(cls.NAME, key, field.type, text)
        return cls(**kwargs)

    def apply(self, module: ir.Module | ir.Operation) -> None:
        """Run this pass alone on a module, through MLIR's pass manager."""
        from .pipeline import run_passes
        run_passes(module, [self])


def nested_ops(op: ir.Operation, prefix: str = "") -> list[ir.Operation]:
    """Every op nested in `op` (and `op` itself) whose name starts with `prefix`, in walk order."""
    found = []

    def visit(o):
        if o.name.startswith(prefix):
            found.append(o)
        return ir.WalkResult.ADVANCE
    op.walk(visit)
    return found


def is_static_tensor(value: ir.Value) -> bool:
    """Whether `value` is a ranked tensor of static shape."""
    t = value.type.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape


def defining_op(value: ir.Value) -> ir.Operation | None:
    """The op whose result `value` is, or None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def in_block(op: ir.Operation, block: ir.Block) -> ir.Operation | None:
    """The op of `block` that is `op` or holds it, else None. Never reads `.block` of an op
    without a parent: IREE 3.13's bindings then drop a reference to `ir.Operation`'s type
    (docs/iree_gaps.md#py-block-of-top-level-op)."""
    while (parent := op.parent) is not None:
        if op.block == block:
            return op
        op = parent.operation
    return None


def is_inside(op: ir.Operation, ancestor: ir.Operation) -> bool:
    """Whether `op` is `ancestor` or nested in one of its regions."""
    while op is not None:
        op = op.operation
        if op == ancestor:
            return True
        op = op.parent
    return False


# ops whose result IREE may keep as a view of operand 0's buffer (no copy): an update written
# in place into that buffer is seen through the view
BUFFER_VIEWS = frozenset({
    "stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.real_dynamic_slice",
    "stablehlo.reshape", "stablehlo.dynamic_reshape", "stablehlo.bitcast_convert",
    "stablehlo.transpose", "stablehlo.broadcast_in_dim", "stablehlo.convert"})


def defined_by(value: ir.Value, name: str) -> ir.Operation | None:
    """The op that defines `value` when it is called `name`, else None (also for a block
    argument)."""
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == name:
        return owner.operation
    return None


def reads_narrow_values(value: ir.Value, depth: int = 8, below: int = 32,
                        booleans: bool = False) -> bool:
    """Whether the ops computing `value` (followed back `depth` ops) read numbers of fewer
    than `below` bits (8- or 16-bit by default; booleans only with `booleans`). Each value is
    looked at once: the producers form a DAG."""
    seen, frontier = set(), [value]
    for _ in range(depth):
        operands = [v for value in frontier if not isinstance(value.owner, ir.Block)
                    for v in value.owner.operands if v not in seen]
        seen.update(operands)
        for v in operands:
            t = v.type.maybe_downcast()
            if isinstance(t, ir.RankedTensorType) and \
                    (0 if booleans else 1) < getattr(t.element_type, "width", 32) < below:
                return True
        frontier = operands
    return False


def on_constants(op: ir.Operation) -> bool:
    """Whether `op` is a one-result StableHLO op whose operands are all constants."""
    return op.name.startswith("stablehlo.") and len(op.results) == 1 and bool(op.operands) and all(
        isinstance(v.owner, (ir.Operation, ir.OpView)) and v.owner.name == "stablehlo.constant"
        for v in op.operands)


def from_constants(values, budget: int = 256, regions: bool = False) -> bool:
    """Whether `values` are computed from constants alone: no block argument reached within
    `budget` ops (each visited once), and (unless `regions`) no op with a region on the way."""
    seen, stack = set(), list(values)
    while stack:
        value = stack.pop()
        if not isinstance(value, ir.OpResult):
            return False
        op = value.owner.operation
        if op in seen:
            continue
        seen.add(op)
        if len(seen) > budget or not regions and any(len(r.blocks) for r in op.regions):
            return False
        stack.extend(op.operands)
    return True


def constant_text(op: ir.Operation) -> str:
    """A constant's value as text, complex ones included: `dense<...> : tensor<...>`. The
    attribute's own text where the bindings can wrap it; a complex one (they cannot) from the
    op printed in its local scope, which names every value of the function first (`str(op)`:
    of the module, 400x slower in a large one)."""
    if not isinstance(ir.RankedTensorType(op.results[0].type).element_type.maybe_downcast(),
                      ir.ComplexType):
        return str(op.attributes["value"])
    return op.get_asm(use_local_scope=True).split("=", 1)[1].strip().removeprefix(
        "stablehlo.constant").strip()


def is_splat_constant(op: ir.Operation) -> bool:
    """Whether `op` is a stablehlo.constant of one repeated value (complex ones included, read
    from the op's text: the bindings cannot wrap complex elements)."""
    if op.name != "stablehlo.constant":
        return False
    if isinstance(ir.RankedTensorType(op.results[0].type).element_type.maybe_downcast(),
                  ir.ComplexType):
        text = constant_text(op)
        return not text[text.index("dense<") + len("dense<"):].startswith(("[", '"0x'))
    try:
        return ir.DenseElementsAttr(op.attributes["value"]).is_splat
    except (TypeError, ValueError):         # dense_resource<...>
        return False


def remap(op: ir.Operation, mapping: dict) -> None:
    """Point `op` and every op nested in it at the mapped values."""
    def visit(o):
        for i, v in enumerate(o.operands):
            if v in mapping:
                o.operands[i] = mapping[v]
        return ir.WalkResult.ADVANCE
    op.walk(visit)


def clone_ops(ops, mapping: dict) -> dict:
    """Clone `ops` in order at the current insertion point, each reading `mapping`'s values in
    place of its keys (nested ops too) and the clones of the ops before it; `mapping`,
    extended with each op's results."""
    for op in ops:
        copy = op.operation.clone()
        remap(copy, mapping)
        mapping.update(zip(op.results, copy.results))
    return mapping


def binary_body(op: ir.Operation) -> ir.Operation | None:
    """The one op of `op`'s body (a reduce's, a window's) that combines the body's two
    arguments and returns the result, or None."""
    block = op.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    if (len(ops) != 2 or len(ops[0].results) != 1
            or set(ops[0].operands) != set(block.arguments) or len(ops[0].operands) != 2):
        return None
    return ops[0] if list(ops[1].operands) == [ops[0].results[0]] else None


def declare_host_imports(module: ir.Operation, imports: dict[str, ir.FunctionType],
                         reflection_key: str) -> None:
    """Declare each `symbol: type` of `imports` as a private func.func (unless the module has
    it), and mark every public function with `reflection_key = "1"`, which tells shlo's
    runtime to provide that host module."""
    body = module.regions[0].blocks[0]
    symbols = ir.SymbolTable(module)
    with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
        for symbol, ftype in imports.items():
            if symbol not in symbols:
                ir.Operation.create("func.func", regions=1, attributes={
                    "sym_name": ir.StringAttr.get(symbol),
                    "function_type": ir.TypeAttr.get(ftype),
                    "sym_visibility": ir.StringAttr.get("private")})
    for op in body.operations:
        op = op.operation
        if op.name == "func.func" and op.regions[0].blocks and (
                "sym_visibility" not in op.attributes or
                ir.StringAttr(op.attributes["sym_visibility"]).value == "public"):
            set_reflection(op, reflection_key, "1")


def set_reflection(func: ir.Operation, key: str, value: str) -> None:
    """Add `key = value` to a function's `iree.reflection` dictionary (IREE keeps it in the
    .vmfb, where the runtime reads it back from the exported function)."""
    entries = {}
    if "iree.reflection" in func.attributes:
        existing = ir.DictAttr(func.attributes["iree.reflection"])
        entries = {existing[i].name: existing[i].attr for i in range(len(existing))}
    entries[key] = ir.StringAttr.get(value, func.context)
    func.attributes["iree.reflection"] = ir.DictAttr.get(entries, func.context)


def _parse_option(pass_name: str, key: str, type_name, text: str):
    kind = type_name if isinstance(type_name, str) else getattr(type_name, "__name__", str(type_name))
    try:
        if kind == "bool":
            if text.lower() in ("1", "true", "on", ""):
                return True
            if text.lower() in ("0", "false", "off"):
                return False
            raise ValueError(text)
        if kind == "int":
            return int(text, 0)
        if kind == "float":
            return float(text)
        if kind.startswith("list") or kind.startswith("tuple"):
            return tuple(t.strip() for t in text.split(",") if t.strip())
        return text
    except ValueError:
        raise PipelineError(f"{pass_name}: option '{key}' expects {kind}, got '{text}'") from None
