"""Random StableHLO programs as data (a `Program`: parameters, op nodes, outputs) and their
materialization as an `ir.Module` through shlo's XlaBuilder API.

A node holds only its kind, its argument ids and a seed: every attribute (dimensions, window,
constants, slice bounds) is derived at build time from the argument shapes and the seed, and
secondary arguments are coerced (converted, flattened, sliced or padded, reshaped) to the
shape the op needs. Any edit of a program (a node dropped, a shape halved) therefore builds
to a valid program again, which is what the shrinker relies on.
"""
from __future__ import annotations

import dataclasses
import math
import random

import ml_dtypes
import numpy as np

from shlo import xla

FLOATS = ("F32", "F16", "BF16", "F64")
SIGNED = ("S8", "S16", "S32", "S64")
UNSIGNED = ("U8", "U16", "U32")
INTS = SIGNED + UNSIGNED
DTYPES = FLOATS + INTS + ("PRED", "C64")
NUMPY = {"F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16, "F64": np.float64,
         "S8": np.int8, "S16": np.int16, "S32": np.int32, "S64": np.int64, "U8": np.uint8,
         "U16": np.uint16, "U32": np.uint32, "PRED": np.bool_, "C64": np.complex64}
# significand bits (with the implicit one) of each float type
PRECISION = {"F32": 24, "F16": 11, "BF16": 8, "F64": 53, "C64": 24}


def eps(dtype: str) -> float:
    return 2.0 ** (1 - PRECISION.get(dtype, 53))


@dataclasses.dataclass
class Param:
    id: str
    shape: tuple
    dtype: str


@dataclasses.dataclass
class Node:
    id: str
    kind: str
    args: list
    seed: int


@dataclasses.dataclass
class Program:
    """Parameters (with their input arrays), nodes in order, and the ids returned."""
    params: list
    nodes: list
    outputs: list
    inputs: list            # numpy arrays, one per param

    def copy(self) -> "Program":
        return Program([dataclasses.replace(p) for p in self.params],
                       [dataclasses.replace(n, args=list(n.args)) for n in self.nodes],
                       list(self.outputs), list(self.inputs))

    def describe(self) -> str:
        ps = ", ".join(f"{p.id}:{p.dtype}{list(p.shape)}" for p in self.params)
        ns = "; ".join(f"{n.id}={n.kind}({','.join(n.args)})" for n in self.nodes)
        return f"({ps}) {ns} -> {','.join(self.outputs)}"

    def to_json(self) -> dict:
        return {"params": [dataclasses.asdict(p) for p in self.params],
                "nodes": [dataclasses.asdict(n) for n in self.nodes], "outputs": self.outputs}


@dataclasses.dataclass
class Val:
    """A value under construction: its XlaOp, shape, dtype, an estimate of its relative error
    (0: exact in every correct implementation), whether it can suffer cancellation (its error
    is relative to the array's magnitude, not the element's) and whether it is a discrete
    value computed from an inexact one (a few elements may legitimately differ). `scale`: the
    id of the value whose array's magnitude a cancelled error is relative to, where a slice or
    the like dropped elements of it ("": the value's own array)."""
    op: xla.XlaOp
    shape: tuple
    dtype: str
    err: float = 0.0
    cancel: bool = False
    fragile: bool = False
    scale: str = ""


# node kinds whose value keeps only some elements of their first argument (its cancelled error
# stays relative to that argument's magnitude: seed 73 program 16, a slice of an IFFT's zero
# bins, 8e-25 where XLA gave 0), and kinds that move or copy all of them
SELECTIONS = ("slice", "dynamic_slice", "gather", "dynamic_update_slice")
# node kinds whose value sums products of their first argument's elements, which their
# builders may slice first: a cancelled error stays relative to that argument's magnitude too
# (seed 111 program 189: a convolution of an IFFT of constant input without its DC bin, 4.5e-8
# on vulkan where XLA gave 0)
COMBINATIONS = ("convolution", "dot_general")
VIEWS = ("reshape", "transpose")   # ops XLA may compile to a bitcast of their operand
MOVES = ("reshape", "transpose", "broadcast", "reverse", "pad", "concatenate", "convert",
         "optimization_barrier")


def _size(shape) -> int:
    return math.prod(shape)


class Builder:
    """Materializes one Program; `exchange=True` makes the interface interpreter-friendly
    (BF16 and C64 parameters and results cross as F32)."""

    def __init__(self, program: Program, max_elements: int, exchange: bool = False,
                 xla_safe: bool = False):
        self.p, self.max_elements, self.exchange = program, max_elements, exchange
        self.xla_safe = xla_safe    # float max/min reductions read NaN as 0 (XLA an oracle)
        self.b = xla.XlaBuilder("fuzz")
        self.vals: dict[str, Val] = {}
        self.fallbacks: list[str] = []
        self.work = 0       # element operations, roughly: the interpreter's cost
        self.xla_wrong: list[str] = []  # why XLA's answer is not an oracle for this program
        self.roots: dict[str, str] = {}     # value -> the value it is a view of (XLA: a bitcast)
        self.kinds: dict[str, str] = {}     # value -> the kind of the node that computes it
        self.args: list[str] = []           # the arguments of the node being built

    # --- helpers -------------------------------------------------------------------------------
    def root(self, value: str) -> str:
        return self.roots.get(value, value)

    def aliased(self, k: int) -> bool:
        """Whether the node's argument `k` (or, where it has none, its first) is a view of the
        same value as its first argument: XLA's CPU may update the first in place while it
        reads the other (seed 30 program 299, seed 120 program 106)."""
        return k >= len(self.args) or self.root(self.args[k]) == self.root(self.args[0])

    def const(self, value, dtype: str, shape=(), builder=None) -> xla.XlaOp:
        """A scalar constant, broadcast to `shape`."""
        a = np.asarray(value, dtype=np.float64 if dtype in FLOATS else None).astype(NUMPY[dtype])
        op = xla.Constant(builder or self.b, a)
        return xla.BroadcastInDim(op, list(shape), []) if shape else op

    def convert(self, v: Val, dtype: str) -> Val:
        """`v` as `dtype`: float -> integer conversions clamp and map NaN to 0 first (the
        spec leaves out-of-range ones implementation-defined); complex goes through its real
        part."""
        if v.dtype == dtype:
            return v
        op, src = v.op, v.dtype
        imag = None
        if src == "C64" and dtype != "C64":
            op, imag, src = xla.Real(op), xla.Imag(op), "F32"
        if src in FLOATS and dtype in INTS + ("PRED",) and v.err > 0:
            # an inexact value near an integer (an fft round trip) would truncate to either
            # neighbour, and one that is 0 in real arithmetic is true or false by its noise
            # (seed 155 program 486: bool(real(fft(x))) of rows whose bins cancel, 5 of 32):
            # round it, scaled to at most 64 so that its error (relative to its largest
            # magnitude) stays far below 0.5 (1e9s of an fft round trip were 64 off: seed 40
            # program 231); a complex value's real part by |z|'s (seed 155 program 188: the
            # real parts of (a + ai)(b + bi), 0 for shlo and rounding noise for XLA, scaled by
            # their own largest magnitude to 1 and -3.7 apart)
            scaled = _scaled_ops(self, [op] + ([imag] if imag is not None else []), src,
                                 v.shape, _scale_of(self, v))[0]
            op = xla.RoundNearestEven(xla.Mul(scaled, self.const(_grid_steps(v.err), src,
                                                                 v.shape)))
        if src in FLOATS and dtype in INTS:
            op = xla.Select(xla.Ne(op, op), self.const(0, src, v.shape), op)
            lo, hi = _int_bounds(dtype)
            op = xla.Clamp(self.const(_float_floor(lo, src, up=True), src), op,
                           self.const(_float_floor(hi, src), src))
        if src != dtype:
            op = xla.ConvertElementType(op, dtype)
        err = v.err + (eps(dtype) if dtype in FLOATS + ("C64",) else 0.0)
        fragile = v.fragile or (dtype in INTS + ("PRED",) and v.err > 0)
        return Val(op, v.shape, dtype, err, v.cancel and dtype in FLOATS + ("C64",), fragile)

    def reshape(self, v: Val, shape) -> Val:
        shape = tuple(shape)
        if v.shape == shape:
            return v
        return dataclasses.replace(v, op=xla.Reshape(v.op, list(shape)), shape=shape)

    def coerce(self, v: Val, shape, dtype: str) -> Val:
        """`v` converted to `dtype` and its elements (flattened, cut or zero-padded) laid out
        as `shape`."""
        v = self.convert(v, dtype)
        shape = tuple(shape)
        if v.shape == shape:
            return v
        n, m = _size(v.shape), _size(shape)
        flat = self.reshape(v, (n,))
        if n > m:
            flat = dataclasses.replace(flat, op=xla.Slice(flat.op, [0], [m], [1]), shape=(m,))
        elif n < m:
            flat = dataclasses.replace(flat, op=xla.Pad(flat.op, self.const(0, dtype),
                                                        [(0, m - n, 0)]), shape=(m,))
        return self.reshape(flat, shape)

    def scalar_index(self, v: Val | None, rng: random.Random, bound: int) -> xla.XlaOp:
        """An S32 scalar from data (`v`'s first element, wrapped into [-1, bound]) or a
        constant when no exact value is at hand."""
        if v is None or v.fragile or v.err > 0 or _size(v.shape) == 0:
            return self.const(rng.randint(-1, bound + 1), "S32")
        s = self.coerce(v, (), "S32").op
        return xla.Rem(s, self.const(bound + 2, "S32"))

    def pick_exact(self, others: list, rng: random.Random) -> Val | None:
        exact = [o for o in others if o.err == 0 and not o.fragile and _size(o.shape) > 0]
        return rng.choice(exact) if exact else None

    # --- building ------------------------------------------------------------------------------
    def scale_of(self, node: Node, args: list, out: Val) -> str:
        """`out.scale` of `node` (see Val)."""
        first = args[0]
        if not (out.cancel and out.err > 0 and first.cancel):
            return ""
        # a part of a complex value (real, imag) errs relative to |z|: imag(z / z) is 0 up to
        # z's rounding (seed 121 program 30: -6.8e-9 for XLA)
        if node.kind in SELECTIONS or node.kind in COMBINATIONS or (
                first.dtype == "C64" and out.dtype != "C64"):
            return first.scale or node.args[0]
        # abs and negate keep each magnitude: their error stays relative to the argument's
        # scale (seed 163 program 140: abs of a real part beside a large imaginary one)
        keeps = node.kind == "unary" and out.op.value.owner.name in (
            "stablehlo.abs", "stablehlo.negate")
        return first.scale if node.kind in MOVES or keeps else ""

    def build(self):
        """The module (an ir.Module) returning the program's outputs."""
        number = 0
        for prm in self.p.params:
            if self.exchange and prm.dtype in ("BF16", "C64"):
                shape = xla.Shape.array_shape("F32", list(prm.shape))
                if prm.dtype == "BF16":
                    op = xla.ConvertElementType(xla.Parameter(self.b, number, shape), "BF16")
                    number += 1
                else:
                    re = xla.Parameter(self.b, number, shape)
                    im = xla.Parameter(self.b, number + 1, shape)
                    op, number = xla.Complex(re, im), number + 2
            else:
                op = xla.Parameter(self.b, number,
                                   xla.Shape.array_shape(prm.dtype, list(prm.shape)))
                number += 1
            self.vals[prm.id] = Val(op, tuple(prm.shape), prm.dtype)
        for node in self.p.nodes:
            args = [self.vals[a] for a in node.args]
            rng = random.Random(node.seed)
            self.args = node.args
            self.roots[node.id] = self.root(node.args[0]) if node.kind in VIEWS else node.id
            self.kinds[node.id] = node.kind
            try:
                out = OPS[node.kind](self, rng, args[0], args[1:])
            except xla.XlaError as e:
                self.fallbacks.append(f"{node.id}={node.kind}: {e}")
                out = args[0]
            if out is not args[0]:
                self.vals[node.id] = dataclasses.replace(out, scale=self.scale_of(node, args, out))
            else:
                self.vals[node.id] = out
            self.work += 2 * _size(out.shape) + sum(_size(a.shape) for a in args)
        results = []
        for o in self.p.outputs:
            v = self.vals[o]
            if self.exchange and v.dtype == "BF16":
                results.append(xla.ConvertElementType(v.op, "F32"))
            elif self.exchange and v.dtype == "C64":
                results += [xla.Real(v.op), xla.Imag(v.op)]
            else:
                results.append(v.op)
        root = xla.Tuple(self.b, results) if len(results) > 1 else results[0]
        return self.b.build(root).module


@dataclasses.dataclass
class Built:
    module: object          # ir.Module
    vals: dict              # id -> Val
    fallbacks: list         # nodes built as their first argument (their op was rejected)
    work: int               # element operations, roughly
    xla_wrong: list         # why XLA is no oracle for it (empty: it is one)


def build(program: Program, max_elements: int = 1 << 22, exchange: bool = False,
          xla_safe: bool = False) -> Built:
    """The program's module; `xla_safe`: float max/min reductions and windows read NaN as 0
    (XLA's CPU drops NaN there), for a program the interpreter does not run."""
    bld = Builder(program, max_elements, exchange, xla_safe)
    module = bld.build()
    return Built(module, bld.vals, bld.fallbacks, bld.work, bld.xla_wrong)


def exchange_inputs(program: Program) -> list:
    """The inputs of `build(..., exchange=True)`'s module."""
    return exchange_arrays([p.dtype for p in program.params], program.inputs)


def exchange_outputs(program: Program, vals: dict, results: list) -> list:
    """The program's outputs from the exchange module's results."""
    return unexchange_arrays([vals[o].dtype for o in program.outputs], results)


def exchange_arrays(dtypes, arrays) -> list:
    """Arrays of `dtypes` as the exchange module takes them: BF16 as F32, C64 as two F32."""
    out = []
    for d, a in zip(dtypes, arrays):
        if d == "BF16":
            out.append(np.asarray(a, np.float32))
        elif d == "C64":
            out += [np.ascontiguousarray(a.real, np.float32),
                    np.ascontiguousarray(a.imag, np.float32)]
        else:
            out.append(a)
    return out


def unexchange_arrays(dtypes, results) -> list:
    """Arrays of `dtypes` from an exchange module's results."""
    results, out = list(results), []
    for d in dtypes:
        if d == "C64":
            re, im = np.asarray(results.pop(0)), np.asarray(results.pop(0))
            c = np.empty(re.shape, np.complex64)     # (re + 1j * im: an infinite im
            c.real, c.imag = re, im                  # would make re NaN)
            out.append(c)
        else:
            out.append(np.asarray(results.pop(0)).astype(NUMPY[d]))
    return out


def _int_bounds(dtype: str) -> tuple[int, int]:
    info = np.iinfo(NUMPY[dtype])
    return int(info.min), int(info.max)


def _float_floor(x: int, dtype: str, up: bool = False) -> float:
    """The float of `dtype` nearest `x` toward zero (`up`: for a negative bound) within the
    type's finite range."""
    p = PRECISION[dtype]
    a = abs(x)
    if a == 0:
        return 0.0
    step = 1 << max(a.bit_length() - p, 0)
    v = float((a // step) * step)      # (integers: a / step rounds 2^63 - 1 up)
    v = min(v, float(ml_dtypes.finfo(NUMPY[dtype]).max))
    return -v if x < 0 else v


# --- op kinds ----------------------------------------------------------------------------------
# Each takes (builder, rng, first argument, other arguments) and returns a Val.

UNARY_FLOAT = {  # name -> (xla function, ULPs of error, exact?)
    "Neg": 0, "Abs": 0, "Exp": 4, "Log": 4, "Sqrt": 1, "Rsqrt": 4, "Tanh": 4, "Sin": 4, "Cos": 4,
    "Logistic": 4, "Floor": 0, "Ceil": 0, "RoundNearestEven": 0, "Round": 0, "Sign": 0,
    "Cbrt": 4, "Expm1": 4, "Log1p": 4, "Tan": 8, "IsFinite": 0,
}
# XLA's f64 functions further off than UNARY_FLOAT allows (the oracle where the interpreter is
# too slow): log1p 57 and 86 ulps from mpmath where shlo was exact (seeds 183 and 190)
XLA_F64_ULPS = {"Log1p": 16}
UNARY_COMPLEX = {"Neg": 0, "Exp": 8, "Abs": 4, "Sqrt": 8, "Log": 8, "Real": 0, "Imag": 0}
UNARY_INT = ("Neg", "Abs", "Not", "PopulationCount", "Clz", "Sign")
DISCONTINUOUS = {"Floor", "Ceil", "RoundNearestEven", "Round", "Sign", "IsFinite"}
# steps at integers, halves or 0, where an inexact value that is an integer in real arithmetic
# (x - mean of integers) lands either side: such an operand is read 0.3 off them
STEPPED = DISCONTINUOUS - {"IsFinite"}
# NaN below 0 (-1), -inf or inf at 0 (-1): a cancelled operand is taken as |x| + 1
EDGE = {"Sqrt", "Rsqrt", "Log", "Log1p"}
PERIODIC = {"Sin", "Cos", "Tan"}    # of an inexact operand: scaled into [-1, 1] first
GROWING = {"Exp", "Expm1"}  # of a cancelled operand too: its absolute noise becomes relative


def _scaled_ops(b: Builder, xs: list, dtype: str, shape, by: tuple = ()) -> list:
    """The float arrays `xs` (of one shape) divided by max(1, the largest finite magnitude of
    them all and of the arrays `by` (any shape and type: a value's Val.scale, whose magnitude
    its error is relative to)). Past 2^(maxexp / 2) both are multiplied by 2^-(maxexp / 2)
    first (exact where the quotient is normal): XLA's CPU divides by multiplying with the divisor's reciprocal,
    subnormal past 2^126 in f32 and flushed to 0 (seed 58 program 638: x / 3.18e38 was 0 for
    2.04e-36). Subnormal quotients are made 0 here: whether a target flushes them decided
    t * -inf (-inf on Vulkan, NaN where flushed; seed 58 program 638 again)."""
    m = b.const(1, dtype)
    for x, x_dtype, x_shape in [(x, dtype, shape) for x in xs] + list(by):
        if x_dtype == "C64":
            x, x_dtype = xla.Abs(x), "F32"
        if x_dtype != dtype:
            x = xla.ConvertElementType(x, dtype)
        mag = xla.Select(xla.IsFinite(x), xla.Abs(x), b.const(0, dtype, x_shape))
        if x_shape:
            mag = xla.Reduce(mag, b.const(0, dtype), _reducer("Max"), list(range(len(x_shape))))
        m = xla.Max(mag, m)
    half = int(ml_dtypes.finfo(NUMPY[dtype]).maxexp) // 2
    s = xla.Select(xla.Gt(m, b.const(2.0 ** half, dtype)), b.const(2.0 ** -half, dtype),
                   b.const(1, dtype))
    m = xla.Mul(m, s)
    b.work += 5 * _size(shape) * len(xs)
    if shape:
        s, m = (xla.BroadcastInDim(v, list(shape), []) for v in (s, m))
    tiny = float(ml_dtypes.finfo(NUMPY[dtype]).tiny)
    out = []
    for x in xs:
        q = xla.Div(xla.Mul(x, s), m)
        out.append(xla.Select(xla.Lt(xla.Abs(q), b.const(tiny, dtype, shape)),
                              b.const(0, dtype, shape), q))
    return out


def _scale_of(b: Builder, a: Val) -> tuple:
    """`_scaled_ops`'s `by` for `a`: its Val.scale's array, as (op, dtype, shape), or ()."""
    if not a.scale or a.scale not in b.vals:
        return ()
    v = b.vals[a.scale]
    return ((v.op, v.dtype, v.shape),) if v.dtype in FLOATS + ("C64",) else ()


def _unit_scaled(b: Builder, a: Val) -> Val:
    """`a` scaled into [-1, 1] (`_scaled_ops`, by its Val.scale too: a real part of noise
    beside a large imaginary part was scaled to 1 by its own magnitude, seed 163 program 140):
    a periodic function of an inexact value is noise where the value is large (sin(1e6 * (1 +
    1e-7)) is any number); of the scaled one its absolute error stays the value's relative
    one."""
    return dataclasses.replace(a, op=_scaled_ops(b, [a.op], a.dtype, a.shape,
                                                 _scale_of(b, a))[0],
                               err=a.err + eps(a.dtype), cancel=True)


def _float_of(b: Builder, v: Val, rng, allow=FLOATS) -> Val:
    return v if v.dtype in allow else b.convert(v, rng.choice(("F32", "F32", "F16", "BF16", "F64")))


def unary(b: Builder, rng, a: Val, others) -> Val:
    if a.dtype == "C64" and rng.random() < 0.8:
        name = rng.choice(sorted(UNARY_COMPLEX))
        x = a.op
        if a.cancel and name in EDGE:
            # off 0 and the negative real axis (log, sqrt): z + |z| + 1; the log of an RFFT's
            # empty bin was -inf or -15.8 by rounding luck (seed 74 program 499)
            shift = xla.Add(xla.Abs(x), b.const(1, "F32", a.shape))
            x = xla.Add(x, xla.Complex(shift, b.const(0, "F32", a.shape)))
        if a.cancel and a.err > 0 and name == "Exp":
            # exp(z) of a cancelled z: both parts divided by their largest magnitude (seed 61
            # program 576: the exp of an RFFT's empty bins, 0.0024 of noise beside 90000, was
            # 1.0024 for 1)
            x = xla.Complex(*_scaled_ops(b, [xla.Real(x), xla.Imag(x)], "F32", a.shape))
            a = dataclasses.replace(a, err=a.err + eps("F32"))
        op = xla.OPS[name](x)
        dtype = "F32" if name in ("Abs", "Real", "Imag") else "C64"
        ulps = UNARY_COMPLEX[name]
        return Val(op, a.shape, dtype, a.err * 4 + ulps * eps("F32"), a.cancel or ulps > 0,
                   a.fragile)
    if a.dtype in INTS + ("PRED",) and rng.random() < 0.6:
        name = "Not" if a.dtype == "PRED" else rng.choice(
            UNARY_INT if a.dtype in SIGNED else ("Not", "PopulationCount", "Clz", "Neg"))
        return dataclasses.replace(a, op=xla.OPS[name](a.op))
    a = _float_of(b, a, rng)
    name = rng.choice(sorted(UNARY_FLOAT))
    ulps = XLA_F64_ULPS.get(name, UNARY_FLOAT[name]) if a.dtype == "F64" else UNARY_FLOAT[name]
    x = a.op
    if a.cancel and name in EDGE:   # a cancelled value's sign is noise (an fft round trip's
        x = xla.Add(xla.Abs(x), b.const(1, a.dtype, a.shape))   # -1e-8): off the edge
    if name in STEPPED and a.err > 0:
        x = xla.Add(x, b.const(0.3, a.dtype, a.shape))
    if (name in PERIODIC and a.err > 0) or (name in GROWING and a.cancel and a.err > 0):
        a = _unit_scaled(b, a)
        x = a.op
    op = xla.OPS[name](x)
    if name == "IsFinite":
        return Val(op, a.shape, "PRED", 0.0, False, a.fragile or a.err > 0)
    if name in DISCONTINUOUS:
        return Val(op, a.shape, a.dtype, a.err, a.cancel, a.fragile or a.err > 0)
    return Val(op, a.shape, a.dtype, a.err * 4 + ulps * eps(a.dtype), a.cancel, a.fragile)


BINARY_FLOAT = {"Add": 1, "Sub": 1, "Mul": 1, "Div": 2, "Rem": 0, "Max": 0, "Min": 0, "Pow": 8,
                "Atan2": 4}
BINARY_INT = ("Add", "Sub", "Mul", "Div", "Rem", "Max", "Min", "And", "Or", "Xor", "ShiftLeft",
              "ShiftRightArithmetic", "ShiftRightLogical")
BINARY_PRED = ("And", "Or", "Xor", "Max", "Min", "Add")
BINARY_COMPLEX = {"Add": 1, "Sub": 1, "Mul": 2, "Div": 4}


IDENTITY_RATE = 0.15     # binary ops whose second operand is the op's identity (or +0.0)


def identity_value(name: str, dtype: str, plus_zero: bool = False):
    """The constant that makes `name`(x, .) return x for every x of `dtype` (`plus_zero`: a
    float sum by +0.0 instead, which turns -0 into +0: a look-alike); None for ops without
    one. IREE folds such ops into their operand after shlo's passes looked."""
    if dtype == "PRED":
        return {"And": True, "Min": True}.get(name, False)
    if dtype in INTS:
        lowest, highest = _int_bounds(dtype)
        return {"Add": 0, "Sub": 0, "Or": 0, "Xor": 0, "ShiftLeft": 0,
                "ShiftRightArithmetic": 0, "ShiftRightLogical": 0, "Mul": 1, "Div": 1,
                "And": -1 if dtype in SIGNED else highest, "Max": lowest,
                "Min": highest}.get(name)
    value = {"Add": 0.0 if plus_zero else -0.0, "Sub": 0.0, "Mul": 1.0, "Div": 1.0,
             "Pow": 1.0, "Max": -np.inf, "Min": np.inf}.get(name)
    if dtype == "C64":      # (x * (1 + 0j) is NaN for an infinite x: only sums)
        return complex(value, value) if value is not None and name in ("Add", "Sub") else None
    return value


def _maybe_identity(b: Builder, rng, name: str, a: Val, c: Val) -> Val:
    """`c`, or (IDENTITY_RATE of the time) `name`'s identity as an exact constant."""
    if rng.random() >= IDENTITY_RATE:
        return c
    value = identity_value(name, a.dtype, plus_zero=rng.random() < 0.5)
    return c if value is None else Val(b.const(value, a.dtype, a.shape), a.shape, a.dtype)


def binary(b: Builder, rng, a: Val, others) -> Val:
    c = b.coerce(others[0], a.shape, a.dtype) if others else a
    fragile = a.fragile or c.fragile
    if a.dtype == "PRED":
        name = rng.choice(BINARY_PRED)
        c = _maybe_identity(b, rng, name, a, c)
        return Val(xla.OPS[name](a.op, c.op), a.shape, "PRED", 0.0, False, fragile)
    if a.dtype in INTS:
        name = rng.choice(BINARY_INT)
        c = _maybe_identity(b, rng, name, a, c)
        rhs = c.op
        if name in ("Div", "Rem"):      # no division by zero, no MIN / -1
            bad = xla.Or(xla.Eq(rhs, b.const(0, a.dtype, a.shape)),
                         xla.Eq(rhs, b.const(-1 if a.dtype in SIGNED else 0, a.dtype, a.shape)))
            rhs = xla.Select(bad, b.const(7, a.dtype, a.shape), rhs)
        elif name.startswith("Shift"):  # amounts within the width
            bits = np.dtype(NUMPY[a.dtype]).itemsize * 8
            rhs = xla.And(rhs, b.const(bits - 1, a.dtype, a.shape))
        return Val(xla.OPS[name](a.op, rhs), a.shape, a.dtype, 0.0, False, fragile)
    if a.dtype == "C64":
        name = rng.choice(sorted(BINARY_COMPLEX))
        c = _maybe_identity(b, rng, name, a, c)
        if name == "Div" and c.err > 0:     # an inexact divisor is 0 or a rounding error
            name = "Mul"    # (an fft's empty bin): z / z would be 0 or 1 by luck (seed 31:26)
        rhs = c.op
        if name == "Div":   # x / 0 has no one complex value (XLA: inf+nanj, the interpreter
            zero = xla.BroadcastInDim(xla.Constant(b.b, np.complex64(0)), list(a.shape), [])
            one = xla.BroadcastInDim(xla.Constant(b.b, np.complex64(1)), list(a.shape), [])
            rhs = xla.Select(xla.Eq(rhs, zero), one, rhs)   # inf+infj): divisors 0 become 1
        return Val(xla.OPS[name](a.op, rhs), a.shape, "C64",
                   2 * max(a.err, c.err) + BINARY_COMPLEX[name] * eps("F32"), True, fragile)
    name = rng.choice(sorted(BINARY_FLOAT))
    c = _maybe_identity(b, rng, name, a, c)
    if name == "Div" and c.err > 0 and c.cancel:    # a cancelled divisor is 0 or a rounding
        name = "Mul"    # error (an fft's exact 0 against IREE's 1e-15): x / x would be 0 or 1
    if name == "Pow" and c.err > 0 and c.cancel:    # a cancelled exponent's rounding error is
        name = "Mul"    # relative to its array's magnitude, and pow multiplies it by ln|x|:
        # a dot of 166667 mixed signs as the exponent, 1.3e-3 apart (seed 114 program 398)
    err = 2 * max(a.err, c.err) + BINARY_FLOAT[name] * eps(a.dtype)
    cancel = a.cancel or c.cancel or (name in ("Add", "Sub") and err > 0) or name == "Rem"
    if name == "Rem" and (a.err or c.err):
        fragile = True
    lhs, rhs = a.op, c.op
    if name == "Pow" and (a.err or c.err):  # a negative base to an inexact integer power
        lhs = xla.Abs(lhs)                  # (-4 to -4.0000005) is NaN or a number by luck
    if name == "Atan2":     # a cancelled zero's sign is the arithmetic's order: XLA folds the
        if a.cancel:        # + 0 of (x * 0) + 0 away, -0 for a negative x, and atan2(-+0, -1)
            lhs = xla.Abs(lhs)      # is -+pi (seed 101 program 861): abs makes it +0
        if c.cancel:
            rhs = xla.Abs(rhs)
    if name == "Div" and a.err:     # an inexact 0 (an IRFFT's rounding noise) over 0 is NaN or
        zero = b.const(0, a.dtype, a.shape)     # +-inf by luck (seed 65 program 403):
        rhs = xla.Select(xla.Eq(rhs, zero), b.const(1, a.dtype, a.shape), rhs)  # divisors 0 -> 1
    op = xla.OPS[name](lhs, rhs)
    if name == "Pow":   # XLA rewrites x / pow(y, z) as x * pow(y, -z): an f16 pow(7, 7) over
        if b.xla_safe:  # itself was inf, not inf / inf = NaN (seed 74 program 179)
            op = xla.OptimizationBarrier(op)
        else:
            b.xla_wrong.append("a float power")
    return Val(op, a.shape, a.dtype, err, cancel, fragile)


DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")
KEYS = {"F32": ("S32", 32), "F64": ("S64", 64), "F16": ("S16", 16), "BF16": ("S16", 16)}


def _total_compare(b: Builder, x, y, direction: str, dtype: str, shape=()):
    """compare(x, y) of floats in the total order; in the interpreter's form (`exchange`) as a
    compare of integer keys, since the interpreter ignores TOTALORDER (NaN != NaN and -0 == 0:
    seed 70 program 304)."""
    if not b.exchange:
        return xla.Compare(x, y, direction, compare_type="TOTALORDER")
    it, width = KEYS[dtype]
    builder = x.builder()

    def key(v):     # the bits, their magnitude bits flipped for negative values
        bits = xla.BitcastConvertType(v, it)
        sign = xla.ShiftRightArithmetic(bits, b.const(width - 1, it, shape, builder))
        return xla.Xor(bits, xla.And(sign, b.const((1 << (width - 1)) - 1, it, shape, builder)))
    return xla.Compare(key(x), key(y), direction)


def _grid_steps(err: float) -> float:
    """Steps a unit (at most 64) of a grid on which an error of `err`, relative to the largest
    magnitude (`_scaled_ops` scales it to 1), stays far below half a step."""
    return 2.0 ** max(0, min(6, math.floor(math.log2(0.005 / err))))


def _on_a_grid(b: Builder, a: Val, c: Val) -> tuple:
    """The ops of `a` and `c` (one float or C64 shape and type, one of them cancelled and
    inexact) scaled together by their largest magnitude (and their Val.scale's) and rounded to
    `_grid_steps`, as the bool convert rounds: a value that cancels to 0 is exactly 0 in one
    implementation and noise in another (seed 170 program 318: NE of an IFFT of a constant
    array and zeros, 875 of 1750 differing)."""
    complex_ = a.dtype == "C64"
    parts = [xla.Real(a.op), xla.Imag(a.op), xla.Real(c.op), xla.Imag(c.op)] if complex_ \
        else [a.op, c.op]
    dtype = "F32" if complex_ else a.dtype
    steps = b.const(_grid_steps(max(a.err, c.err)), dtype, a.shape)
    rounded = [xla.RoundNearestEven(xla.Mul(x, steps)) for x in
               _scaled_ops(b, parts, dtype, a.shape, _scale_of(b, a) + _scale_of(b, c))]
    if complex_:
        return xla.Complex(rounded[0], rounded[1]), xla.Complex(rounded[2], rounded[3])
    return rounded[0], rounded[1]


def compare(b: Builder, rng, a: Val, others) -> Val:
    c = b.coerce(others[0], a.shape, a.dtype) if others else a
    if a.dtype == "C64":
        direction, ctype = rng.choice(("EQ", "NE")), None
    else:
        direction = rng.choice(DIRECTIONS)
        ctype = "TOTALORDER" if a.dtype in FLOATS and rng.random() < 0.3 else None
    x, y = a.op, c.op
    if a.dtype in FLOATS + ("C64",) and ((a.cancel and a.err > 0) or (c.cancel and c.err > 0)):
        x, y = _on_a_grid(b, a, c)
    if ctype:   # NaNs as positive ones: the sign of a NaN an operation makes is not specified
        # (x86's is negative, lavapipe's positive: remainder(x, 0) in seed 105 program 175).
        # Not so in reducers: their -NaN init must stay the least value (seed 106 program 102)
        x, y = (xla.Select(xla.Ne(v, v), xla.Abs(v), v) for v in (x, y))
        op = _total_compare(b, x, y, direction, a.dtype, a.shape)
    else:
        op = xla.Compare(x, y, direction)
    return Val(op, a.shape, "PRED", 0.0, False,
               a.fragile or c.fragile or a.err > 0 or c.err > 0)


def select(b: Builder, rng, a: Val, others) -> Val:
    pred = a if a.dtype == "PRED" else compare(b, rng, a, others[:1])
    src = others[0] if others else a
    on_true = src if src.dtype != "PRED" or len(others) < 2 else others[1]
    on_true = b.coerce(on_true, a.shape, on_true.dtype)
    on_false = b.coerce(others[-1] if others else a, a.shape, on_true.dtype)
    return Val(xla.Select(pred.op, on_true.op, on_false.op), a.shape, on_true.dtype,
               max(on_true.err, on_false.err), on_true.cancel or on_false.cancel,
               pred.fragile or on_true.fragile or on_false.fragile)


def clamp(b: Builder, rng, a: Val, others) -> Val:
    if a.dtype == "C64":
        a = b.convert(a, "F32")
    if others and rng.random() < 0.5:
        lo = b.coerce(others[0], a.shape, a.dtype)
        hi = b.coerce(others[-1], a.shape, a.dtype)
        # XLA's simplifier takes min <= max: maximum(clamp(lo, x, hi), lo) became the clamp,
        # where lo > hi makes it hi (seed 121 program 192)
        if b.xla_safe and a.dtype != "PRED":
            err, fragile = max(lo.err, hi.err), lo.fragile or hi.fragile
            lo, hi = (dataclasses.replace(lo, op=xla.Min(lo.op, hi.op), err=err, fragile=fragile),
                      dataclasses.replace(hi, op=xla.Max(lo.op, hi.op), err=err, fragile=fragile))
        else:
            b.xla_wrong.append("a clamp by bounds that may cross")
    else:
        x, y = sorted(rng.sample(range(-10, 11), 2)) if a.dtype != "PRED" else (0, 1)
        if a.dtype in UNSIGNED:
            x, y = abs(x), abs(y) + 3
        lo = Val(b.const(x, a.dtype), (), a.dtype)
        hi = Val(b.const(y, a.dtype), (), a.dtype)
    # a cancelled operand's error is relative to its own array's magnitude, which the bounds
    # cut off (an fft of 1e30s clamped to [-6, 10]): which side a near-0 value lands is noise
    return Val(xla.Clamp(lo.op, a.op, hi.op), a.shape, a.dtype, max(a.err, lo.err, hi.err),
               a.cancel, a.fragile or lo.fragile or hi.fragile or (a.cancel and a.err > 0))


def convert(b: Builder, rng, a: Val, others) -> Val:
    return b.convert(a, rng.choice([d for d in DTYPES if d != a.dtype]))


def complex_(b: Builder, rng, a: Val, others) -> Val:
    if a.dtype == "C64":
        return b.convert(a, "F32")
    re = b.convert(a, "F32")
    im = b.coerce(others[0], a.shape, "F32") if others else re
    return Val(xla.Complex(re.op, im.op), a.shape, "C64", max(re.err, im.err),
               re.cancel or im.cancel, re.fragile or im.fragile)


def broadcast(b: Builder, rng, a: Val, others) -> Val:
    out = [d if d != 1 or rng.random() < 0.5 else rng.randint(1, 5) for d in a.shape]
    dims = list(range(len(out)))
    for _ in range(rng.randint(0 if out else 1, 2)):
        if len(out) >= 5:
            break
        at = rng.randint(0, len(out))
        out.insert(at, rng.choice((1, 2, 3, 4, 7)))
        dims = [d + 1 if d >= at else d for d in dims]
    if _size(out) > b.max_elements:
        return a
    return dataclasses.replace(a, op=xla.BroadcastInDim(a.op, out, dims), shape=tuple(out))


def _factor(n: int, rank: int, rng) -> list:
    if n == 0:
        dims = [rng.randint(0, 4) for _ in range(max(rank, 1))]
        dims[rng.randrange(len(dims))] = 0
        return dims
    dims = [1] * rank
    if rank == 0:
        return dims if n == 1 else [n]
    p, m = 2, n
    while m > 1:
        while m % p == 0:
            dims[rng.randrange(rank)] *= p
            m //= p
        p += 1 if p == 2 else 2
        if p * p > m and m > 1:
            dims[rng.randrange(rank)] *= m
            m = 1
    return dims


def reshape(b: Builder, rng, a: Val, others) -> Val:
    return b.reshape(a, _factor(_size(a.shape), rng.randint(0, 4), rng))


def transpose(b: Builder, rng, a: Val, others) -> Val:
    perm = list(range(len(a.shape)))
    rng.shuffle(perm)
    return dataclasses.replace(a, op=xla.Transpose(a.op, perm),
                               shape=tuple(a.shape[i] for i in perm))


def _window(rng, d: int) -> int:
    """A slice's width along a dimension of `d`: at times a multiple of 8 (where IREE reads
    whole vectors, so that a start off a vector's first element matters: Vulkan read x[4:]
    for x[7:], docs/iree_gaps.md#vk-unaligned-transfers), else any."""
    if d >= 12 and rng.random() < 0.3:
        return 8 * rng.randint(1, (d - 1) // 8)
    return rng.randint(0, d)


def slice_(b: Builder, rng, a: Val, others) -> Val:
    start, limit, strides = [], [], []
    for d in a.shape:
        width = _window(rng, d)
        s = rng.randint(0, d - width)
        start.append(s)
        limit.append(s + width)
        strides.append(rng.choice((1, 1, 2, 3)) if width % 8 or not width else 1)
    shape = tuple(-(-(hi - lo) // st) for lo, hi, st in zip(start, limit, strides))
    return dataclasses.replace(a, op=xla.Slice(a.op, start, limit, strides), shape=shape)


def pad(b: Builder, rng, a: Val, others) -> Val:
    config, shape = [], []
    for d in a.shape:
        interior = rng.choice((0, 0, 0, 1, 2)) if d > 1 else 0
        full = d + max(d - 1, 0) * interior
        lo, hi = rng.randint(-min(full, 2), 2), rng.randint(-min(full, 2), 2)
        if lo + hi + full < 0:
            lo, hi = 0, 0
        config.append((lo, hi, interior))
        shape.append(lo + hi + full)
    if _size(shape) > b.max_elements:
        return a
    if others and rng.random() < 0.5:
        value = b.coerce(others[0], (), a.dtype)
    else:
        value = Val(b.const(rng.choice((0, 1, -1)) if a.dtype not in UNSIGNED else 1, a.dtype)
                    if a.dtype != "C64" else xla.Constant(b.b, np.complex64(1 - 2j)), (), a.dtype)
    return Val(xla.Pad(a.op, value.op, config), tuple(shape), a.dtype, max(a.err, value.err),
               a.cancel, a.fragile or value.fragile)


def concatenate(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        a = b.reshape(a, (1,))
    dim = rng.randrange(len(a.shape))
    parts = [a]
    for o in (others or [a])[:2]:
        shape = list(a.shape)
        shape[dim] = rng.choice((0, 1, 2, 3, a.shape[dim]))
        parts.append(b.coerce(o, shape, a.dtype))
    out = list(a.shape)
    out[dim] = sum(p.shape[dim] for p in parts)
    if _size(out) > b.max_elements:
        return a
    return Val(xla.ConcatInDim(b.b, [p.op for p in parts], dim), tuple(out), a.dtype,
               max(p.err for p in parts), any(p.cancel for p in parts),
               any(p.fragile for p in parts))


def reverse(b: Builder, rng, a: Val, others) -> Val:
    dims = [i for i in range(len(a.shape)) if rng.random() < 0.5]
    return dataclasses.replace(a, op=xla.Rev(a.op, dims))


def iota(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        a = b.reshape(a, (1,))
    dtype = a.dtype if a.dtype != "PRED" else "S32"
    a = b.convert(a, dtype)
    dim = rng.randrange(len(a.shape))
    io = xla.Iota(b.b, xla.Shape.array_shape(dtype, list(a.shape)), dim)
    # an inexact value plus an integer may cancel (tan(x) + 1 near -1: seed 71 program 306)
    return dataclasses.replace(a, op=xla.Add(a.op, io), cancel=a.cancel or a.err > 0)


def _identity(dtype: str, kind: str):
    if kind == "Add":
        return 0
    if kind == "Mul":
        return 1
    if dtype in FLOATS:
        return -np.inf if kind == "Max" else np.inf
    lo, hi = (0, 1) if dtype == "PRED" else _int_bounds(dtype)
    return lo if kind == "Max" else hi


def _reducer(kind: str):
    return lambda x, y: xla.OPS[kind](x, y)


def _without_nan(b: Builder, a: Val, why: str) -> Val:
    """`a` for a float max/min reduction: NaN made 0 where the builder is `xla_safe`, else `a`
    with XLA marked no oracle (`why`)."""
    if not b.xla_safe:
        b.xla_wrong.append(why)
        return a
    return dataclasses.replace(a, op=xla.Select(xla.Ne(a.op, a.op), b.const(0, a.dtype, a.shape),
                                                a.op))


def _no_f16_overflow(b: Builder, a: Val, n: int) -> Val:
    """An F16 value summed n at a time: finite magnitudes clamped to 32768 / n, so that no order
    of the sum (the spec leaves it open) overflows. Seed 49 program 23: a window of 65504, 1123,
    -1143, -396 is inf in the interpreter's and XLA's order, 65088 in shlo's (f32 sums)."""
    if a.dtype != "F16" or n <= 1:
        return a
    bound = 32768.0 / n
    clamped = xla.Clamp(b.const(-bound, "F16"), a.op, b.const(bound, "F16"))
    return dataclasses.replace(a, op=xla.Select(xla.IsFinite(a.op), clamped, a.op))


def _no_product_overflow(b: Builder, a: Val, n: int) -> Val:
    """A float value multiplied n at a time: finite nonzero magnitudes clamped to [1 / B, B],
    B = 2^(maxexp / 2n), so that no order of the product (the spec leaves it open) overflows
    or underflows; zeros and specials kept. Seed 156 program 325: a product of two rows of
    nonzeros (overflowing to inf) and six of zeros was NaN in shlo's order, -0 in XLA's."""
    if a.dtype not in FLOATS or n <= 1:
        return a
    fragile = a.fragile
    if a.cancel and a.err > 0:
        # a cancelled value that is 0 in real arithmetic is exactly 0 in one implementation
        # and rounding noise in another, which the clamp below makes 1 / B: made 0 where its
        # magnitude is within 64 times its error of 0, relative to its array's (seed 167
        # program 182: the product of a row of an FFT's real parts with two cancelled bins,
        # -0 for XLA, 9.2e18 for shlo)
        scaled = _scaled_ops(b, [a.op], a.dtype, a.shape, _scale_of(b, a))[0]
        noise = xla.Lt(xla.Abs(scaled), b.const(min(0.25, 64 * a.err), a.dtype, a.shape))
        a = dataclasses.replace(a, op=xla.Select(noise, b.const(0, a.dtype, a.shape), a.op))
        fragile = True
    bound = 2.0 ** (int(ml_dtypes.finfo(NUMPY[a.dtype]).maxexp) / (2 * n))
    magnitude = xla.Clamp(b.const(1 / bound, a.dtype), xla.Abs(a.op), b.const(bound, a.dtype))
    keep = xla.Or(xla.Not(xla.IsFinite(a.op)), xla.Eq(a.op, b.const(0, a.dtype, a.shape)))
    return dataclasses.replace(a, op=xla.Select(keep, a.op, xla.Mul(xla.Sign(a.op), magnitude)),
                               fragile=fragile)


def reduce(b: Builder, rng, a: Val, others) -> Val:
    if a.dtype == "C64":
        a = b.convert(a, "F32") if rng.random() < 0.5 else a
    rank = len(a.shape)
    dims = sorted(rng.sample(range(rank), rng.randint(0, rank))) if rank else []
    if rng.random() < 0.3 and a.dtype != "C64":
        return _arg_reduce(b, rng, a, dims)
    kinds = ["Add"] if a.dtype == "C64" else ["Add", "Max", "Min", "Mul"]
    kind = rng.choice(kinds)
    if kind in ("Max", "Min") and a.dtype in FLOATS:   # XLA's CPU drops NaN (1 of 1 over 1M
        # f32, 63 of 63 rows of 64x64; seed 42 program 11: -inf for a min over 2M with NaNs):
        # the interpreter checks it, else (xla_safe) XLA does without NaN
        a = _without_nan(b, a, "a max/min reduce of floats")
    if kind == "Add":
        a = _no_f16_overflow(b, a, _size([a.shape[i] for i in dims]))
    if kind == "Mul":
        a = _no_product_overflow(b, a, _size([a.shape[i] for i in dims]))
    init = b.const(_identity(a.dtype, kind), a.dtype) if a.dtype != "C64" else \
        xla.Constant(b.b, np.complex64(0))
    op = xla.Reduce(a.op, init, _reducer(kind), dims)
    shape = tuple(d for i, d in enumerate(a.shape) if i not in dims)
    if kind == "Add":
        op = _unsigned_zeros(b, op, a.dtype, shape)
    n = _size([a.shape[i] for i in dims])
    inexact = a.dtype in FLOATS + ("C64",) and kind in ("Add", "Mul") and n > 1
    err = a.err * 2 + (eps(a.dtype) * 2 * max(math.log2(max(n, 2)), 1) if inexact else 0)
    if kind == "Mul" and inexact:
        err = a.err * n + eps(a.dtype) * n
    return Val(op, shape, a.dtype, err, a.cancel or (inexact and kind == "Add"), a.fragile)


def _positive_nans(a: Val) -> Val:
    """`a` with every NaN made +NaN, for the total order: a computed NaN's sign is the
    implementation's (log1p(-2) is -NaN in XLA on x86, +NaN in shlo). As abs(x) where x is a
    NaN: XLA folds select(x != x, NaN, x) to x, which kept sqrt's -NaN first in a sort of
    f16 (seed 113 program 316)."""
    if a.dtype not in FLOATS:
        return a
    return dataclasses.replace(a, op=xla.Select(xla.Ne(a.op, a.op), xla.Abs(a.op), a.op))


def _arg_reduce(b: Builder, rng, a: Val, dims) -> Val:
    """A variadic (value, index) reduce: argmax or argmin with ties to the lower index, over
    the total order (associative and commutative, so the result is defined)."""
    want_max = rng.random() < 0.5
    a = _positive_nans(a)
    idx_dim = dims[0] if dims else 0
    shape = list(a.shape)
    index = xla.Iota(b.b, xla.Shape.array_shape("S32", shape), idx_dim) if shape else \
        b.const(0, "S32")
    def cmp(x, y, direction):
        return _total_compare(b, x, y, direction, a.dtype) if a.dtype in FLOATS else \
            xla.Compare(x, y, direction)

    def body(av, ai, bv, bi):
        better = cmp(av, bv, "GT" if want_max else "LT")
        same = cmp(av, bv, "EQ")
        take_a = xla.Or(better, xla.And(same, xla.Lt(ai, bi)))
        return [xla.Select(take_a, av, bv), xla.Select(take_a, ai, bi)]

    if a.dtype in FLOATS:   # -NaN and NaN: below and above every value in the total order
        init = b.const(np.nan, a.dtype)
        init = xla.Neg(init) if want_max else init
    else:
        init = b.const(_identity(a.dtype, "Max" if want_max else "Min"), a.dtype)
    out = xla.Reduce([a.op, index], [init, b.const(2**31 - 1, "S32")], body, dims)
    out_shape = tuple(d for i, d in enumerate(a.shape) if i not in dims)
    if rng.random() < 0.5:
        return Val(xla.GetTupleElement(out, 0), out_shape, a.dtype, a.err, a.cancel, a.fragile)
    return Val(xla.GetTupleElement(out, 1), out_shape, "S32", 0.0, False, a.fragile or a.err > 0)


def reduce_window(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        return a
    if a.dtype == "C64":
        a = b.convert(a, "F32")
    kind = rng.choice(("Add", "Max", "Min"))
    if kind != "Add" and a.dtype in FLOATS:     # as for reduce: XLA's CPU drops NaN (-inf for
        a = _without_nan(b, a, "a max/min reduce_window of floats")  # windows of NaN, seed
        # 44 program 222)
    window, strides, padding, base, wdil = [], [], [], [], []
    for d in a.shape:
        bd = rng.choice((1, 1, 1, 2)) if d > 1 else 1
        full = (d - 1) * bd + 1 if d else 0
        lo, hi = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1))
        wd = rng.choice((1, 1, 1, 2))
        span = full + lo + hi
        w = rng.randint(1, max(1, min(4, span)))
        if (w - 1) * wd + 1 > span:
            wd = 1
        if w > span:
            w, lo, hi = 1, 1, 0
            span = full + 1
        window.append(w)
        strides.append(rng.choice((1, 1, 2)))
        padding.append((lo, hi))
        base.append(bd)
        wdil.append(wd)
    if kind == "Add":
        a = _no_f16_overflow(b, a, _size(window))
    init = b.const(_identity(a.dtype, kind), a.dtype)
    op = xla.ReduceWindowWithGeneralPadding(a.op, init, _reducer(kind), window, strides, base,
                                            wdil, padding)
    shape = tuple(xla.Shape.from_ir(op.value.type).dimensions())
    if kind == "Add":
        op = _unsigned_zeros(b, op, a.dtype, shape)
    n = _size(window)
    b.work += _size(shape) * n
    inexact = a.dtype in FLOATS and kind == "Add" and n > 1
    return Val(op, shape, a.dtype, a.err * 2 + (eps(a.dtype) * 2 * n if inexact else 0),
               a.cancel or inexact, a.fragile)


def _unsigned_zeros(b: Builder, op: xla.XlaOp, dtype: str, shape) -> xla.XlaOp:
    """A real float sum's result with -0 made +0: a sum whose terms are all -0 is -0 or +0 as
    the implementation's schedule includes the +0 init or not (the spec leaves the count of
    inits open): a dot_general of one product per result was -0 for XLA and IREE, +0 for the
    interpreter (seed 157 program 186: rsqrt of it, -inf against inf)."""
    if dtype not in FLOATS:
        return op
    zero = b.const(0, dtype, shape)
    return xla.Select(xla.Eq(op, zero), zero, op)


def dot_general(b: Builder, rng, a: Val, others) -> Val:
    if a.dtype == "PRED":
        a = b.convert(a, "S32")
    rank = len(a.shape)
    dims = list(range(rank))
    rng.shuffle(dims)
    nb = rng.randint(0, min(1, rank))
    nc = rng.randint(0, min(2, rank - nb))
    batch, contract = dims[:nb], dims[nb:nb + nc]
    free_rhs = [rng.choice((1, 2, 3, 5, 8)) for _ in range(rng.randint(0, 2))]
    rhs_shape = [a.shape[i] for i in batch] + [a.shape[i] for i in contract] + free_rhs
    rhs = b.coerce(others[0] if others else a, rhs_shape, a.dtype)
    if a.dtype == "C64":    # (a + 0i)(inf + 0i) is inf+nanj by the textbook product (shlo),
        a, rhs = _finite(b, a), _finite(b, rhs)     # nan+nanj in XLA's dot: the spec fixes
        # neither (seed 48 program 9)
    out = [a.shape[i] for i in batch] + [a.shape[i] for i in range(rank)
                                         if i not in batch and i not in contract] + free_rhs
    k = _size([a.shape[i] for i in contract])
    if _size(out) > b.max_elements or _size(out) * k > 50 * b.max_elements:
        return a
    dn = xla.DotDimensionNumbers(lhs_contracting_dimensions=contract,
                                 rhs_contracting_dimensions=list(range(nb, nb + nc)),
                                 lhs_batch_dimensions=batch,
                                 rhs_batch_dimensions=list(range(nb)))
    op = _unsigned_zeros(b, xla.DotGeneral(a.op, rhs.op, dn), a.dtype, out)
    b.work += _size(out) * k
    inexact = a.dtype in FLOATS + ("C64",)
    err = 2 * max(a.err, rhs.err) + (eps(a.dtype) * 4 * max(math.log2(max(k, 2)), 1)
                                      if inexact else 0)
    if a.dtype in ("F16", "BF16"):
        err += eps(a.dtype) * 2
    return Val(op, tuple(out), a.dtype, err, a.cancel or rhs.cancel or (inexact and k > 1),
               a.fragile or rhs.fragile)


def dynamic_slice(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        return a
    src = b.pick_exact(others, rng)
    sizes = [_window(rng, d) for d in a.shape]
    idx = [b.scalar_index(src, rng, d) for d in a.shape]
    return dataclasses.replace(a, op=xla.DynamicSlice(a.op, idx, sizes), shape=tuple(sizes))


SELF_UPDATE_RATE = 0.2  # updates computed from the operand itself, at constant starts


def dynamic_update_slice(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        return a
    src = b.pick_exact(others, rng)
    sizes = [rng.randint(0, d) for d in a.shape]
    if rng.random() < SELF_UPDATE_RATE:     # -a[...] written back into a where IREE knows
        upd = b.coerce(a, sizes, a.dtype)   # the start when compiling (2026-12-03)
        upd = dataclasses.replace(upd, op=xla.Not(upd.op) if a.dtype == "PRED"
                                  else xla.Neg(upd.op))
        idx = [b.const(rng.randint(-1, d + 1), "S32") for d in a.shape]
    else:
        source = others[0] if others else a
        if b.aliased(1):
            b.xla_wrong.append("dynamic_update_slice of a view of its own operand")
        upd = b.coerce(source, sizes, a.dtype)
        idx = [b.scalar_index(src, rng, d) for d in a.shape]
    return Val(xla.DynamicUpdateSlice(a.op, upd.op, idx), a.shape, a.dtype, max(a.err, upd.err),
               a.cancel or upd.cancel, a.fragile or upd.fragile)


def _indices(b: Builder, rng, others, count: int, bound: int, in_range: bool):
    """[count, 1] S32 indices from data (or an iota when no exact value is at hand), wrapped
    into [-1, bound] or, `in_range`, clamped into [0, bound - 1]."""
    src = b.pick_exact(others, rng)
    if src is None:
        idx = xla.Iota(b.b, xla.Shape.array_shape("S32", [count, 1]), 0)
        idx = xla.Rev(idx, [0]) if rng.random() < 0.5 else idx
    else:
        idx = b.coerce(src, (count, 1), "S32").op
    idx = xla.Rem(idx, b.const(bound + 2, "S32", (count, 1)))
    if in_range:
        idx = xla.Clamp(b.const(0, "S32"), idx, b.const(bound - 1, "S32"))
    return idx


def gather(b: Builder, rng, a: Val, others) -> Val:
    axes = [i for i, d in enumerate(a.shape) if d > 0]
    if not axes:
        return a
    dim = rng.choice(axes)
    count = rng.choice((0, 1, 2, 5, 16))
    sizes = [1 if i == dim else rng.randint(0, d) for i, d in enumerate(a.shape)]
    if _size(sizes) * count > b.max_elements:
        return a
    # XLA folds a gather of a dynamic_slice into one gather of its operand at the sum of the
    # starts, clamped there, not each in its own range (seed 159 program 80: index -87 of a
    # slice at column 20 read column 0 for XLA, column 20 by the spec)
    in_range = False
    if b.kinds.get(b.args[0]) == "dynamic_slice":
        if b.xla_safe:
            in_range = True
        else:
            b.xla_wrong.append("a gather of a dynamic_slice")
    idx = _indices(b, rng, others, count, a.shape[dim], in_range=in_range)
    rank = len(a.shape)
    dn = xla.GatherDimensionNumbers(offset_dims=list(range(1, rank)), collapsed_slice_dims=[dim],
                                    start_index_map=[dim], index_vector_dim=1)
    op = xla.Gather(a.op, idx, dn, sizes)
    shape = (count,) + tuple(s for i, s in enumerate(sizes) if i != dim)
    return dataclasses.replace(a, op=op, shape=shape)


def scatter(b: Builder, rng, a: Val, others) -> Val:
    axes = [i for i, d in enumerate(a.shape) if d > 0]
    if not axes or a.dtype == "C64":
        return a
    dim = rng.choice(axes)
    count = rng.choice((0, 1, 3, 8))
    idx = _indices(b, rng, others, count, a.shape[dim], in_range=True)
    upd_shape = (count,) + tuple(d for i, d in enumerate(a.shape) if i != dim)
    upd = b.coerce(others[-1] if others else a, upd_shape, a.dtype)
    if b.aliased(len(others)):
        b.xla_wrong.append("scatter into a view of its updates' source")
    kind = "Or" if a.dtype == "PRED" else rng.choice(("Add", "Max", "Min"))
    rank = len(a.shape)
    dn = xla.ScatterDimensionNumbers(update_window_dims=list(range(1, rank)),
                                     inserted_window_dims=[dim],
                                     scatter_dims_to_operand_dims=[dim], index_vector_dim=1)
    # the interpreter's scatter writes into its operand's storage: another reader of the
    # operand (an argument too) then sees the scattered values (seed 49 program 264); a
    # transpose (identity) gives its scatter a copy
    operand = xla.Transpose(a.op, list(range(rank))) if b.exchange else a.op
    op = xla.Scatter(operand, idx, upd.op, _reducer(kind), dn)
    inexact = kind == "Add" and a.dtype in FLOATS
    return Val(op, a.shape, a.dtype, 2 * max(a.err, upd.err) + (4 * eps(a.dtype) if inexact
                                                                 else 0),
               a.cancel or upd.cancel or inexact, a.fragile or upd.fragile)


def sort(b: Builder, rng, a: Val, others) -> Val:
    if not a.shape:
        return a
    if a.dtype == "C64":
        a = b.convert(a, "F32")
    dim = rng.randrange(len(a.shape))
    b.work += _size(a.shape) * 4 * max(1, int(math.log2(max(a.shape[dim], 1)) + 1))
    descending = rng.random() < 0.5
    a = _positive_nans(a)
    direction = "GT" if descending else "LT"

    def cmp(x, y):
        return _total_compare(b, x, y, direction, a.dtype) if a.dtype in FLOATS else \
            xla.Compare(x, y, direction)
    # an argsort only of exact keys: rounding orders keys that tie exactly in real arithmetic
    # (an inverse FFT's 0s and 1/7s), so that any number of indices may differ
    if rng.random() < 0.5 or a.err > 0:
        op = xla.Sort([a.op], cmp, dim)
        return dataclasses.replace(a, op=op)
    index = xla.Iota(b.b, xla.Shape.array_shape("S32", list(a.shape)), dim)
    out = xla.Sort([a.op, index], lambda x, y, i, j: cmp(x, y), dim, is_stable=True)
    return Val(xla.GetTupleElement(out, 1), a.shape, "S32", 0.0, False, a.fragile)


def _step(b: Builder, rng, x, dtype: str, exact: bool = True):
    """A small shape-preserving function for loop bodies and branches (`x` may belong to a
    region's builder; a sine only of an `exact` one: sin(1e6 * (1 + 1e-7)) is any number)."""
    choice = rng.randrange(4)
    xb, shape = x.builder(), list(x.shape().dimensions())
    if dtype == "PRED":
        return xla.Not(x) if choice < 2 else x
    if choice == 0:
        return xla.Add(x, x)
    if choice == 1:
        one = b.const(1, dtype, builder=xb) if dtype != "C64" else \
            xla.Constant(xb, np.complex64(1))
        return xla.Sub(x, xla.BroadcastInDim(one, shape, []))
    if choice == 2 and dtype in FLOATS and exact:
        return xla.Sin(x)
    if choice == 2 and dtype in INTS:
        return xla.Xor(x, b.const(5, dtype, shape, builder=xb))
    return xla.Neg(x) if dtype not in UNSIGNED else xla.Not(x)


def while_(b: Builder, rng, a: Val, others) -> Val:
    src = b.pick_exact(others + [a], rng)
    trip = rng.randint(0, 4)
    limit = b.const(trip, "S32")
    if src is not None and rng.random() < 0.5:
        limit = xla.Clamp(b.const(0, "S32"), b.coerce(src, (), "S32").op, b.const(5, "S32"))
    seed = rng.randrange(1 << 30)
    dtype = a.dtype

    def cond(state):
        return xla.Lt(xla.GetTupleElement(state, 0), xla.GetTupleElement(state, 1))

    def body(state):
        i, n, x = (xla.GetTupleElement(state, k) for k in range(3))
        return xla.Tuple(state.builder(), [xla.Add(i, xla.Constant(state.builder(), np.int32(1))),
                                           n, _step(b, random.Random(seed), x, dtype,
                                                    a.err == 0)])

    b.work += 5 * _size(a.shape)
    out = xla.While(cond, body, xla.Tuple(b.b, [b.const(0, "S32"), limit, a.op]))
    grow = 6 if dtype in FLOATS + ("C64",) else 0
    return Val(xla.GetTupleElement(out, 2), a.shape, dtype, a.err * 8 + grow * eps(dtype),
               a.cancel or grow > 0, a.fragile)


def conditional(b: Builder, rng, a: Val, others) -> Val:
    src = b.pick_exact(others + [a], rng)
    seeds = [rng.randrange(1 << 30) for _ in range(3)]
    dtype = a.dtype

    def branch(seed):
        return lambda x: _step(b, random.Random(seed), x, dtype, a.err == 0)

    if rng.random() < 0.5:
        pred = b.coerce(src, (), "PRED").op if src is not None else \
            b.const(rng.random() < 0.5, "PRED")
        op = xla.Conditional(pred, a.op, branch(seeds[0]), a.op, branch(seeds[1]))
    else:
        index = b.scalar_index(src, rng, 3)
        op = xla.Conditional(index, [branch(s) for s in seeds], [a.op] * 3)
    grow = 4 if dtype in FLOATS + ("C64",) else 0
    return Val(op, a.shape, dtype, a.err * 4 + grow * eps(dtype), a.cancel or grow > 0,
               a.fragile)



# --- convolution, fft, random numbers, select_and_scatter, bitcasts, ... -----------------------
def convolution(b: Builder, rng, a: Val, others) -> Val:
    """A convolution with random dimension layouts, feature or batch groups, strides, padding
    and dilations; `a` is the input (reshaped or coerced to rank n + 2), the kernel comes from
    the second argument."""
    if a.dtype == "PRED":
        a = b.convert(a, "S32")
    if 3 <= len(a.shape) <= 4 and rng.random() < 0.6:
        shape = list(a.shape)
    else:
        n = rng.choice((1, 1, 2, 2))  # (no spatial dimension: the builder's padding is [0])
        shape = [rng.randint(1, 3), rng.choice((1, 2, 3, 4, 6))] + \
            [rng.randint(1, 9) for _ in range(n)]
        rng.shuffle(shape)
        a = b.coerce(a, shape, a.dtype)
    rank = len(shape)
    n = rank - 2
    layout = list(range(rank))
    rng.shuffle(layout)
    batch_dim, feat_dim, sp_dims = layout[0], layout[1], layout[2:]
    batch, cin = shape[batch_dim], shape[feat_dim]
    groups, bgroups = 1, 1
    divisors = [g for g in (2, 3, 4, 6) if cin % g == 0]
    if divisors and rng.random() < 0.3:
        groups = rng.choice(divisors)
    elif rng.random() < 0.2:
        bdiv = [g for g in (2, 3) if batch % g == 0]
        bgroups = rng.choice(bdiv) if bdiv else 1
    g = groups * bgroups
    cout = g * rng.choice((1, 1, 2, 3))
    in_sp = [shape[d] for d in sp_dims]
    strides, pads, ldil, rdil, ksp, out_sp = [], [], [], [], [], []
    cut = []    # spatial dimensions whose first element a low padding of -1 drops
    for size in in_sp:
        ld = rng.choice((1, 1, 1, 2))
        lo, hi = rng.choice((0, 0, 1, 2, -1)), rng.choice((0, 0, 1, 2))
        # XLA's CPU convolution is wrong for a low padding of -1 (a 6x5x3 input, stride 2,
        # x[0] = 1 alone gave 3 and -2.3e9): the program drops the first element with a
        # slice instead and pads by the dilation's hole (ld - 1)
        cut.append(lo < 0 and size > 1)
        if lo < 0:
            size, lo = (size - 1, ld - 1) if size > 1 else (size, 0)
        full = (size - 1) * ld + 1 if size else 0
        if full + lo + hi < 1:
            lo, hi = 0, max(0, 1 - full)
        span = full + lo + hi
        k = rng.randint(1, max(1, min(5, span)))
        rd = rng.choice((1, 1, 2))
        if (k - 1) * rd + 1 > span:
            rd = 1
        st = rng.choice((1, 1, 2, 3))
        strides.append(st)
        pads.append((lo, hi))
        ldil.append(ld)
        rdil.append(rd)
        ksp.append(k)
        out_sp.append((span - (k - 1) * rd - 1) // st + 1)
    if any(cut):
        starts = [0] * rank
        for d, c in zip(sp_dims, cut):
            starts[d] = int(c)
        a = dataclasses.replace(a, op=xla.Slice(a.op, starts, list(shape), [1] * rank),
                                shape=tuple(n - c for n, c in zip(shape, starts)))
        shape = list(a.shape)
    # kernel layout: [o, i, spatial...] permuted
    klayout = list(range(rank))
    rng.shuffle(klayout)
    kshape = [0] * rank
    kshape[klayout[0]], kshape[klayout[1]] = cout, cin // groups
    for d, k in zip(klayout[2:], ksp):
        kshape[d] = k
    olayout = list(range(rank))
    rng.shuffle(olayout)
    oshape = [0] * rank
    oshape[olayout[0]], oshape[olayout[1]] = batch // bgroups, cout
    for d, s in zip(olayout[2:], out_sp):
        oshape[d] = s
    k_inner = (cin // groups) * _size(ksp)
    if _size(oshape) > b.max_elements or _size(oshape) * k_inner > 50 * b.max_elements:
        return a
    kernel = b.coerce(others[0] if others else a, kshape, a.dtype)
    if a.dtype in FLOATS + ("C64",):    # 0 * inf in padding and dilation holes: NaN by the
        # spec's pad-then-dot, XLA skips them; no overflow (products of 1e30s overflowed, and
        # the order of a sum of +-inf decided between inf and NaN: seed 139 program 81)
        bound = {"F16": 16.0, "F64": 1e150}.get(a.dtype, 1e15)
        a, kernel = _finite(b, a, bound), _finite(b, kernel, bound)
    dn = xla.ConvolutionDimensionNumbers(batch_dim, feat_dim, tuple(sp_dims), klayout[1],
                                         klayout[0], tuple(klayout[2:]), olayout[0], olayout[1],
                                         tuple(olayout[2:]))
    op = xla.ConvGeneralDilated(a.op, kernel.op, strides, pads, ldil, rdil, dn,
                                feature_group_count=groups, batch_group_count=bgroups)
    op = _unsigned_zeros(b, op, a.dtype, oshape)
    b.work += _size(oshape) * k_inner
    inexact = a.dtype in FLOATS + ("C64",)
    err = 2 * max(a.err, kernel.err) + (eps(a.dtype) * 4 * max(math.log2(max(k_inner, 2)), 1)
                                         if inexact else 0)
    if a.dtype in ("F16", "BF16"):
        err += eps(a.dtype) * 2
    return Val(op, tuple(oshape), a.dtype, err,
               a.cancel or kernel.cancel or (inexact and k_inner > 1), a.fragile or kernel.fragile)


def _finite(b: Builder, v: Val, bound: float = 1e30) -> Val:
    """`v` (a float or C64 value) with NaN and infinities as 0 and magnitudes clamped to
    `bound` (sums over specials give NaN or inf by rounding luck). A cancelled inexact value
    is scaled into [-1, 1] first (`_scaled_ops`): its error is relative to its largest
    magnitude, which a clamp would cut but not its noise (seed 41 program 138: a 0.02 left of
    1e27s cancelling, clamped to 1e4, was any number in [-1e4, 1e4])."""
    real = "F32" if v.dtype == "C64" else v.dtype
    bound = min(bound, float(ml_dtypes.finfo(NUMPY[real]).max))
    scale = v.err > 0 and v.cancel
    parts = [xla.Real(v.op), xla.Imag(v.op)] if v.dtype == "C64" else [v.op]
    if scale:       # (a complex value's parts by |z|'s largest magnitude: their error's scale)
        parts = _scaled_ops(b, parts, real, v.shape, _scale_of(b, v))

    def clean(x):
        x = xla.Select(xla.IsFinite(x), x, b.const(0, real, v.shape))
        return xla.Clamp(b.const(-bound, real), x, b.const(bound, real))
    err = v.err + (eps(real) if scale else 0.0)
    if v.dtype == "C64":
        return dataclasses.replace(v, op=xla.Complex(clean(parts[0]), clean(parts[1])), err=err)
    return dataclasses.replace(v, op=clean(parts[0]), err=err)


# an fft's inputs are clamped to this: a sum of its bins that cancels the part of a 1e30 among
# values of 1000 is f32 noise of 1e22 (seed 47 program 43: XLA 7.6e22, shlo 0)
FFT_BOUND = 1e4


def _spectrum_weights(lengths: list, last: int) -> np.ndarray:
    """1 / (2 + k) over an RFFT's bins, k the sum of each bin's distances from 0 (the same for
    a bin and its mirror, so the weighted spectrum stays Hermitian). Not a constant over a
    spectrum of several bins: with one bin along the last dimension, 1 / 2 everywhere made
    irfft(rfft(x) / 2) x / 2, which compared with x is a coin flip at x's zeros (seed 112
    program 364)."""
    k = np.arange(last, dtype=np.float64).reshape([1] * (len(lengths) - 1) + [last])
    for d, n in enumerate(lengths[:-1]):
        mirror = np.minimum(np.arange(n), n - np.arange(n))
        k = k + mirror.reshape([n if i == d else 1 for i in range(len(lengths))])
    return (1 / (2 + k)).astype(np.float32)


def fft(b: Builder, rng, a: Val, others) -> Val:
    """FFT, IFFT, RFFT or IRFFT (as irfft(rfft(x) / (2 + k)), k a bin's distance from 0: a
    Hermitian operand, since an implementation may read or ignore the imaginary parts that a
    Hermitian input has as 0, and not x itself, which compared with x is a coin flip) over 1-3
    trailing dimensions; non-finite inputs become 0."""
    dims = [i for i, d in enumerate(a.shape) if d > 0]
    if not a.shape or len(dims) < len(a.shape):
        return a
    count = rng.randint(1, min(3, len(a.shape)))
    lengths = list(a.shape[-count:])
    kind = rng.choice(("FFT", "IFFT", "RFFT", "IRFFT"))
    n = _size(lengths)
    logn = max(math.log2(max(n, 2)), 1)
    if kind in ("FFT", "IFFT"):
        x = _finite(b, b.convert(a, "C64") if a.dtype != "C64" else a, FFT_BOUND)
        op = xla.Fft(x.op, kind, lengths)
        shape = a.shape
        dtype = "C64"
    else:
        x = _finite(b, b.convert(a, "F32"), FFT_BOUND)
        op = xla.Fft(x.op, "RFFT", lengths)
        shape = a.shape[:-1] + (a.shape[-1] // 2 + 1,)
        dtype = "C64"
        if kind == "IRFFT":
            weights = xla.BroadcastInDim(   # (real: a complex constant fails on Vulkan)
                xla.Constant(b.b, _spectrum_weights(lengths, shape[-1])),
                list(shape), list(range(len(shape) - count, len(shape))))
            op = xla.Complex(xla.Mul(xla.Real(op), weights), xla.Mul(xla.Imag(op), weights))
            op = xla.Fft(op, "IRFFT", lengths)
            shape, dtype = a.shape, "F32"
            logn *= 2
    b.work += _size(shape) * int(logn) * 4
    # the input's error, relative to its largest magnitude, spreads over every output element
    # and adds up to sqrt(n) times that relative to the output's: an FFT of a delta with noise
    # in the other bins is flat (seed 153 program 333: the IFFT of an FFT of 5208 ones, 1.2e-7
    # apart on 1.9e-4)
    return Val(op, tuple(shape), dtype, 2 * x.err * math.sqrt(n) + 4 * logn * eps("F32"), True,
               x.fragile)


def _holds(b: Builder, a: Val, pred, shape) -> Val:
    """`a` where `pred` (of `shape`, a.shape or ()) holds, else a constant: a property of
    implementation-defined values (random numbers) that carries `a` on when it holds."""
    if tuple(shape) != a.shape:
        pred = xla.BroadcastInDim(pred, list(a.shape), [])
    if a.dtype == "C64":
        other = xla.BroadcastInDim(xla.Constant(b.b, np.complex64(7 - 7j)), list(a.shape), [])
    else:
        other = b.const(0 if a.dtype == "PRED" else 7, a.dtype, a.shape)
    return dataclasses.replace(a, op=xla.Select(pred, a.op, other))


def rng_(b: Builder, rng, a: Val, others) -> Val:
    """stablehlo.rng (uniform or normal): its numbers are implementation-defined, so only
    properties are checked (uniform values in [lo, hi), or [lo, hi] for f16 and bf16; normal
    ones finite); the result is `a` where they hold."""
    shape = a.shape
    if rng.random() < 0.3:
        dtype = rng.choice(("F32", "F64", "F16"))
        mu, sigma = rng.choice((0.0, 1.0, -3.0)), rng.choice((1.0, 0.5, 4.0))
        x = xla.RngNormal(b.const(mu, dtype), b.const(sigma, dtype),
                          xla.Shape.array_shape(dtype, list(shape)))
        ok = xla.And(xla.IsFinite(x),
                     xla.Le(xla.Abs(xla.Sub(x, b.const(mu, dtype, shape))),
                            b.const(64 * sigma, dtype, shape)))
    else:
        dtype = rng.choice(("F32", "F32", "F64", "F16", "BF16", "S32", "S64", "U32", "S8",
                            "U8", "S16"))
        if dtype in INTS:
            lo_b, hi_b = _int_bounds(dtype)
            lo = rng.choice((0, -5, max(lo_b, -1000), lo_b)) if dtype in SIGNED else \
                rng.choice((0, 3))
            hi = rng.choice((lo + 1, lo + 7, min(hi_b, 1000), hi_b))
        else:
            lo = rng.choice((0.0, -1.0, -100.0))
            hi = lo + rng.choice((1.0, 0.5, 1000.0))
        x = xla.RngUniform(b.const(lo, dtype), b.const(hi, dtype),
                           xla.Shape.array_shape(dtype, list(shape)))
        below = xla.Le if dtype in FLOATS else xla.Lt   # XLA's CPU rounds floats up to hi
        # (bf16 [-100, 900): 128 of 65536 were 900, seed 41 program 159; f32 [-100, -99.5):
        # 1 of 65536 was -99.5, seed 64 program 1083); shlo's stay below it
        # (test_fuzz_regressions.py::test_rng_uniform_narrow_float)
        ok = xla.And(xla.Ge(x, b.const(lo, dtype, shape)), below(x, b.const(hi, dtype, shape)))
    b.work += 4 * _size(shape)
    return _holds(b, a, ok, shape)


def rng_bit_generator(b: Builder, rng, a: Val, others) -> Val:
    """stablehlo.rng_bit_generator: its bits are implementation-defined per algorithm (the
    spec guarantees only determinism in the initial state), so only properties are checked:
    two generators of one state agree, each output state agrees, and 64+ random bits are not
    all equal; the result is `a` where they hold."""
    algorithm = rng.choice(("RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"))
    src = b.pick_exact(others + [a], rng)
    words = 3 if algorithm == "RNG_PHILOX" and rng.random() < 0.5 else 2
    if src is not None and rng.random() < 0.6:
        state = xla.ConvertElementType(b.coerce(src, (words,), "S64").op, "U64")
    else:
        state = xla.Constant(b.b, np.array([rng.randrange(1 << 64) for _ in range(words)],
                                           np.uint64))
    dtype = rng.choice(("U32", "U32", "U64", "S32", "U8", "S64"))
    shape = list(a.shape)
    out = [xla.RngBitGenerator(algorithm, state, xla.Shape.array_shape(dtype, shape))
           for _ in range(2)]
    bits = [xla.GetTupleElement(o, 1) for o in out]
    ok = xla.Eq(bits[0], bits[1])
    states = [xla.GetTupleElement(o, 0) for o in out]
    same_state = xla.Reduce(xla.Eq(states[0], states[1]), b.const(True, "PRED"),
                            _reducer("And"), [0])
    ok = xla.And(ok, xla.BroadcastInDim(same_state, shape, []))
    if _size(shape) >= 64 and dtype in ("U32", "U64", "S32", "S64"):
        flat = xla.Reshape(bits[0], [_size(shape)])
        first = xla.BroadcastInDim(xla.Reshape(xla.Slice(flat, [0], [1], [1]), []),
                                   [_size(shape)], [])
        differ = xla.Reduce(xla.Ne(flat, first), b.const(False, "PRED"), _reducer("Or"), [0])
        ok = xla.And(ok, xla.BroadcastInDim(differ, shape, []))
    b.work += 8 * _size(shape)
    return _holds(b, a, ok, a.shape)


def select_and_scatter(b: Builder, rng, a: Val, others) -> Val:
    """select_and_scatter (max or min of each window, source values added there) over a key
    array without ties (a tie's winner depends on the reduction order, which the spec leaves
    to the implementation): clamp(round(a)) * size + the flat index; no padding (a window of
    padding only is unspecified)."""
    if not a.shape or 0 in a.shape:
        return a
    dtype = a.dtype if a.dtype in ("F32", "F64", "S32", "S64") else "F32"
    n = _size(a.shape)
    k = max(1, (1 << 23) // n)
    base = b.convert(a, "S32")
    key = xla.Clamp(b.const(-k, "S32"), base.op, b.const(k, "S32"))
    index = xla.Reshape(xla.Iota(b.b, xla.Shape.array_shape("S32", [n]), 0), list(a.shape))
    key = xla.Add(xla.Mul(key, b.const(n, "S32", a.shape)), index)
    key = xla.ConvertElementType(key, dtype)
    window, strides, count = [], [], []
    for d in a.shape:
        w = rng.randint(1, min(d, 3))
        s = rng.choice((1, 2, w))
        window.append(w)
        strides.append(s)
        count.append((d - w) // s + 1)
    src = b.coerce(others[0] if others else a, count, dtype)
    direction = rng.choice(("GE", "LE"))
    op = xla.SelectAndScatter(key, lambda x, y: xla.Compare(x, y, direction), window,
                              strides, [(0, 0)] * len(window), src.op, b.const(0, dtype),
                              _reducer("Add"))
    overlap = _size([-(-w // s) for w, s in zip(window, strides)])
    inexact = dtype in FLOATS and overlap > 1
    b.work += _size(count) * _size(window) + n
    return Val(op, a.shape, dtype, 2 * src.err + (eps(dtype) * 2 * overlap if inexact else 0),
               src.cancel or inexact, src.fragile or base.fragile or base.err > 0)


BITCAST = {"F32": ("S32", "U32"), "F16": ("S16", "U16", "BF16"), "BF16": ("S16", "U16", "F16"),
           "F64": ("S64",), "S32": ("F32", "U32"), "U32": ("F32", "S32"),
           "S16": ("F16", "BF16", "U16"), "U16": ("F16", "BF16", "S16"), "S64": ("F64",),
           "S8": ("U8",), "U8": ("S8",)}
# float type -> (significand bits, exponent mask) of its encoding
ENCODING = {"F32": (23, 0xFF), "F16": (10, 0x1F), "BF16": (7, 0xFF), "F64": (52, 0x7FF)}


def bitcast_convert(b: Builder, rng, a: Val, others) -> Val:
    """bitcast_convert between types of one width (a change of width exposes the memory
    layout, which is implementation-defined). A float source must be exact, with NaN and -0
    made +0 first (their bits are not fixed by the spec); bits that would encode a NaN, an
    infinity or a subnormal become 0 (CPUs flush subnormals)."""
    if a.dtype not in BITCAST:
        a = b.convert(a, rng.choice(("S32", "U32", "S16", "F32")))
    if a.fragile or (a.dtype in FLOATS and a.err > 0):  # an integer rounded from an inexact
        return b.convert(a, BITCAST[a.dtype][0])        # value (seed 31 program 716) too
    dtype = rng.choice(BITCAST[a.dtype])
    if {a.dtype, dtype} == {"S32", "U32"}:
        # XLA's CPU converts f32 -> s32 -> bitcast u32 -> f32 (or -> s64) as if signed: -10 for
        # 4294967286, also through an optimization_barrier (seed 73 program 344)
        if b.xla_safe:
            dtype = "F32"
        else:
            b.xla_wrong.append("a bitcast_convert between s32 and u32")
    x, bits_t = a.op, a.dtype
    if a.dtype in FLOATS:
        keep = xla.And(xla.Eq(x, x), xla.Ne(x, b.const(0, a.dtype, a.shape)))
        x = xla.Select(keep, x, b.const(0, a.dtype, a.shape))
        if dtype in FLOATS:         # F16 <-> BF16: checked on the integer bits
            x, bits_t = xla.BitcastConvertType(x, "S16"), "S16"
    if dtype in FLOATS:
        mant, mask = ENCODING[dtype]
        wide = "S64" if bits_t in ("S64", "U32") else "S32"
        w = xla.ConvertElementType(x, wide) if bits_t != wide else x
        e = xla.And(xla.ShiftRightLogical(w, b.const(mant, wide, a.shape)),
                    b.const(mask, wide, a.shape))
        normal = xla.And(xla.Ne(e, b.const(0, wide, a.shape)),
                         xla.Ne(e, b.const(mask, wide, a.shape)))
        x = xla.Select(normal, x, b.const(0, bits_t, a.shape))
    return Val(xla.BitcastConvertType(x, dtype), a.shape, dtype, 0.0, False, a.fragile)


def reduce_precision(b: Builder, rng, a: Val, others) -> Val:
    """reduce_precision to a random smaller exponent and significand."""
    a = _float_of(b, a, rng)
    mant_max, _ = ENCODING[a.dtype]
    ebits = {"F32": 8, "F16": 5, "BF16": 8, "F64": 11}[a.dtype]
    e = rng.randint(2, ebits)
    m = rng.randint(0, mant_max)
    if m == 0:      # the spec's +inf for NaN, XLA's NaN (seed 190 program 441: XLA alone)
        a = _without_nan(b, a, "reduce_precision of NaN to no mantissa bits")
    op = xla.ReducePrecision(a.op, e, m)
    inexact = a.err > 0 or a.fragile
    return Val(op, a.shape, a.dtype, a.err + (2.0 ** -m if inexact else 0), a.cancel,
               a.fragile or inexact)


def map_(b: Builder, rng, a: Val, others) -> Val:
    """stablehlo.map of a scalar computation (an element-wise op of two operands, then one of
    the loop-body steps) over every dimension."""
    if a.dtype == "C64":
        a = b.convert(a, "F32")
    c = b.coerce(others[0], a.shape, a.dtype) if others else a
    if a.dtype == "PRED":
        name = rng.choice(("And", "Or", "Xor"))
    elif a.dtype in INTS:
        name = rng.choice(("Add", "Sub", "Mul", "Max", "Min", "And", "Or", "Xor"))
    else:
        name = rng.choice(("Add", "Sub", "Mul", "Max", "Min"))
    seed = rng.randrange(1 << 30)
    exact = a.err == 0 and c.err == 0
    op = xla.Map([a.op, c.op], lambda x, y: _step(b, random.Random(seed), xla.OPS[name](x, y),
                                                  a.dtype, exact), list(range(len(a.shape))))
    inexact = a.dtype in FLOATS
    err = 2 * max(a.err, c.err) + (6 * eps(a.dtype) if inexact else 0)
    return Val(op, a.shape, a.dtype, err, a.cancel or c.cancel or inexact,
               a.fragile or c.fragile)


def optimization_barrier(b: Builder, rng, a: Val, others) -> Val:
    return dataclasses.replace(a, op=xla.OptimizationBarrier(a.op))


def batch_norm_inference(b: Builder, rng, a: Val, others) -> Val:
    """batch_norm_inference over a random feature dimension: scale, offset and mean from the
    second argument, the variance the scale's absolute value; inputs made finite and bounded
    (implementations order the arithmetic differently: no overflow by luck). For the
    interpreter, the spec's formula: XLA folds the mean into the offset, which cancels where x
    is the mean (seed 149 program 284: 8.6e-4 off a result of -10.3)."""
    if not a.shape:
        return a
    a = _float_of(b, a, rng)
    narrow = a.dtype in ("F16", "BF16")
    bound = 30.0 if narrow else 1e4
    a = _finite(b, a, bound)
    fi = rng.randrange(len(a.shape))
    f = a.shape[fi]
    v = _finite(b, b.coerce(others[0] if others else a, (3 * f,), a.dtype), bound)
    scale, offset, mean = (xla.Slice(v.op, [i * f], [(i + 1) * f], [1]) for i in range(3))
    epsilon = rng.choice((0.1, 1.0) if narrow else (1e-3, 0.1, 1.0))
    if b.exchange:      # the interpreter aborts on batch_norm ops: the spec's formula
        def spread(x):
            return xla.BroadcastInDim(x, list(a.shape), [fi])
        # (the op's epsilon is an f32 attribute: 0.1 as f32 is 0.1000000015, seed 151 p373)
        stddev = xla.Sqrt(xla.Add(xla.Abs(scale), b.const(float(np.float32(epsilon)), a.dtype,
                                                          (f,))))
        normalized = xla.Div(xla.Sub(a.op, spread(mean)), spread(stddev))
        op = xla.Add(xla.Mul(spread(scale), normalized), spread(offset))
    else:
        op = xla.BatchNormInference(a.op, scale, offset, mean, xla.Abs(scale), epsilon, fi)
    b.work += 4 * _size(a.shape)
    return Val(op, a.shape, a.dtype, 4 * max(a.err, v.err) + 8 * eps(a.dtype), True,
               a.fragile or v.fragile)


def _matrices(b: Builder, v: Val, shape: tuple, dtype: str) -> Val:
    """`v` as `dtype` matrices of `shape`, finite, clamped to [-1, 1] (a cancelled value
    scaled into it first)."""
    return _finite(b, b.coerce(v, shape, dtype), 1.0)


def _triangle(b: Builder, shape: tuple, lower: bool, diagonal: bool = True) -> xla.XlaOp:
    """A PRED mask of the lower (or upper) triangle of matrices of `shape`."""
    rank = len(shape)
    rows = xla.Iota(b.b, xla.Shape.array_shape("S32", list(shape)), rank - 2)
    cols = xla.Iota(b.b, xla.Shape.array_shape("S32", list(shape)), rank - 1)
    if diagonal:
        return xla.Ge(rows, cols) if lower else xla.Le(rows, cols)
    return xla.Gt(rows, cols) if lower else xla.Lt(rows, cols)


def _linalg_problem(rng, a: Val) -> tuple:
    """(batch, n, dtype) of a random linear-algebra problem on `a`: F64 for F64, else F32."""
    return (rng.choice(((), (), (2,), (3, 2))), rng.choice((1, 2, 3, 4, 7, 8, 16, 33, 64)),
            "F64" if a.dtype == "F64" else "F32")


def cholesky(b: Builder, rng, a: Val, others) -> Val:
    """Cholesky factor of (x + x^T) / 2 + (n + 1) I, x the matrices made of `a` in [-1, 1]:
    symmetric, diagonally dominant, condition number at most 2n + 3; the other triangle,
    implementation-defined, set to 0."""
    batch, n, dtype = _linalg_problem(rng, a)
    shape, rank = batch + (n, n), len(batch) + 2
    x = _matrices(b, a, shape, dtype)
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    sym = xla.Mul(xla.Add(x.op, xla.Transpose(x.op, perm)), b.const(0.5, x.dtype, shape))
    eye = _triangle(b, shape, True)
    eye = xla.And(eye, _triangle(b, shape, False))
    spd = xla.Select(eye, xla.Add(sym, b.const(n + 1, x.dtype, shape)), sym)
    lower = rng.random() < 0.5
    factor = xla.Cholesky(spd, lower=lower)
    op = xla.Select(_triangle(b, shape, lower), factor, b.const(0, x.dtype, shape))
    b.work += n * n * n * max(_size(batch), 1)
    return Val(op, shape, x.dtype, 2 * x.err + 2 * n * eps(x.dtype), True, x.fragile)


def triangular_solve(b: Builder, rng, a: Val, others) -> Val:
    """triangular_solve of matrices made of `a` (the other triangle kept as it is: ignored by
    the op) with off-diagonal entries in [-1/n, 1/n] and a diagonal in [1, 3] (or a unit one,
    the stored diagonal ignored): condition numbers below about 3e; every side, triangle and
    transpose_a."""
    batch, n, dtype = _linalg_problem(rng, a)
    m = rng.choice((1, 3, 8, 17))
    left, lower = rng.random() < 0.5, rng.random() < 0.5
    unit = rng.random() < 0.3
    shape = batch + (n, n)
    x = _matrices(b, a, shape, dtype)
    off = xla.Mul(x.op, b.const(1.0 / n, x.dtype, shape))
    diagonal = xla.Add(x.op, b.const(2, x.dtype, shape))
    eye = xla.And(_triangle(b, shape, True), _triangle(b, shape, False))
    stored = xla.Select(eye, b.const(1e4, x.dtype, shape) if unit else diagonal, off)
    rhs_shape = batch + ((n, m) if left else (m, n))
    c = _matrices(b, others[0] if others else a, rhs_shape, dtype)
    c = dataclasses.replace(c, op=xla.Mul(c.op, b.const(100, dtype, rhs_shape)))
    transpose = rng.choice(("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"))
    op = xla.TriangularSolve(stored, c.op, left_side=left, lower=lower, unit_diagonal=unit,
                             transpose_a=transpose)
    b.work += n * n * m * max(_size(batch), 1)
    return Val(op, rhs_shape, x.dtype, 2 * max(x.err, c.err) + 8 * n * eps(x.dtype), True,
               x.fragile or c.fragile)


OPS = {"unary": unary, "binary": binary, "compare": compare, "select": select, "clamp": clamp,
       "convert": convert, "complex": complex_, "broadcast": broadcast, "reshape": reshape,
       "transpose": transpose, "slice": slice_, "pad": pad, "concatenate": concatenate,
       "reverse": reverse, "iota": iota, "reduce": reduce, "reduce_window": reduce_window,
       "dot_general": dot_general, "dynamic_slice": dynamic_slice,
       "dynamic_update_slice": dynamic_update_slice, "gather": gather, "scatter": scatter,
       "sort": sort, "while": while_, "conditional": conditional, "convolution": convolution,
       "fft": fft, "rng": rng_, "rng_bit_generator": rng_bit_generator,
       "select_and_scatter": select_and_scatter, "bitcast_convert": bitcast_convert,
       "reduce_precision": reduce_precision, "map": map_,
       "optimization_barrier": optimization_barrier,
       "batch_norm_inference": batch_norm_inference, "cholesky": cholesky,
       "triangular_solve": triangular_solve}
ARITY = {"unary": 1, "reshape": 1, "transpose": 1, "slice": 1, "reverse": 1, "iota": 1,
         "reduce": 1, "reduce_window": 1, "sort": 1, "broadcast": 1, "convert": 1,
         "select": 3, "clamp": 3, "concatenate": 2, "dynamic_slice": 2, "while": 2,
         "conditional": 2, "fft": 1, "rng": 1, "reduce_precision": 1, "bitcast_convert": 1,
         "optimization_barrier": 1, "cholesky": 1, "triangular_solve": 2}
WEIGHTS = {"unary": 6, "binary": 6, "compare": 2, "select": 3, "clamp": 1, "convert": 4,
           "complex": 1, "broadcast": 3, "reshape": 3, "transpose": 3, "slice": 3, "pad": 2,
           "concatenate": 2, "reverse": 2, "iota": 1, "reduce": 4, "reduce_window": 2,
           "dot_general": 3, "dynamic_slice": 2, "dynamic_update_slice": 2, "gather": 2,
           "scatter": 2, "sort": 2, "while": 2, "conditional": 2, "convolution": 3, "fft": 2,
           "rng": 1, "rng_bit_generator": 1, "select_and_scatter": 2, "bitcast_convert": 2,
           "reduce_precision": 1, "map": 1, "optimization_barrier": 1,
           "batch_norm_inference": 1, "cholesky": 1, "triangular_solve": 1}


# --- random programs ---------------------------------------------------------------------------
DTYPE_WEIGHTS = {"F32": 10, "F16": 3, "BF16": 3, "F64": 3, "S8": 2, "S16": 1, "S32": 4, "S64": 2,
                 "U8": 2, "U16": 1, "U32": 2, "PRED": 2, "C64": 2}
LARGE_SHAPES = ((1 << 20,), (1024, 1024), (2048, 2048), (3, 1000003 // 3), (65536,), (65537,),
                (16, 16384), (4096, 257))


def random_shape(rng: random.Random, max_elements: int) -> tuple:
    r = rng.random()
    if r < 0.06:
        shapes = [s for s in LARGE_SHAPES if _size(s) <= max_elements]
        if shapes:
            return rng.choice(shapes)
    rank = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4))
    dims = []
    for _ in range(rank):
        q = rng.random()
        dims.append(0 if q < 0.04 else 1 if q < 0.2 else rng.randint(2, 9) if q < 0.85
                    else rng.choice((16, 17, 31, 64, 100, 128)))
    while _size(dims) > min(max_elements, 1 << 16):
        dims[dims.index(max(dims))] //= 2
    return tuple(dims)


def random_array(rng: np.random.Generator, shape, dtype: str) -> np.ndarray:
    """Inputs of `dtype`: mostly moderate values, a few special ones (no subnormals: CPUs
    flush them and the interpreter does not)."""
    n = _size(shape)
    if dtype == "PRED":
        return rng.random(n).reshape(shape) < 0.5
    if dtype in INTS:
        lo, hi = _int_bounds(dtype)
        if rng.random() < 0.25:
            a = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if dtype != "U32"
                             else np.uint64)
        else:
            a = rng.integers(max(lo, -20), min(hi, 20), n, endpoint=True)
        return a.astype(NUMPY[dtype]).reshape(shape)
    scale = rng.choice((1.0, 1.0, 10.0, 1000.0))
    a = rng.standard_normal(n) * scale
    if dtype == "C64":
        a = a + 1j * rng.standard_normal(n) * scale
    if n and rng.random() < 0.3:
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 65504.0, 1e30])
        at = rng.random(n) < 0.03
        a[at] = special[rng.integers(0, len(special), int(at.sum()))]
    if rng.random() < 0.2 and n:    # repeated values (ties for sort, argmax, compare)
        a = np.round(a)
    real = np.float32 if dtype == "C64" else NUMPY[dtype]
    with np.errstate(over="ignore"):
        a = a.astype(NUMPY[dtype])
    tiny = float(ml_dtypes.finfo(real).tiny)
    if dtype == "C64":
        re, im = a.real.copy(), a.imag.copy()
        re[np.abs(re) < tiny] = 0
        im[np.abs(im) < tiny] = 0
        a = (re + 1j * im).astype(np.complex64)
    else:
        a[np.abs(a.astype(np.float64)) < tiny] = 0
    return a.reshape(shape)


def random_program(seed, max_elements: int = 1 << 22, max_nodes: int = 8) -> Program:
    """A random program (deterministic in `seed`)."""
    rng = random.Random(f"shlo-fuzz:{seed}")
    nrng = np.random.default_rng(rng.randrange(1 << 63))
    dtypes, weights = zip(*DTYPE_WEIGHTS.items())
    params: list[Param] = []
    for i in range(rng.choice((1, 1, 2, 2, 3))):
        shape = random_shape(rng, max_elements) if i == 0 or rng.random() < 0.5 else \
            params[0].shape
        params.append(Param(f"p{i}", tuple(shape), rng.choices(dtypes, weights)[0]))
    kinds, kweights = zip(*WEIGHTS.items())
    nodes, ids = [], [p.id for p in params]
    for i in range(rng.randint(1, max_nodes)):
        kind = rng.choices(kinds, kweights)[0]
        arity = ARITY.get(kind, 2)
        first = ids[-1] if rng.random() < 0.6 else rng.choice(ids)
        args = [first] + [rng.choice(ids) for _ in range(arity - 1)]
        nodes.append(Node(f"n{i}", kind, args, rng.randrange(1 << 30)))
        ids.append(f"n{i}")
    used = {a for n in nodes for a in n.args}
    outputs = [n.id for n in nodes if n.id not in used]
    inputs = [random_array(nrng, p.shape, p.dtype) for p in params]
    return Program(params, nodes, outputs, inputs)


def prune(program: Program) -> Program:
    """The program without nodes and parameters the outputs do not reach."""
    live = set(program.outputs)
    for n in reversed(program.nodes):
        if n.id in live:
            live.update(n.args)
    keep = [i for i, p in enumerate(program.params) if p.id in live]
    return Program([program.params[i] for i in keep],
                   [n for n in program.nodes if n.id in live], list(program.outputs),
                   [program.inputs[i] for i in keep])
