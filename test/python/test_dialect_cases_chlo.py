"""Case tables for the CHLO ops beyond the elementwise families (constant, constant_like,
broadcast_select, top_k, ragged_dot, scan) and the non-broadcasting binary ops' C1: POSITIVE
and NEGATIVE, in test_dialect_ops.py's formats (it runs them)."""
import numpy as np
from iree.compiler import ir

from shlo.dialect import chlo as C
from shlo.dialect import chlo_ops
from shlo.dialect import stablehlo as S
from test_dialect_support import cst, ty

F23, F32_ = "tensor<2x3xf32>", "tensor<3x2xf32>"
RAGGED = dict(lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[1],
              lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])
RAGGED_T = ["tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xi64>"]


def ragged(a, b, g, **kw):
    return C.ragged_dot(a, b, g, **{**RAGGED, **kw})


def scan_sum(x, c):
    s = S.add(x, c)
    return s, s


POSITIVE = [
    ("chlo.constant", [], lambda **kw: C.constant(np.arange(4, dtype=np.int16), **kw)),
    ("chlo.constant", [], lambda **kw: C.constant(2.5, result_type=kw.pop(
        "result_type", ty("tensor<2xf64>")), **kw)),
    ("chlo.constant_like", [F23], lambda a, **kw: C.constant_like(a, value=1.5, **kw)),
    ("chlo.constant_like", ["tensor<2xcomplex<f32>>"], lambda a, **kw: C.constant_like(
        a, value=1 + 2j, **kw)),
    ("chlo.constant_like", [F23], lambda a, **kw: C.constant_like(
        a, value=ir.IntegerAttr.get(ir.IntegerType.get_signless(8), 3), **kw)),
    ("chlo.broadcast_select", ["tensor<1x3xi1>", "tensor<2x1xf32>", "tensor<3xf32>"],
     lambda p, a, b, **kw: C.broadcast_select(p, a, b, **kw)),
    ("chlo.broadcast_select", ["tensor<i1>", F23, F23], lambda p, a, b, **kw:
        C.broadcast_select(p, a, b, **kw)),
    ("chlo.top_k", ["tensor<4x16xf32>"], lambda a, **kw: C.top_k(a, k=8, **kw)),
    ("chlo.top_k", ["tensor<?x5xbf16>"], lambda a, **kw: C.top_k(a, k=5, **kw)),
    ("chlo.ragged_dot", RAGGED_T, lambda a, b, g, **kw: ragged(
        a, b, g, precision_config=["DEFAULT", "DEFAULT"], **kw)),
    ("chlo.ragged_dot", ["tensor<2x11x5xf32>", "tensor<2x5x7xf32>", "tensor<2x3xi64>"],
     lambda a, b, g, **kw: C.ragged_dot(
         a, b, g, lhs_batching_dimensions=[0], rhs_batching_dimensions=[0],
         lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[1],
         lhs_ragged_dimensions=[2], **kw)),
    ("chlo.ragged_dot", ["tensor<2x11x5xf32>", "tensor<2x5x7xf32>", "tensor<3xi64>"],
     lambda a, b, g, **kw: C.ragged_dot(
         a, b, g, lhs_batching_dimensions=[0], rhs_batching_dimensions=[0],
         lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[1],
         lhs_ragged_dimensions=[0], **kw)),
    ("chlo.scan", ["tensor<4xi32>", "tensor<i32>"], lambda a, i, **kw: C.scan(
        [a], [i], dimension=0, body=scan_sum, **kw)),
    ("chlo.scan", ["tensor<5x2xf64>", "tensor<5x3xf64>", "tensor<4xf64>"], lambda a, b, c, **kw:
        C.scan([a, b], [c], dimension=0, body=lambda x, y, z: (
            cst(0, np.float64), S.add(z, z)), **kw)),
    ("chlo.scan", ["tensor<2x3xf32>"], lambda a, **kw: C.scan([a], [], dimension=1,
                                                              body=lambda x: x, **kw)),
]

NEGATIVE = [
    *[(f"chlo.{name}", "C1", [f"tensor<2x{t}>", f"tensor<3x{t}>"],
       lambda a, b, _n=name: getattr(C, _n)(a, b), "must have the same type")
      for name, _, classes in chlo_ops.NON_BROADCASTING
      for t in ["i32" if name == "mulhi" else "f32"]],
    ("chlo.constant", "C1", [], lambda: C.constant([1.5], result_type=ty("tensor<2xi8>")),
     "values do not fit"),
    ("chlo.constant_like", "C1", ["tensor<2xi8>"], lambda a: C.constant_like(a, value=1000),
     "values do not fit"),
    ("chlo.constant_like", "C1", [F23], lambda a: C.constant_like(
        a, value=ir.StringAttr.get("x")), "which CHLO does not allow"),
    ("chlo.constant_like", "I2", [F23], lambda a: C.constant_like(a, value="x"),
     "a scalar or an ir.Attribute"),
    ("chlo.broadcast_select", "I1", [F23, F23, F23], lambda p, a, b: C.broadcast_select(
        p, a, b), "must be a tensor of bool type"),
    ("chlo.broadcast_select", "C1", ["tensor<i1>", F23, "tensor<2x3xi32>"],
     lambda p, a, b: C.broadcast_select(p, a, b), "must have the element type of on_true"),
    ("chlo.broadcast_select", "C2", ["tensor<2xi1>", F23, F23],
     lambda p, a, b: C.broadcast_select(p, a, b), "shapes do not broadcast"),
    ("chlo.top_k", "C1", ["tensor<f32>"], lambda a: C.top_k(a, k=1),
     "must have rank >= 1"),
    ("chlo.top_k", "C2", ["tensor<4xf32>"], lambda a: C.top_k(a, k=8),
     "k 8 must be in [0, 4]"),
    ("chlo.ragged_dot", "C1", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_batching_dimensions=[0]), "must have the same size"),
    ("chlo.ragged_dot", "C2", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_contracting_dimensions=[]), "must have the same size"),
    ("chlo.ragged_dot", "C3", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_contracting_dimensions=[1, 1], rhs_contracting_dimensions=[1, 2]),
     "lhs dimension 1 appears more than once"),
    ("chlo.ragged_dot", "C4", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_contracting_dimensions=[1, 0], rhs_contracting_dimensions=[1, 1]),
     "rhs dimension 1 appears more than once"),
    ("chlo.ragged_dot", "C5", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_batching_dimensions=[3], rhs_batching_dimensions=[0]), "out of range"),
    ("chlo.ragged_dot", "C6", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_contracting_dimensions=[2]), "out of range"),
    ("chlo.ragged_dot", "C7", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_batching_dimensions=[0], rhs_batching_dimensions=[4]), "out of range"),
    ("chlo.ragged_dot", "C8", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, rhs_contracting_dimensions=[3]), "out of range"),
    ("chlo.ragged_dot", "C9", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_batching_dimensions=[0], rhs_batching_dimensions=[2],
        rhs_group_dimensions=[]), "lhs batching dimension 0 has size 11"),
    ("chlo.ragged_dot", "C10", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, rhs_contracting_dimensions=[2]), "lhs contracting dimension 1 has size 5"),
    ("chlo.ragged_dot", "C18", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, precision_config=["HIGH"]), "precision_config must have 2 entries"),
    ("chlo.ragged_dot", "C19", ["tensor<11x5xf32>", "tensor<3x5x7xf16>", "tensor<3xi64>"],
     lambda a, b, g: ragged(a, b, g), "must have the element type of lhs"),
    ("chlo.ragged_dot", "C11", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_ragged_dimensions=[0, 1]), "must have exactly one entry"),
    ("chlo.ragged_dot", "C12", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_ragged_dimensions=[2]), "has 2 out of range"),
    ("chlo.ragged_dot", "C14", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, rhs_group_dimensions=[3]), "has 3 out of range"),
    ("chlo.ragged_dot", "C15", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, rhs_group_dimensions=[1]),
     "rhs_group_dimensions and rhs_contracting_dimensions share dimension 1"),
    ("chlo.ragged_dot", "C16", RAGGED_T, lambda a, b, g: ragged(
        a, b, g, lhs_ragged_dimensions=[1]),
     "must have 0 entries when the ragged dimension is contracting"),
    ("chlo.ragged_dot", "C16", ["tensor<11x5xf32>", "tensor<5x7xf32>", "tensor<3xi64>"],
     lambda a, b, g: ragged(a, b, g, rhs_contracting_dimensions=[0], rhs_group_dimensions=[]),
     "must have 1 entries when the ragged dimension is non-contracting"),
    ("chlo.ragged_dot", "C13", ["tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<2x3xi64>"],
     lambda a, b, g: ragged(a, b, g), "group_sizes tensor<2x3xi64> must have shape [g] or [3]"),
    ("chlo.ragged_dot", "C17", ["tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<2xi64>"],
     lambda a, b, g: ragged(a, b, g), "rhs group dimension 0 has size 3 but group_sizes has 2"),
    ("chlo.ragged_dot", "I3", ["tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xf32>"],
     lambda a, b, g: ragged(a, b, g), "must be a tensor of integer type"),
    ("chlo.scan", "C1", ["tensor<4xi32>", "tensor<i32>"], lambda a, i: C.scan(
        [a], [i], dimension=1, body=scan_sum), "dimension 1 is out of range for inputs[0]"),
    ("chlo.scan", "C2", ["tensor<4xi32>", "tensor<5xi32>", "tensor<i32>"], lambda a, b, i:
        C.scan([a, b], [i], dimension=0, body=lambda *x: x[:2]),
     "inputs have different sizes [4, 5] in dimension 0"),
    ("chlo.scan", "C3", ["tensor<4xi32>", "tensor<i32>"], lambda a, i: C.scan(
        [a], [i], dimension=0, body=lambda x, c: (x, cst(0))),
     "body must return the outputs, then carries of types (tensor<i32>)"),
]

