"""XlaBuilder control flow and tuples (Call, CompositeCall, Conditional in its predicate and
branch-index forms incl. the out-of-range default branch, While with a tuple state, Tuple,
GetTupleElement, OptimizationBarrier) on CPU and Vulkan, sub-computations given both as
XlaComputations and as Python callables.
"""
import numpy as np

from shlo import xla
from xla_suite import Case, Suite, build_error, numeric_test, rng, scalar_shape

R = rng(3)
F32, I32 = np.float32, np.int32
VEC = R.standard_normal(10).astype(F32)


def computation(name, shapes, body):
    """An XlaComputation of `body(builder, *params)` built by its own XlaBuilder."""
    b = xla.XlaBuilder(name)
    ps = [xla.Parameter(b, i, s, f"p{i}") for i, s in enumerate(shapes)]
    return b.build(body(b, *ps))


VEC_SHAPE = xla.Shape.array_shape(F32, [10])
STATE = xla.Shape.tuple_shape([scalar_shape(I32), VEC_SHAPE])
MUL_ADD = computation("mul_add", [VEC_SHAPE, VEC_SHAPE],
                      lambda b, x, y: xla.Add(xla.Mul(x, y), xla.Constant(b, F32(1))))
NEGATE = computation("negate", [VEC_SHAPE], lambda b, x: xla.Neg(x))
# the seed's While example: (counter, vector) += (1, constant vector) while counter < 1000
WHILE_COND = computation("cond", [STATE], lambda b, t: xla.Lt(
    xla.GetTupleElement(t, 0), xla.Constant(b, I32(1000))))
WHILE_BODY = computation("body", [STATE], lambda b, t: xla.Tuple([
    xla.Add(xla.GetTupleElement(t, 0), xla.Constant(b, I32(1))),
    xla.Add(xla.GetTupleElement(t, 1), xla.Constant(b, np.full(10, 0.125, F32)))]))


def branch(k):
    return computation(f"branch{k}", [VEC_SHAPE], lambda b, x: xla.Mul(
        x, xla.Constant(b, F32(k + 2))))


BRANCHES = [branch(0), branch(1), branch(2)]


def index_case(name, index):
    return Case(name, (I32(index), VEC, VEC * 2, VEC * 3),
                lambda b, i, x, y, z: xla.Conditional(i, BRANCHES, [x, y, z]),
                lambda i, x, y, z: [x * 2, y * 3, z * 4][i if 0 <= i < 3 else 2])


def predicate_case(name, value):
    return Case(name, (np.array(value), VEC, -VEC),
                lambda b, p, x, y: xla.Conditional(p, x, MUL_ADD_ONE, y, NEGATE),
                lambda p, x, y: x * x + 1 if p else -y)


MUL_ADD_ONE = computation("square_plus_one", [VEC_SHAPE], lambda b, x: xla.Add(
    xla.Mul(x, x), xla.Constant(b, F32(1))))


def while_build(b, start, vec):
    state = xla.While(WHILE_COND, WHILE_BODY, xla.Tuple([start, vec]))
    return [xla.GetTupleElement(state, 0), xla.GetTupleElement(state, 1)]


def while_callables(b, n, x):
    """While with Python callables: double x until the counter reaches n (carried in state)."""
    def cond(t):
        return xla.Lt(xla.GetTupleElement(t, 0), xla.GetTupleElement(t, 1))

    def body(t):
        return xla.Tuple([xla.Add(xla.GetTupleElement(t, 0), xla.Constant(t.builder(), I32(1))),
                          xla.GetTupleElement(t, 1),
                          xla.Mul(xla.GetTupleElement(t, 2), xla.Constant(t.builder(), F32(2)))])
    state = xla.While(cond, body, xla.Tuple([xla.Constant(b, I32(0)), n, x]))
    return xla.GetTupleElement(state, 2)


CASES = [
    Case("call_computation", (VEC, VEC + 1), lambda b, x, y: xla.Call(MUL_ADD, [x, y]),
         lambda x, y: x * y + 1),
    Case("call_callable", (VEC, VEC - 1),
         lambda b, x, y: xla.Call(lambda p, q: xla.Sub(p, xla.Mul(q, q)), [x, y]),
         lambda x, y: x - y * y),
    Case("composite_call", (VEC, VEC * 3),
         lambda b, x, y: xla.CompositeCall(MUL_ADD, [x, y], "shlo.mul_add",
                                           "{n = 1 : i32}", 1),
         lambda x, y: x * y + 1),
    predicate_case("conditional_predicate_true", True),
    predicate_case("conditional_predicate_false", False),
    index_case("conditional_index_1", 1),
    index_case("conditional_index_0", 0),
    index_case("conditional_index_out_of_range_runs_last", 7),
    index_case("conditional_index_negative_runs_last", -1),
    Case("while_seed_example", (I32(0), np.zeros(10, F32)), while_build,
         lambda s, v: [np.asarray(1000, I32), v + np.float32(0.125) * 1000]),
    Case("while_callables", (I32(5), VEC), while_callables, lambda n, x: x * 32),
    Case("while_zero_trips", (I32(0), VEC), while_callables, lambda n, x: x),
    Case("tuple_get_tuple_element", (VEC, I32(5)),
         lambda b, v, s: [xla.GetTupleElement(xla.Tuple([v, s]), 1),
                          xla.GetTupleElement(xla.Tuple([v, s]), 0)],
         lambda v, s: [s, v]),
    Case("nested_tuple", (VEC, I32(5)),
         lambda b, v, s: xla.GetTupleElement(xla.GetTupleElement(
             xla.Tuple([s, xla.Tuple([s, v])]), 1), 1), lambda v, s: v),
    Case("optimization_barrier", (VEC, I32(3)),
         lambda b, v, s: [xla.GetTupleElement(xla.OptimizationBarrier(xla.Tuple([v, s])), i)
                          for i in (0, 1)], lambda v, s: [v, s]),
    Case("optimization_barrier_array", (VEC,),
         lambda b, v: xla.Add(xla.OptimizationBarrier(v), v), lambda v: v + v),
]

SUITE = Suite("control", CASES)
test_control_flow = numeric_test(SUITE)


def test_composite_call_keeps_name_and_version():
    b = xla.XlaBuilder("composite")
    x = xla.Parameter(b, 0, VEC_SHAPE, "x")
    xla.CompositeCall(MUL_ADD, [x, x], "shlo.mul_add", "{n = 1 : i32}", 3)
    text = b.build().as_text()
    assert "stablehlo.composite" in text and '"shlo.mul_add"' in text, text
    assert "version = 3" in text, text


def test_call_with_wrong_arity_raises():
    error = build_error([(F32, [10])], lambda b, x: xla.Call(MUL_ADD, [x]))
    assert "call" in str(error).lower()


def test_conditional_branches_of_different_result_types_raise():
    to_scalar = computation("to_scalar", [VEC_SHAPE], lambda bb, v: xla.Reduce(
        v, xla.Constant(bb, F32(0)), lambda s, t: xla.Add(s, t), [0]))
    build_error([(np.bool_, []), (F32, [10])],
                lambda b, p, x: xla.Conditional(p, x, NEGATE, x, to_scalar))


def test_while_condition_must_return_pred():
    build_error([(F32, [10])], lambda b, x: xla.While(NEGATE, NEGATE, x))
