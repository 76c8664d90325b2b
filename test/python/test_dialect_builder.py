"""The generic builder: calling conventions, locations, insertion points, regions, results,
errors that leave no op behind, and the table -> builder derivation."""
import inspect

import numpy as np
import pytest
from iree.compiler import ir
from iree.compiler.dialects import func

import shlo
from shlo.dialect import (ArgumentError, ConstraintError, VerifierError, chlo, stablehlo,
                          tensor_type)
from shlo.dialect import attributes
from shlo.dialect.opdef import Attr, Check, OpDef, Operand, builder

CTX = shlo.context()
OTHER = shlo.context()


@pytest.fixture
def fn():
    """(block, args) of a fresh function f(tensor<2x3xf32>, tensor<2x3xf32>) under ctx + loc."""
    with CTX, ir.Location.unknown():
        module = ir.Module.create()
        t = tensor_type([2, 3], np.float32)
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ([t, t], []))
        block = f.add_entry_block()
        with ir.InsertionPoint(block):
            yield block, list(block.arguments)


def test_builder_functions_are_derived_from_the_tables():
    # 107 ops of the spec (with async_start/async_done and collective_reduce), return, the
    # 9 deprecated-but-valid ops; the 51 CHLO ops. Every one is registered in the wheel.
    assert len(stablehlo.OPS) == len(stablehlo.__all__) == 118
    assert len(chlo.OPS) == len(chlo.__all__) == 51
    assert all(CTX.is_registered_operation(op.name) for op in (*stablehlo.OPS, *chlo.OPS))
    for name in ("and_", "or_", "not_", "return_", "dot_general", "broadcast_in_dim", "if_",
                 "while_", "cross_replica_sum"):
        assert callable(getattr(stablehlo, name))
    assert chlo.asin_acos_kernel.opdef.name == "chlo._asin_acos_kernel"
    sig = inspect.signature(stablehlo.dot_general)
    assert list(sig.parameters)[:2] == ["lhs", "rhs"]
    assert sig.parameters["lhs_contracting_dimensions"].kind == inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["loc"].default is None and sig.parameters["ip"].default is None
    assert "result_type" not in inspect.signature(stablehlo.return_).parameters
    assert inspect.signature(stablehlo.iota).parameters["result_type"].default is \
        inspect.Parameter.empty
    assert "(C10)" not in stablehlo.dot_general.__doc__ and "C10" in stablehlo.dot_general.__doc__
    assert stablehlo.reduce.opdef.name == "stablehlo.reduce"


def test_values_and_single_result_ops_are_accepted(fn):
    _, (a, b) = fn
    s = stablehlo.add(a, b)
    assert isinstance(s, ir.Value) and str(s.type) == "tensor<2x3xf32>"
    assert str(stablehlo.negate(s.owner).type) == "tensor<2x3xf32>"   # an op with one result
    assert str(stablehlo.add(lhs=a, rhs=b).type) == "tensor<2x3xf32>"


def test_multi_result_ops_return_a_tuple(fn):
    _, (a, b) = fn
    zero = stablehlo.constant(np.float32(0))
    r = stablehlo.reduce([a, b], [zero, zero], dimensions=[0],
                         body=lambda x, y, xa, ya: (stablehlo.add(x, xa),
                                                    stablehlo.add(y, ya)))
    assert isinstance(r, tuple) and [str(v.type) for v in r] == ["tensor<3xf32>"] * 2


def test_explicit_loc_and_ip(fn):
    block, (a, b) = fn
    loc = ir.Location.file("model.py", 12, 4)
    first = stablehlo.add(a, b, loc=loc)
    second = stablehlo.multiply(a, b, ip=ir.InsertionPoint.at_block_begin(block))
    ops = list(block.operations)
    assert ops[0].name == "stablehlo.multiply" and second.owner.name == "stablehlo.multiply"
    assert str(first.owner.location) == 'loc("model.py":12:4)'


def test_errors_name_the_source_location(fn):
    _, (a, b) = fn
    loc = ir.Location.file("model.py", 7, 3)
    with pytest.raises(ConstraintError) as e:
        stablehlo.transpose(a, permutation=[0, 2], loc=loc)
    assert str(e.value).startswith("model.py:7:3: transpose: permutation [0, 2]")
    assert e.value.location == "model.py:7:3" and e.value.constraint == "C2"
    assert isinstance(e.value, shlo.BuildError) and isinstance(e.value, shlo.Error)


@pytest.mark.parametrize("call,message", [
    (lambda a, b: stablehlo.add(a), "missing a required argument: 'rhs'"),
    (lambda a, b: stablehlo.add(a, b, a), "too many positional arguments"),
    (lambda a, b: stablehlo.add(a, b, dimension=1), "unexpected keyword argument 'dimension'"),
    (lambda a, b: stablehlo.transpose(a), "missing a required argument: 'permutation'"),
    (lambda a, b: stablehlo.iota(iota_dimension=0), "missing a required argument: 'result_type'"),
    (lambda a, b: stablehlo.return_([a], result_type=a.type), "unexpected keyword argument"),
    (lambda a, b: stablehlo.add(a, b, loc="here"), "loc must be an ir.Location"),
    (lambda a, b: stablehlo.add(a, b, ip=3), "ip must be an ir.InsertionPoint"),
])
@pytest.mark.every_case
def test_argument_errors(fn, call, message):
    _, (a, b) = fn
    with pytest.raises(ArgumentError, match=message):
        call(a, b)


def _two_results(a, b):
    zero = stablehlo.constant(np.float32(0))
    return stablehlo.reduce([a, b], [zero, zero], dimensions=[0],
                            body=lambda x, y, xa, ya: (stablehlo.add(x, xa),
                                                       stablehlo.add(y, ya)))[0]


@pytest.mark.parametrize("call,cid,message", [
    (lambda a, b: stablehlo.add(a, [b]), "I2", "rhs must be an ir.Value, got list"),
    (lambda a, b: stablehlo.add(a, 1.0), "I2", "rhs must be an ir.Value, got float"),
    (lambda a, b: stablehlo.negate(a, result_type="tensor<2x3xf32>"), "O1",
     "result_type must be an ir.Type"),
    (lambda a, b: stablehlo.negate(a, result_type=ir.F32Type.get()), "O1",
     "must be a ranked tensor type"),
    (lambda a, b: stablehlo.negate(a, result_type=tensor_type([2], np.float32)), "C1",
     "does not match the inferred type tensor<2x3xf32>"),
    (lambda a, b: stablehlo.add(_two_results(a, b).owner, b), "I1",
     "lhs must be a value, got an op with 2 results"),
])
@pytest.mark.every_case
def test_operand_and_result_type_errors(fn, call, cid, message):
    _, (a, b) = fn
    with pytest.raises(ConstraintError) as e:
        call(a, b)
    assert e.value.constraint == cid and message in str(e.value)


def test_operands_from_another_context_are_rejected(fn):
    block, (a, b) = fn
    with OTHER, ir.Location.unknown():
        m = ir.Module.create()
        t = tensor_type([2, 3], np.float32)
        with ir.InsertionPoint(m.body):
            g = func.FuncOp("g", ([t], []))
        foreign = g.add_entry_block().arguments[0]
    with pytest.raises(ConstraintError, match="another MLIR context"):
        stablehlo.add(a, foreign)
    with pytest.raises(ConstraintError, match="another MLIR context"):
        stablehlo.negate(a, result_type=t)
    with OTHER, ir.Location.unknown():
        with pytest.raises(ArgumentError, match="another MLIR context"):
            stablehlo.iota(iota_dimension=0, result_type=t, ip=ir.InsertionPoint(block))


def test_no_context_or_insertion_point():
    with pytest.raises(ArgumentError, match="no MLIR context"):
        stablehlo.constant(np.float32(1))
    with CTX, ir.Location.unknown():
        with pytest.raises(ArgumentError, match="no insertion point"):
            stablehlo.constant(np.float32(1))
    with CTX:   # a context but no location: the builder uses an unknown location
        m = ir.Module.create(loc=ir.Location.unknown())
        with ir.InsertionPoint(m.body):
            v = stablehlo.constant(np.float32(1))
        assert str(v.owner.location) == "loc(unknown)"


def test_region_errors_leave_no_op_behind(fn):
    block, (a, b) = fn
    zero = stablehlo.constant(np.float32(0))
    n = len(block.operations)

    def body(x, y):
        stablehlo.add(x, y)
        raise RuntimeError("user bug")

    with pytest.raises(RuntimeError, match="user bug"):
        stablehlo.reduce([a], [zero], dimensions=[0], body=body)
    with pytest.raises(ConstraintError, match=r"\(C6\)"):
        stablehlo.reduce([a], [zero], dimensions=[0], body=lambda x, y: a)
    with pytest.raises(ConstraintError, match=r"^add: .*\(C1\)$"):   # a nested builder error
        stablehlo.reduce([a], [zero], dimensions=[0], body=lambda x, y: stablehlo.add(x, a))
    assert len(block.operations) == n
    func.ReturnOp([])
    assert block.owner.verify()


def test_body_may_end_with_return(fn):
    block, (a, b) = fn
    zero = stablehlo.constant(np.float32(0))
    r = stablehlo.reduce([a], [zero], dimensions=[1],
                         body=lambda x, y: stablehlo.return_([stablehlo.maximum(x, y)]))
    body = r.owner.regions[0].blocks[0]
    assert [op.name for op in body.operations] == ["stablehlo.maximum", "stablehlo.return"]


def test_verifier_is_the_last_safety_net(fn):
    block, (a, b) = fn
    n = len(block.operations)
    with pytest.raises(VerifierError, match="reshape: rejected by the MLIR verifier"):
        stablehlo.reshape(a, result_type=tensor_type([None], np.float32))
    assert len(block.operations) == n


def test_a_new_op_is_one_table_entry(fn):
    """How to add an op: declare it; the builder, checks and inference follow."""
    _, (a, b) = fn
    maximum = OpDef("stablehlo.maximum", [Operand("lhs"), Operand("rhs"),
                                           Attr("scale", attributes.I64, default=None)],
                    checks=[Check("C1", lambda b: b.lhs != b.rhs and "types differ")],
                    infer=lambda b: b.lhs, encode=lambda b: {})
    build = builder(maximum, "my_max")
    assert build.__name__ == "my_max"
    assert str(build(a, b).type) == "tensor<2x3xf32>"
    with pytest.raises(ConstraintError, match=r"^maximum: types differ \(C1\)$"):
        build(a, stablehlo.transpose(b, permutation=[1, 0]))


def test_chlo_builders(fn):
    _, (a, b) = fn
    v = chlo.broadcast_compare(a, b, comparison_direction="lt")
    assert str(v.type) == "tensor<2x3xi1>"
    assert "comparison_direction = #chlo<comparison_direction LT>" in str(v.owner)
    assert str(chlo.lgamma(a).type) == "tensor<2x3xf32>"


def test_multi_result_type_is_checked(fn):
    _, (a, b) = fn
    zero = stablehlo.constant(np.float32(0))
    izero = stablehlo.constant(np.int32(0))
    i = stablehlo.convert(b, result_type=tensor_type([2, 3], np.int32))

    def reduce(**kw):
        return stablehlo.reduce([a, i], [zero, izero], dimensions=[1],
                                body=lambda x, y, xa, ya: (stablehlo.add(x, xa),
                                                           stablehlo.add(y, ya)), **kw)

    good = [tensor_type([2], np.float32), tensor_type([2], np.int32)]
    assert [v.type for v in reduce(result_type=good)] == good
    for wrong, cid in [([good[0]], "C7"), ([good[0], tensor_type([3], np.int32)], "C7"),
                       ([good[0], tensor_type([2], np.int64)], "C8")]:
        with pytest.raises(ConstraintError) as e:
            reduce(result_type=wrong)
        assert e.value.constraint == cid


def test_explicit_loc_and_ip_without_context_managers():
    with CTX, ir.Location.unknown():
        module = ir.Module.create()
        t = tensor_type([2], np.float32)
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ([t, t], []))
        block = f.add_entry_block()
    a, b = block.arguments
    loc, ip = ir.Location.unknown(CTX), ir.InsertionPoint(block)
    v = stablehlo.compare(a, b, comparison_direction="LT", loc=loc, ip=ip)
    w = chlo.broadcast_complex(a, b, loc=loc, ip=ip)
    assert str(v.type) == "tensor<2xi1>" and str(w.type) == "tensor<2xcomplex<f32>>"


def test_results_from_regions_keep_the_insertion_order(fn):
    """if/case build their regions first (in a provisional op) and then the op itself, at the
    insertion point: the op lands where it was asked for, with the moved bodies."""
    block, (a, b) = fn
    first = stablehlo.negate(a)
    pred = stablehlo.compare(a, b, comparison_direction="LT")
    scalar = stablehlo.reduce([pred], [stablehlo.constant(np.bool_(True))], dimensions=[0, 1],
                              body=lambda x, y: stablehlo.and_(x, y))
    r = stablehlo.if_(scalar, true_branch=lambda: first, false_branch=lambda: stablehlo.abs(b))
    last = stablehlo.add(r, first)
    names = [op.name for op in block.operations]
    assert names[-2:] == ["stablehlo.if", "stablehlo.add"] and names.count("stablehlo.if") == 1
    assert [op.name for op in r.owner.regions[1].blocks[0].operations] == [
        "stablehlo.abs", "stablehlo.return"]
    assert last.owner.verify()


def test_failed_region_ops_leave_nothing_behind(fn):
    block, (a, b) = fn
    i = stablehlo.constant(np.int32(0))
    n = len(block.operations)
    with pytest.raises(ConstraintError, match=r"^case: branches\[0\] returns .*\(C3\)$"):
        stablehlo.case(i, branches=[lambda: a, lambda: stablehlo.convert(
            a, result_type=tensor_type([2, 3], np.int32))])
    assert len(block.operations) == n


def test_optional_operand_and_rebuild(fn):
    """collective_broadcast's optional `root` becomes has_dynamic_root; rebuild() decodes the
    op back into the same builder call."""
    from shlo.dialect import rebuild
    block, (a, b) = fn
    root = stablehlo.constant(np.array([0, 1], np.int32))
    r = stablehlo.collective_broadcast([a, b], replica_groups=[[0, 1]], root=root)
    assert "has_dynamic_root" in str(r[0].owner)
    args, kwargs = rebuild.arguments(r[0].owner)
    assert args == [[a, b]] and kwargs["root"] == root and kwargs["replica_groups"].tolist() == \
        [[0, 1]]
    again = rebuild.rebuild(r[0].owner)
    assert [v.type for v in again] == [v.type for v in r]
    assert "has_dynamic_root" in str(again[0].owner) and again[0].owner.operands[2] == root


def test_rebuild_clones_regions(fn):
    from shlo.dialect import rebuild
    block, (a, b) = fn
    zero = stablehlo.constant(np.float32(0))
    r = stablehlo.reduce([a], [zero], dimensions=[1],
                         body=lambda x, y: stablehlo.maximum(x, stablehlo.negate(y)))
    again = rebuild.rebuild(r.owner, ip=ir.InsertionPoint(block))
    assert again.type == r.type
    body = again.owner.regions[0].blocks[0]
    assert [op.name for op in body.operations] == ["stablehlo.negate", "stablehlo.maximum",
                                                   "stablehlo.return"]
    assert again.owner.verify()
    with pytest.raises(ArgumentError, match="has no shlo builder"):
        rebuild.arguments(block.owner)


def test_quantized_operands_are_rejected_where_not_supported(fn):
    block, (a, b) = fn
    qt = tensor_type([2, 3], shlo.dialect.types.quant_type("int8", "float32", 0.5))
    x = stablehlo.uniform_quantize(a, result_type=qt)
    with pytest.raises(ConstraintError, match=r"^cosine: operand is a quantized tensor .*\(I1\)$"):
        stablehlo.cosine(x)
    assert str(stablehlo.uniform_dequantize(x).type) == "tensor<2x3xf32>"
