"""Formulas over StableHLO tensors: the small algebra the CHLO decompositions are written in.

`Num` wraps an `ir.Value`. Python operators build StableHLO ops through the typed builders
(`a * b + 1.0` is a multiply, a constant and an add); a plain number becomes a splat constant of
the other operand's type (broadcast to the runtime shape when that shape is dynamic); `<`, `<=`,
`>`, `>=` and the methods `eq`/`ne` give i1 tensors, combined with `&`, `|`, `~`. The functions
below (`exp`, `atan2`, `select`, `horner`, ...) complete the vocabulary.

Constants are shared inside one `scope()` (one rule application), so a formula that names
`1.0` ten times emits one constant.

`float_info(t)` describes a float element type (max, tiny, eps, inf/nan support), and
`float_rule` turns kernels written for f32/f64 into a rule for every float type: f32 and f64
compute in their own type, the narrower floats (f16, bf16, 8-, 6- and 4-bit) in f32 and round
back, complex types go to the complex kernel.
"""
from __future__ import annotations

import contextlib
import math
import dataclasses
import functools
from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import element_dtype
from shlo.errors import PassError
from . import builders as extras

_scopes: list[dict] = []


@contextlib.contextmanager
def scope():
    """Constants made inside are reused (per insertion block) until the scope ends."""
    _scopes.append({})
    try:
        yield
    finally:
        _scopes.pop()


@dataclasses.dataclass
class Match:
    """What a rule sees: the CHLO op (its attributes, result types and location) and the values
    that stand for its operands (the op's own, or a recording block's arguments)."""
    op: ir.Operation
    operands: list


def generic_text(op: ir.Operation) -> str:
    """The op in generic form, printed in its local scope (the module scope names every
    value of the module first)."""
    return op.get_asm(print_generic_op_form=True, assume_verified=True, use_local_scope=True)


def attributes(op: ir.Operation) -> dict:
    """{name: attribute} of an op. Raises TypeError for attributes the Python bindings cannot
    wrap (dense elements of complex numbers): handle those through `generic_text`."""
    return {name: op.attributes[name] for name in op.attributes}


def clone_retyped(block: ir.Block, args: Sequence[ir.Value],
                  retype: Callable[[ir.Type], ir.Type],
                  rewrite: Callable | None = None) -> list[ir.Value]:
    """Clone a region's block at the insertion point on `args`, each result type mapped by
    `retype` (a constant is cloned as it is and converted to its new type); the values its
    stablehlo.return gives. `rewrite(op, operands)` may build an op's results itself (None:
    cloned as above). A value the block reads from outside (a constant the greedy rewriter
    hoisted out of the region) is used as it is, converted when `retype` changes its type."""
    env = dict(zip(block.arguments, args))

    def retyped(v: ir.Value) -> ir.Value:
        wide = retype(v.type)
        return v if wide == v.type else Num(v).to(ir.RankedTensorType(wide).element_type).value

    def operand(v: ir.Value) -> ir.Value:
        if v not in env:                                 # defined outside the block
            env[v] = retyped(v)
        return env[v]

    for inner in block.operations:
        if inner.name == "stablehlo.return":
            return [operand(v) for v in inner.operands]
        built = rewrite(inner, [operand(v) for v in inner.operands]) if rewrite else None
        if built is not None:
            env.update(zip(inner.results, built))
            continue
        if inner.name == "stablehlo.constant":
            env[inner.results[0]] = retyped(ir.Operation.create(
                inner.name, results=[inner.results[0].type], attributes=attributes(inner)).result)
            continue
        new = ir.Operation.create(inner.name, results=[retype(r.type) for r in inner.results],
                                  operands=[operand(v) for v in inner.operands],
                                  attributes=attributes(inner))
        env.update(zip(inner.results, new.results))
    raise ValueError("a region's block without a stablehlo.return")


def element_of(value: ir.Value) -> ir.Type:
    return ir.RankedTensorType(value.type).element_type


def with_element(t: ir.Type, element: ir.Type) -> ir.RankedTensorType:
    rt = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(rt.shape, element, rt.encoding)


def const(value, like: ir.Value, element: ir.Type | None = None) -> ir.Value:
    """A splat of `value` shaped like `like`, of its element type or `element` (complex types
    get `value + 0i`)."""
    t = ir.RankedTensorType(like.type)
    et = t.element_type if element is None else element
    key = None
    if _scopes:
        block = ir.InsertionPoint.current.block
        key = (block, t, et, repr(value), type(value).__name__)
        hit = _scopes[-1].get(key)
        if hit is not None:
            return hit
    if t.has_static_shape:
        out = stablehlo.constant(value, result_type=ir.RankedTensorType.get(t.shape, et))
    else:
        scalar = stablehlo.constant(value, result_type=ir.RankedTensorType.get([], et))
        out = extras.dynamic_broadcast_in_dim(scalar, runtime_shape(like), [],
                                              with_element(t, et))
    if key is not None:
        _scopes[-1][key] = out
    return out


def runtime_shape(value: ir.Value) -> ir.Value:
    """The runtime shape of `value` (shared inside a scope)."""
    if not _scopes:
        return extras.shape_of(value)
    key = ("shape", ir.InsertionPoint.current.block, value)
    hit = _scopes[-1].get(key)
    if hit is None:
        hit = _scopes[-1][key] = extras.shape_of(value)
    return hit


def _value(x, like: ir.Value) -> ir.Value:
    if isinstance(x, Num):
        return x.value
    if isinstance(x, ir.Value):
        return x
    return const(x, like)


class Num:
    """A tensor value in a formula; see the module docstring."""

    __slots__ = ("value",)
    value: ir.Value

    def __init__(self, value):
        if isinstance(value, Num):
            value = value.value
        elif isinstance(value, (ir.Operation, ir.OpView)):
            value = value.result
        self.value = value

    @property
    def type(self) -> ir.RankedTensorType:
        return ir.RankedTensorType(self.value.type)

    @property
    def element(self) -> ir.Type:
        return element_of(self.value)

    @property
    def is_f64(self) -> bool:
        return str(real_element(self.element)) == "f64"

    def like(self, value) -> "Num":
        """A constant of this value's type."""
        return Num(const(value, self.value))

    def _o(self, other) -> ir.Value:
        return _value(other, self.value)

    def __add__(self, o): return Num(stablehlo.add(self.value, self._o(o)))
    def __radd__(self, o): return Num(stablehlo.add(self._o(o), self.value))
    def __sub__(self, o): return Num(stablehlo.subtract(self.value, self._o(o)))
    def __rsub__(self, o): return Num(stablehlo.subtract(self._o(o), self.value))
    def __mul__(self, o): return Num(stablehlo.multiply(self.value, self._o(o)))
    def __rmul__(self, o): return Num(stablehlo.multiply(self._o(o), self.value))
    def __truediv__(self, o): return Num(stablehlo.divide(self.value, self._o(o)))
    def __rtruediv__(self, o): return Num(stablehlo.divide(self._o(o), self.value))
    def __mod__(self, o): return Num(stablehlo.remainder(self.value, self._o(o)))
    def __neg__(self): return Num(stablehlo.negate(self.value))
    def __abs__(self): return Num(stablehlo.abs(self.value))
    def __and__(self, o): return Num(stablehlo.and_(self.value, self._o(o)))
    def __or__(self, o): return Num(stablehlo.or_(self.value, self._o(o)))
    def __xor__(self, o): return Num(stablehlo.xor(self.value, self._o(o)))
    def __invert__(self): return Num(stablehlo.not_(self.value))
    def __lt__(self, o): return self._compare("LT", o)
    def __le__(self, o): return self._compare("LE", o)
    def __gt__(self, o): return self._compare("GT", o)
    def __ge__(self, o): return self._compare("GE", o)
    def eq(self, o) -> "Num": return self._compare("EQ", o)
    def ne(self, o) -> "Num": return self._compare("NE", o)

    # `==` is not overloaded (use eq/ne), and a Num is not a dict key
    __hash__ = None  # type: ignore[assignment]

    def _compare(self, direction: str, o) -> "Num":
        return Num(stablehlo.compare(self.value, self._o(o), comparison_direction=direction))

    def to(self, element: ir.Type | str) -> "Num":
        """stablehlo.convert to another element type (a no-op when it is the same)."""
        if isinstance(element, str):
            element = ir.Type.parse(element)
        if element == self.element:
            return self
        return Num(stablehlo.convert(self.value, result_type=with_element(self.type, element)))

    def bitcast(self, element: ir.Type | str) -> "Num":
        if isinstance(element, str):
            element = ir.Type.parse(element)
        return Num(stablehlo.bitcast_convert(self.value,
                                             result_type=with_element(self.type, element)))


def _unary(builder) -> Callable[[Num], Num]:
    def apply(x) -> Num:
        return Num(builder(Num(x).value))
    apply.__name__ = builder.__name__
    apply.__doc__ = f"stablehlo.{builder.__name__} of a Num."
    return apply


exp = _unary(stablehlo.exponential)
log = _unary(stablehlo.log)
sqrt = _unary(stablehlo.sqrt)
rsqrt = _unary(stablehlo.rsqrt)
sin = _unary(stablehlo.sine)
cos = _unary(stablehlo.cosine)
tan = _unary(stablehlo.tan)
tanh = _unary(stablehlo.tanh)
floor = _unary(stablehlo.floor)
ceil = _unary(stablehlo.ceil)
round_even = _unary(stablehlo.round_nearest_even)
sign = _unary(stablehlo.sign)
real = _unary(stablehlo.real)
imag = _unary(stablehlo.imag)
is_finite = _unary(stablehlo.is_finite)


def _binary(builder) -> Callable[[Num, object], Num]:
    def apply(a, b) -> Num:
        a = Num(a)
        return Num(builder(a.value, _value(b, a.value)))
    apply.__name__ = builder.__name__
    apply.__doc__ = f"stablehlo.{builder.__name__} of a Num and a Num or number."
    return apply


atan2 = _binary(stablehlo.atan2)        # atan2(y, x)
shift_left = _binary(stablehlo.shift_left)
shift_right_logical = _binary(stablehlo.shift_right_logical)
power = _binary(stablehlo.power)
maximum = _binary(stablehlo.maximum)
minimum = _binary(stablehlo.minimum)


def select(pred: Num, on_true, on_false) -> Num:
    """pred ? on_true : on_false; one of the branches may be a plain number."""
    like = on_true.value if isinstance(on_true, Num) else on_false.value
    return Num(stablehlo.select(Num(pred).value, _value(on_true, like), _value(on_false, like)))


def hypot(a: Num, b: Num) -> Num:
    """sqrt(a^2 + b^2) for a, b >= 0 without overflow (functional_algorithms' form)."""
    mx, mn = maximum(a, b), minimum(a, b)
    r = (mn / mx) * (mn / mx)
    sqa = sqrt(1.0 + r)
    near = (mx + mx * r / 2.0)
    general = select(sqa.eq(1.0) & (r > 0.0), near, mx * sqa)
    return select(mx.eq(mn), mx * math.sqrt(2.0), general)


def complex_(re: Num, im) -> Num:
    return Num(stablehlo.complex(re.value, _value(im, re.value)))


def conj(x) -> Num:
    """The complex conjugate (a real x itself)."""
    x = Num(x)
    return complex_(real(x), -imag(x)) if is_complex(x.element) else x


def is_nan(x: Num) -> Num:
    return x.ne(x)


def sum_over(x: Num, dimensions: Sequence[int]) -> Num:
    """x summed over `dimensions` (which disappear)."""
    zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], x.element))
    return Num(stablehlo.reduce([x.value], [zero], dimensions=list(dimensions),
                                body=lambda a, b: stablehlo.add(a, b)))


def max_over(x: Num, dimensions: Sequence[int], initial) -> Num:
    """The largest element of x along `dimensions` (which disappear); `initial` where they
    are empty."""
    start = stablehlo.constant(initial, result_type=ir.RankedTensorType.get([], x.element))
    return Num(stablehlo.reduce([x.value], [start], dimensions=list(dimensions),
                                body=lambda a, b: stablehlo.maximum(a, b)))


def min_over(x: Num, dimensions: Sequence[int], initial) -> Num:
    """The smallest element of x along `dimensions` (which disappear); `initial` where they
    are empty."""
    start = stablehlo.constant(initial, result_type=ir.RankedTensorType.get([], x.element))
    return Num(stablehlo.reduce([x.value], [start], dimensions=list(dimensions),
                                body=lambda a, b: stablehlo.minimum(a, b)))


def any_over(x: Num, dimensions: Sequence[int]) -> Num:
    """Whether any element of the i1 tensor x is true along `dimensions` (which disappear)."""
    false = stablehlo.constant(False, result_type=ir.RankedTensorType.get([], x.element))
    return Num(stablehlo.reduce([x.value], [false], dimensions=list(dimensions),
                                body=lambda a, b: stablehlo.or_(a, b)))


def spread(x: Num, values: Sequence[float]) -> tuple[Num, Num]:
    """x repeated along a new last dimension of len(values), and `values` laid along it (both
    of x's type, shaped x.shape + [len(values)]). A sum of terms of one formula then builds
    the formula once, over the vector, and `sum_over` the last dimension adds the terms:
    one copy of the ops for the compiler instead of one per term."""
    t, n = x.type, len(values)
    out = ir.RankedTensorType.get(list(t.shape) + [n], t.element_type)
    vector = stablehlo.constant(list(values), result_type=ir.RankedTensorType.get([n],
                                                                                  t.element_type))
    along = list(range(t.rank))
    if t.has_static_shape:
        return (Num(stablehlo.broadcast_in_dim(x.value, broadcast_dimensions=along,
                                               result_type=out)),
                Num(stablehlo.broadcast_in_dim(vector, broadcast_dimensions=[t.rank],
                                               result_type=out)))
    i64 = ir.RankedTensorType.get([1], ir.IntegerType.get_signless(64))
    shape = stablehlo.concatenate([runtime_shape(x.value),
                                   stablehlo.constant([n], result_type=i64)], dimension=0)
    return (Num(extras.dynamic_broadcast_in_dim(x.value, shape, along, out)),
            Num(extras.dynamic_broadcast_in_dim(vector, shape, [t.rank], out)))


def horner(x: Num, coefficients: Sequence[float]) -> Num:
    """c[0]*x^(n-1) + ... + c[n-1], highest degree first."""
    acc = x.like(coefficients[0])
    for c in coefficients[1:]:
        acc = acc * x + c
    return acc


def chebyshev(x: Num, coefficients: Sequence[float]) -> Num:
    """Cephes' chbevl: sum of c[i] * T_(n-1-i)(x/2) by the Clenshaw recurrence."""
    b0, b1, b2 = x.like(coefficients[0]), None, None
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 + c if b2 is None else x * b1 - b2 + c
    return (b0 - b2) * 0.5 if b2 is not None else b0 * 0.5


# --- element types ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class FloatInfo:
    """What a float element type can hold (numbers as Python floats)."""
    bits: int
    mantissa_bits: int      # explicit fraction bits
    max: float
    tiny: float             # smallest positive normal
    smallest: float         # smallest positive subnormal (== tiny without subnormals)
    eps: float
    has_inf: bool
    has_nan: bool
    has_negative: bool      # f8E8M0FNU has no sign
    has_negative_zero: bool  # the FNUZ types have none (0x80 is their NaN)


@functools.lru_cache(maxsize=None)
def _float_info(text: str) -> FloatInfo:
    dtype = element_dtype(ir.Type.parse(text))
    info = ml_dtypes.finfo(dtype)
    special = np.array([np.inf, -1.0, -0.0, np.nan]).astype(dtype).astype(np.float64)
    return FloatInfo(bits=int(info.bits), mantissa_bits=int(info.nmant), max=float(info.max),
                     tiny=float(info.tiny), smallest=float(info.smallest_subnormal),
                     eps=float(info.eps), has_inf=bool(np.isinf(special[0])),
                     has_nan=bool(np.isnan(special[3])), has_negative=bool(special[1] < 0),
                     has_negative_zero=bool(np.signbit(special[2])))


def float_info(element: ir.Type) -> FloatInfo:
    return _float_info(str(element))


def total_order_int(x) -> Num:
    """A signed integer ordered like the float's TOTALORDER (-NaN < -inf < ... < -0 < 0 < ...
    < inf < NaN): the bits, with the magnitude bits flipped for negative numbers. (IREE sorts
    with an ordinary float compare when a comparator asks for TOTALORDER.)"""
    x = Num(x)
    bits = float_info(x.element).bits
    i = x.bitcast(f"i{bits}")
    return select(i < 0, i ^ ((1 << (bits - 1)) - 1), i)


def is_float(element: ir.Type) -> bool:
    return isinstance(element.maybe_downcast(), ir.FloatType)


def is_narrow_float(element: ir.Type) -> bool:
    """A float of fewer than 32 bits (f16, bf16, the 8-, 6- and 4-bit floats)."""
    return is_float(element) and ir.FloatType(element).width < 32


def is_complex(element: ir.Type) -> bool:
    return isinstance(element.maybe_downcast(), ir.ComplexType)


def bit_width(element: ir.Type) -> int:
    """The bits of an integer or float element type."""
    if isinstance(element, ir.IntegerType):
        return ir.IntegerType(element).width
    return ir.FloatType(element).width


def real_element(element: ir.Type) -> ir.Type:
    t = element.maybe_downcast()
    return t.element_type if isinstance(t, ir.ComplexType) else element


NATIVE = ("f32", "f64")     # float types the kernels compute in


def float_rule(real: Callable | None = None, complex: Callable | None = None, *,
               name: str = "") -> Callable:
    """A rule for a float op from kernels `real(*Nums) -> Num` and `complex(*Nums) -> Num`.

    f32/f64 operands run `real` in their own type; every narrower float runs it in f32 and
    rounds the (float) result back; complex operands run `complex`.
    """
    def rule(m) -> list[ir.Value]:
        xs = list(m.operands)
        et = element_of(xs[0])
        if is_complex(et):
            if complex is None:
                raise PassError(f"shlo-legalize-chlo: {m.op.name} on {et} is not supported: "
                                f"the op is defined for real floats only", at=m.op)
            return [complex(*map(Num, xs)).value]
        if real is None or not is_float(et):
            raise PassError(f"shlo-legalize-chlo: {m.op.name} on {et} is not supported: "
                            f"the op needs a complex element type", at=m.op)
        work = et if str(et) in NATIVE else ir.F32Type.get()
        out = real(*(Num(x).to(work) for x in xs))
        result = element_of(m.op.results[0])
        return [out.to(result).value if is_float(result) else out.value]
    rule.__name__ = name or getattr(real, "__name__", "float_rule")
    return rule
