"""XlaBuilder, XlaOp and XlaComputation: XLA's client builder over shlo's typed builders.

An `XlaBuilder` owns one `ir.Module` (in shlo's shared default context) with a `main`
function; each `Parameter` adds arguments to it and each op function appends StableHLO/CHLO
ops through `shlo.dialect`'s builders, whose checks and inference apply as they are. An
`XlaOp` holds one `ir.Value`, or a list of XlaOps for a tuple: tuples are kept in Python
(no `stablehlo.tuple` in the IR), so a tuple-shaped parameter is several arguments and a
tuple-shaped root is several results (the compiled executable returns a tuple of arrays).
`build()` orders the arguments by parameter number, returns the root, inlines calls to
sub-computations and verifies the module.

Sub-computations built from a Python callable are built directly into the op's region by a
*region builder* (a child XlaBuilder emitting into that block).
"""
from __future__ import annotations

import contextlib
import itertools

from iree.compiler import ir
from iree.compiler.dialects import func
from iree.compiler.passmanager import PassManager

from shlo.context import default_context
from shlo.errors import BuildError

from .errors import XlaError, fail
from .shapes import ProgramShape, Shape, as_shape


class XlaOp:
    """A value of a computation under construction: an array, a token, or a tuple of XlaOps."""

    __slots__ = ("_builder", "_value", "_elements")

    def __init__(self, builder: "XlaBuilder", value: ir.Value | None = None,
                 elements: list["XlaOp"] | None = None):
        self._builder, self._value, self._elements = builder, value, elements

    def builder(self) -> "XlaBuilder":
        return self._builder

    def shape(self) -> Shape:
        if self._elements is not None:
            return Shape.tuple_shape([e.shape() for e in self._elements])
        return Shape.from_ir(self._value.type)  # type: ignore[union-attr]  # not a tuple: a value

    def is_tuple(self) -> bool:
        return self._elements is not None

    def leaves(self) -> list[ir.Value]:
        """The ir.Values of this op, a tuple flattened depth first."""
        if self._elements is None:
            return [self._value]
        return [v for e in self._elements for v in e.leaves()]

    @property
    def value(self) -> ir.Value:
        """The ir.Value of an array or token op."""
        if self._value is None:
            raise XlaError(f"XlaOp: a tuple {self.shape()} has no single value; "
                           "use GetTupleElement")
        return self._value

    def __repr__(self):
        return f"<XlaOp {self.shape()} of {self._builder.name!r}>"


class XlaComputation:
    """A built computation: `.module` (an ir.Module whose `main` is the computation),
    `.as_text()`, `.program_shape()`; usable as a sub-computation of other builders."""

    def __init__(self, name: str, module: ir.Module, program_shape: ProgramShape):
        self._name, self.module, self._program_shape = name, module, program_shape

    def name(self) -> str:
        return self._name

    def program_shape(self) -> ProgramShape:
        return self._program_shape

    def as_text(self) -> str:
        """The module as MLIR text (StableHLO and CHLO)."""
        return str(self.module)

    def functions(self) -> list:
        return [op for op in self.module.body.operations if op.operation.name == "func.func"]

    def __repr__(self):
        return f"<XlaComputation {self._name} {self._program_shape}>"


class XlaBuilder:
    """Builds one computation: `b = XlaBuilder("name")`, ops as `xla.Op(...)`, `b.build()`."""

    _names = itertools.count()

    def __init__(self, name: str = "computation", *, _parent: "XlaBuilder | None" = None,
                 _block=None):
        if not isinstance(name, str):
            raise XlaError(f"XlaBuilder: name must be a str, got {type(name).__name__}")
        self.name = name
        self._parent = _parent
        self._last: XlaOp | None = None
        self._built = False
        self._root: XlaBuilder
        self.context: ir.Context
        if _parent is not None:         # a region builder: shares the module of its root
            self._root, self.context, self._block = _parent._root, _parent.context, _block
            return
        self._root = self
        self.context = default_context()
        self._params: dict[int, tuple[Shape, str, list]] = {}
        # id(computation) -> (the computation, kept alive so its id is not reused; its symbol)
        self._callees: dict[int, tuple[XlaComputation, str]] = {}
        with self.context, ir.Location.unknown():
            self.module = ir.Module.create()
            with ir.InsertionPoint(self.module.body):
                self._func = func.FuncOp("main", ir.FunctionType.get([], []))
            self._block = self._func.add_entry_block()

    def __repr__(self):
        return f"<XlaBuilder {self.name!r}>"

    # --- emitting ops -------------------------------------------------------------------------

    @contextlib.contextmanager
    def emit(self, op: str):
        """Where `op`'s IR goes: this builder's block; dialect errors come back naming `op`."""
        if self._root._built:
            fail(op, f"XlaBuilder {self._root.name!r} is already built; start a new XlaBuilder")
        try:
            with self.context, ir.Location.unknown(), ir.InsertionPoint(self._block):
                yield
        except XlaError:
            raise
        except BuildError as e:
            raise XlaError(f"{op}: {e}") from None
        except ir.MLIRError as e:
            notes = "; ".join(d.message for d in e.error_diagnostics) or str(e)
            raise XlaError(f"{op}: rejected by MLIR: {notes}") from None

    def wrap(self, value) -> XlaOp:
        """An XlaOp of this builder for one ir.Value (or a one-result op)."""
        if isinstance(value, (ir.Operation, ir.OpView)):
            value = value.operation.result
        out = XlaOp(self, value)
        self._last = out
        return out

    def tuple_of(self, elements) -> XlaOp:
        """A tuple XlaOp of XlaOps or ir.Values."""
        out = XlaOp(self, elements=[e if isinstance(e, XlaOp) else XlaOp(self, e)
                                    for e in elements])
        self._last = out
        return out

    def unflatten(self, values: list, shapes: list[Shape]) -> list[XlaOp]:
        """XlaOps for `shapes` over a flat list of values (tuples take several)."""
        values, out = list(values), []
        for s in shapes:
            out.append(self._unflatten_one(values, s))
        return out

    def _unflatten_one(self, values: list, s: Shape) -> XlaOp:
        if s.is_tuple():
            return XlaOp(self, elements=[self._unflatten_one(values, e) for e in s.tuple_shapes()])
        return XlaOp(self, values.pop(0))

    def region_builder(self, block) -> "XlaBuilder":
        return XlaBuilder(f"{self.name}.region", _parent=self, _block=block)

    def is_region(self) -> bool:
        return self._parent is not None

    # --- parameters ---------------------------------------------------------------------------

    def parameter(self, number: int, shape: Shape, name: str = "") -> XlaOp:
        if self._parent is not None:
            fail("Parameter", "a sub-computation built from a Python callable receives its "
                 "parameters as the callable's arguments; use XlaOps of the callable")
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            fail("Parameter", f"parameter number must be a non-negative int, got {number!r}")
        shape = as_shape("Parameter", shape)
        if number in self._params:
            fail("Parameter", f"parameter number {number} is already used by "
                 f"{self._params[number][1] or 'another parameter'}",
                 "each parameter number appears once")
        with self.emit("Parameter"):
            args = [self._block.add_argument(t, ir.Location.unknown())
                    for t in shape.ir_types()]
        self._params[number] = (shape, name, args)
        op = self.unflatten(args, [shape])[0]
        self._last = op
        return op

    # --- building -----------------------------------------------------------------------------

    def build(self, root: XlaOp | None = None) -> XlaComputation:
        """The computation returning `root` (default: the last op built)."""
        if self._parent is not None:
            fail("build", "a region builder is built by the op that owns the region")
        if self._built:
            fail("build", f"XlaBuilder {self.name!r} is already built")
        root = self._last if root is None else root
        if root is None:
            fail("build", f"XlaBuilder {self.name!r} has no operations; build an op or pass root=")
        if not isinstance(root, XlaOp):
            fail("build", f"root must be an XlaOp, got {type(root).__name__}")
        if root._builder is not self:
            fail("build", f"root belongs to {root._builder!r}, not to {self!r}")
        numbers = sorted(self._params)
        if numbers != list(range(len(numbers))):
            fail("build", f"parameter numbers {numbers} must be 0..{len(numbers) - 1} with no gaps",
                 "Parameter numbers are contiguous from 0")
        result_shape = root.shape()      # before inlining erases the calls' results
        with self.context, ir.Location.unknown():
            results = self._order_arguments(numbers, root.leaves())
            with ir.InsertionPoint(self._block):
                func.ReturnOp(results)
            self._func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
                [a.type for a in self._block.arguments], [v.type for v in results]))
            self._inline_calls()
            try:
                self.module.operation.verify()
            except ir.MLIRError as e:
                notes = "; ".join(d.message for d in e.error_diagnostics) or str(e)
                raise XlaError(f"build: the module does not verify: {notes}") from None
        self._built = True
        shape = ProgramShape([self._params[n][0] for n in numbers], result_shape,
                             [self._params[n][1] for n in numbers])
        return XlaComputation(self.name, self.module, shape)

    def _order_arguments(self, numbers: list[int], results: list) -> list:
        """Make the block arguments follow the parameter numbers (they follow call order);
        returns `results` with old arguments replaced by their new ones."""
        old = list(self._block.arguments)
        wanted = [a for n in numbers for a in self._params[n][2]]
        if [a.arg_number for a in wanted] == list(range(len(old))):
            return results
        moved = {}
        for n in numbers:
            shape, name, args = self._params[n]
            new = [self._block.add_argument(a.type, ir.Location.unknown()) for a in args]
            for a, b in zip(args, new):
                a.replace_all_uses_with(b)
                moved[a.arg_number] = b
            self._params[n] = (shape, name, new)
        results = [moved[v.arg_number] if isinstance(v, ir.BlockArgument) and
                   v.owner == self._block and v.arg_number < len(old) else v for v in results]
        for i in reversed(range(len(old))):
            self._block.erase_argument(i)
        return results

    def _inline_calls(self):
        has_calls = []

        def visit(op):
            if op.name == "func.call":
                has_calls.append(op)
            return ir.WalkResult.ADVANCE
        self.module.operation.walk(visit)
        if has_calls:
            PassManager.parse("builtin.module(inline{default-pipeline=}, symbol-dce)",
                              self.context).run(self.module.operation)

    # --- sub-computations ---------------------------------------------------------------------

    def callee(self, computation: XlaComputation) -> str:
        """The symbol of `computation`'s main in this builder's module (copied there once)."""
        root = self._root
        key = id(computation)
        if key in root._callees:
            return root._callees[key][1]
        if computation.module.context is not self.context:
            fail("XlaComputation", "the computation was built in another MLIR context")
        prefix = f"{_symbol(computation.name())}_{next(XlaBuilder._names)}"
        with self.context, ir.Location.unknown():
            copies = {}
            for f in computation.functions():
                old = ir.StringAttr(f.attributes["sym_name"]).value
                copy = f.operation.clone(ip=ir.InsertionPoint.at_block_begin(root.module.body))
                new = prefix if old == "main" else f"{prefix}_{old}"
                copy.attributes["sym_name"] = ir.StringAttr.get(new)
                copy.attributes["sym_visibility"] = ir.StringAttr.get("private")
                copies[old] = (new, copy)
            for old, (new, _) in copies.items():
                for _, copy in copies.values():
                    ir.SymbolTable.replace_all_symbol_uses(old, new, copy)
        root._callees[key] = (computation, prefix)
        return prefix


def _symbol(name: str) -> str:
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out[:1].isalpha() else "c_" + out
