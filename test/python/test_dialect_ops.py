"""Every StableHLO/CHLO builder: positive builds (verified, text round trip) and one negative
case per checked constraint, as tables. Coverage of both tables is itself tested."""
import numpy as np
import pytest
from iree.compiler import ir
from iree.compiler.dialects import func

import shlo
import test_dialect_cases_chlo
import test_dialect_cases_stablehlo
from shlo.dialect import ConstraintError, chlo, chlo_ops, elementwise, stablehlo
from shlo.dialect import types as T
from shlo.dialect.opdef import all_checks
from shlo.dialect.registry import pyname
from test_dialect_support import CTX, EXAMPLE, build, builder_of, cst, ty

ALL_OPS = [*stablehlo.OPS, *chlo.OPS]
MORE = (test_dialect_cases_stablehlo, test_dialect_cases_chlo)


# --- positive cases: (op name, argument types, fn(*args, **kw)) ---------------------------------

F23, F32_ = "tensor<2x3xf32>", "tensor<3x2xf32>"


def _unary_cases(opdefs):
    for op in opdefs:
        for cls in sorted(op.operands[0].classes & EXAMPLE.keys()):
            et = EXAMPLE[cls]
            yield (op.name, [f"tensor<2x3x{et}>"],
                   lambda a, _op=op, **kw: builder_of(_op)(a, **kw), et)


def _binary_cases(opdefs):
    for op in opdefs:
        for cls in sorted(op.operands[0].classes & EXAMPLE.keys()):
            et = EXAMPLE[cls]
            if op.name in ("stablehlo.complex", "chlo.broadcast_complex") and cls != T.FLOAT:
                continue
            extra = ({"comparison_direction": "LT"} if "compare" in op.name else {})
            yield (op.name, [f"tensor<2x3x{et}>"] * 2,
                   lambda a, b, _op=op, _x=extra, **kw: builder_of(_op)(a, b, **_x, **kw), et)


_by_name = {op.name: op for op in ALL_OPS}
GENERATED = [
    *_unary_cases([_by_name[f"stablehlo.{n}"] for n, _ in elementwise.UNARY]),
    *_unary_cases([_by_name[f"stablehlo.{n}"] for n in ("abs", "real", "imag", "is_finite")]),
    *_binary_cases([_by_name[f"stablehlo.{n}"] for n, _ in elementwise.BINARY]),
    *_binary_cases([_by_name["stablehlo.compare"], _by_name["stablehlo.complex"]]),
    *_unary_cases([op for op in chlo_ops.OPS if len(op.operands) == 1]),
    *_binary_cases([op for op in chlo_ops.OPS if len(op.operands) == 2]),
]

S, C = stablehlo, chlo
HAND = [  # op, argument types, fn(*args, **kw)
    ("stablehlo.constant", [], lambda **kw: S.constant(np.arange(6, dtype=np.int32).reshape(2, 3),
                                                       **kw)),
    ("stablehlo.constant", [], lambda **kw: S.constant(
        1.5, result_type=kw.pop("result_type", ty("tensor<2x2xbf16>")), **kw)),
    ("stablehlo.clamp", [F23], lambda a, **kw: S.clamp(cst(0), a, cst(1), **kw)),
    ("stablehlo.clamp", [F23] * 3, lambda a, b, c, **kw: S.clamp(a, b, c, **kw)),
    ("stablehlo.select", ["tensor<2x3xi1>", F23, F23], lambda p, a, b, **kw: S.select(p, a, b,
                                                                                     **kw)),
    ("stablehlo.select", ["tensor<i1>", F23, F23], lambda p, a, b, **kw: S.select(p, a, b, **kw)),
    ("stablehlo.compare", [F23] * 2, lambda a, b, **kw: S.compare(
        a, b, comparison_direction="ge", compare_type="TOTALORDER", **kw)),
    ("stablehlo.compare", ["tensor<2xui8>"] * 2, lambda a, b, **kw: S.compare(
        a, b, comparison_direction="NE", **kw)),
    ("stablehlo.complex", ["tensor<2xf64>"] * 2, lambda a, b, **kw: S.complex(a, b, **kw)),
    ("stablehlo.convert", [F23], lambda a, **kw: S.convert(
        a, result_type=kw.pop("result_type", ty("tensor<2x3xi8>")), **kw)),
    ("stablehlo.convert", ["tensor<2xi1>"], lambda a, **kw: S.convert(
        a, result_type=kw.pop("result_type", ty("tensor<2xcomplex<f64>>")), **kw)),
    ("stablehlo.bitcast_convert", [F23], lambda a, **kw: S.bitcast_convert(
        a, result_type=kw.pop("result_type", ty("tensor<2x3xi32>")), **kw)),
    ("stablehlo.bitcast_convert", [F23], lambda a, **kw: S.bitcast_convert(
        a, result_type=kw.pop("result_type", ty("tensor<2x3x2xbf16>")), **kw)),
    ("stablehlo.bitcast_convert", ["tensor<2x4xi8>"], lambda a, **kw: S.bitcast_convert(
        a, result_type=kw.pop("result_type", ty("tensor<2xf32>")), **kw)),
    ("stablehlo.bitcast_convert", ["tensor<3xcomplex<f64>>"], lambda a, **kw: S.bitcast_convert(
        a, result_type=kw.pop("result_type", ty("tensor<3x2xcomplex<f32>>")), **kw)),
    ("stablehlo.reduce_precision", ["tensor<4xbf16>"], lambda a, **kw: S.reduce_precision(
        a, exponent_bits=5, mantissa_bits=0, **kw)),
    ("stablehlo.is_finite", ["tensor<?x3xf64>"], lambda a, **kw: S.is_finite(a, **kw)),
    ("stablehlo.add", ["tensor<?x3xf32>", "tensor<2x?xf32>"], lambda a, b, **kw: S.add(a, b,
                                                                                    **kw)),
    ("stablehlo.iota", [], lambda **kw: S.iota(
        iota_dimension=1, result_type=kw.pop("result_type", ty("tensor<2x3xui32>")), **kw)),
    ("stablehlo.iota", [], lambda **kw: S.iota(
        iota_dimension=0, result_type=kw.pop("result_type", ty("tensor<4xcomplex<f32>>")), **kw)),
    ("stablehlo.broadcast_in_dim", ["tensor<3xf32>"], lambda a, **kw: S.broadcast_in_dim(
        a, broadcast_dimensions=[1], result_type=kw.pop("result_type", ty(F23)), **kw)),
    ("stablehlo.broadcast_in_dim", ["tensor<1x3xi1>"], lambda a, **kw: S.broadcast_in_dim(
        a, broadcast_dimensions=np.array([2, 0]),
        result_type=kw.pop("result_type", ty("tensor<3x4x5xi1>")), **kw)),
    ("stablehlo.reshape", [F23], lambda a, **kw: S.reshape(
        a, result_type=kw.pop("result_type", ty("tensor<6x1xf32>")), **kw)),
    ("stablehlo.transpose", ["tensor<2x3x4xi32>"], lambda a, **kw: S.transpose(
        a, permutation=(2, 0, 1), **kw)),
    ("stablehlo.concatenate", [F23, "tensor<2x5xf32>"], lambda a, b, **kw: S.concatenate(
        [a, b], dimension=1, **kw)),
    ("stablehlo.concatenate", ["tensor<?x3xf32>"], lambda a, **kw: S.concatenate(
        [a], dimension=0, **kw)),
    ("stablehlo.slice", ["tensor<5x6xf32>"], lambda a, **kw: S.slice(
        a, start_indices=[1, 0], limit_indices=[4, 6], strides=[2, 4], **kw)),
    ("stablehlo.slice", ["tensor<5x6xf32>"], lambda a, **kw: S.slice(
        a, start_indices=[0, 6], limit_indices=[5, 6], **kw)),
    ("stablehlo.pad", [F23], lambda a, **kw: S.pad(
        a, cst(0), edge_padding_low=[1, -1], edge_padding_high=[0, 2], interior_padding=[1, 0],
        **kw)),
    ("stablehlo.pad", ["tensor<0x3xi32>", "tensor<i32>"], lambda a, v, **kw: S.pad(
        a, v, edge_padding_low=[0, 0], edge_padding_high=[1, 1], interior_padding=[3, 0], **kw)),
    ("stablehlo.dot_general", [F23, "tensor<3x4xf32>"], lambda a, b, **kw: S.dot_general(
        a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0], **kw)),
    ("stablehlo.dot_general", ["tensor<5x2x3xi8>", "tensor<5x4x3xi8>"],
     lambda a, b, **kw: S.dot_general(
         a, b, lhs_batching_dimensions=[0], rhs_batching_dimensions=[0],
         lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[2],
         precision_config=["HIGHEST", "HIGH"],
         result_type=kw.pop("result_type", ty("tensor<5x2x4xi32>")), **kw)),
    ("stablehlo.dot_general", ["tensor<2xf32>", "tensor<3xf32>"], lambda a, b, **kw:
        S.dot_general(a, b, **kw)),
    ("stablehlo.dot_general", ["tensor<2x3xbf16>", "tensor<3x4xbf16>"],
     lambda a, b, **kw: S.dot_general(
         a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
         precision_config=["DEFAULT", "DEFAULT"], lhs_precision_type=ty("bf16"),
         rhs_precision_type=ty("bf16"), accumulation_type=ty("f32"), lhs_component_count=1,
         rhs_component_count=1, num_primitive_operations=1, allow_imprecise_accumulation=False,
         result_type=kw.pop("result_type", ty("tensor<2x4xf32>")), **kw)),
    ("stablehlo.reduce", [F23], lambda a, **kw: S.reduce(
        [a], [cst(0)], dimensions=[1], body=lambda x, y: S.add(x, y), **kw)),
    ("stablehlo.reduce", [F23, "tensor<2x3xi32>"], lambda a, b, **kw: S.reduce(
        [a, b], [cst(0), cst(0, np.int32)], dimensions=[0, 1],
        body=lambda x, y, xa, ya: (S.maximum(x, xa), S.add(y, ya)), **kw)),
    ("stablehlo.reduce", [F23], lambda a, **kw: S.reduce(
        [a], [cst(1)], dimensions=[], body=lambda x, y: S.return_([S.multiply(x, y)]), **kw)),
    ("stablehlo.return", [F23], lambda a, **kw: S.reduce(
        [a], [cst(0)], dimensions=[0], body=lambda x, y: S.return_([x], **kw))),
    ("chlo.broadcast_add", ["tensor<3xf32>", F23], lambda a, b, **kw: C.broadcast_add(
        a, b, broadcast_dimensions=[1], **kw)),
    ("chlo.broadcast_add", [F23, "tensor<2xf32>"], lambda a, b, **kw: C.broadcast_add(
        a, b, broadcast_dimensions=[0], **kw)),
    ("chlo.broadcast_multiply", ["tensor<4x1x3xi32>", "tensor<5x1xi32>"],
     lambda a, b, **kw: C.broadcast_multiply(a, b, **kw)),
    ("chlo.broadcast_subtract", ["tensor<?x1xf32>", "tensor<1x?xf32>"],
     lambda a, b, **kw: C.broadcast_subtract(a, b, **kw)),
    ("chlo.broadcast_compare", ["tensor<2x1xf64>", "tensor<3xf64>"],
     lambda a, b, **kw: C.broadcast_compare(a, b, comparison_direction="EQ",
                                            compare_type="TOTALORDER", **kw)),
    ("chlo.broadcast_complex", ["tensor<f64>", "tensor<3xf64>"],
     lambda a, b, **kw: C.broadcast_complex(a, b, **kw)),
    ("chlo.is_inf", ["tensor<2xbf16>"], lambda a, **kw: C.is_inf(a, **kw)),
]
POSITIVE = [(n, t, f) for n, t, f, _ in GENERATED] + HAND + [c for m in MORE for c in m.POSITIVE]
MULTI_RESULT = {"stablehlo.reduce"}


def _ids(cases):
    seen = {}
    out = []
    for c in cases:
        seen[c[0]] = seen.get(c[0], 0) + 1
        out.append(f"{c[0]}-{seen[c[0]]}")
    return out


@pytest.mark.parametrize("name,arg_types,fn", POSITIVE, ids=_ids(POSITIVE))
@pytest.mark.every_case
def test_builds_verify_and_round_trip(name, arg_types, fn):
    module = build(arg_types, fn)
    assert module.operation.verify()
    text = shlo.print_module(module)
    assert name.split(".", 1)[1] in text
    assert shlo.print_module(shlo.parse_module(text, context=CTX)) == text


def test_every_op_has_a_positive_case():
    covered = {n for n, _, _ in POSITIVE}
    assert {op.name for op in ALL_OPS} <= covered


# A given result_type equal to the inferred one is accepted; any other is rejected with the
# constraint id that ties the result to the inputs.
# (constant's result_type shapes its value instead: see the constant cases in NEGATIVE.)
OPTIONAL_RESULT = [c for c in POSITIVE if _by_name[c[0]].result_type == "optional"
                   and c[0] not in MULTI_RESULT | {"stablehlo.constant", "chlo.constant"}]


# dot_general's spec fixes only the shape of a (non-quantized) result.
# The spec fixes only the shape of these (non-quantized) results: their element type is free.
ELEMENT_FREE = {"stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution",
                "stablehlo.dynamic_conv", "stablehlo.einsum", "stablehlo.unary_einsum",
                "chlo.ragged_dot"}


# A non-quantized result_type for a quantized op breaks this constraint instead.
QUANTIZED_ELEMENT_ID = {"stablehlo.add": "C2"}


@pytest.mark.parametrize("name,arg_types,fn", OPTIONAL_RESULT, ids=_ids(OPTIONAL_RESULT))
@pytest.mark.every_case
def test_result_type_is_checked(name, arg_types, fn):
    inferred = []

    opdef = _by_name[name]

    def again(*args):
        v = fn(*args)
        if isinstance(v, (ir.Operation, ir.OpView)):
            inferred.append(None)          # no results
            return v
        many = isinstance(v, tuple)
        types = [x.type for x in v] if many else [v.type]
        inferred.extend(types)
        same = fn(*args, result_type=types if many else types[0])
        assert [x.type for x in (same if many else [same])] == types
        if not types or not all(T.is_ranked_tensor(t) for t in types):
            return v                       # tokens, tuples, futures: equality only
        first = types[0]
        other = "f64" if str(T.elem(first)) != "f64" else "i8"
        wrong_shape = ir.RankedTensorType.get([7] * (T.rank(first) + 1), T.elem(first))
        wrong_element = T.with_shape(first, T.shape(first), ty(other))
        cases = [(wrong_shape, opdef.result_id)]
        if name not in ELEMENT_FREE:
            cid = opdef.result_element_id or opdef.result_id
            if T.is_quantized(T.elem(first)):
                cid = QUANTIZED_ELEMENT_ID.get(name, cid)
            cases.append((wrong_element, cid))
        for wrong, cid in cases:
            with pytest.raises(ConstraintError) as e:
                fn(*args, result_type=[wrong, *types[1:]] if many else wrong)
            assert e.value.constraint == cid, str(e.value)
            assert str(e.value).startswith(opdef.display + ": ")
        return v

    build(arg_types, again)
    assert inferred


# --- negative cases: (op display name, constraint id, argument types, fn, message part) ---------

def _class_negatives():
    """Per op with a restricted first operand: a tensor of a class it does not allow (I1).
    (Ops whose builders need more arguments have theirs in test_dialect_cases_*.py.)"""
    by_hand = {c[0] for m in MORE for c in m.NEGATIVE if c[1] == "I1"}
    for op in ALL_OPS:
        if not op.operands or op.operands[0].classes is None or op.operands[0].classes >= T.ANY:
            continue
        if op.display in by_hand:
            continue
        bad = next(c for c in (T.COMPLEX, T.BOOL, T.UINT, T.SINT, T.FLOAT)
                   if c not in op.operands[0].classes)
        t = f"tensor<2x{EXAMPLE[bad]}>"
        n = len(op.operands)
        extra = {"comparison_direction": "LT"} if "compare" in op.name else {}
        extra.update({"exponent_bits": 5, "mantissa_bits": 2}
                     if op.name.endswith("reduce_precision") else {})
        yield (op.display, "I1", [t] * n,
               lambda *a, _op=op, _x=extra: builder_of(_op)(*a, **_x), "must be a tensor of")


def _example(classes, wide=False) -> str:
    cls = T.SINT if T.SINT in classes else T.FLOAT if T.FLOAT in classes else sorted(classes)[0]
    return {T.SINT: "i64", T.FLOAT: "f64"}.get(cls, "?") if wide else EXAMPLE[cls]


def _c1_negatives():
    """Every same-typed binary op: operands of two different types (C1)."""
    for name, classes in elementwise.BINARY:
        t, t2 = f"tensor<2x3x{_example(classes)}>", f"tensor<3x2x{_example(classes)}>"
        yield (name, "C1", [t, t2], lambda a, b, _n=name: getattr(S, pyname(_n))(a, b),
               f"operands must have the same type, got {t} and {t2}")


def _chlo_broadcast_negatives():
    """Every CHLO broadcasting op: C1 element types, C2 broadcast_dimensions, C3 shapes."""
    for name, classes in chlo_ops.BINARY:
        e, wide = _example(classes), _example(classes, wide=True)
        x = {"comparison_direction": "LT"} if "compare" in name else {}
        cases = [("C1", [f"tensor<2x{e}>", f"tensor<2x{wide}>"], {}, "same element type"),
                 ("C2", [f"tensor<3x{e}>", f"tensor<2x3x{e}>"], {"broadcast_dimensions": [2]},
                  "out of range"),
                 ("C3", [f"tensor<3x{e}>", f"tensor<3x2x{e}>"], {}, "shapes do not broadcast")]
        for cid, types, kw, message in cases:
            yield (f"chlo.{name}", cid, types,
                   lambda a, b, _n=name, _kw={**x, **kw}: getattr(C, _n)(a, b, **_kw), message)


R = ty  # result types
I23 = "tensor<2x3xi32>"
NEGATIVE = [*_class_negatives(), *_c1_negatives(), *_chlo_broadcast_negatives(),
            *[c for m in MORE for c in m.NEGATIVE], *[
    # elementwise specials
    ("compare", "C1", [F23, I23], lambda a, b: S.compare(a, b, comparison_direction="EQ"),
     "lhs and rhs must have the same element type"),
    ("compare", "C2", [F23, F32_], lambda a, b: S.compare(a, b, comparison_direction="EQ"),
     "lhs and rhs must have the same shape"),
    ("compare", "C3", [F23, F23], lambda a, b: S.compare(a, b, comparison_direction="EQ",
                                                         compare_type="SIGNED"),
     "compare_type SIGNED is not valid for element type f32, expected FLOAT or TOTALORDER"),
    ("compare", "C3", ["tensor<2xi1>"] * 2, lambda a, b: S.compare(
        a, b, comparison_direction="EQ", compare_type="SIGNED"), "expected UNSIGNED"),
    ("compare", "I3", [F23, F23], lambda a, b: S.compare(a, b, comparison_direction="LESS"),
     "attribute comparison_direction must be one of EQ, NE, GE, GT, LE, LT, got 'LESS'"),
    ("compare", "I4", [F23, F23], lambda a, b: S.compare(a, b, comparison_direction="LT",
                                                         compare_type=3), "one of FLOAT"),
    ("complex", "I1", ["tensor<2xbf16>"] * 2, lambda a, b: S.complex(a, b), "f32 or f64"),
    ("complex", "I2", ["tensor<2xf32>", "tensor<2xf16>"], lambda a, b: S.complex(a, b),
     "rhs must be a tensor of f32 or f64"),
    ("complex", "C1", ["tensor<2xf32>", "tensor<2xf64>"], lambda a, b: S.complex(a, b),
     "same type"),
    ("clamp", "C1", [F23, "tensor<3xf32>"], lambda a, m: S.clamp(m, a, a),
     "min must be a scalar or have the shape of operand"),
    ("clamp", "C2", [F23, "tensor<3xf32>"], lambda a, m: S.clamp(a, a, m),
     "max must be a scalar or have the shape of operand"),
    ("clamp", "C3", [F23, "tensor<f64>"], lambda a, m: S.clamp(m, a, a),
     "min and operand and max must have the same element type"),
    ("select", "I1", [F23, F23, F23], lambda p, a, b: S.select(p, a, b),
     "pred must be a tensor of bool type, got tensor<2x3xf32>"),
    ("select", "C1", ["tensor<3x2xi1>", F23, F23], lambda p, a, b: S.select(p, a, b),
     "pred must be a scalar or have the shape of on_true"),
    ("select", "C2", ["tensor<i1>", F23, I23], lambda p, a, b: S.select(p, a, b),
     "on_true and on_false"),
    ("convert", "C1", [F23], lambda a: S.convert(a, result_type=R("tensor<6xi32>")),
     "must have the shape of operand"),
    ("convert", "O1", [F23], lambda a: S.convert(a, result_type=R("tensor<2x3xindex>")),
     "result_type must be a tensor"),
    ("bitcast_convert", "C1", [F23], lambda a: S.bitcast_convert(
        a, result_type=R("tensor<3x2xi32>")), "equal widths need equal shapes"),
    ("bitcast_convert", "C1", [F23], lambda a: S.bitcast_convert(
        a, result_type=R("tensor<2x3x3xi8>")), "the result must be the operand's shape + [4]"),
    ("bitcast_convert", "C1", [F23], lambda a: S.bitcast_convert(
        a, result_type=R("tensor<2xf64>")), "the operand's last dimension must be 2"),
    ("bitcast_convert", "C2", ["tensor<2xcomplex<f32>>"], lambda a: S.bitcast_convert(
        a, result_type=R("tensor<2xf64>")), "complex and non-complex"),
    ("reduce_precision", "C2", [F23], lambda a: S.reduce_precision(
        a, exponent_bits=0, mantissa_bits=2), "exponent_bits must be >= 1, got 0"),
    ("reduce_precision", "C3", [F23], lambda a: S.reduce_precision(
        a, exponent_bits=8, mantissa_bits=-1), "mantissa_bits must be >= 0, got -1"),
    ("reduce_precision", "I2", [F23], lambda a: S.reduce_precision(
        a, exponent_bits=2.5, mantissa_bits=1), "attribute exponent_bits must be an int"),
    ("reduce_precision", "I3", [F23], lambda a: S.reduce_precision(
        a, exponent_bits=2, mantissa_bits=1 << 40), "fits in i32"),
    ("is_finite", "I1", ["tensor<2xcomplex<f32>>"], lambda a: S.is_finite(a), "floating-point"),
    ("abs", "I1", [F23.replace("f32", "ui32")], lambda a: S.abs(a), "signed integer"),
    # data movement
    ("constant", "C1", [], lambda: S.constant([1, 2, 3], result_type=R("tensor<2xf32>")),
     "does not match tensor<2xf32>"),
    ("constant", "C1", [], lambda: S.constant(np.array(["a"])), "no MLIR element type"),
    ("constant", "C1", [], lambda: S.constant(300, result_type=R("tensor<i8>")),
     "values do not fit"),
    ("constant", "C1", [], lambda: S.constant(np.arange(2, dtype=np.int32),
                                              result_type=R("tensor<2xsi32>")),
     "which StableHLO does not allow"),
    ("constant", "I1", [], lambda: S.constant({"a": 1}), "a numpy array or a Python scalar"),
    ("iota", "C1", [], lambda: S.iota(iota_dimension=1, result_type=R("tensor<4xf32>")),
     "iota_dimension 1 is out of range for rank-1 result"),
    ("iota", "O1", [], lambda: S.iota(iota_dimension=0, result_type=R("tensor<4xi1>")),
     "integer, floating-point or complex type, got tensor<4xi1>"),
    ("broadcast_in_dim", "C1", ["tensor<3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[1], result_type=R("tensor<2x3xf64>")), "element type"),
    ("broadcast_in_dim", "C2", ["tensor<3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[0, 1], result_type=R(F23)), "one entry per dimension"),
    ("broadcast_in_dim", "C3", ["tensor<3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[2], result_type=R(F23)), "has 2 out of range for rank-2"),
    ("broadcast_in_dim", "C4", ["tensor<1x3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[1, 1], result_type=R(F23)), "repeats dimension 1"),
    ("broadcast_in_dim", "C5", ["tensor<3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[0], result_type=R(F23)),
     "operand dimension 0 has size 3 but result dimension 0 has size 2"),
    ("broadcast_in_dim", "I2", ["tensor<3xf32>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=1, result_type=R(F23)), "must be a sequence of ints"),
    ("reshape", "C1", [F23], lambda a: S.reshape(a, result_type=R("tensor<6xi32>")),
     "element type"),
    ("reshape", "C2", [F23], lambda a: S.reshape(a, result_type=R("tensor<7xf32>")),
     "has 6 elements but result_type tensor<7xf32> has 7"),
    ("transpose", "C2", [F23], lambda a: S.transpose(a, permutation=[0, 0]),
     "not a permutation of range(2)"),
    ("concatenate", "C3", [], lambda: S.concatenate([], dimension=0), "must not be empty"),
    ("concatenate", "C4", [F23], lambda a: S.concatenate([a, a], dimension=2),
     "dimension 2 is out of range"),
    ("concatenate", "C1", [F23, I23], lambda a, b: S.concatenate([a, b], dimension=0),
     "same element type"),
    ("concatenate", "C2", [F23, F32_], lambda a, b: S.concatenate([a, b], dimension=0),
     "same shape except in dimension 0"),
    ("concatenate", "I1", [F23], lambda a: S.concatenate(a, dimension=0),
     "inputs must be a list of values"),
    ("concatenate", "I1", [F23], lambda a: S.concatenate([a, 1], dimension=0),
     "inputs[1] must be an ir.Value"),
    ("slice", "C2", [F23], lambda a: S.slice(a, start_indices=[0], limit_indices=[1, 1]),
     "start_indices [0] must have one entry per dimension"),
    ("slice", "C3", [F23], lambda a: S.slice(a, start_indices=[0, 2], limit_indices=[2, 4]),
     "dimension 1: need 0 <= start 2 <= limit 4 <= size 3"),
    ("slice", "C3", [F23], lambda a: S.slice(a, start_indices=[1, 0], limit_indices=[0, 3]),
     "dimension 0"),
    ("slice", "C4", [F23], lambda a: S.slice(a, start_indices=[0, 0], limit_indices=[2, 3],
                                             strides=[1, 0]), "must be positive, got 0"),
    ("pad", "C1", [F23], lambda a: S.pad(a, cst(0, np.int32), edge_padding_low=[0, 0],
                                         edge_padding_high=[0, 0]), "element type"),
    ("pad", "I2", [F23], lambda a: S.pad(a, cst([0]), edge_padding_low=[0, 0],
                                         edge_padding_high=[0, 0]), "0-dimensional"),
    ("pad", "C2", [F23], lambda a: S.pad(a, cst(0), edge_padding_low=[0],
                                         edge_padding_high=[0, 0]), "edge_padding_low [0]"),
    ("pad", "C3", [F23], lambda a: S.pad(a, cst(0), edge_padding_low=[0, 0],
                                         edge_padding_high=[0, 0], interior_padding=[0, -1]),
     "interior_padding [0, -1] must be >= 0"),
    ("pad", "C4", [F23], lambda a: S.pad(a, cst(0), edge_padding_low=[-2, 0],
                                         edge_padding_high=[-1, 0]), "negative size -1"),
    # dot_general
    ("dot_general", "C1", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[0]), "must have the same size"),
    ("dot_general", "C2", [F23, F23], lambda a, b: S.dot_general(
        a, b, rhs_contracting_dimensions=[1]), "must have the same size"),
    ("dot_general", "C3", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[0], rhs_batching_dimensions=[0],
        lhs_contracting_dimensions=[0], rhs_contracting_dimensions=[1]),
     "lhs dimension 0 appears more than once"),
    ("dot_general", "C4", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[0], rhs_batching_dimensions=[1],
        lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[1]),
     "rhs dimension 1 appears more than once"),
    ("dot_general", "C5", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[2], rhs_batching_dimensions=[0]),
     "lhs_batching_dimensions [2] has 2 out of range for lhs tensor<2x3xf32>"),
    ("dot_general", "C6", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_contracting_dimensions=[-1], rhs_contracting_dimensions=[1]), "out of range"),
    ("dot_general", "C7", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[0], rhs_batching_dimensions=[5]), "out of range"),
    ("dot_general", "C8", [F23, F23], lambda a, b: S.dot_general(
        a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[2]), "out of range"),
    ("dot_general", "C9", [F23, F32_], lambda a, b: S.dot_general(
        a, b, lhs_batching_dimensions=[0], rhs_batching_dimensions=[0]),
     "lhs batching dimension 0 has size 2 but rhs batching dimension 0 has size 3"),
    ("dot_general", "C10", [F23, "tensor<4x4xf32>"], lambda a, b: S.dot_general(
        a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0]),
     "lhs contracting dimension 1 has size 3 but rhs contracting dimension 0 has size 4"),
    ("dot_general", "C11", [F23, F32_], lambda a, b: S.dot_general(
        a, b, precision_config=["HIGH"]), "precision_config must have 2 entries"),
    ("dot_general", "C13", [F23, I23], lambda a, b: S.dot_general(a, b),
     "lhs and rhs must have the same element type"),
    ("dot_general", "C21", [F23, F32_], lambda a, b: S.dot_general(
        a, b, lhs_precision_type=R("f32")), "missing rhs_precision_type"),
    ("dot_general", "C21", [F23, F32_], lambda a, b: S.dot_general(
        a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
        precision_config=["HIGH", "DEFAULT"], lhs_precision_type=R("f32"),
        rhs_precision_type=R("f32"), accumulation_type=R("f32"), lhs_component_count=1,
        rhs_component_count=1, num_primitive_operations=1, allow_imprecise_accumulation=False),
     "precision_config must be DEFAULT when an algorithm is given"),
    ("dot_general", "C21", [F23, F32_], lambda a, b: S.dot_general(
        a, b, lhs_precision_type=R("f32"), rhs_precision_type=R("f32"),
        accumulation_type=R("f16"), lhs_component_count=7, rhs_component_count=1,
        num_primitive_operations=1, allow_imprecise_accumulation=False),
     "algorithm rejected: dot algorithm not known"),
    *[("dot_general", cid, [F23, F32_], lambda a, b, _f=field: S.dot_general(
        a, b, lhs_precision_type=R("f32"), rhs_precision_type=R("f32"),
        accumulation_type=R("f32"), allow_imprecise_accumulation=False,
        **{**dict(lhs_component_count=1, rhs_component_count=1, num_primitive_operations=1),
           _f: 0}), f"{field} must be > 0, got 0")
      for cid, field in [("C22", "lhs_component_count"), ("C23", "rhs_component_count"),
                         ("C24", "num_primitive_operations")]],
    ("dot_general", "I7", [F23, F32_], lambda a, b: S.dot_general(
        a, b, precision_config="DEFAULT"), "must be a sequence of DEFAULT, HIGH, HIGHEST"),
    ("dot_general", "I8", [F23, F32_], lambda a, b: S.dot_general(
        a, b, lhs_precision_type="f32"), "must be an ir.Type"),
    # reduce
    ("reduce", "C3", [F23], lambda a: S.reduce([a], [], dimensions=[0],
                                               body=lambda x, y: x), "as many init_values"),
    ("reduce", "C3", [], lambda: S.reduce([], [], dimensions=[0], body=lambda: ()),
     "at least one"),
    ("reduce", "C1", [F23, F32_], lambda a, b: S.reduce(
        [a, b], [cst(0), cst(0)], dimensions=[0], body=lambda *x: x[:2]), "same shape"),
    ("reduce", "C2", [F23], lambda a: S.reduce([a], [cst(0, np.int32)], dimensions=[0],
                                               body=lambda x, y: x), "must have the element type"),
    ("reduce", "C4", [F23], lambda a: S.reduce([a], [cst(0)], dimensions=[2],
                                               body=lambda x, y: x), "has 2 out of range"),
    ("reduce", "C5", [F23], lambda a: S.reduce([a], [cst(0)], dimensions=[1, 1],
                                               body=lambda x, y: x), "repeats dimension 1"),
    ("reduce", "C6", [F23], lambda a: S.reduce(
        [a], [cst(0)], dimensions=[0],
        body=lambda x, y: S.compare(x, y, comparison_direction="LT")),
     "body must return (tensor<f32>), got (tensor<i1>)"),
    ("reduce", "C6", [F23], lambda a: S.reduce([a], [cst(0)], dimensions=[0],
                                               body=lambda x, y: (x, y)),
     "got (tensor<f32>, tensor<f32>)"),
    ("reduce", "I2", [F23], lambda a: S.reduce([a], [cst([0])], dimensions=[0],
                                               body=lambda x, y: x), "0-dimensional"),
    ("reduce", "I4", [F23], lambda a: S.reduce([a], [cst(0)], dimensions=[0], body=3),
     "region body must be a callable"),
    ("reduce", "I4", [F23], lambda a: S.reduce([a], [cst(0)], dimensions=[0],
                                               body=lambda x, y: 1.0), "must return ir.Values"),
    # chlo
    ("chlo.broadcast_add", "C2", ["tensor<3xf32>", F23], lambda a, b: C.broadcast_add(
        a, b, broadcast_dimensions=[0, 1]), "one entry per dimension of the lower-rank operand"),
    ("chlo.broadcast_add", "C2", ["tensor<3xf32>", F23], lambda a, b: C.broadcast_add(
        a, b, broadcast_dimensions=[2]), "has 2 out of range for tensor<2x3xf32>"),
    ("chlo.broadcast_add", "C2", ["tensor<1x3xf32>", F23], lambda a, b: C.broadcast_add(
        a, b, broadcast_dimensions=[1, 1]), "repeats dimension 1"),
    ("chlo.broadcast_add", "C3", ["tensor<3xf32>", F32_], lambda a, b: C.broadcast_add(a, b),
     "shapes do not broadcast: tensor<3xf32> and tensor<3x2xf32>"),
    ("chlo.broadcast_add", "C3", ["tensor<3xf32>", F23], lambda a, b: C.broadcast_add(
        a, b, broadcast_dimensions=[0]), "with broadcast_dimensions [0]"),
    ("chlo.broadcast_compare", "C4", [F23, F23], lambda a, b: C.broadcast_compare(
        a, b, comparison_direction="LT", compare_type="UNSIGNED"), "compare_type UNSIGNED"),
    ("chlo.broadcast_compare", "I5", [F23, F23], lambda a, b: C.broadcast_compare(
        a, b, comparison_direction="LT", compare_type="NOTYPE"), "one of FLOAT"),
    ("chlo.broadcast_compare", "I4", [F23, F23], lambda a, b: C.broadcast_compare(
        a, b, comparison_direction="UP"), "one of EQ"),
    ("chlo.broadcast_complex", "I1", ["tensor<2xf16>"] * 2, lambda a, b: C.broadcast_complex(
        a, b), "f32 or f64"),
]]


@pytest.mark.parametrize("op,cid,arg_types,fn,message", NEGATIVE,
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(NEGATIVE)])
def test_constraint_violations(op, cid, arg_types, fn, message):
    def body(*args):
        with pytest.raises(ConstraintError) as e:
            fn(*args)
        assert e.value.op == op and e.value.constraint == cid
        text = str(e.value)
        assert text.startswith(f"{op}: ") and text.endswith(f"({cid})"), text
        assert message in text, text
        assert "\n" not in text
        return args[0] if args else None

    with CTX, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ([ty(t) for t in arg_types], []))
        block = f.add_entry_block()
        with ir.InsertionPoint(block):
            before = len(block.operations)
            body(*block.arguments)
            func.ReturnOp([])
    assert module.operation.verify()   # a failed build leaves no op behind
    left = [o.name for o in list(block.operations)[before:]]
    assert not any((n if n.startswith("chlo.") else n.split(".", 1)[1]) == op
                   for n in left if n != "stablehlo.constant" or op == "constant"), left


def test_every_check_has_a_negative_case():
    covered = {(op, cid) for op, cid, *_ in NEGATIVE}
    declared = set()
    for op in ALL_OPS:
        for check in all_checks(op):
            declared.add((op.display, check.id))
        if op.operands and op.operands[0].classes is not None \
                and not op.operands[0].classes >= T.ANY:
            declared.add((op.display, "I1"))
    assert declared - covered == set()


def _mlir_inferred(op):
    """The result types MLIR's own inference gives `op`, or None where it has none."""
    attrs = {name: op.attributes[name] for name in op.attributes}
    try:
        twin = ir.Operation.create(op.name, operands=list(op.operands), attributes=attrs,
                                   loc=op.location, ip=False, infer_type=True)
    except (ValueError, RuntimeError, ir.MLIRError):
        return None
    types = [r.type for r in twin.results]
    twin.erase()
    return types


INFERABLE = [c for c in POSITIVE if _by_name[c[0]].result_type == "optional"
             and not _by_name[c[0]].regions]


# Where shlo follows the spec and MLIR's inference does not: MLIR's transpose keeps a per-axis
# operand's quantization dimension; the spec's C4 moves it with the permutation.
SPEC_OVER_MLIR = {"stablehlo.transpose-2"}


@pytest.mark.parametrize("name,arg_types,fn", INFERABLE, ids=_ids(INFERABLE))
@pytest.mark.every_case
def test_inference_agrees_with_mlir(name, arg_types, fn, request):
    """Where the op has MLIR type inference, shlo's inferred types must be the same."""
    if request.node.callspec.id in SPEC_OVER_MLIR:
        pytest.skip("shlo follows the spec here (see SPEC_OVER_MLIR)")
    module = build(arg_types, fn)
    with CTX:
        body = module.body.operations[0].regions[0].blocks[0]
        ops = [op for op in body.operations if op.name == name]
        assert ops
        for op in ops:
            mlir = _mlir_inferred(op)
            if mlir is not None:
                assert [str(t) for t in mlir] == [str(r.type) for r in op.results]
