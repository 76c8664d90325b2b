"""The XlaBuilder mechanics of `shlo.xla`: parameters, tuples, sub-computations (XlaComputation
and Python callables), program_shape, as_text, errors, and a tuple root compiled on CPU to a
tuple of arrays (checked against numpy). Per-op numerics live in test_xla_ops_*.py."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo import xla

S = xla.Shape.array_shape

# Every op the issue names, as `xla.<name>`.
ISSUE_OPS = """
Abs Add And Atan2 Ceil Cos Cosh Div Erf Exp Expm1 Floor Imag IsFinite Log Log1p Logistic Max Min
Mul Ne Neg Not Or Pow Real Rem Round RoundNearestAfz RoundNearestEven Rsqrt Sign Sin Sqrt Sub Tan
Tanh Xor Eq Ge Gt Le Lt EqTotalOrder NeTotalOrder GeTotalOrder GtTotalOrder LeTotalOrder
LtTotalOrder Compare Complex Clz PopulationCount ShiftLeft ShiftRightArithmetic ShiftRightLogical
ReducePrecision Cbrt Broadcast BroadcastInDim Collapse Concatenate ConcatInDim Pad Reshape
DynamicReshape Rev Slice DynamicSlice DynamicUpdateSlice Transpose Iota GetDimensionSize
SetDimensionSize Gather Scatter Select Clamp Sort TopK Reduce ReduceWindow SelectAndScatter Map
Scan Dot DotGeneral RaggedDot ScaledDot Conv ConvWithGeneralPadding ConvWithGeneralDimensions
ConvGeneral ConvGeneralDilated Fft Cholesky TriangularSolve BatchNormTraining BatchNormInference
BatchNormGrad Call CompositeCall Conditional While Tuple GetTupleElement OptimizationBarrier
ConvertElementType BitcastConvertType RngNormal RngUniform RngBitGenerator RngBernoulli AfterAll
CreateToken Infeed Outfeed Send Recv CustomCall AllGather AllReduce AllToAll RaggedAllToAll
CollectiveBroadcast CollectivePermute CrossReplicaSum ReduceScatter ReplicaId PartitionID
Parameter Constant ConstantLiteral
""".split()


def test_every_issue_op_exists():
    missing = [n for n in ISSUE_OPS if not callable(getattr(xla, n, None))]
    assert missing == []


# --- shapes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,dtype", [("F32", np.float32), ("S32", np.int32), ("PRED", np.bool_),
                                        ("BF16", ml_dtypes.bfloat16), ("U8", np.uint8),
                                        ("s64", np.int64), ("bf16", ml_dtypes.bfloat16),
                                        (np.float16, np.float16), ("complex64", np.complex64)])
@pytest.mark.every_case
def test_shape_element_types(name, dtype):
    assert S(name, [2]).element_type() == np.dtype(dtype)


def test_shape_repr_equality_and_tuples():
    t = xla.Shape.tuple_shape([S("F32", [2, 3]), S("S32", []), xla.Shape.token_shape()])
    assert repr(t) == "(f32[2,3], s32[], token[])"
    assert t.is_tuple() and not t.is_array()
    assert t.tuple_shapes()[0] == S(np.float32, (2, 3))
    assert S("F32", [2]) != S("F64", [2])
    assert len(t.leaves()) == 3


def test_shape_errors():
    with pytest.raises(shlo.Error, match="unknown element type 'F33'"):
        S("F33", [2])
    with pytest.raises(shlo.Error, match="non-negative"):
        S("F32", [-2])


# --- building, program_shape, as_text ----------------------------------------------------------

def test_parameters_follow_their_numbers_and_tuple_parameters_flatten():
    b = xla.XlaBuilder("params")
    y = xla.Parameter(b, 1, xla.Shape.tuple_shape([S("S32", [2]), S("F32", [])]), "y")
    x = xla.Parameter(b, 0, S("F32", [3]), "x")
    xla.Tuple([xla.GetTupleElement(y, 1), x])
    comp = b.build()
    ps = comp.program_shape()
    assert ps.parameter_names() == ["x", "y"]
    assert ps.parameter_shapes()[1] == xla.Shape.tuple_shape([S("S32", [2]), S("F32", [])])
    assert ps.result_shape() == xla.Shape.tuple_shape([S("F32", []), S("F32", [3])])
    text = comp.as_text()
    assert "func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<2xi32>, %arg2: tensor<f32>)" \
        in text
    assert "-> (tensor<f32>, tensor<3xf32>)" in text


def test_implicit_broadcast_lowers_to_chlo_and_equal_shapes_to_stablehlo():
    b = xla.XlaBuilder("bcast")
    m = xla.Parameter(b, 0, S("F32", [2, 3]), "m")
    v = xla.Parameter(b, 1, S("F32", [3]), "v")
    xla.Sub(xla.Add(m, v, broadcast_dimensions=[1]), m)
    text = b.build().as_text()
    assert "chlo.broadcast_add" in text and "broadcast_dimensions = array<i64: 1>" in text
    assert "stablehlo.subtract" in text


def test_xla_op_shape_and_builder():
    b = xla.XlaBuilder("ops")
    x = xla.Parameter(b, 0, S("F32", [2, 3]), "x")
    y = xla.Transpose(x, [1, 0])
    assert y.shape() == S("F32", [3, 2]) and y.builder() is b
    t = xla.Tuple([x, y])
    assert t.shape().is_tuple() and xla.GetTupleElement(t, 1).shape() == y.shape()


def test_reshape_forms_and_collapse_shapes():
    b = xla.XlaBuilder("reshape")
    v = xla.Parameter(b, 0, S("F32", [4, 2, 3]), "v")
    assert xla.Reshape(v, [8, 3]).shape() == S("F32", [8, 3])
    assert xla.Reshape(v, [1, 2, 0], [2, 6, 2]).shape() == S("F32", [2, 6, 2])
    assert xla.Reshape(S("F32", [24]), v).shape() == S("F32", [24])
    assert xla.Collapse(v, [0, 1]).shape() == S("F32", [8, 3])
    assert xla.Collapse(v, [1, 2]).shape() == S("F32", [4, 6])


def test_ops_without_a_runtime_still_build_and_verify():
    b = xla.XlaBuilder("effects")
    x = xla.Parameter(b, 0, S("F32", [4, 2]), "x")
    token = xla.AfterAll(b, [xla.CreateToken(b)])
    fed = xla.Infeed(b, S("F32", [2]), "")
    xla.Outfeed(x, S("F32", [4, 2]), "")
    xla.Send(x, 1)
    got = xla.Recv(b, S("F32", [4, 2]), xla.ChannelHandle(2))
    call = xla.CustomCall(b, "my_target", [x], S("F32", [4, 2]), "opaque", True)
    gathered = xla.AllGather(x, 0, 2)
    summed = xla.CrossReplicaSum(x)
    permuted = xla.CollectivePermute(x, [(0, 1), (1, 0)])
    ids = xla.Tuple([xla.ReplicaId(b), xla.PartitionID(b)])
    comp = b.build(xla.Tuple([token, fed, got, call, gathered, summed, permuted, ids]))
    text = comp.as_text()
    for op in ("stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
               "stablehlo.custom_call @my_target", "stablehlo.all_gather",
               "stablehlo.all_reduce", "stablehlo.collective_permute", "stablehlo.replica_id"):
        assert op in text
    assert comp.program_shape().result_shape().tuple_shapes()[4] == S("F32", [8, 2])


# --- sub-computations and a compiled tuple root ------------------------------------------------

def _adder(dims=()) -> xla.XlaComputation:
    b = xla.XlaBuilder("add")
    xla.Add(xla.Parameter(b, 0, S("F32", dims), "a"), xla.Parameter(b, 1, S("F32", dims), "b"))
    return b.build()


def _state_cond() -> xla.XlaComputation:
    b = xla.XlaBuilder("cond")
    s = xla.Parameter(b, 0, xla.Shape.tuple_shape([S("S32", []), S("F32", [3])]), "s")
    xla.Lt(xla.GetTupleElement(s, 0), xla.Constant(b, 4))
    return b.build()


@pytest.fixture(scope="module")
def mechanics():
    """One module, compiled once: parameters given out of order, a tuple parameter, an
    XlaComputation reducer, callables (Map, While body, Conditional branches), Call of a
    computation, and a tuple root."""
    add = _adder()
    b = xla.XlaBuilder("mechanics")
    pair = xla.Parameter(b, 1, xla.Shape.tuple_shape([S("F32", [3]), S("S32", [])]), "pair")
    m = xla.Parameter(b, 0, S("F32", [2, 3]), "m")
    v, k = xla.GetTupleElement(pair, 0), xla.GetTupleElement(pair, 1)
    row_sums = xla.Reduce(m, xla.Constant(b, 0.0), add, [1])
    mapped = xla.Map([m, xla.Broadcast(v, [2])], lambda p, q: xla.Mul(p, xla.Sub(q, p)), [0, 1])
    state = xla.While(_state_cond(),
                      lambda s: xla.Tuple([xla.Add(xla.GetTupleElement(s, 0),
                                                   xla.Constant(s.builder(), 1)),
                                           xla.Mul(xla.GetTupleElement(s, 1),
                                                   xla.Constant(s.builder(), 2.0))]),
                      xla.Tuple([xla.Constant(b, 0), v]))
    branch = xla.Conditional(k, [lambda x: xla.Neg(x), lambda x: xla.Exp(x)], [v, v])
    called = xla.Call(_adder([3]), [xla.GetTupleElement(state, 1), v])
    comp = b.build(xla.Tuple([row_sums, mapped, state, branch, called]))
    return comp, shlo.compile(comp.module, target="cpu")


def test_tuple_root_compiles_to_a_tuple_of_arrays(mechanics):
    comp, exe = mechanics
    rng = np.random.default_rng(0)
    m = rng.standard_normal((2, 3)).astype(np.float32)
    v = rng.standard_normal(3).astype(np.float32)
    for k in (0, 1, 5):
        out = exe(m, v, np.int32(k))
        assert isinstance(out, tuple) and len(out) == 6      # the nested state tuple flattens
        np.testing.assert_allclose(out[0], m.sum(axis=1), rtol=1e-6)
        np.testing.assert_allclose(out[1], m * (v[None, :] - m), rtol=1e-6)
        assert out[2] == 4
        np.testing.assert_allclose(out[3], v * 16, rtol=1e-6)
        np.testing.assert_allclose(out[4], -v if k == 0 else np.exp(v), rtol=1e-6)
        np.testing.assert_allclose(out[5], v * 17, rtol=1e-6)
    assert comp.program_shape().parameter_names() == ["m", "pair"]
    assert "func.call" not in comp.as_text()        # build() inlined the Call


# --- errors ------------------------------------------------------------------------------------

def _raises(match: str):
    return pytest.raises(xla.XlaError, match=match)


def test_error_family():
    assert issubclass(xla.XlaError, shlo.BuildError) and issubclass(xla.XlaError, shlo.Error)


def test_errors_name_the_op_and_the_rule():
    b = xla.XlaBuilder("errors")
    m = xla.Parameter(b, 0, S("F32", [2, 3]), "m")
    v = xla.Parameter(b, 1, S("F32", [3]), "v")
    with _raises(r"^Add: lhs f32\[2,3\] and rhs f32\[3\] have different ranks .*seed: "):
        xla.Add(m, v)
    with _raises(r"^Collapse: dimensions \[0, 2\] .*consecutive, in-order"):
        xla.Collapse(m, [0, 2])
    with _raises(r"^Reshape: cannot reshape f32\[2,3\] \(6 elements\) to \[4\]"):
        xla.Reshape(m, [4])
    with _raises(r"^GetTupleElement: index 2 is out of range for a 2-tuple"):
        xla.GetTupleElement(xla.Tuple([m, v]), 2)
    with _raises(r"^Slice: slice: "):             # a dialect check, prefixed with the XLA op
        xla.Slice(m, [0, 0], [3, 3], [1, 1])
    with _raises(r"^Conditional: predicate must be PRED\[\]"):
        xla.Conditional(v, v, xla.Neg, v, xla.Neg)
    with _raises(r"^Pad: dimension 0 of size 2 padded by \(-3, 0, 0\)"):
        xla.Pad(m, xla.Constant(b, 0.0), [(-3, 0, 0), (0, 0, 0)])


def test_errors_for_sub_computations():
    b = xla.XlaBuilder("subs")
    m = xla.Parameter(b, 0, S("F32", [2, 3]), "m")
    zero = xla.Constant(b, 0.0)
    with _raises(r"^Reduce: the computation 'add' takes 2 parameters but Reduce passes 4"):
        xla.Reduce([m, m], [zero, zero], _adder(), [0])
    with _raises(r"^Reduce: the computation '<lambda>' cannot take 2 parameters"):
        xla.Reduce(m, zero, lambda a: a, [0])
    ib = xla.XlaBuilder("iadd")
    xla.Add(xla.Parameter(ib, 0, S("S32", []), "a"), xla.Parameter(ib, 1, S("S32", []), "b"))
    with _raises(r"^Reduce: parameter 0 of computation 'iadd' has shape s32\[\] but Reduce "
                 r"passes f32\[\]"):
        xla.Reduce(m, zero, ib.build(), [0])
    with _raises(r"^Reduce: the computation returned an XlaOp of <XlaBuilder 'subs'>"):
        xla.Reduce(m, zero, lambda a, c: m, [0])


def test_errors_for_builders_and_parameters():
    b1, b2 = xla.XlaBuilder("one"), xla.XlaBuilder("two")
    x = xla.Parameter(b1, 0, S("F32", []), "x")
    y = xla.Parameter(b2, 0, S("F32", []), "y")
    with _raises(r"^Add: operands come from different builders \('one' and 'two'\)"):
        xla.Add(x, y)
    with _raises(r"^Parameter: parameter number 0 is already used by x"):
        xla.Parameter(b1, 0, S("F32", []), "again")
    with _raises(r"^Add: operand 1 must be an XlaOp, got ndarray"):
        xla.Add(x, np.float32(1) * np.ones(1))
    xla.Parameter(b1, 2, S("F32", []), "z")
    with _raises(r"^build: parameter numbers \[0, 2\] must be 0\.\.1 with no gaps"):
        b1.build()
    b2.build()
    with _raises(r"^build: XlaBuilder 'two' is already built"):
        b2.build()
    with _raises(r"^Neg: XlaBuilder 'two' is already built"):
        xla.Neg(y)
    with _raises(r"^build: XlaBuilder 'empty' has no operations"):
        xla.XlaBuilder("empty").build()


def test_temporary_computations_each_keep_their_own_body():
    """A computation used once and dropped must not lend its symbol to a later one that
    Python happens to allocate at the same address (the builder keys copies by identity)."""
    import gc
    import weakref
    b = xla.XlaBuilder("temps")
    x = xla.Parameter(b, 0, S("F32", [2]), "x")
    outs, copied = [], []
    for k in range(8):
        plus = xla.XlaBuilder("plus")
        xla.Add(xla.Parameter(plus, 0, S("F32", [2]), "p"), xla.Constant(plus, np.float32(k)))
        computation = plus.build()
        outs.append(xla.Call(b, computation, [x]))
        copied.append(weakref.ref(computation))
        del plus, computation
        gc.collect()
    # the builder keeps what it copied alive, so no later computation can share its id
    assert all(ref() is not None for ref in copied)
    got = shlo.compile(b.build(xla.Tuple(outs)).module, target="cpu")(np.array([1, 2], np.float32))
    for k, value in enumerate(got):
        np.testing.assert_array_equal(value, np.array([1, 2], np.float32) + k)
