"""StableHLO miscellaneous ops: batch_norm_grad, batch_norm_inference, batch_norm_training,
cholesky, triangular_solve, fft, rng and rng_bit_generator, declared as data with the spec's
constraints.

rng's `shape` is an operand: its values shape the result when a constant defines it (else the
result's dimensions are dynamic). rng_bit_generator's `output` type is not inferable:
`result_type=` (that one type) is required; output_state has initial_state's type. The 1-D
operands of batch_norm_* are checked under their input labels (I2...).
"""
from __future__ import annotations

from iree.compiler import ir

from . import attributes as A
from . import checks as K
from . import types as T
from .opdef import Attr, Check, OpDef, Operand

# --- batch_norm_* -------------------------------------------------------------------------------


def _feature_size(*names: str):
    """size(name) = dim(operand, feature_index) for each of `names`."""
    def check(b):
        want = T.shape(b.operand)[b.feature_index]
        for n in names:
            got = T.shape(b.types[n])[0]
            if not T.same_dim(got, want):
                return (f"{n} {b.types[n]} must have size dim(operand, {b.feature_index}) = "
                        f"{want}")
    return check


def _same_shapes(*names: str):
    def check(b):
        first = b.types[names[0]]
        for n in names[1:]:
            if not T.same_shape(T.shape(first), T.shape(b.types[n])):
                return f"{names[0]} {first} and {n} {b.types[n]} must have the same shape"
    return check


def _features(b):
    return T.with_shape(b.operand, [T.shape(b.operand)[b.feature_index]])


_BN_ATTRS = [Attr("epsilon", A.FLOAT), Attr("feature_index", A.I64)]
_FEATURE_RANGE = Check("C1", K.in_range("feature_index", "operand"))

BATCH_NORM_INFERENCE = OpDef(
    "stablehlo.batch_norm_inference",
    [Operand("operand", T.FP), *[Operand(n, T.FP) for n in ("scale", "offset", "mean",
                                                            "variance")], *_BN_ATTRS],
    checks=[Check("I2", K.one_d("scale", "offset", "mean", "variance")), _FEATURE_RANGE,
            Check("C2", K.same_element_type("operand", "scale", "offset", "mean", "variance")),
            Check("C3", _feature_size("scale")), Check("C4", _feature_size("offset")),
            Check("C5", _feature_size("mean")), Check("C6", _feature_size("variance"))],
    result_id="C7", infer=lambda b: b.operand)

BATCH_NORM_TRAINING = OpDef(
    "stablehlo.batch_norm_training",
    [Operand("operand", T.FP), Operand("scale", T.FP), Operand("offset", T.FP), *_BN_ATTRS],
    checks=[Check("I2", K.one_d("scale", "offset")), _FEATURE_RANGE,
            Check("C2", K.same_element_type("operand", "scale", "offset")),
            Check("C3", _feature_size("scale")), Check("C4", _feature_size("offset"))],
    result_id="C7", infer=lambda b: [b.operand, _features(b), _features(b)])

BATCH_NORM_GRAD = OpDef(
    "stablehlo.batch_norm_grad",
    [Operand("operand", T.FP), Operand("scale", T.FP), Operand("mean", T.FP),
     Operand("variance", T.FP), Operand("grad_output", T.FP), *_BN_ATTRS],
    checks=[Check("I2", K.one_d("scale", "mean", "variance")), _FEATURE_RANGE,
            Check("C2", K.same_element_type("operand", "scale", "mean", "variance",
                                            "grad_output")),
            Check("C3", _same_shapes("operand", "grad_output")),
            Check("C4", _same_shapes("scale", "mean", "variance")),
            Check("C5", _feature_size("scale"))],
    result_id="C3", infer=lambda b: [b.operand, _features(b), _features(b)])

# --- cholesky / triangular_solve -----------------------------------------------------------------


def _at_least_2d(*names: str):
    def check(b):
        for n in names:
            if T.rank(b.types[n]) < 2:
                return f"{n} {b.types[n]} must have rank >= 2"
    return check


def _square(b):
    s = T.shape(b.a)
    if not T.same_dim(s[-2], s[-1]):
        return f"a {b.a} must be square in its last two dimensions"


def _ts_ranks(b):
    if T.rank(b.a) != T.rank(b.b):
        return f"a {b.a} and b {b.b} must have the same rank"


def _ts_shapes(b):
    sa, sb = T.shape(b.a), T.shape(b.b)
    if not T.same_shape(sa[:-2], sb[:-2]):
        return f"a {b.a} and b {b.b} must have the same batch dimensions"
    if not T.same_dim(sa[-2], sa[-1]):
        return f"a {b.a} must be square in its last two dimensions"
    side = -2 if b.left_side else -1
    if not T.same_dim(sa[-1], sb[side]):
        return (f"a {b.a} has size {sa[-1]} but b {b.b} dimension {side} (left_side = "
                f"{b.left_side}) has size {sb[side]}")


CHOLESKY = OpDef("stablehlo.cholesky", [Operand("a", T.FP_C), Attr("lower", A.BOOL,
                                                                    default=False)],
                 checks=[Check("C2", _at_least_2d("a")), Check("C3", _square)],
                 infer=lambda b: b.a)

TRIANGULAR_SOLVE = OpDef(
    "stablehlo.triangular_solve",
    [Operand("a", T.FP_C), Operand("b", T.FP_C), Attr("left_side", A.BOOL),
     Attr("lower", A.BOOL), Attr("unit_diagonal", A.BOOL, default=False),
     Attr("transpose_a", A.TRANSPOSE, default="NO_TRANSPOSE")],
    checks=[Check("C1", K.same_element_type("a", "b")), Check("C2", _at_least_2d("a", "b")),
            Check("C2", _ts_ranks), Check("C3", _ts_shapes)],
    result_id="C4", infer=lambda b: b.b)

# --- fft ---------------------------------------------------------------------------------------


def _fft_length_size(b):
    if not 1 <= len(b.fft_length) <= 3:
        return f"fft_length {list(b.fft_length)} must have 1 to 3 entries"


def _fft_rank(b):
    if len(b.fft_length) > T.rank(b.operand):
        return f"fft_length {list(b.fft_length)} has more entries than operand {b.operand}'s rank"


def _fft_elements(b):
    et = T.elem(b.operand)
    is_complex = T.kind(et) == T.COMPLEX
    if b.fft_type == "RFFT":
        if str(et) not in ("f32", "f64"):
            return f"RFFT needs an f32 or f64 operand, got {b.operand}"
    elif not is_complex:
        return f"{b.fft_type} needs a complex operand, got {b.operand}"


def _fft_real_shape(b):
    n = len(b.fft_length)
    if b.fft_type == "RFFT":
        tail = T.shape(b.operand)[-n:]
        if not T.same_shape(tail, list(b.fft_length)):
            return (f"RFFT operand {b.operand} must end in fft_length {list(b.fft_length)}")
    if b.fft_type == "IRFFT":
        want = list(b.fft_length[:-1]) + [b.fft_length[-1] // 2 + 1 if b.fft_length[-1] else 0]
        tail = T.shape(b.operand)[-n:]
        if not T.same_shape(tail, want):
            return (f"IRFFT operand {b.operand} must end in {want} for fft_length "
                    f"{list(b.fft_length)}")


def _fft_infer(b):
    dims, et = T.shape(b.operand), T.elem(b.operand)
    if b.fft_type == "RFFT":
        last = b.fft_length[-1]
        dims[-1] = last // 2 + 1 if last else 0
        return T.with_shape(b.operand, dims, ir.ComplexType.get(et))
    if b.fft_type == "IRFFT":
        dims[-1] = b.fft_length[-1]
        return T.with_shape(b.operand, dims, T.complex_element_type(et))
    return b.operand


FFT = OpDef("stablehlo.fft",
            [Operand("operand", T.FP_C), Attr("fft_type", A.FFT_TYPE),
             Attr("fft_length", A.I64_ARRAY)],
            checks=[Check("C3", _fft_length_size), Check("C1", _fft_rank),
                    Check("C2", _fft_elements), Check("C4", _fft_real_shape)],
            result_id="C5", result_element_id="C2", infer=_fft_infer)

# --- rng / rng_bit_generator ---------------------------------------------------------------------

_RNG_CLASSES = frozenset({T.BOOL, T.SINT, T.UINT, T.FLOAT})


def _normal_needs_float(b):
    if b.rng_distribution == "NORMAL" and T.kind(T.elem(b.a)) != T.FLOAT:
        return f"rng_distribution NORMAL needs floating-point a and b, got {b.a}"


def _shape_vector(b):
    if T.rank(b.shape) != 1 or T.shape(b.shape)[0] == T.DYN:
        return f"shape must be a 1-D tensor of static size, got {b.shape}"


def _rng_infer(b):
    values = T.constant_values(b.values["shape"])
    dims = ([int(x) for x in values.reshape(-1)] if values is not None
            else [T.DYN] * T.shape(b.shape)[0])
    return T.with_shape(b.a, dims)


RNG = OpDef("stablehlo.rng",
            [Operand("a", _RNG_CLASSES, rank0=True), Operand("b", _RNG_CLASSES, rank0=True),
             Operand("shape", frozenset({T.SINT, T.UINT})),
             Attr("rng_distribution", A.RNG_DISTRIBUTION)],
            checks=[Check("C1", K.same_element_type("a", "b")),
                    Check("C2", _normal_needs_float), Check("C3", _shape_vector)],
            result_id="C3", result_element_id="C1", infer=_rng_infer)


def _state_size(b):
    t = b.initial_state
    if T.rank(t) != 1:
        return f"initial_state must be a 1-D tensor, got {t}"
    n = T.shape(t)[0]
    allowed = {"THREE_FRY": (2,), "PHILOX": (2, 3)}.get(b.rng_algorithm)
    if allowed and n != T.DYN and n not in allowed:
        return (f"initial_state {t} must have {' or '.join(map(str, allowed))} elements for "
                f"{b.rng_algorithm}")


RNG_BIT_GENERATOR = OpDef(
    "stablehlo.rng_bit_generator",
    [Operand("initial_state", T.INT), Attr("rng_algorithm", A.RNG_ALGORITHM)],
    checks=[Check("C2", _state_size)], result_type="required",
    result_classes=T.INT | T.FP, infer=lambda b: [b.initial_state, b.result_type],
    summary="result_type: the type of `output` (output_state has initial_state's type).")

CHAPTER = "miscellaneous"
OPS: list[OpDef] = [BATCH_NORM_GRAD, BATCH_NORM_INFERENCE, BATCH_NORM_TRAINING, CHOLESKY,
                    TRIANGULAR_SOLVE, FFT, RNG, RNG_BIT_GENERATOR]
