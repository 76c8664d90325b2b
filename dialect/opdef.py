"""OpDef: an op declared once as data, and the one generic builder derived from it.

An `OpDef` lists the op's inputs in the spec's order (`Operand`, `Attr`, `Region`; their spec
labels I1, I2, ... follow from that order), its constraint checks tagged with the spec's ids
(`Check("C13", fn)`, where `fn(build) -> message or None`), and a result-inference function.
`builder(opdef)` turns it into a Python function; `build()` runs, in order: argument binding,
operand and attribute validation, the checks, result inference (compared with a given
`result_type`), op creation, region bodies, and the MLIR verifier as a last safety net.
Ops whose results follow from their regions (`if`, `case`, `map`) build the regions first, into
a provisional op whose blocks then move to the real one.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from iree.compiler import ir

from shlo.errors import location_text

from . import types as T
from .attributes import KindError
from .errors import ArgumentError, ConstraintError, VerifierError

REQUIRED = object()   # Attr default: the caller must give the attribute


@dataclass(frozen=True)
class Operand:
    """A tensor operand; `classes` are the element-type classes the spec allows (None: any type)."""
    name: str
    classes: frozenset | None = T.ANY
    variadic: bool = False
    rank0: bool = False          # must be a 0-dimensional tensor
    label: str = ""
    what: str = "tensor"         # tensor | token | tensor_or_token | tuple | future | value
    optional: bool = False       # may be None (then left out); a keyword after the attributes


@dataclass(frozen=True)
class Derived:
    """An attribute default computed from the operands: `fn(build) -> normalized value`."""
    fn: Callable

    def __repr__(self):
        return "<from the operands>"


@dataclass(frozen=True)
class Attr:
    """An attribute taking a plain Python value; default None means 'absent unless given',
    a `Derived` default is computed from the operands."""
    name: str
    kind: Any                    # an attributes kind: doc, normalize, encode, decode
    default: object = REQUIRED
    positional: bool = False     # also accepted positionally, after the operands (constant's value)
    label: str = ""
    mlir: str = ""               # the MLIR attribute's name, when it differs from `name`
    struct: Any = None           # an attributes.Struct this keyword is one field of ...
    field: str = ""              # ... under this field name (default: `name`)

    @property
    def mlir_name(self) -> str:
        return self.mlir or self.name


@dataclass(frozen=True)
class Region:
    """A region given as a Python callable: block arguments in, value(s) to yield out.
    A variadic region (case's `branches`) is a list of callables; `check` checks one region's
    yielded types: `check.fn(build, types) -> message or None`."""
    name: str
    label: str = ""
    variadic: bool = False
    check: "Check | None" = None


@dataclass(frozen=True)
class Check:
    """A spec constraint: `fn(build)` returns None when it holds, else what is wrong."""
    id: str
    fn: Callable


@dataclass
class OpDef:
    """One op, declared as data. `result_type`: 'optional', 'required' (one type),
    'required_many' (a list of types: custom_call, infeed, recv) or 'none' (no keyword)."""
    name: str                                  # full name, e.g. "stablehlo.add"
    inputs: Sequence = ()                      # Operand / Attr / Region, in the spec's order
    infer: Callable | None = None              # build -> ir.Type or list of ir.Type
    checks: Sequence[Check] = ()
    result_type: str = "optional"
    result_id: str = "C1"                      # constraint tying the result type to the inputs
    result_element_id: str | None = None       # ... its element type, where the spec splits them
    result_classes: frozenset | None = None    # element classes a given result_type may have
    encode: Callable | None = None             # build -> {mlir attr name: ir.Attribute}
    region_args: Callable | None = None        # (build, region name) -> block argument types
    region_check: Check | None = None          # fn(build, yielded types) -> message or None
    decode_operands: Callable | None = None    # op -> operand values per Operand (rebuild.py)
    infer_from_regions: bool = False           # results follow from the regions' yields
    post_checks: Sequence[Check] = ()          # checks that need b.yielded (after the regions)
    result_what: str = "tensor"                # 'value': results may be tokens, tuples, ...
    summary: str = ""
    operands: list = field(init=False)
    attrs: list = field(init=False)
    regions: list = field(init=False)

    def __post_init__(self):
        self.inputs = tuple(inp if inp.label else replace(inp, label=f"I{i}")
                            for i, inp in enumerate(self.inputs, 1))
        self.operands = [x for x in self.inputs if isinstance(x, Operand)]
        self.attrs = [x for x in self.inputs if isinstance(x, Attr)]
        self.regions = [x for x in self.inputs if isinstance(x, Region)]

    @property
    def mnemonic(self) -> str:
        return self.name.split(".", 1)[1]

    @property
    def display(self) -> str:
        """How messages name the op: the spec's mnemonic for StableHLO, ``chlo.x`` for CHLO."""
        return self.mnemonic if self.name.startswith("stablehlo.") else self.name


class Build:
    """What checks and inference see: `b.lhs` is operand lhs's type (a list if variadic),
    `b.dimension` an attribute's normalized value, `b.result_type` the given one or None."""

    def __init__(self, opdef: OpDef):
        self.opdef = opdef
        self.values: dict[str, Any] = {}       # operand name -> value (a list if variadic)
        self.types: dict[str, Any] = {}
        self.attrs: dict[str, Any] = {}
        self.regions: dict[str, Any] = {}      # region name -> callable (a list if variadic)
        self.yielded: dict[str, list] = {}     # region name -> yielded types (list per branch)
        self.blocks: dict[str, Any] = {}       # region name -> its built block (list per branch)
        self.result_type = None
        self.ip = None                         # the insertion point (composite looks up symbols)

    def __getattr__(self, name):
        d = self.__dict__
        if name in d.get("types", {}):
            return d["types"][name]
        if name in d.get("attrs", {}):
            return d["attrs"][name]
        raise AttributeError(name)


def builder(opdef: OpDef, pyname: str | None = None) -> Callable:
    """The Python builder function of `opdef`, with a real signature and a generated docstring."""
    sig = _signature(opdef)

    def build_op(*args, **kwargs):
        return build(opdef, sig, args, kwargs)

    build_op.__name__ = build_op.__qualname__ = pyname or opdef.mnemonic
    build_op.__signature__ = sig  # type: ignore[attr-defined]  # read by inspect.signature
    build_op.__doc__ = _docstring(opdef)
    build_op.opdef = opdef  # type: ignore[attr-defined]  # read by gen_stubs and the docs
    return build_op


def _signature(opdef: OpDef) -> inspect.Signature:
    P = inspect.Parameter
    params = [P(o.name, P.POSITIONAL_OR_KEYWORD) for o in opdef.operands if not o.optional]
    for a in sorted(opdef.attrs, key=lambda a: not a.positional):
        default = None if isinstance(a.default, Derived) else a.default
        params.append(P(a.name, P.POSITIONAL_OR_KEYWORD if a.positional else P.KEYWORD_ONLY,
                        **({} if default is REQUIRED else {"default": default})))
    params += [P(o.name, P.KEYWORD_ONLY, default=None) for o in opdef.operands if o.optional]
    params += [P(r.name, P.KEYWORD_ONLY) for r in opdef.regions]
    if opdef.result_type != "none":
        params.append(P("result_type", P.KEYWORD_ONLY,
                        **({"default": None} if opdef.result_type == "optional" else {})))
    params += [P("loc", P.KEYWORD_ONLY, default=None), P("ip", P.KEYWORD_ONLY, default=None)]
    return inspect.Signature(params)


def _docstring(opdef: OpDef) -> str:
    lines = [f"Build `{opdef.name}`." + (f" {opdef.summary}" if opdef.summary else ""), ""]
    for inp in opdef.inputs:
        if isinstance(inp, Operand):
            what = ("tensor" if inp.classes is None or inp.classes >= T.ANY
                    else f"tensor of {T.describe(inp.classes)}")
            what = {"tensor": what, "tensor_or_token": f"{what} or token", "token": "token",
                    "tuple": "tuple", "future": "future", "value": "value"}[inp.what]
            if inp.classes is None:
                what = "value"
            what = ("0-d " if inp.rank0 else "") + what
            what = ("list of " + what + "s") if inp.variadic else what
            lines.append(f"({inp.label}) {inp.name}: {what}")
        elif isinstance(inp, Attr):
            opt = "" if inp.default is REQUIRED else f" = {inp.default!r}"
            lines.append(f"({inp.label}) {inp.name}{opt}: {inp.kind.doc}")
        else:
            what = "list of callables" if inp.variadic else "callable"
            lines.append(f"({inp.label}) {inp.name}: {what}(block arguments) -> value(s)")
    if opdef.result_type != "none":
        lines.append(f"result_type: {opdef.result_type.replace('_many', ', a list of types')}")
    checks = [c.id for c in all_checks(opdef)]
    if checks:
        lines.append("Checks: " + ", ".join(dict.fromkeys(checks)))
    return "\n".join(lines)


def all_checks(opdef: OpDef) -> list[Check]:
    """Every Check of an op: its checks, region checks and post-region checks, in order."""
    out = list(opdef.checks)
    out += [r.check for r in opdef.regions if r.check is not None]
    out += [opdef.region_check] if opdef.region_check else []
    return out + list(opdef.post_checks)


# --- the generic builder ---------------------------------------------------------------------

def build(opdef: OpDef, sig: inspect.Signature, args, kwargs):
    """Build one `opdef` op from a builder call's arguments; see the module docstring."""
    op_name = opdef.display
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise ArgumentError(f"{op_name}: {e}") from None
    bound.apply_defaults()
    loc = _location(bound.arguments.pop("loc"), op_name)
    ip = _insertion_point(bound.arguments.pop("ip"), loc.context, op_name)
    with loc:     # types and attributes below are made in the op's context
        return _build(opdef, bound.arguments, loc, ip)


def _build(opdef: OpDef, arguments: dict, loc: ir.Location, ip: ir.InsertionPoint):
    op_name = opdef.display
    where = location_text(loc)

    def fail(message: str, cid: str):
        raise ConstraintError(op_name, message, cid, location=where)

    b = _collect(opdef, arguments, loc.context, fail)
    b.ip = ip
    for check in opdef.checks:
        message = check.fn(b)
        if message:
            fail(message, check.id)

    if not opdef.infer_from_regions:
        results = _infer(opdef, b, fail)
    attributes = _encode_or_fail(opdef, b, op_name, where)
    regions = _region_slots(opdef, b)
    first = ir.Operation.create(opdef.name, results=[] if opdef.infer_from_regions else results,
                                operands=_flat(opdef, b), attributes=attributes,
                                regions=len(regions), loc=loc, ip=ip)
    op = first
    try:
        for i, (r, index) in enumerate(regions):
            _build_region(opdef, b, first.regions[i], r, index, loc, fail)
        for check in opdef.post_checks:
            message = check.fn(b)
            if message:
                fail(message, check.id)
        if opdef.infer_from_regions:     # now the results are known: move the blocks over
            results = _infer(opdef, b, fail)
            attributes = _encode_or_fail(opdef, b, op_name, where)   # may count the results
            op = ir.Operation.create(opdef.name, results=results, operands=_flat(opdef, b),
                                     attributes=attributes, regions=len(regions), loc=loc,
                                     ip=ir.InsertionPoint(first))
            for i in range(len(regions)):
                for block in list(first.regions[i].blocks):
                    block.append_to(op.regions[i])
            first.erase()
            first = None
        _verify(op, op_name, where)
    except BaseException:
        if first is not None:
            first.erase()
        if op is not first:
            op.erase()
        raise
    if len(results) == 1:
        return op.result
    return tuple(op.results) if results else op


def _encode_or_fail(opdef: OpDef, b: Build, op_name: str, where) -> dict:
    try:
        return _encode(opdef, b)
    except ir.MLIRError as e:
        raise VerifierError(f"{op_name}: attributes rejected by MLIR: {_notes(e)}",
                            location=where) from None


def _region_slots(opdef: OpDef, b: Build) -> list:
    """(Region, branch index or None) for each MLIR region of the op, in order."""
    out: list[tuple[Region, int | None]] = []
    for r in opdef.regions:
        if r.variadic:
            out += [(r, i) for i in range(len(b.regions[r.name]))]
        else:
            out.append((r, None))
    return out


def _collect(opdef: OpDef, a: dict, ctx, fail) -> Build:
    """Validate the bound arguments: operands, attribute kinds, derived defaults, regions."""
    b = Build(opdef)
    for o in opdef.operands:
        b.values[o.name], b.types[o.name] = _operand(o, a[o.name], ctx, fail)
    for at in opdef.attrs:
        v = a[at.name]
        if v is not None:
            try:
                v = at.kind.normalize(v)
            except KindError as e:
                fail(f"attribute {at.name} must be {e}", at.label)
        b.attrs[at.name] = v
    for at in opdef.attrs:
        if b.attrs[at.name] is None and isinstance(at.default, Derived):
            b.attrs[at.name] = at.default.fn(b)
    for r in opdef.regions:
        fns = a[r.name]
        if r.variadic:
            if not isinstance(fns, (list, tuple)) or not all(callable(f) for f in fns):
                fail(f"region {r.name} must be a list of callables, got {fns!r}", r.label)
            fns = list(fns)
        elif not callable(fns):
            fail(f"region {r.name} must be a callable, got {type(fns).__name__}", r.label)
        b.regions[r.name] = fns
    if opdef.result_type != "none" and a["result_type"] is not None:
        b.result_type = _result_type(opdef, a["result_type"], ctx, fail)
    return b


def _location(loc, op_name: str) -> ir.Location:
    if loc is None:
        loc = ir.Location.current
    if loc is None:
        try:
            ctx = ir.Context.current
        except ValueError:
            ctx = None
        if ctx is None:
            raise ArgumentError(f"{op_name}: no MLIR context: build ops under `with ctx:` "
                                "(a context from shlo.context()) and an insertion point")
        loc = ir.Location.unknown(ctx)
    if not isinstance(loc, ir.Location):
        raise ArgumentError(f"{op_name}: loc must be an ir.Location, got {type(loc).__name__}")
    return loc


def _insertion_point(ip, ctx, op_name: str) -> ir.InsertionPoint:
    """The explicit or current insertion point; ops are never built detached (their values
    would dangle once Python drops the op)."""
    if ip is None:
        try:
            ip = ir.InsertionPoint.current
        except ValueError:
            raise ArgumentError(f"{op_name}: no insertion point: build ops under "
                                "`with ir.InsertionPoint(block):` or pass ip=") from None
    if not isinstance(ip, ir.InsertionPoint):
        raise ArgumentError(f"{op_name}: ip must be an ir.InsertionPoint, got "
                            f"{type(ip).__name__}")
    owner = ip.block.owner
    if owner is not None and owner.context is not ctx:
        raise ArgumentError(f"{op_name}: the insertion point belongs to another MLIR context "
                            "than the location")
    return ip


def _operand(o: Operand, v, ctx, fail):
    if o.optional and v is None:
        return None, None
    if o.variadic:
        if isinstance(v, (ir.Value, ir.Operation, ir.OpView)) or not isinstance(v, (list, tuple)):
            fail(f"{o.name} must be a list of values, got {type(v).__name__}", o.label)
        pairs = [_one_operand(o, x, ctx, fail, f"{o.name}[{i}]") for i, x in enumerate(v)]
        return [p[0] for p in pairs], [p[1] for p in pairs]
    return _one_operand(o, v, ctx, fail, o.name)


def _one_operand(o: Operand, v, ctx, fail, what: str):
    if isinstance(v, (ir.Operation, ir.OpView)):
        results = v.operation.results
        if len(results) != 1:
            fail(f"{what} must be a value, got an op with {len(results)} results", o.label)
        v = results[0]
    if not isinstance(v, ir.Value):
        fail(f"{what} must be an ir.Value, got {type(v).__name__}", o.label)
    if v.context is not ctx:
        fail(f"{what} belongs to another MLIR context than the op being built", o.label)
    t = v.type
    if o.classes is None or o.what == "value":
        return v, t
    if o.what != "tensor" and _other_kind(o.what, t):
        return v, t
    if not isinstance(t.maybe_downcast(), ir.RankedTensorType):
        wanted = {"tensor": "a ranked tensor", "token": "a !stablehlo.token",
                  "tensor_or_token": "a ranked tensor or a !stablehlo.token",
                  "tuple": "a tuple", "future": "a !stablehlo.future"}[o.what]
        fail(f"{what} must be {wanted}, got {t}", o.label)
    if o.what in ("token", "tuple", "future"):
        fail(f"{what} must be a {'!stablehlo.' if o.what != 'tuple' else ''}{o.what}, got {t}",
             o.label)
    _element_class(o.classes, T.elem(t), what, t, o.label, fail)
    if o.rank0 and T.rank(t) != 0:
        fail(f"{what} must be a 0-dimensional tensor, got {t}", o.label)
    return v, t


def _other_kind(what: str, t: ir.Type) -> bool:
    """Whether `t` is the non-tensor type an operand of kind `what` may have."""
    return ((what in ("token", "tensor_or_token") and T.is_token(t))
            or (what == "tuple" and T.is_tuple(t)) or (what == "future" and T.is_future(t)))


def _element_class(classes, et, what: str, t, label: str, fail):
    k = T.kind(et)
    if k == T.QUANT and T.QUANT not in classes:
        fail(f"{what} is a quantized tensor {t}; this op's builder takes no quantized tensors "
             "(docs/dialect_coverage.md lists those that do)", label)
    if k not in classes:
        wanted = "a tensor" if classes >= T.ANY else f"a tensor of {T.describe(classes)} type"
        fail(f"{what} must be {wanted}, got {t}", label)


def _result_type(opdef: OpDef, given, ctx, fail):
    if isinstance(given, (list, tuple)) and opdef.result_type == "required":
        fail(f"result_type must be one ir.Type, got a {type(given).__name__}", "O1")
    if opdef.result_type == "required_many" and not isinstance(given, (list, tuple)):
        fail(f"result_type must be a list of ir.Types, got {type(given).__name__}", "O1")
    types = list(given) if isinstance(given, (list, tuple)) else [given]
    for t in types:
        if not isinstance(t, ir.Type):
            fail(f"result_type must be an ir.Type, got {type(t).__name__}", "O1")
        if t.context is not ctx:
            fail("result_type belongs to another MLIR context than the op being built", "O1")
        if opdef.result_what == "value" and not T.is_ranked_tensor(t):
            continue
        if not isinstance(t.maybe_downcast(), ir.RankedTensorType):
            fail(f"result_type must be a ranked tensor type, got {t}", "O1")
        if opdef.result_classes is not None:
            _element_class(opdef.result_classes, T.elem(t), "result_type", t, "O1", fail)
    return types if isinstance(given, (list, tuple)) else types[0]


def _infer(opdef: OpDef, b: Build, fail) -> list:
    inferred = opdef.infer(b) if opdef.infer else []
    inferred = list(inferred) if isinstance(inferred, (list, tuple)) else [inferred]
    given = b.result_type
    if given is None or opdef.result_type in ("required", "required_many"):
        return inferred
    given = list(given) if isinstance(given, (list, tuple)) else [given]
    if len(given) != len(inferred):
        fail(f"result_type gives {len(given)} types but the op has {len(inferred)} results",
             opdef.result_id)
    out = []
    for g, t in zip(given, inferred):
        if not _compatible(g, t):
            element_differs = T.elem(g) != T.elem(t) and opdef.result_element_id
            fail(f"result_type {g} does not match the inferred type {t}",
                 opdef.result_element_id if element_differs else opdef.result_id)
        out.append(g)
    return out


def _compatible(given: ir.Type, inferred: ir.Type) -> bool:
    """Equal, or `given` refines dynamic dimensions of `inferred` (or the other way round)."""
    if given == inferred:
        return True
    if not (T.is_ranked_tensor(given) and T.is_ranked_tensor(inferred)):
        return False
    g, t = ir.RankedTensorType(given), ir.RankedTensorType(inferred)
    return (g.element_type == t.element_type and str(g.encoding) == str(t.encoding)
            and T.same_shape(g.shape, t.shape))


def _flat(opdef: OpDef, b: Build) -> list:
    out: list = []
    for o in opdef.operands:
        v = b.values[o.name]
        out.extend(v if o.variadic else [] if v is None else [v])
    return out


def _encode(opdef: OpDef, b: Build) -> dict:
    if opdef.encode is not None:
        return opdef.encode(b)
    return default_encode(opdef, b)


def default_encode(opdef: OpDef, b: Build) -> dict:
    """{MLIR name: attribute} of the given attributes; struct fields grouped into their struct
    (a struct with every field None is left out)."""
    out: dict[str, ir.Attribute] = {}
    structs: dict[str, tuple[Any, dict]] = {}
    for a in opdef.attrs:
        v = b.attrs[a.name]
        if a.struct is not None:
            structs.setdefault(a.mlir_name, (a.struct, {}))[1][a.field or a.name] = v
        elif v is not None:
            attr = a.kind.encode(v)
            if attr is not None:          # a False UnitAttr is left out
                out[a.mlir_name] = attr
    for name, (struct, values) in structs.items():
        if any(v is not None for v in values.values()):
            out[name] = struct.encode(values)
    return out


def _build_region(opdef: OpDef, b: Build, region, r: Region, index, loc, fail):
    arg_types = opdef.region_args(b, r.name) if opdef.region_args else []
    block = region.blocks.append(*arg_types, arg_locs=[loc] * len(arg_types))
    fn = b.regions[r.name] if index is None else b.regions[r.name][index]
    label = r.name if index is None else f"{r.name}[{index}]"
    with ir.InsertionPoint(block), loc:
        out = fn(*block.arguments)
        ops = block.operations
        terminator = ops[len(ops) - 1] if len(ops) else None
        if terminator is not None and terminator.operation.name == "stablehlo.return":
            out = list(terminator.operation.operands)     # the body ended with return_ itself
        else:
            terminator = None
        values = [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]
        for i, v in enumerate(values):
            if isinstance(v, (ir.Operation, ir.OpView)):
                res = v.operation.results
                values[i] = res[0] if len(res) == 1 else v
            if not isinstance(values[i], ir.Value):
                fail(f"region {label} must return ir.Values, got {type(v).__name__}", r.label)
        types = [v.type for v in values]
        if index is None:
            b.yielded[r.name], b.blocks[r.name] = types, block
        else:
            b.yielded.setdefault(r.name, []).append(types)
            b.blocks.setdefault(r.name, []).append(block)
        for check in (r.check, opdef.region_check):
            message = check.fn(b, types) if check is not None else None
            if check is not None and message:
                fail(message if index is None else f"{label}: {message}", check.id)
        if terminator is None:
            ir.Operation.create("stablehlo.return", operands=values)


def _verify(op: ir.Operation, op_name: str, where):
    try:
        ok = op.verify()
    except ir.MLIRError as e:
        raise VerifierError(f"{op_name}: rejected by the MLIR verifier: {_notes(e)}",
                            location=where) from None
    if ok is False:
        raise VerifierError(f"{op_name}: rejected by the MLIR verifier", location=where)


def _notes(e: ir.MLIRError) -> str:
    return "; ".join(d.message for d in e.error_diagnostics) or str(e).replace("\n", " ")
