"""Case tables for the StableHLO ops beyond the first batch (data movement, gather/scatter,
windows, convolution, control flow, distribution, dynamism, quantization, extensibility,
miscellaneous): POSITIVE (op, argument types, fn(*args, **kw)) and NEGATIVE (op, constraint id,
argument types, fn, message part). test_dialect_ops.py runs them; the tests here check the
attribute kinds' encode/decode round trips."""
import numpy as np
import pytest
from iree.compiler import ir
from iree.compiler.dialects import func

from shlo.dialect import attributes as A
from shlo.dialect import stablehlo as S
from shlo.dialect import types as T
from test_dialect_support import CTX, cst, ty

R = ty
F23, F32_, I23 = "tensor<2x3xf32>", "tensor<3x2xf32>", "tensor<2x3xi32>"
TOKEN = "!stablehlo.token"


def rt(kw, default: str):
    """The case's result_type: the test's override, else `default`."""
    return kw.pop("result_type", ty(default))


def i32(v):
    return cst(v, np.int32)


def i64(v):
    return cst(v, np.int64)


def add_body(x, y):
    return S.add(x, y)


def with_processes(value, replicas: int, partitions: int = 1):
    """Give the module holding `value`'s function mhlo.num_replicas / num_partitions."""
    module = value.owner.owner.parent
    with CTX:
        module.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), replicas)
        module.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), partitions)
    return value


GATHER = dict(offset_dims=[2, 3], collapsed_slice_dims=[0], start_index_map=[1, 0],
              index_vector_dim=2, slice_sizes=[1, 2, 2])
GATHER_T = ["tensor<3x4x2xi64>", "tensor<2x3x2xi64>"]
BATCHED = dict(offset_dims=[3, 4], collapsed_slice_dims=[1], operand_batching_dims=[0],
               start_indices_batching_dims=[1], start_index_map=[2, 1], index_vector_dim=3,
               slice_sizes=[1, 1, 2, 2])
BATCHED_T = ["tensor<2x3x4x2xi64>", "tensor<2x2x3x2xi64>"]
SCATTER = dict(update_window_dims=[2, 3], inserted_window_dims=[0],
               scatter_dims_to_operand_dims=[1, 0], index_vector_dim=2)
SCATTER_T = ["tensor<3x4x2xi64>", "tensor<2x3x2xi64>", "tensor<2x3x2x2xi64>"]
CONV = dict(input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=[1, 2],
            kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
            kernel_spatial_dimensions=[0, 1], output_batch_dimension=0,
            output_feature_dimension=3, output_spatial_dimensions=[1, 2])
CONV_T = ["tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>"]
RW = dict(window_dimensions=[2, 1], window_strides=[4, 1], base_dilations=[2, 1],
          window_dilations=[3, 1], padding=[[2, 1], [0, 0]])
GROUPS = [[0, 1]]


def gather(a, i, **kw):
    return S.gather(a, i, **{**GATHER, **kw})


def scatter(a, i, u, **kw):
    return S.scatter([a], i, [u], **{**SCATTER, "update_computation": add_body, **kw})


def conv(a, k, **kw):
    return S.convolution(a, k, **{**CONV, **kw})


def dconv(a, k, **kw):
    pad = kw.pop("pad", None)
    return S.dynamic_conv(a, k, pad if pad is not None else i64([[0, 0], [0, 0]]),
                          **{**CONV, **kw})


def reduce_window(a, **kw):
    return S.reduce_window([a], [cst(0)], **{**RW, "body": add_body, **kw})


def sas(a, s, **kw):
    args = dict(window_dimensions=[3, 1], window_strides=[2, 1], padding=[[0, 1], [0, 0]],
                select=lambda x, y: S.compare(x, y, comparison_direction="GE"),
                scatter=add_body)
    return S.select_and_scatter(a, s, cst(0), **{**args, **kw})


def _decomposition(arg_types, results, name="decomp"):
    """Define func @name(arg_types) -> results next to the function being built."""
    def define(first_value):
        module = first_value.owner.owner.parent
        with CTX, ir.Location.unknown(), ir.InsertionPoint(module.regions[0].blocks[0]):
            f = func.FuncOp(name, ([ty(t) for t in arg_types], [ty(t) for t in results]))
            f.sym_visibility = ir.StringAttr.get("private")
            block = f.add_entry_block()
            with ir.InsertionPoint(block):
                func.ReturnOp(list(block.arguments)[:len(results)])
    return define


def composite(a, **kw):
    _decomposition([F23], [F23])(a)
    return S.composite([a], **{"name": "my.op", "decomposition": "decomp",
                               "composite_attributes": {"n": 2}, "version": 1, **kw})


def token():
    return S.after_all([])


Q8 = "!quant.uniform<i8:f32, 1.000000e-01:-3>"
QA = "!quant.uniform<i8:f32:1, {1.000000e-01:1,2.000000e-01:2,3.000000e-01:3}>"
QA2 = "!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20}>"
Q16 = "!quant.uniform<i16:f32, 1.000000e-01:-3>"
QF16 = "!quant.uniform<i8:f16, 1.000000e-01:-3>"
QR = "!quant.uniform<i8:f32, 5.000000e-01>"          # zero point 0: a contraction's rhs
Q32 = "!quant.uniform<i32:f32, 1.000000e+00>"


def qa(axis: int, n: int, storage: str = "i8", expressed: str = "f32", zp: int = 0) -> str:
    """A per-axis quantized element type with `n` scales along `axis`."""
    pairs = ",".join(f"{0.1 * (i + 1):.6e}:{zp}" for i in range(n))
    return f"!quant.uniform<{storage}:{expressed}:{axis}, {{{pairs}}}>"


QDOT = [f"tensor<2x3x{Q8}>", f"tensor<3x4x{QR}>"]
QCONV = [f"tensor<1x4x4x1x{Q8}>", f"tensor<3x3x1x1x{QR}>"]

POSITIVE = [
    # data movement
    ("stablehlo.dynamic_slice", [F23, "tensor<i32>"], lambda a, i, **kw: S.dynamic_slice(
        a, [i, i], slice_sizes=[1, 2], **kw)),
    ("stablehlo.dynamic_update_slice", [F23, "tensor<1x2xf32>", "tensor<i64>"],
     lambda a, u, i, **kw: S.dynamic_update_slice(a, u, [i, i], **kw)),
    ("stablehlo.reverse", [F23], lambda a, **kw: S.reverse(a, dimensions=[1, 0], **kw)),
    ("stablehlo.sort", [F23], lambda a, **kw: S.sort(
        [a], comparator=lambda x, y: S.compare(x, y, comparison_direction="GT"), **kw)),
    ("stablehlo.sort", [F23, I23], lambda a, b, **kw: S.sort(
        [a, b], dimension=0, is_stable=True,
        comparator=lambda x, y, p, q: S.compare(p, q, comparison_direction="LT"), **kw)),
    ("stablehlo.tuple", [F23, TOKEN], lambda a, t: S.tuple([a, t])),
    ("stablehlo.get_tuple_element", [F23, "tensor<i32>"], lambda a, i, **kw: S.get_tuple_element(
        S.tuple([a, i]), index=1, **kw)),
    ("stablehlo.broadcast", [F23], lambda a, **kw: S.broadcast(a, broadcast_sizes=[4], **kw)),
    ("stablehlo.torch_index_select", ["tensor<4x5x6xf32>", "tensor<4x3xi32>"],
     lambda a, i, **kw: S.torch_index_select(a, i, dim=1, batch_dims=1, **kw)),
    ("stablehlo.gather", GATHER_T, lambda a, i, **kw: gather(a, i, **kw)),
    ("stablehlo.gather", BATCHED_T, lambda a, i, **kw: S.gather(a, i, **BATCHED, **kw)),
    ("stablehlo.gather", ["tensor<5xf32>", "tensor<3xi32>"], lambda a, i, **kw: S.gather(
        a, i, offset_dims=[], collapsed_slice_dims=[0], start_index_map=[0], index_vector_dim=1,
        slice_sizes=[1], indices_are_sorted=True, **kw)),
    ("stablehlo.dynamic_gather", GATHER_T, lambda a, i, **kw: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2, **kw)),
    ("stablehlo.dynamic_gather", [*GATHER_T, "tensor<3xi64>"], lambda a, i, s, **kw:
        S.dynamic_gather(a, i, s, offset_dims=[2, 3], collapsed_slice_dims=[0],
                         start_index_map=[1, 0], index_vector_dim=2, **kw)),
    ("stablehlo.scatter", SCATTER_T, lambda a, i, u, **kw: scatter(a, i, u, **kw)),
    ("stablehlo.scatter", ["tensor<2x3x4x2xi64>", "tensor<2x2x3x2xi64>",
                           "tensor<2x2x3x2x2xi64>", "tensor<2x3x4x2xf32>",
                           "tensor<2x2x3x2x2xf32>"],
     lambda a, i, u, b, v, **kw: S.scatter(
         [a, b], i, [u, v], update_window_dims=[3, 4], inserted_window_dims=[1],
         input_batching_dims=[0], scatter_indices_batching_dims=[1],
         scatter_dims_to_operand_dims=[2, 1], index_vector_dim=3, unique_indices=True,
         update_computation=lambda x, y, p, q: (S.maximum(x, p), S.add(y, q)), **kw)),
    # reduction / windows / convolution / deprecated contractions
    ("stablehlo.reduce_window", ["tensor<3x2xf32>"], lambda a, **kw: reduce_window(a, **kw)),
    ("stablehlo.reduce_window", ["tensor<4x6xi32>", "tensor<4x6xf32>"], lambda a, b, **kw:
        S.reduce_window([a, b], [i32(0), cst(0)], window_dimensions=[2, 3],
                        body=lambda x, y, p, q: (S.add(x, p), S.maximum(y, q)), **kw)),
    ("stablehlo.select_and_scatter", ["tensor<4x2xf32>", "tensor<2x2xf32>"],
     lambda a, s, **kw: sas(a, s, **kw)),
    ("stablehlo.convolution", CONV_T, lambda a, k, **kw: conv(
        a, k, window_strides=[4, 4], lhs_dilation=[2, 2], **kw)),
    ("stablehlo.convolution", ["tensor<2x8x8x4xi8>", "tensor<3x3x2x6xi8>"],
     lambda a, k, **kw: conv(a, k, padding=[[1, 1], [0, 2]], rhs_dilation=[1, 2],
                             window_reversal=[False, True], feature_group_count=2,
                             precision_config=["HIGH", "DEFAULT"],
                             result_type=kw.pop("result_type", ty("tensor<2x8x6x6xi32>")),
                             **kw)),
    ("stablehlo.dynamic_conv", CONV_T, lambda a, k, **kw: dconv(
        a, k, window_strides=[4, 4], lhs_dilation=[2, 2], **kw)),
    ("stablehlo.dynamic_conv", [*CONV_T, "tensor<2x2xi64>"], lambda a, k, p, **kw: dconv(
        a, k, pad=p, **kw)),
    ("stablehlo.dot", ["tensor<3xf32>", "tensor<3x4xf32>"], lambda a, b, **kw: S.dot(a, b, **kw)),
    ("stablehlo.dot", [F23, "tensor<3xf32>"], lambda a, b, **kw: S.dot(
        a, b, precision_config=["HIGHEST", "HIGHEST"], **kw)),
    ("stablehlo.einsum", ["tensor<2x3xf32>", "tensor<3x4xf32>"], lambda a, b, **kw: S.einsum(
        a, b, einsum_config="ab,bc->ac", **kw)),
    ("stablehlo.einsum", ["tensor<5x2x3xf32>", "tensor<3x4xf32>"], lambda a, b, **kw:
        S.einsum(a, b, einsum_config="...ab,bc->...ca", **kw)),
    ("stablehlo.unary_einsum", ["tensor<2x3xf32>"], lambda a, **kw: S.unary_einsum(
        a, einsum_config="ab->ba", **kw)),
    # control flow
    ("stablehlo.if", ["tensor<i1>", F23], lambda p, a, **kw: S.if_(
        p, true_branch=lambda: S.negate(a), false_branch=lambda: a, **kw)),
    ("stablehlo.if", ["tensor<i1>"], lambda p: S.if_(p, true_branch=lambda: None,
                                                     false_branch=lambda: None)),
    ("stablehlo.case", ["tensor<i32>", F23], lambda i, a, **kw: S.case(
        i, branches=[lambda: a, lambda: S.negate(a), lambda: S.abs(a)], **kw)),
    ("stablehlo.while", ["tensor<i32>", F23], lambda n, a, **kw: S.while_(
        [n, a], cond=lambda i, x: S.compare(i, i32(10), comparison_direction="LT"),
        body=lambda i, x: (S.add(i, i32(1)), S.negate(x)), **kw)),
    ("stablehlo.map", [F23, I23], lambda a, b, **kw: S.map(
        [a, b], dimensions=[0, 1],
        computation=lambda x, y: S.add(x, S.convert(y, result_type=ty("tensor<f32>"))), **kw)),
    ("stablehlo.map", [F23], lambda a, **kw: S.map(
        [a], dimensions=[0, 1], computation=lambda x: S.compare(
            x, x, comparison_direction="EQ"), **kw)),
    ("stablehlo.optimization_barrier", [F23, TOKEN], lambda a, t, **kw: S.optimization_barrier(
        [a, t], **kw)),
    ("stablehlo.after_all", [TOKEN, TOKEN], lambda a, b: S.after_all([a, b])),
    ("stablehlo.create_token", [], lambda: S.create_token()),
    # distribution
    ("stablehlo.all_gather", [F23, I23], lambda a, b, **kw: S.all_gather(
        [a, b], all_gather_dim=1, replica_groups=[[0, 2], [1, 3]], **kw)),
    ("stablehlo.all_gather", [F23], lambda a, **kw: S.all_gather(
        [with_processes(a, 2, 2)], all_gather_dim=0, replica_groups=GROUPS, channel_id=1,
        **kw)),
    ("stablehlo.all_gather", [F23], lambda a, **kw: S.all_gather(
        [a], all_gather_dim=0, replica_groups=[[0, 1, 2, 3]], channel_id=1,
        use_global_device_ids=True, **kw)),
    ("stablehlo.all_reduce", [F23], lambda a, **kw: S.all_reduce(
        [a], replica_groups=GROUPS, channel_id=2, computation=add_body, **kw)),
    ("stablehlo.all_to_all", ["tensor<2x4xf32>"], lambda a, **kw: S.all_to_all(
        [a], split_dimension=1, concat_dimension=0, split_count=2, replica_groups=GROUPS, **kw)),
    ("stablehlo.collective_broadcast", [F23], lambda a, **kw: S.collective_broadcast(
        [a], replica_groups=[[1, 0]], **kw)),
    ("stablehlo.collective_broadcast", [F23, I23, "tensor<2xi32>"], lambda a, b, r, **kw:
        S.collective_broadcast([a, b], replica_groups=GROUPS, root=r, **kw)),
    ("stablehlo.collective_permute", [F23], lambda a, **kw: S.collective_permute(
        a, source_target_pairs=[[0, 1], [1, 0]], channel_id=1, **kw)),
    ("stablehlo.collective_reduce", [F23], lambda a, **kw: S.collective_reduce(
        [a], replica_groups=GROUPS, computation=add_body, **kw)),
    ("stablehlo.reduce_scatter", ["tensor<2x4xf32>"], lambda a, **kw: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=GROUPS, computation=add_body, **kw)),
    ("stablehlo.cross-replica-sum", [F23], lambda a, **kw: S.cross_replica_sum(
        a, replica_groups=GROUPS, **kw)),
    ("stablehlo.replica_id", [], lambda: S.replica_id()),
    ("stablehlo.partition_id", [], lambda: S.partition_id()),
    ("stablehlo.async_start", ["tensor<4x2xf32>"], lambda a, **kw: S.async_start(
        [a], body=lambda x: S.all_gather([x], all_gather_dim=1, replica_groups=GROUPS), **kw)),
    ("stablehlo.async_done", ["tensor<4x2xf32>"], lambda a, **kw: S.async_done(S.async_start(
        [a], body=lambda x: S.slice(x, start_indices=[0, 0], limit_indices=[2, 2])), **kw)),
    ("stablehlo.send", [F23, TOKEN], lambda a, t: S.send([a], t, channel_id=1)),
    ("stablehlo.send", [F23, TOKEN], lambda a, t: S.send([a], t, channel_id=2,
                                                         is_host_transfer=True)),
    ("stablehlo.recv", [TOKEN], lambda t: S.recv(t, channel_id=1, is_host_transfer=True,
                                                 result_type=[ty(F23), ty(TOKEN)])),
    ("stablehlo.infeed", [TOKEN], lambda t: S.infeed(t, infeed_config="q", layout=[[1, 0]],
                                                     result_type=[ty(F23), ty(TOKEN)])),
    ("stablehlo.outfeed", [F23, TOKEN], lambda a, t: S.outfeed([a], t, outfeed_config="q")),
    # dynamism
    ("stablehlo.dynamic_broadcast_in_dim", ["tensor<1x3xf32>"], lambda a, **kw:
        S.dynamic_broadcast_in_dim(a, i64([2, 4, 3]), broadcast_dimensions=[1, 2],
                                   known_expanding_dimensions=[0],
                                   known_nonexpanding_dimensions=[1], **kw)),
    ("stablehlo.dynamic_broadcast_in_dim", ["tensor<1x3xf32>", "tensor<3xi32>"],
     lambda a, s, **kw: S.dynamic_broadcast_in_dim(a, s, broadcast_dimensions=[0, 2], **kw)),
    ("stablehlo.dynamic_iota", ["tensor<2xi64>"], lambda s, **kw: S.dynamic_iota(
        s, iota_dimension=1, result_type=rt(kw, "tensor<?x?xf32>"), **kw)),
    ("stablehlo.dynamic_pad", [F23, "tensor<f32>"], lambda a, v, **kw: S.dynamic_pad(
        a, v, i64([1, 0]), i64([0, 2]), i64([1, 0]), **kw)),
    ("stablehlo.dynamic_pad", [F23, "tensor<f32>", "tensor<2xi32>"], lambda a, v, p, **kw:
        S.dynamic_pad(a, v, p, p, p, **kw)),
    ("stablehlo.dynamic_reshape", [F23], lambda a, **kw: S.dynamic_reshape(
        a, i64([3, 2]), **kw)),
    ("stablehlo.dynamic_reshape", [F23, "tensor<3xi32>"], lambda a, s, **kw:
        S.dynamic_reshape(a, s, **kw)),
    ("stablehlo.real_dynamic_slice", ["tensor<5x6xf32>"], lambda a, **kw:
        S.real_dynamic_slice(a, i64([1, 0]), i64([4, 6]), i64([2, 4]), **kw)),
    ("stablehlo.real_dynamic_slice", ["tensor<5x6xf32>", "tensor<2xi32>"], lambda a, s, **kw:
        S.real_dynamic_slice(a, s, s, s, **kw)),
    ("stablehlo.get_dimension_size", [F23], lambda a: S.get_dimension_size(a, dimension=1)),
    ("stablehlo.set_dimension_size", [F23, "tensor<i32>"], lambda a, n, **kw:
        S.set_dimension_size(a, n, dimension=1, **kw)),
    # quantization
    ("stablehlo.uniform_quantize", [F23], lambda a, **kw: S.uniform_quantize(
        a, result_type=rt(kw, f"tensor<2x3x{QA}>"), **kw)),
    ("stablehlo.uniform_quantize", [f"tensor<2x{Q8}>"], lambda a, **kw: S.uniform_quantize(
        a, result_type=rt(kw, "tensor<2x!quant.uniform<i8:f32, 5.000000e-01:0>>"), **kw)),
    ("stablehlo.uniform_dequantize", [f"tensor<2x3x{QA}>"], lambda a, **kw:
        S.uniform_dequantize(a, **kw)),
    ("stablehlo.add", [f"tensor<2x{Q8}>", "tensor<2x!quant.uniform<i8:f32, 5.000000e-01:2>>"],
     lambda a, b, **kw: S.add(a, b, result_type=rt(kw, f"tensor<2x{Q8}>"), **kw)),
    ("stablehlo.add", [f"tensor<2x3x{QA}>", f"tensor<2x3x{Q8}>"], lambda a, b, **kw: S.add(
        a, b, result_type=rt(kw, f"tensor<2x3x{QA}>"), **kw)),
    ("stablehlo.bitcast_convert", [f"tensor<2x{QA2}>"], lambda a, **kw: S.bitcast_convert(
        a, result_type=rt(kw, "tensor<2xi8>"), **kw)),
    ("stablehlo.bitcast_convert", ["tensor<2x4xi8>"], lambda a, **kw: S.bitcast_convert(
        a, result_type=rt(kw, "tensor<2x!quant.uniform<i32:f32, 1.000000e+00>>"), **kw)),
    # quantized contractions and data movement
    ("stablehlo.dot_general", QDOT, lambda a, b, **kw: S.dot_general(
        a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
        result_type=kw.pop("result_type", ty(f"tensor<2x4x{Q32}>")), **kw)),
    ("stablehlo.dot_general", ["tensor<2x3xf32>", f"tensor<3x4x{QR}>"], lambda a, b, **kw:
        S.dot_general(a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
                      **kw)),
    ("stablehlo.dot_general", [f"tensor<2x3x{Q8}>", f"tensor<3x4x{qa(1, 4)}>"],
     lambda a, b, **kw: S.dot_general(
         a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
         result_type=kw.pop("result_type", ty(f"tensor<2x4x{qa(1, 4, 'i32')}>")), **kw)),
    ("stablehlo.convolution", QCONV, lambda a, k, **kw: conv(
        a, k, result_type=kw.pop("result_type", ty(f"tensor<1x2x2x1x{Q32}>")), **kw)),
    ("stablehlo.convolution", ["tensor<1x4x4x1xf32>", f"tensor<3x3x1x2x{qa(3, 2)}>"],
     lambda a, k, **kw: conv(a, k, **kw)),
    ("stablehlo.dynamic_conv", QCONV, lambda a, k, **kw: dconv(
        a, k, result_type=kw.pop("result_type", ty(f"tensor<1x2x2x1x{Q32}>")), **kw)),
    ("stablehlo.transpose", [f"tensor<2x3x{QA}>"], lambda a, **kw: S.transpose(
        a, permutation=[1, 0], **kw)),
    ("stablehlo.reshape", [f"tensor<2x3x{QA}>"], lambda a, **kw: S.reshape(
        a, result_type=rt(kw, f"tensor<2x3x1x{QA}>"), **kw)),
    ("stablehlo.broadcast_in_dim", [f"tensor<1x3x{QA}>"], lambda a, **kw: S.broadcast_in_dim(
        a, broadcast_dimensions=[0, 1], result_type=rt(kw, f"tensor<2x3x{QA}>"), **kw)),
    ("stablehlo.broadcast_in_dim", [f"tensor<3x1x{qa(1, 1)}>"], lambda a, **kw:
        S.broadcast_in_dim(a, broadcast_dimensions=[1, 2], result_type=rt(
            kw, "tensor<2x3x4x!quant.uniform<i8:f32:2, {1.0e-01,1.0e-01,1.0e-01,1.0e-01}>>"),
            **kw)),
    ("stablehlo.dynamic_broadcast_in_dim", [f"tensor<1x3x{QA}>"], lambda a, **kw:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1], **kw)),
    ("stablehlo.dynamic_reshape", [f"tensor<2x3x{QA}>"], lambda a, **kw: S.dynamic_reshape(
        a, i64([2, 3, 1]), **kw)),
    # extensibility
    ("stablehlo.custom_call", [F23, TOKEN], lambda a, t: S.custom_call(
        [a, t], call_target_name="foo", has_side_effect=True, backend_config="cfg",
        called_computations=["g"], output_operand_aliases=[((0,), 0, ())],
        result_type=[ty(f"tuple<{F23}>")])),
    ("stablehlo.custom_call", [F23], lambda a: S.custom_call(
        [a], call_target_name="bar", api_version="API_VERSION_TYPED_FFI",
        backend_config={"k": 1, "name": "x"}, operand_layouts=[[1, 0]],
        result_layouts=[[0, 1]], result_type=[ty(F23)])),
    ("stablehlo.custom_call", [], lambda: S.custom_call([], call_target_name="nothing",
                                                        result_type=[])),
    ("stablehlo.composite", [F23], lambda a, **kw: composite(a, **kw)),
    # miscellaneous
    ("stablehlo.batch_norm_inference", [F23, "tensor<3xf32>"], lambda a, s, **kw:
        S.batch_norm_inference(a, s, s, s, s, epsilon=1e-3, feature_index=1, **kw)),
    ("stablehlo.batch_norm_training", [F23, "tensor<2xf32>"], lambda a, s, **kw:
        S.batch_norm_training(a, s, s, epsilon=1e-3, feature_index=0, **kw)),
    ("stablehlo.batch_norm_grad", [F23, "tensor<3xf32>"], lambda a, s, **kw:
        S.batch_norm_grad(a, s, s, s, a, epsilon=0.5, feature_index=1, **kw)),
    ("stablehlo.cholesky", ["tensor<2x3x3xf32>"], lambda a, **kw: S.cholesky(
        a, lower=True, **kw)),
    ("stablehlo.triangular_solve", ["tensor<3x3xf32>", "tensor<3x4xf32>"], lambda a, b, **kw:
        S.triangular_solve(a, b, left_side=True, lower=True, transpose_a="ADJOINT", **kw)),
    ("stablehlo.triangular_solve", ["tensor<2x3x3xcomplex<f32>>", "tensor<2x4x3xcomplex<f32>>"],
     lambda a, b, **kw: S.triangular_solve(a, b, left_side=False, lower=False,
                                           unit_diagonal=True, **kw)),
    ("stablehlo.fft", ["tensor<3x4xcomplex<f32>>"], lambda a, **kw: S.fft(
        a, fft_type="FFT", fft_length=[3, 4], **kw)),
    ("stablehlo.fft", ["tensor<3x8xf64>"], lambda a, **kw: S.fft(
        a, fft_type="RFFT", fft_length=[8], **kw)),
    ("stablehlo.fft", ["tensor<3x5xcomplex<f32>>"], lambda a, **kw: S.fft(
        a, fft_type="IRFFT", fft_length=[8], **kw)),
    ("stablehlo.rng", ["tensor<f32>"], lambda a, **kw: S.rng(
        a, a, i64([2, 3]), rng_distribution="NORMAL", **kw)),
    ("stablehlo.rng", ["tensor<i32>", "tensor<2xi64>"], lambda a, s, **kw: S.rng(
        a, a, s, rng_distribution="UNIFORM", **kw)),
    ("stablehlo.rng_bit_generator", ["tensor<2xui64>"], lambda s: S.rng_bit_generator(
        s, rng_algorithm="THREE_FRY", result_type=ty("tensor<4x5xui32>"))),
    ("stablehlo.exponential", [F23], lambda a, **kw: S.exponential(
        a, result_accuracy={"atol": 1e-5, "ulps": 2}, **kw)),
]

# Builders whose first operand's class is restricted and that need more than operands.
_CLASS = [
    ("if", ["tensor<f32>"], lambda p: S.if_(p, true_branch=lambda: None,
                                             false_branch=lambda: None)),
    ("case", ["tensor<f32>"], lambda i: S.case(i, branches=[lambda: None])),
    ("dynamic_iota", ["tensor<2xf32>"], lambda s: S.dynamic_iota(
        s, iota_dimension=0, result_type=R("tensor<2x2xf32>"))),
    ("uniform_quantize", [I23], lambda a: S.uniform_quantize(
        a, result_type=R(f"tensor<2x3x{Q8}>"))),
    ("uniform_dequantize", [F23], lambda a: S.uniform_dequantize(a)),
    ("batch_norm_grad", [I23, "tensor<3xf32>"], lambda a, s: S.batch_norm_grad(
        a, s, s, s, a, epsilon=0.1, feature_index=1)),
    ("batch_norm_inference", [I23, "tensor<3xf32>"], lambda a, s: S.batch_norm_inference(
        a, s, s, s, s, epsilon=0.1, feature_index=1)),
    ("batch_norm_training", [I23, "tensor<3xf32>"], lambda a, s: S.batch_norm_training(
        a, s, s, epsilon=0.1, feature_index=1)),
    ("cholesky", ["tensor<3x3xi32>"], lambda a: S.cholesky(a)),
    ("triangular_solve", ["tensor<3x3xi32>"], lambda a: S.triangular_solve(
        a, a, left_side=True, lower=True)),
    ("fft", ["tensor<4xi32>"], lambda a: S.fft(a, fft_type="FFT", fft_length=[4])),
    ("rng", ["tensor<complex<f32>>"], lambda a: S.rng(a, a, i64([2]),
                                                        rng_distribution="UNIFORM")),
    ("rng_bit_generator", ["tensor<2xf32>"], lambda s: S.rng_bit_generator(
        s, rng_algorithm="DEFAULT", result_type=R("tensor<2xui32>"))),
]


def _qdot(a, b, **kw):
    return S.dot_general(a, b, lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0],
                         **kw)


def _quantized_contraction_cases():
    """dot_general C14-C20 and convolution/dynamic_conv C28-C34, one case each (C16 / C29-C30
    differ: they are about the contraction's own dimensions)."""
    shapes = {"dot": ("2x3", "3x4", "2x4"), "conv": ("1x4x4x1", "3x3x1x1", "1x2x2x1")}
    for name, f, kind, ids in (("dot_general", _qdot, "dot", range(14, 21)),
                               ("convolution", conv, "conv", range(28, 35)),
                               ("dynamic_conv", dconv, "conv", range(28, 35))):
        lhs, rhs, res = shapes[kind]
        c = [f"C{i}" for i in ids]
        q_result = {"result_type": R(f"tensor<{res}x{Q32}>")}
        cases = [
            (c[0], [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}xf32>"], {}, "must be quantized when lhs"),
            (c[0], [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{QR}>"], {},
             "needs a quantized result_type"),
            (c[0], [f"tensor<{lhs}xf32>", f"tensor<{rhs}x{QR}>"], q_result,
             "must not be quantized when lhs"),
            (c[3], [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x!quant.uniform<i16:f32, 1.0>>"],
             q_result,
             "must have one storage type, got i8 and i16"),
            (c[4], [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{QR}>"],
             {"result_type": R(f"tensor<{res}x!quant.uniform<i32:f16, 1.0>>")},
             "must express one type, got f16, f32"),
            (c[6], [f"tensor<{lhs}xf16>", f"tensor<{rhs}x{QR}>"], {},
             "with a float lhs, rhs must express f16"),
        ]
        if kind == "dot":
            cases += [
                ("C15", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{qa(1, 4, zp=2)}>"], q_result,
                 "must have zero points 0"),
                ("C16", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{qa(0, 3)}>"], q_result,
                 "must not be in rhs_contracting_dimensions [0]"),
                ("C19", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{QR}>"],
                 {"result_type": R(f"tensor<{res}x{qa(1, 4, 'i32')}>")},
                 "must be per-tensor quantized as rhs is")]
        else:
            cases += [
                ("C29", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{qa(2, 1)}>"], q_result,
                 "rhs quantization_dimension 2 must be kernel_output_feature_dimension 3"),
                ("C30", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{QR}>"],
                 {"result_type": R(f"tensor<{res}x{qa(0, 1, 'i32')}>")},
                 "result quantization_dimension 0 must be output_feature_dimension 3"),
                ("C33", [f"tensor<{lhs}x{Q8}>", f"tensor<{rhs}x{QR}>"],
                 {"result_type": R(f"tensor<{res}x{qa(3, 1, 'i32')}>")},
                 "must be per-tensor quantized as rhs is")]
        for cid, types, kw, message in cases:
            yield (name, cid, types, lambda a, b, _f=f, _kw=kw: _f(a, b, **_kw), message)


NEGATIVE = [
    *[(op, "I1", types, fn, "must be a tensor of") for op, types, fn in _CLASS],
    # dynamic_slice / dynamic_update_slice
    ("dynamic_slice", "C2", [F23, "tensor<i32>"], lambda a, i: S.dynamic_slice(
        a, [i], slice_sizes=[1, 1]), "start_indices has 1 values but operand"),
    ("dynamic_slice", "C2", [F23, "tensor<i32>"], lambda a, i: S.dynamic_slice(
        a, [i, i], slice_sizes=[1]), "slice_sizes [1] must have one entry per dimension"),
    ("dynamic_slice", "C3", [F23, "tensor<i32>", "tensor<i64>"], lambda a, i, j:
        S.dynamic_slice(a, [i, j], slice_sizes=[1, 1]), "start_indices must have one type"),
    ("dynamic_slice", "C4", [F23, "tensor<i32>"], lambda a, i: S.dynamic_slice(
        a, [i, i], slice_sizes=[1, 4]), "slice_sizes[1] = 4 must be in [0, 3]"),
    ("dynamic_slice", "I2", [F23, "tensor<f32>"], lambda a, i: S.dynamic_slice(
        a, [i, i], slice_sizes=[1, 1]), "integer"),
    ("dynamic_update_slice", "C2", [F23, "tensor<1x2xi32>", "tensor<i32>"], lambda a, u, i:
        S.dynamic_update_slice(a, u, [i, i]), "must have the element type of operand"),
    ("dynamic_update_slice", "C3", [F23, "tensor<2xf32>", "tensor<i32>"], lambda a, u, i:
        S.dynamic_update_slice(a, u, [i, i]), "must have the rank of operand"),
    ("dynamic_update_slice", "C4", [F23, "tensor<1x2xf32>", "tensor<i32>"], lambda a, u, i:
        S.dynamic_update_slice(a, u, [i]), "start_indices has 1 values"),
    ("dynamic_update_slice", "C5", [F23, "tensor<1x2xf32>", "tensor<i32>", "tensor<ui32>"],
     lambda a, u, i, j: S.dynamic_update_slice(a, u, [i, j]), "one type"),
    ("dynamic_update_slice", "C6", [F23, "tensor<1x4xf32>", "tensor<i32>"], lambda a, u, i:
        S.dynamic_update_slice(a, u, [i, i]), "update dimension 1 has size 4"),
    # reverse / sort / tuples / broadcast / torch_index_select
    ("reverse", "C2", [F23], lambda a: S.reverse(a, dimensions=[0, 0]), "repeats dimension 0"),
    ("reverse", "C3", [F23], lambda a: S.reverse(a, dimensions=[2]), "has 2 out of range"),
    ("sort", "C1", [], lambda: S.sort([], comparator=lambda: None), "inputs must not be empty"),
    ("sort", "C3", [F23, F32_], lambda a, b: S.sort([a, b], comparator=lambda *x: x[0]),
     "must have the same shape"),
    ("sort", "C4", [F23], lambda a: S.sort([a], dimension=2, comparator=lambda x, y: x),
     "dimension 2 is out of range [-2, 2)"),
    ("sort", "C4", [F23], lambda a: S.sort([a], dimension=-3, comparator=lambda x, y: x),
     "out of range"),
    ("sort", "C5", [F23], lambda a: S.sort([a], comparator=lambda x, y: x),
     "comparator must return (tensor<i1>), got (tensor<f32>)"),
    ("get_tuple_element", "C1", [F23], lambda a: S.get_tuple_element(S.tuple([a]), index=1),
     "index 1 is out of range"),
    ("get_tuple_element", "I1", [F23], lambda a: S.get_tuple_element(a, index=0),
     "must be a tuple"),
    ("broadcast", "C1", [F23], lambda a: S.broadcast(a, broadcast_sizes=[2, -1]),
     "must be >= 0, got -1"),
    ("torch_index_select", "C1", [F23, "tensor<2xi32>"], lambda a, i: S.torch_index_select(
        a, i, dim=2, batch_dims=0), "dim 2 is out of range"),
    ("torch_index_select", "C2", [F23, "tensor<2xi32>"], lambda a, i: S.torch_index_select(
        a, i, dim=1, batch_dims=2), "batch_dims 2 must be in [0, min("),
    ("torch_index_select", "C3", ["tensor<2x5xf32>", "tensor<3x2xi32>"], lambda a, i:
        S.torch_index_select(a, i, dim=1, batch_dims=1), "batch dimension 0 has size 2"),
    # gather
    ("gather", "C1", GATHER_T, lambda a, i: gather(a, i, offset_dims=[2]), "rank of operand"),
    ("gather", "C2", GATHER_T, lambda a, i: gather(a, i, index_vector_dim=4),
     "index_vector_dim 4 must be in [0, 3]"),
    ("gather", "C3", GATHER_T, lambda a, i: gather(a, i, start_index_map=[1]),
     "start_index_map [1] must have 2 entries"),
    ("gather", "C4", GATHER_T, lambda a, i: gather(a, i, offset_dims=[3, 2]), "must be sorted"),
    ("gather", "C4", GATHER_T, lambda a, i: gather(a, i, offset_dims=[2, 2]), "repeats"),
    ("gather", "C5", GATHER_T, lambda a, i: gather(a, i, offset_dims=[2, 4]),
     "offset_dims [2, 4] has 4 out of range for rank-4 result"),
    ("gather", "C6", GATHER_T, lambda a, i: gather(
        a, i, offset_dims=[2], collapsed_slice_dims=[0, 0]), "repeats dimension 0"),
    ("gather", "C7", GATHER_T, lambda a, i: gather(
        a, i, offset_dims=[2], collapsed_slice_dims=[1, 0], start_index_map=[0, 1],
        slice_sizes=[1, 1, 2]), "collapsed_slice_dims [1, 0] must be sorted"),
    ("gather", "C8", GATHER_T, lambda a, i: gather(a, i, collapsed_slice_dims=[3]),
     "has 3 out of range"),
    ("gather", "C9", GATHER_T, lambda a, i: gather(a, i, slice_sizes=[2, 2, 2]),
     "slice_sizes[0] = 2 must be <= 1"),
    ("gather", "C10", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "operand_batching_dims": [1, 0], "collapsed_slice_dims": [],
        "start_indices_batching_dims": [1, 0], "offset_dims": [2, 3]}), "must be sorted"),
    ("gather", "C11", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "operand_batching_dims": [4]}), "has 4 out of range"),
    ("gather", "C12", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "slice_sizes": [2, 1, 2, 2]}), "slice_sizes[0] = 2 must be <= 1"),
    ("gather", "C13", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_indices_batching_dims": [1, 1], "operand_batching_dims": [0, 1],
        "collapsed_slice_dims": [], "offset_dims": [3, 4]}), "repeats dimension 1"),
    ("gather", "C14", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_indices_batching_dims": [4]}), "has 4 out of range"),
    ("gather", "C15", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_indices_batching_dims": [3]}), "must not be in"),
    ("gather", "C16", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_indices_batching_dims": []}), "must have the same size"),
    ("gather", "C17", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_indices_batching_dims": [2]}), "batching dimension 0 has size 2"),
    ("gather", "C18", BATCHED_T, lambda a, i: S.gather(a, i, **{
        **BATCHED, "start_index_map": [0, 1]}), "repeats dimension 0"),
    ("gather", "C19", GATHER_T, lambda a, i: gather(a, i, start_index_map=[1, 5]),
     "has 5 out of range"),
    ("gather", "C20", GATHER_T, lambda a, i: gather(a, i, slice_sizes=[1, 2]),
     "slice_sizes has 2 entries but operand"),
    ("gather", "C21", GATHER_T, lambda a, i: gather(a, i, slice_sizes=[1, 5, 2]),
     "slice_sizes[1] = 5 must be in [0, 4]"),
    ("gather", "I2", ["tensor<3x4x2xi64>", "tensor<2x3x2xf32>"], lambda a, i: gather(a, i),
     "integer"),
    ("dynamic_gather", "C1", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "rank of operand"),
    ("dynamic_gather", "C2", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=5), "index_vector_dim 5"),
    ("dynamic_gather", "C3", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1], index_vector_dim=2), "must have 2 entries"),
    ("dynamic_gather", "C4", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[3, 2], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "must be sorted"),
    ("dynamic_gather", "C5", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 7], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "has 7 out of range"),
    ("dynamic_gather", "C6", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2], collapsed_slice_dims=[1, 0],
        start_index_map=[1, 0], index_vector_dim=2), "must be sorted"),
    ("dynamic_gather", "C7", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[3],
        start_index_map=[1, 0], index_vector_dim=2), "has 3 out of range"),
    ("dynamic_gather", "C8", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([3, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "slice_sizes[0] = 3 must be <= 1"),
    ("dynamic_gather", "C9", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 1], index_vector_dim=2), "repeats dimension 1"),
    ("dynamic_gather", "C10", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 3], index_vector_dim=2), "has 3 out of range"),
    ("dynamic_gather", "C11", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "slice_sizes has 2 entries"),
    ("dynamic_gather", "C12", GATHER_T, lambda a, i: S.dynamic_gather(
        a, i, i64([1, 2, 9]), offset_dims=[2, 3], collapsed_slice_dims=[0],
        start_index_map=[1, 0], index_vector_dim=2), "slice_sizes[2] = 9 must be in [0, 2]"),
    # scatter
    ("scatter", "C1", [*SCATTER_T, "tensor<3x4x3xi64>"], lambda a, i, u, b: S.scatter(
        [a, b], i, [u, u], **SCATTER, update_computation=lambda *x: x[:2]),
     "inputs must have the same shape"),
    ("scatter", "C2", SCATTER_T, lambda a, i, u: scatter(a, i, u, inserted_window_dims=[]),
     "rank of inputs[0]"),
    ("scatter", "C3", [*SCATTER_T, "tensor<2x3x2x1xi64>"], lambda a, i, u, v: S.scatter(
        [a, a], i, [u, v], **SCATTER, update_computation=lambda *x: x[:2]),
     "updates must have the same shape"),
    ("scatter", "C4", ["tensor<3x4x2xi64>", "tensor<2x3x2xi64>", "tensor<2x4x2x2xi64>"],
     lambda a, i, u: scatter(a, i, u), "scatter dimension 1 has size 4"),
    ("scatter", "C4", ["tensor<3x4x2xi64>", "tensor<2x3x2xi64>", "tensor<2x3x5x2xi64>"],
     lambda a, i, u: scatter(a, i, u), "window dimension 2 has size 5"),
    ("scatter", "C4", ["tensor<3x4x2xi64>", "tensor<2x3x2xi64>", "tensor<2x3x2x2x1xi64>"],
     lambda a, i, u: scatter(a, i, u), "must have rank 4"),
    ("scatter", "C5", SCATTER_T, lambda a, i, u: S.scatter(
        [a], i, [u, u], **SCATTER, update_computation=add_body), "need as many updates"),
    ("scatter", "C6", [*SCATTER_T[:2], "tensor<2x3x2x2xf32>"], lambda a, i, u: scatter(
        a, i, u), "must have the element type"),
    ("scatter", "C7", SCATTER_T, lambda a, i, u: scatter(a, i, u, update_window_dims=[3, 2]),
     "must be sorted"),
    ("scatter", "C8", SCATTER_T, lambda a, i, u: scatter(a, i, u, update_window_dims=[2, 4]),
     "has 4 out of range for updates[0]"),
    ("scatter", "C9", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0, 0]), "repeats dimension 0"),
    ("scatter", "C10", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[1, 0]), "must be sorted"),
    ("scatter", "C11", SCATTER_T, lambda a, i, u: scatter(a, i, u, inserted_window_dims=[5]),
     "has 5 out of range"),
    ("scatter", "C12", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[],
        input_batching_dims=[1, 0], scatter_indices_batching_dims=[0, 1]), "must be sorted"),
    ("scatter", "C13", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0], input_batching_dims=[3],
        scatter_indices_batching_dims=[0]), "has 3 out of range"),
    ("scatter", "C14", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[], input_batching_dims=[0, 1],
        scatter_indices_batching_dims=[0, 0]), "repeats dimension 0"),
    ("scatter", "C15", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0], input_batching_dims=[1],
        scatter_indices_batching_dims=[3]), "has 3 out of range"),
    ("scatter", "C16", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0], input_batching_dims=[1],
        scatter_indices_batching_dims=[2]), "must not be in"),
    ("scatter", "C17", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0], input_batching_dims=[1],
        scatter_indices_batching_dims=[]), "must have the same size"),
    ("scatter", "C18", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_window_dims=[2], inserted_window_dims=[0], input_batching_dims=[1],
        scatter_indices_batching_dims=[0]), "batching dimension 1 has size 4"),
    ("scatter", "C19", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, scatter_dims_to_operand_dims=[1]), "must have 2 entries"),
    ("scatter", "C20", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, scatter_dims_to_operand_dims=[1, 1]), "repeats dimension 1"),
    ("scatter", "C21", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, scatter_dims_to_operand_dims=[1, 3]), "has 3 out of range"),
    ("scatter", "C22", SCATTER_T, lambda a, i, u: scatter(a, i, u, index_vector_dim=4),
     "index_vector_dim 4 must be in [0, 3]"),
    ("scatter", "C23", SCATTER_T, lambda a, i, u: scatter(
        a, i, u, update_computation=lambda x, y: S.convert(x, result_type=ty("tensor<f32>"))),
     "update_computation must return (tensor<i64>), got (tensor<f32>)"),
    # reduce_window / select_and_scatter
    ("reduce_window", "C1", ["tensor<3x2xf32>"], lambda a: S.reduce_window(
        [a], [], window_dimensions=[1, 1], body=lambda x, y: x), "need as many init_values"),
    ("reduce_window", "C2", ["tensor<3x2xf32>", "tensor<2x3xf32>"], lambda a, b:
        S.reduce_window([a, b], [cst(0), cst(0)], window_dimensions=[1, 1],
                        body=lambda *x: x[:2]), "inputs must have the same shape"),
    ("reduce_window", "C3", ["tensor<3x2xf32>"], lambda a: S.reduce_window(
        [a], [i32(0)], window_dimensions=[1, 1], body=lambda x, y: x),
     "init_values[0] tensor<i32> must have the element type"),
    ("reduce_window", "C4", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_dimensions=[2]), "window_dimensions [2] must have 2 entries"),
    ("reduce_window", "C5", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_dimensions=[0, 1]), "window_dimensions [0, 1] must be > 0, got 0"),
    ("reduce_window", "C6", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_strides=[1]), "window_strides [1] must have 2 entries"),
    ("reduce_window", "C7", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_strides=[1, -1]), "must be > 0, got -1"),
    ("reduce_window", "C8", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, base_dilations=[1, 1, 1]), "base_dilations [1, 1, 1] must have 2 entries"),
    ("reduce_window", "C9", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, base_dilations=[0, 1]), "must be > 0"),
    ("reduce_window", "C10", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_dilations=[1]), "window_dilations [1] must have 2 entries"),
    ("reduce_window", "C11", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, window_dilations=[1, 0]), "must be > 0"),
    ("reduce_window", "C12", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, padding=[[0, 0]]), "padding [[0, 0]] must have shape [2, 2], got [1, 2]"),
    ("reduce_window", "C13", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, body=lambda x, y: S.compare(x, y, comparison_direction="LT")),
     "body must return (tensor<f32>), got (tensor<i1>)"),
    ("reduce_window", "I7", ["tensor<3x2xf32>"], lambda a: reduce_window(
        a, padding=[[0, 1], [2]]), "rectangular"),
    ("select_and_scatter", "C1", ["tensor<4x2xf32>", "tensor<2x2xi32>"], lambda a, s: sas(
        a, s), "source tensor<2x2xi32> must have the element type of operand"),
    ("select_and_scatter", "C2", ["tensor<4x2xf32>", "tensor<3x2xf32>"], lambda a, s: sas(
        a, s), "must have the window count shape [2, 2]"),
    ("select_and_scatter", "C3", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s:
        S.select_and_scatter(a, s, i32(0), window_dimensions=[3, 1], select=lambda x, y: x,
                             scatter=lambda x, y: x), "init_value tensor<i32> must have"),
    ("select_and_scatter", "C4", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, window_dimensions=[3]), "window_dimensions [3] must have 2 entries"),
    ("select_and_scatter", "C5", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, window_dimensions=[0, 1]), "must be > 0"),
    ("select_and_scatter", "C6", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, window_strides=[1]), "window_strides [1] must have 2 entries"),
    ("select_and_scatter", "C7", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, window_strides=[0, 1]), "must be > 0"),
    ("select_and_scatter", "C8", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, padding=[[0, 1, 2], [0, 0, 0]]), "must have shape [2, 2]"),
    ("select_and_scatter", "C9", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, select=lambda x, y: x), "select must return (tensor<i1>)"),
    ("select_and_scatter", "C10", ["tensor<4x2xf32>", "tensor<2x2xf32>"], lambda a, s: sas(
        a, s, scatter=lambda x, y: S.compare(x, y, comparison_direction="LT")),
     "scatter must return (tensor<f32>)"),
    # convolution / dynamic_conv: one case per constraint, for both ops
    *[(name, cid, CONV_T if "pad" not in extra else [*CONV_T, "tensor<3x2xi64>"],
       lambda a, k, *p, _f=f, _x=extra: _f(a, k, **({"pad": p[0]} if p else {}),
                                           **{k2: v for k2, v in _x.items() if k2 != "pad"}),
       message)
      for name, f in (("convolution", conv), ("dynamic_conv", dconv))
      for cid, extra, message in [
          ("C21", {"feature_group_count": 0}, "feature_group_count 0 must be > 0"),
          ("C22", {"batch_group_count": -1}, "batch_group_count -1 must be > 0"),
          ("C23", {"feature_group_count": 2, "batch_group_count": 2}, "cannot both be > 1"),
          ("C12", {"input_spatial_dimensions": [1]}, "input_spatial_dimensions [1] must have 2"),
          ("C17", {"kernel_spatial_dimensions": [0, 1, 2]}, "must have 2 entries"),
          ("C19", {"output_spatial_dimensions": [2]}, "must have 2 entries"),
          ("C13", {"input_spatial_dimensions": [1, 1]}, "input dimensions [0, 1, 1, 3] repeat"),
          ("C13", {"input_batch_dimension": 4}, "have 4 out of range for rank 4"),
          ("C18", {"kernel_input_feature_dimension": 3}, "kernel dimensions [0, 1, 3, 3] repeat"),
          ("C20", {"output_feature_dimension": 0}, "output dimensions [0, 1, 2, 0] repeat"),
          ("C2", {"window_strides": [1]}, "window_strides [1] must have 2 entries"),
          ("C3", {"window_strides": [1, 0]}, "window_strides [1, 0] must be > 0"),
          ("C5", {"lhs_dilation": [1]}, "lhs_dilation [1] must have 2 entries"),
          ("C6", {"lhs_dilation": [0, 1]}, "must be > 0"),
          ("C7", {"rhs_dilation": [1, 1, 1]}, "rhs_dilation [1, 1, 1] must have 2 entries"),
          ("C8", {"rhs_dilation": [1, -2]}, "must be > 0"),
          ("C9", {"window_reversal": [True]}, "window_reversal [True] must have 2 entries"),
          ("C10", {"batch_group_count": 2}, "lhs dimension 0 (input_batch_dimension) has size"),
          ("C14", {"kernel_input_feature_dimension": 0, "kernel_spatial_dimensions": [2, 1]},
           "rhs kernel input feature dimension 0 has size 3"),
          ("C24", {"precision_config": ["HIGH"]}, "precision_config must have 2 entries"),
      ] + ([("C4", {"padding": [[0, 0]]}, "padding must have shape [2, 2], got [1, 2]")]
           if name == "convolution" else
           [("C4", {"pad": True}, "padding must have shape [2, 2], got [3, 2]")])],
    *[(name, cid, types, lambda a, k, _f=f, _x=extra: _f(a, k, **_x), message)
      for name, f in (("convolution", conv), ("dynamic_conv", dconv))
      for cid, types, extra, message in [
          ("C1", ["tensor<1x4x4x1xf32>", "tensor<3x3x1xf32>"], {}, "must have the same rank"),
          ("C11", ["tensor<1x4x4x3xf32>", "tensor<3x3x1x2xf32>"], {"feature_group_count": 2},
           "has size 3, not a multiple of feature_group_count 2"),
          ("C15", ["tensor<2x4x4x1xf32>", "tensor<3x3x1x3xf32>"], {"batch_group_count": 2},
           "has size 3, not a multiple of batch_group_count 2"),
          ("C16", ["tensor<1x4x4x2xf32>", "tensor<3x3x1x3xf32>"], {"feature_group_count": 2},
           "has size 3, not a multiple of feature_group_count 2"),
          ("C27", ["tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf16>"], {},
           "lhs and rhs must have the same element type"),
      ]],
    ("dynamic_conv", "I3", [*CONV_T, "tensor<2x2xf32>"], lambda a, k, p: dconv(a, k, pad=p),
     "padding must be a tensor of integer type"),
    # dot / einsum / unary_einsum
    ("dot", "C1", ["tensor<2x3x4xf32>", "tensor<4xf32>"], lambda a, b: S.dot(a, b),
     "must have rank 1 or 2"),
    ("dot", "C2", [F23, F23], lambda a, b: S.dot(a, b),
     "lhs contracting dimension 1 has size 3 but rhs contracting dimension 0 has size 2"),
    ("dot", "C3", [F23, "tensor<3xi32>"], lambda a, b: S.dot(a, b), "same element type"),
    ("dot", "C4", [F23, "tensor<3xf32>"], lambda a, b: S.dot(a, b, precision_config=[]),
     "precision_config must have 2 entries"),
    ("einsum", "C1", [F23, F32_], lambda a, b: S.einsum(a, b, einsum_config="ab,bc"),
     "must have the form"),
    ("einsum", "C1", [F23, F32_], lambda a, b: S.einsum(a, b, einsum_config="a1,bc->ac"),
     "must be letters"),
    ("einsum", "C2", [F23, F32_], lambda a, b: S.einsum(a, b, einsum_config="abc,bc->ac"),
     "'abc' has 3 labels but operand tensor<2x3xf32> has rank 2"),
    ("einsum", "C3", [F23, F23], lambda a, b: S.einsum(a, b, einsum_config="ab,bc->ac"),
     "label 'b' has sizes [3, 2] that differ"),
    ("einsum", "C3", [F23, "tensor<3x2xi32>"], lambda a, b: S.einsum(
        a, b, einsum_config="ab,bc->ac"), "same element type"),
    ("einsum", "C4", [F23, F32_], lambda a, b: S.einsum(a, b, einsum_config="ab,bc->ad"),
     "output label 'd' of 'ab,bc->ad' is in no input"),
    ("unary_einsum", "C1", [F23], lambda a: S.unary_einsum(a, einsum_config="ab,b->a"),
     "must have the form 'labels->labels'"),
    ("unary_einsum", "C2", [F23], lambda a: S.unary_einsum(a, einsum_config="a->a"),
     "'a' has 1 labels"),
    ("unary_einsum", "C3", ["tensor<2x3x3xf32>"], lambda a: S.unary_einsum(
        a, einsum_config="aab->b"), "label 'a' has sizes [2, 3] that differ"),
    ("unary_einsum", "C4", [F23], lambda a: S.unary_einsum(a, einsum_config="ab->c"),
     "output label 'c'"),
    # control flow
    ("if", "C2", ["tensor<i1>", F23], lambda p, a: S.if_(
        p, true_branch=lambda: a, false_branch=lambda: S.convert(a, result_type=R(I23))),
     "true_branch returns (tensor<2x3xf32>) but false_branch returns (tensor<2x3xi32>)"),
    ("if", "I1", ["tensor<2xi1>"], lambda p: S.if_(p, true_branch=lambda: None,
                                                   false_branch=lambda: None),
     "must be a 0-dimensional tensor"),
    ("if", "I2", ["tensor<i1>"], lambda p: S.if_(p, true_branch=lambda: 1,
                                                 false_branch=lambda: None),
     "region true_branch must return ir.Values"),
    ("case", "I1", ["tensor<i64>"], lambda i: S.case(i, branches=[lambda: None]),
     "index must be a tensor<i32>"),
    ("case", "C1", ["tensor<i32>"], lambda i: S.case(i, branches=[]),
     "branches must not be empty"),
    ("case", "C3", ["tensor<i32>", F23], lambda i, a: S.case(
        i, branches=[lambda: a, lambda: None]),
     "branches[0] returns (tensor<2x3xf32>) but branches[1] returns ()"),
    ("case", "I2", ["tensor<i32>"], lambda i: S.case(i, branches=lambda: None),
     "must be a list of callables"),
    ("while", "C1", ["tensor<i32>"], lambda n: S.while_([n], cond=lambda i: i,
                                                        body=lambda i: i),
     "cond must return (tensor<i1>), got (tensor<i32>)"),
    ("while", "C2", ["tensor<i32>"], lambda n: S.while_(
        [n], cond=lambda i: S.compare(i, i, comparison_direction="LT"),
        body=lambda i: S.convert(i, result_type=R("tensor<f32>"))),
     "body must return (tensor<i32>), got (tensor<f32>)"),
    ("while", "I1", ["tensor<i32>"], lambda n: S.while_([S.tuple([n])], cond=lambda i: i,
                                                        body=lambda i: i),
     "must be a ranked tensor or a !stablehlo.token"),
    ("map", "C1", [F23, F32_], lambda a, b: S.map([a, b], dimensions=[0, 1],
                                                  computation=lambda x, y: x),
     "inputs must have the same shape"),
    ("map", "C2", [], lambda: S.map([], dimensions=[], computation=lambda: None),
     "inputs must not be empty"),
    ("map", "C3", [F23], lambda a: S.map([a], dimensions=[1, 0], computation=lambda x: x),
     "dimensions [1, 0] must be [0, 1]"),
    ("map", "C4", [F23], lambda a: S.map([a], dimensions=[0, 1], computation=lambda x: (x, x)),
     "computation must return one 0-d tensor"),
    ("map", "C4", [F23], lambda a: S.map([a], dimensions=[0, 1], computation=lambda x: a),
     "got (tensor<2x3xf32>)"),
    ("optimization_barrier", "I1", [F23], lambda a: S.optimization_barrier([S.tuple([a])]),
     "must be a ranked tensor or a !stablehlo.token"),
    ("after_all", "I1", [F23], lambda a: S.after_all([a]), "must be a !stablehlo.token"),
    # distribution
    ("all_gather", "C1", [F23], lambda a: S.all_gather([a], all_gather_dim=2,
                                                       replica_groups=GROUPS),
     "all_gather_dim 2 is out of range for operands[0]"),
    ("all_gather", "C2", [F23], lambda a: S.all_gather([a], all_gather_dim=0,
                                                       replica_groups=[[0, 0]]),
     "replica_groups [[0, 0]] repeats id 0"),
    ("all_gather", "C3", [F23], lambda a: S.all_gather(
        [with_processes(a, 4)], all_gather_dim=0, replica_groups=GROUPS),
     "has 2 ids but the module has 4 processes for cross_replica"),
    ("all_gather", "C4", [F23], lambda a: S.all_gather([a], all_gather_dim=0,
                                                       replica_groups=[[0, 2]]),
     "has 2 outside [0, 2)"),
    ("all_gather", "C5", [F23], lambda a: S.all_gather(
        [a], all_gather_dim=0, replica_groups=GROUPS, use_global_device_ids=True),
     "use_global_device_ids needs channel_id > 0, got None"),
    ("all_gather", "I3", [F23], lambda a: S.all_gather([a], all_gather_dim=0,
                                                       replica_groups=[[0, 1], [2]]),
     "rectangular"),
    ("all_reduce", "C1", [F23], lambda a: S.all_reduce([a], replica_groups=[[1, 1]],
                                                       computation=add_body), "repeats id 1"),
    ("all_reduce", "C2", [F23], lambda a: S.all_reduce(
        [with_processes(a, 2, 3)], replica_groups=[[0, 1, 2]], channel_id=1,
        use_global_device_ids=True, computation=add_body),
     "has 3 ids but the module has 6 processes for flattened_ids"),
    ("all_reduce", "C3", [F23], lambda a: S.all_reduce([a], replica_groups=[[0, -3]],
                                                       computation=add_body),
     "has -3 outside"),
    ("all_reduce", "C4", [F23], lambda a: S.all_reduce(
        [a], replica_groups=GROUPS, channel_id=0, use_global_device_ids=True,
        computation=add_body), "needs channel_id > 0, got 0"),
    ("all_reduce", "C5", [F23], lambda a: S.all_reduce(
        [a], replica_groups=GROUPS, computation=lambda x, y: S.compare(
            x, y, comparison_direction="LT")), "computation must return (tensor<f32>)"),
    ("all_to_all", "C1", [F23], lambda a: S.all_to_all(
        [a], split_dimension=2, concat_dimension=0, split_count=2, replica_groups=GROUPS),
     "split_dimension 2 is out of range"),
    ("all_to_all", "C2", [F23], lambda a: S.all_to_all(
        [a], split_dimension=1, concat_dimension=0, split_count=2, replica_groups=GROUPS),
     "has size 3, not a multiple of split_count 2"),
    ("all_to_all", "C3", [F23], lambda a: S.all_to_all(
        [a], split_dimension=0, concat_dimension=-1, split_count=2, replica_groups=GROUPS),
     "concat_dimension -1 is out of range"),
    ("all_to_all", "C4", [F23], lambda a: S.all_to_all(
        [a], split_dimension=0, concat_dimension=0, split_count=0, replica_groups=GROUPS),
     "split_count 0 must be > 0"),
    ("all_to_all", "C5", ["tensor<2x4xf32>"], lambda a: S.all_to_all(
        [a], split_dimension=1, concat_dimension=0, split_count=2, replica_groups=[[1, 1]]),
     "repeats id 1"),
    ("all_to_all", "C6", ["tensor<2x4xf32>"], lambda a: S.all_to_all(
        [with_processes(a, 1, 2)], split_dimension=1, concat_dimension=0, split_count=2,
        replica_groups=GROUPS), "module has 1 processes"),
    ("all_to_all", "C7", ["tensor<2x4xf32>"], lambda a: S.all_to_all(
        [a], split_dimension=1, concat_dimension=0, split_count=2, replica_groups=[[0, 5]]),
     "has 5 outside [0, 2)"),
    ("all_to_all", "C8", ["tensor<2x4xf32>"], lambda a: S.all_to_all(
        [a], split_dimension=1, concat_dimension=0, split_count=2,
        replica_groups=[[0, 1, 2, 3]]), "has groups of 4 but split_count is 2"),
    ("collective_broadcast", "C1", [F23], lambda a: S.collective_broadcast(
        [a], replica_groups=[[0, 0]]), "repeats id 0"),
    ("collective_broadcast", "C2", [F23], lambda a: S.collective_broadcast(
        [with_processes(a, 2)], replica_groups=[[0, 2]]), "has 2 outside [0, 2)"),
    ("collective_broadcast", "C4", [F23, "tensor<2xi32>"], lambda a, r:
        S.collective_broadcast([a], replica_groups=GROUPS, root=r),
     "root must be a tensor<1xi32>"),
    ("collective_permute", "C1", [F23], lambda a: S.collective_permute(
        a, source_target_pairs=[[0, 1, 2]]), "must have 2 columns, got 3"),
    ("collective_permute", "C2", [F23], lambda a: S.collective_permute(
        a, source_target_pairs=[[0, 1], [0, 2]]), "repeats sources 0"),
    ("collective_permute", "C3", [F23], lambda a: S.collective_permute(
        a, source_target_pairs=[[0, 1], [2, 1]]), "repeats targets 1"),
    ("collective_permute", "C4", [F23], lambda a: S.collective_permute(
        a, source_target_pairs=[[0, -1]]), "has -1 outside [0, number of processes)"),
    ("collective_permute", "C4", [F23], lambda a: S.collective_permute(
        with_processes(a, 2), source_target_pairs=[[0, 3]]), "has 3 outside [0, 2)"),
    ("collective_reduce", "C1", [F23], lambda a: S.collective_reduce(
        [a], replica_groups=[[0, 0]], computation=add_body), "repeats id 0"),
    ("collective_reduce", "C2", [F23], lambda a: S.collective_reduce(
        [a], replica_groups=[[0, -2]], computation=add_body), "negative id -2"),
    ("collective_reduce", "C3", [F23], lambda a: S.collective_reduce(
        [a], replica_groups=GROUPS, computation=lambda x, y: (x, y)),
     "computation must return (tensor<f32>), got (tensor<f32>, tensor<f32>)"),
    ("reduce_scatter", "C1", [F23], lambda a: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=GROUPS, computation=add_body),
     "has size 3, not a multiple of the group size 2"),
    ("reduce_scatter", "C2", [F23], lambda a: S.reduce_scatter(
        a, scatter_dimension=5, replica_groups=GROUPS, computation=add_body),
     "scatter_dimension 5 is out of range"),
    ("reduce_scatter", "C3", ["tensor<2x4xf32>"], lambda a: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=[[1, 1]], computation=add_body), "repeats id 1"),
    ("reduce_scatter", "C4", ["tensor<2x4xf32>"], lambda a: S.reduce_scatter(
        with_processes(a, 8), scatter_dimension=1, replica_groups=GROUPS,
        computation=add_body), "module has 8 processes"),
    ("reduce_scatter", "C5", ["tensor<2x4xf32>"], lambda a: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=[[0, 7]], computation=add_body),
     "has 7 outside"),
    ("reduce_scatter", "C6", ["tensor<2x4xf32>"], lambda a: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=GROUPS, use_global_device_ids=True,
        computation=add_body), "needs channel_id > 0"),
    ("reduce_scatter", "C7", ["tensor<2x4xf32>"], lambda a: S.reduce_scatter(
        a, scatter_dimension=1, replica_groups=GROUPS, computation=lambda x, y: i32(0)),
     "computation must return (tensor<f32>), got (tensor<i32>)"),
    ("cross-replica-sum", "C1", [F23], lambda a: S.cross_replica_sum(
        a, replica_groups=[[3, 3]]), "repeats id 3"),
    ("cross-replica-sum", "C2", [F23], lambda a: S.cross_replica_sum(
        a, replica_groups=[[-3, 3]]), "negative id -3"),
    ("async_start", "C1", [F23], lambda a: S.async_start([a], body=lambda x: S.negate(x)),
     "body must hold exactly one of all_gather"),
    ("async_done", "I1", [F23], lambda a: S.async_done(a), "must be a !stablehlo.future"),
    ("send", "C1", [F23, TOKEN], lambda a, t: S.send([a], t, channel_id=1,
                                                     channel_type="DEVICE_TO_HOST"),
     "channel_type must be DEVICE_TO_DEVICE when is_host_transfer is False"),
    ("send", "I2", [F23, F23], lambda a, t: S.send([a], t, channel_id=1),
     "token must be a !stablehlo.token"),
    ("recv", "C1", [TOKEN], lambda t: S.recv(t, channel_id=1, is_host_transfer=True,
                                             channel_type="DEVICE_TO_DEVICE",
                                             result_type=[R(TOKEN)]),
     "channel_type must be HOST_TO_DEVICE when is_host_transfer is True"),
    ("recv", "C2", [TOKEN], lambda t: S.recv(t, channel_id=1, result_type=[]),
     "result_type must list at least the token result"),
    ("recv", "C3", [TOKEN], lambda t: S.recv(t, channel_id=1, result_type=[R(TOKEN)] * 2),
     "result_type[0] must be a tensor, got !stablehlo.token"),
    ("recv", "C4", [TOKEN], lambda t: S.recv(t, channel_id=1, result_type=[R(F23)]),
     "the last result must be a !stablehlo.token"),
    ("recv", "O1", [TOKEN], lambda t: S.recv(t, channel_id=1, result_type=R(TOKEN)),
     "result_type must be a list of ir.Types"),
    ("infeed", "C1", [TOKEN], lambda t: S.infeed(t, result_type=[]), "at least the token"),
    ("infeed", "C2", [TOKEN], lambda t: S.infeed(t, result_type=[R(TOKEN), R(TOKEN)]),
     "must be a tensor"),
    ("infeed", "C3", [TOKEN], lambda t: S.infeed(t, result_type=[R(F23), R(F23)]),
     "must be a !stablehlo.token"),
    # dynamism
    ("dynamic_broadcast_in_dim", "C7", ["tensor<3xf32>", "tensor<2x2xi64>"], lambda a, s:
        S.dynamic_broadcast_in_dim(a, s, broadcast_dimensions=[0]), "must be a 1-D tensor"),
    ("dynamic_broadcast_in_dim", "C7", ["tensor<3xf32>", "tensor<?xi64>"], lambda a, s:
        S.dynamic_broadcast_in_dim(a, s, broadcast_dimensions=[0]), "static length"),
    ("dynamic_broadcast_in_dim", "C7", ["tensor<3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[1],
                                   result_type=R("tensor<2x3x1xf32>")),
     "must have rank size(output_dimensions) = 2"),
    ("dynamic_broadcast_in_dim", "C2", ["tensor<3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1]),
     "must have 1 entries"),
    ("dynamic_broadcast_in_dim", "C3", ["tensor<3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[2]),
     "has 2 out of range for rank 2"),
    ("dynamic_broadcast_in_dim", "C4", ["tensor<1x3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[1, 1]),
     "repeats dimension 1"),
    ("dynamic_broadcast_in_dim", "C5", ["tensor<3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 4]), broadcast_dimensions=[1]),
     "operand dimension 0 has size 3 but result dimension 1 has size 4"),
    ("dynamic_broadcast_in_dim", "C8", ["tensor<1x3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1],
                                   known_expanding_dimensions=[0],
                                   known_nonexpanding_dimensions=[0]), "repeats dimension 0"),
    ("dynamic_broadcast_in_dim", "C9", ["tensor<1x3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1],
                                   known_expanding_dimensions=[2]), "has 2 out of range"),
    ("dynamic_broadcast_in_dim", "C10", ["tensor<1x3xf32>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1],
                                   known_nonexpanding_dimensions=[-1]), "has -1 out of range"),
    ("dynamic_iota", "C1", ["tensor<2xi64>"], lambda s: S.dynamic_iota(
        s, iota_dimension=2, result_type=R("tensor<?x?xf32>")),
     "iota_dimension 2 is out of range for 2 output dimensions"),
    ("dynamic_iota", "C2", ["tensor<2xi64>"], lambda s: S.dynamic_iota(
        s, iota_dimension=0, result_type=R("tensor<?xf32>")),
     "must have rank size(output_shape) = 2"),
    ("dynamic_iota", "C2", [], lambda: S.dynamic_iota(
        i64([2, 3]), iota_dimension=0, result_type=R("tensor<2x4xf32>")),
     "must have the shape [2, 3] of output_shape"),
    ("dynamic_iota", "O1", ["tensor<2xi64>"], lambda s: S.dynamic_iota(
        s, iota_dimension=0, result_type=R("tensor<?x?xi1>")), "integer, floating-point"),
    ("dynamic_pad", "C1", [F23, "tensor<i32>"], lambda a, v: S.dynamic_pad(
        a, v, i64([0, 0]), i64([0, 0]), i64([0, 0])), "must have the element type"),
    ("dynamic_pad", "C2", [F23, "tensor<f32>"], lambda a, v: S.dynamic_pad(
        a, v, i64([0]), i64([0, 0]), i64([0, 0])), "edge_padding_low tensor<1xi64> must have one"),
    ("dynamic_pad", "C2", [F23, "tensor<f32>"], lambda a, v: S.dynamic_pad(
        a, v, i64([[0, 0]]), i64([0, 0]), i64([0, 0])), "must be a 1-D tensor"),
    ("dynamic_pad", "C3", [F23, "tensor<f32>"], lambda a, v: S.dynamic_pad(
        a, v, i64([0, 0]), i64([0, 0]), i64([0, -1])), "interior_padding [0, -1] must be >= 0"),
    ("dynamic_pad", "C4", [F23, "tensor<f32>"], lambda a, v: S.dynamic_pad(
        a, v, i64([-3, 0]), i64([0, 0]), i64([0, 0])), "negative dimension size -1"),
    ("dynamic_reshape", "C4", [F23, "tensor<2x2xi64>"], lambda a, s: S.dynamic_reshape(a, s),
     "must be a 1-D tensor"),
    ("dynamic_reshape", "C4", [F23, "tensor<?xi64>"], lambda a, s: S.dynamic_reshape(a, s),
     "static length"),
    ("dynamic_reshape", "C2", [F23], lambda a: S.dynamic_reshape(a, i64([7])),
     "has 6 elements but output_shape [7] has 7"),
    ("real_dynamic_slice", "C1", [F23, "tensor<3xi64>"], lambda a, s: S.real_dynamic_slice(
        a, s, s, s), "must have one entry per dimension"),
    ("real_dynamic_slice", "C1", [F23, "tensor<i64>"], lambda a, s: S.real_dynamic_slice(
        a, s, s, s), "must be a 1-D tensor"),
    ("real_dynamic_slice", "C2", [F23, "tensor<2xi64>", "tensor<2xi32>"], lambda a, s, t:
        S.real_dynamic_slice(a, s, t, s), "must have one type"),
    ("real_dynamic_slice", "C3", [F23], lambda a: S.real_dynamic_slice(
        a, i64([0, 2]), i64([2, 4]), i64([1, 1])), "dimension 1: need 0 <= start 2 <= limit 4"),
    ("real_dynamic_slice", "C4", [F23], lambda a: S.real_dynamic_slice(
        a, i64([0, 0]), i64([2, 3]), i64([1, 0])), "strides must be > 0, got 0"),
    ("get_dimension_size", "C1", [F23], lambda a: S.get_dimension_size(a, dimension=2),
     "dimension 2 is out of range"),
    ("set_dimension_size", "C1", [F23, "tensor<i32>"], lambda a, n: S.set_dimension_size(
        a, n, dimension=-1), "dimension -1 is out of range"),
    ("set_dimension_size", "I2", [F23, "tensor<i64>"], lambda a, n: S.set_dimension_size(
        a, n, dimension=0), "size must be a tensor<i32>"),
    # quantized add
    ("add", "C2", [f"tensor<2x{Q8}>", "tensor<2xf32>"], lambda a, b: S.add(
        a, b, result_type=R(f"tensor<2x{Q8}>")), "must both be quantized"),
    ("add", "C2", [f"tensor<2x{Q8}>"] * 2, lambda a, b: S.add(a, b),
     "a quantized add needs a quantized result_type="),
    ("add", "C3", [f"tensor<2x{Q8}>", f"tensor<2x{Q16}>"], lambda a, b: S.add(
        a, b, result_type=R(f"tensor<2x{Q8}>")), "storage_type of lhs, rhs and result must agree"),
    ("add", "C4", [f"tensor<2x{Q8}>", f"tensor<2x{QF16}>"], lambda a, b: S.add(
        a, b, result_type=R(f"tensor<2x{Q8}>")), "expressed_type of lhs, rhs and result"),
    ("add", "C5", [f"tensor<2x3x{QA}>", f"tensor<2x3x{Q8}>"], lambda a, b: S.add(
        a, b, result_type=R(f"tensor<2x3x{Q8}>")), "must be per-axis quantized iff an operand"),
    ("add", "C6", [f"tensor<3x3x{QA}>", f"tensor<3x3x{Q8}>"], lambda a, b: S.add(
        a, b, result_type=R(
            f"tensor<3x3x{qa(0, 3, zp=1)}>")),
     "lhs's quantization_dimension 1 must equal the result's 0"),
    ("add", "C7", [f"tensor<3x3x{Q8}>", f"tensor<3x3x{QA}>"], lambda a, b: S.add(
        a, b, result_type=R(
            f"tensor<3x3x{qa(0, 3, zp=1)}>")),
     "rhs's quantization_dimension 1 must equal the result's 0"),
    ("bitcast_convert", "C1", [f"tensor<2x{Q8}>"], lambda a: S.bitcast_convert(
        a, result_type=R("tensor<2xi16>")), "8-bit elements"),
    *_quantized_contraction_cases(),
    # quantized data movement
    ("transpose", "C4", [f"tensor<2x3x{QA}>"], lambda a: S.transpose(
        a, permutation=[1, 0], result_type=R(f"tensor<3x2x{qa(1, 2, zp=1)}>")),
     "result quantization_dimension 1 must map to the operand's 1"),
    ("reshape", "C3", [f"tensor<2x3x{QA}>"], lambda a: S.reshape(
        a, result_type=R(f"tensor<3x2x{qa(1, 2, zp=1)}>")),
     "must keep 2 elements before the quantization dimension, got 3"),
    ("reshape", "C1", [f"tensor<2x3x{QA}>"], lambda a: S.reshape(
        a, result_type=R(f"tensor<6x{Q8}>")), "must have the element type of operand"),
    ("broadcast_in_dim", "C6", [f"tensor<1x3x{QA}>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[0, 1], result_type=R(f"tensor<2x3x{qa(0, 2, zp=1)}>")),
     "result quantization_dimension 0 must be broadcast_dimensions[1] = 1"),
    ("broadcast_in_dim", "C6", [f"tensor<3x1x{qa(1, 1)}>"], lambda a: S.broadcast_in_dim(
        a, broadcast_dimensions=[0, 1], result_type=R(f"tensor<3x2x{qa(1, 2)}>")),
     "must repeat the operand's"),
    ("dynamic_broadcast_in_dim", "C1", ["tensor<1x3xf32>"], lambda a: S.dynamic_broadcast_in_dim(
        a, i64([2, 3]), broadcast_dimensions=[0, 1], result_type=R("tensor<2x3xf16>")),
     "must have the element type of operand"),
    ("dynamic_broadcast_in_dim", "C6", [f"tensor<1x3x{QA}>"], lambda a:
        S.dynamic_broadcast_in_dim(a, i64([2, 3]), broadcast_dimensions=[0, 1],
                                   result_type=R(f"tensor<2x3x{qa(0, 2, zp=1)}>")),
     "must be broadcast_dimensions[1] = 1"),
    ("dynamic_reshape", "C1", [F23], lambda a: S.dynamic_reshape(
        a, i64([3, 2]), result_type=R("tensor<3x2xi32>")), "must have the element type"),
    ("dynamic_reshape", "C3", [f"tensor<2x3x{QA}>"], lambda a: S.dynamic_reshape(
        a, i64([3, 2]), result_type=R(f"tensor<3x2x{qa(1, 2, zp=1)}>")),
     "must keep 2 elements before"),
    # quantization
    ("uniform_quantize", "C1", [F23], lambda a: S.uniform_quantize(
        a, result_type=R(f"tensor<3x2x{Q8}>")), "must have the shape of operand"),
    ("uniform_quantize", "C2", ["tensor<2x3xf16>"], lambda a: S.uniform_quantize(
        a, result_type=R(f"tensor<2x3x{Q8}>")), "must express f16"),
    ("uniform_quantize", "O1", [F23], lambda a: S.uniform_quantize(a, result_type=R(I23)),
     "result_type must be a tensor of quantized type"),
    # extensibility
    ("custom_call", "C1", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", backend_config={"a": 1}, result_type=[]),
     "a dict backend_config needs api_version API_VERSION_TYPED_FFI"),
    ("custom_call", "C1", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", backend_config="s", api_version="API_VERSION_TYPED_FFI",
        result_type=[]), "needs a dict backend_config"),
    ("custom_call", "C2", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", operand_layouts=[[0, 1]], result_type=[]),
     "must be given together"),
    ("custom_call", "C2", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", operand_layouts=[[0, 0]], result_layouts=[],
        result_type=[]), "is not a permutation"),
    ("custom_call", "C2", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", operand_layouts=[], result_layouts=[], result_type=[]),
     "operand_layouts has 0 entries for 1 operands"),
    ("custom_call", "C3", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", output_operand_aliases=[((), 3, ())], result_type=[]),
     "names operand 3 of 1"),
    ("custom_call", "I9", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", output_operand_aliases=[(0, 1)], result_type=[]),
     "alias triples"),
    ("custom_call", "I5", [F23], lambda a: S.custom_call(
        [a], call_target_name="x", api_version="V9", result_type=[]),
     "one of API_VERSION_UNSPECIFIED"),
    ("composite", "C1", [F23], lambda a: composite(a, name="noname"),
     "name 'noname' must be a namespaced op name"),
    ("composite", "C2", [F23], lambda a: S.composite([a], name="a.b", decomposition="nowhere"),
     "decomposition @nowhere is not a function"),
    ("composite", "C3", [F23, I23], lambda a, b: composite(b),
     "inputs (tensor<2x3xi32>) must match decomposition @decomp's inputs (tensor<2x3xf32>)"),
    ("composite", "I3", [F23], lambda a: composite(a, composite_attributes={1: 2}),
     "a dict with str keys"),
    # miscellaneous
    ("batch_norm_inference", "I2", [F23, "tensor<1x3xf32>"], lambda a, s:
        S.batch_norm_inference(a, s, s, s, s, epsilon=0.1, feature_index=1),
     "scale must be a 1-D tensor"),
    ("batch_norm_inference", "C1", [F23, "tensor<3xf32>"], lambda a, s:
        S.batch_norm_inference(a, s, s, s, s, epsilon=0.1, feature_index=2),
     "feature_index 2 is out of range"),
    ("batch_norm_inference", "C2", [F23, "tensor<3xf32>", "tensor<3xf16>"], lambda a, s, h:
        S.batch_norm_inference(a, s, s, h, s, epsilon=0.1, feature_index=1),
     "mean tensor<3xf16> must have the element type of operand"),
    *[("batch_norm_inference", cid, [F23, "tensor<3xf32>", "tensor<2xf32>"],
       lambda a, s, w, _i=i: S.batch_norm_inference(
           a, *[w if j == _i else s for j in range(4)], epsilon=0.1, feature_index=1),
       f"{name} tensor<2xf32> must have size dim(operand, 1) = 3")
      for i, (cid, name) in enumerate([("C3", "scale"), ("C4", "offset"), ("C5", "mean"),
                                       ("C6", "variance")])],
    ("batch_norm_inference", "I6", [F23, "tensor<3xf32>"], lambda a, s:
        S.batch_norm_inference(a, s, s, s, s, epsilon="small", feature_index=1), "a float"),
    ("batch_norm_training", "I2", [F23, "tensor<f32>"], lambda a, s: S.batch_norm_training(
        a, s, s, epsilon=0.1, feature_index=1), "scale must be a 1-D tensor"),
    ("batch_norm_training", "C1", [F23, "tensor<3xf32>"], lambda a, s: S.batch_norm_training(
        a, s, s, epsilon=0.1, feature_index=-1), "feature_index -1 is out of range"),
    ("batch_norm_training", "C2", [F23, "tensor<3xf32>", "tensor<3xf64>"], lambda a, s, d:
        S.batch_norm_training(a, s, d, epsilon=0.1, feature_index=1), "element type"),
    ("batch_norm_training", "C3", [F23, "tensor<2xf32>", "tensor<3xf32>"], lambda a, s, o:
        S.batch_norm_training(a, s, o, epsilon=0.1, feature_index=1),
     "scale tensor<2xf32> must have size"),
    ("batch_norm_training", "C4", [F23, "tensor<3xf32>", "tensor<2xf32>"], lambda a, s, o:
        S.batch_norm_training(a, s, o, epsilon=0.1, feature_index=1),
     "offset tensor<2xf32> must have size"),
    ("batch_norm_grad", "I2", [F23, "tensor<3x1xf32>"], lambda a, s: S.batch_norm_grad(
        a, s, s, s, a, epsilon=0.1, feature_index=1), "scale must be a 1-D tensor"),
    ("batch_norm_grad", "C1", [F23, "tensor<3xf32>"], lambda a, s: S.batch_norm_grad(
        a, s, s, s, a, epsilon=0.1, feature_index=3), "feature_index 3 is out of range"),
    ("batch_norm_grad", "C2", [F23, "tensor<3xf32>", "tensor<2x3xbf16>"], lambda a, s, g:
        S.batch_norm_grad(a, s, s, s, g, epsilon=0.1, feature_index=1), "element type"),
    ("batch_norm_grad", "C3", [F23, "tensor<3xf32>", F32_], lambda a, s, g:
        S.batch_norm_grad(a, s, s, s, g, epsilon=0.1, feature_index=1),
     "operand tensor<2x3xf32> and grad_output tensor<3x2xf32> must have the same shape"),
    ("batch_norm_grad", "C4", [F23, "tensor<3xf32>", "tensor<2xf32>"], lambda a, s, m:
        S.batch_norm_grad(a, s, m, s, a, epsilon=0.1, feature_index=1),
     "scale tensor<3xf32> and mean tensor<2xf32> must have the same shape"),
    ("batch_norm_grad", "C5", [F23, "tensor<2xf32>"], lambda a, s: S.batch_norm_grad(
        a, s, s, s, a, epsilon=0.1, feature_index=1), "scale tensor<2xf32> must have size"),
    ("cholesky", "C2", ["tensor<3xf32>"], lambda a: S.cholesky(a), "must have rank >= 2"),
    ("cholesky", "C3", [F23], lambda a: S.cholesky(a), "must be square"),
    ("triangular_solve", "C1", ["tensor<3x3xf32>", "tensor<3x3xf64>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True), "element type"),
    ("triangular_solve", "C2", ["tensor<3xf32>", "tensor<3xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True), "must have rank >= 2"),
    ("triangular_solve", "C2", ["tensor<3x3xf32>", "tensor<1x3x3xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True), "must have the same rank"),
    ("triangular_solve", "C3", ["tensor<2x3x3xf32>", "tensor<1x3x3xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True), "same batch dimensions"),
    ("triangular_solve", "C3", ["tensor<3x4xf32>", "tensor<3x4xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True), "must be square"),
    ("triangular_solve", "C3", ["tensor<3x3xf32>", "tensor<3x4xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=False, lower=True),
     "b tensor<3x4xf32> dimension -1 (left_side = False) has size 4"),
    ("triangular_solve", "I6", ["tensor<3x3xf32>", "tensor<3x3xf32>"], lambda a, b:
        S.triangular_solve(a, b, left_side=True, lower=True, transpose_a="CONJ"),
     "one of NO_TRANSPOSE, TRANSPOSE, ADJOINT"),
    ("fft", "C1", ["tensor<4xcomplex<f32>>"], lambda a: S.fft(a, fft_type="FFT",
                                                             fft_length=[4, 4]),
     "has more entries than operand"),
    ("fft", "C2", ["tensor<4xcomplex<f32>>"], lambda a: S.fft(a, fft_type="RFFT",
                                                             fft_length=[4]),
     "RFFT needs an f32 or f64 operand"),
    ("fft", "C2", ["tensor<4xf32>"], lambda a: S.fft(a, fft_type="IFFT", fft_length=[4]),
     "IFFT needs a complex operand"),
    ("fft", "C3", ["tensor<4xcomplex<f32>>"], lambda a: S.fft(a, fft_type="FFT",
                                                             fft_length=[]),
     "must have 1 to 3 entries"),
    ("fft", "C4", ["tensor<3x8xf32>"], lambda a: S.fft(a, fft_type="RFFT", fft_length=[4]),
     "RFFT operand tensor<3x8xf32> must end in fft_length [4]"),
    ("fft", "C4", ["tensor<3x8xcomplex<f32>>"], lambda a: S.fft(a, fft_type="IRFFT",
                                                               fft_length=[8]),
     "must end in [5] for fft_length [8]"),
    ("rng", "C1", ["tensor<f32>", "tensor<f64>"], lambda a, b: S.rng(
        a, b, i64([2]), rng_distribution="UNIFORM"), "must have the element type"),
    ("rng", "C2", ["tensor<i32>"], lambda a: S.rng(a, a, i64([2]), rng_distribution="NORMAL"),
     "NORMAL needs floating-point a and b"),
    ("rng", "C3", ["tensor<f32>", "tensor<2x2xi64>"], lambda a, s: S.rng(
        a, a, s, rng_distribution="UNIFORM"), "shape must be a 1-D tensor of static size"),
    ("rng", "I1", ["tensor<2xf32>"], lambda a: S.rng(a, a, i64([2]),
                                                     rng_distribution="UNIFORM"),
     "must be a 0-dimensional tensor"),
    ("rng_bit_generator", "C2", ["tensor<3xui64>"], lambda s: S.rng_bit_generator(
        s, rng_algorithm="THREE_FRY", result_type=R("tensor<2xui32>")),
     "must have 2 elements for THREE_FRY"),
    ("rng_bit_generator", "C2", ["tensor<2x2xui64>"], lambda s: S.rng_bit_generator(
        s, rng_algorithm="PHILOX", result_type=R("tensor<2xui32>")), "must be a 1-D tensor"),
    ("exponential", "I2", [F23], lambda a: S.exponential(
        a, result_accuracy={"mode": "HIGHEST", "ulps": 1}), "zero tolerances for mode HIGHEST"),
    ("exponential", "I2", [F23], lambda a: S.exponential(a, result_accuracy="FAST"),
     "a mode in DEFAULT, HIGHEST, TOLERANCE"),
]


# --- attribute kinds: encode then decode gives the value back ----------------------------------

ROUND_TRIPS = [
    (A.I64_MATRIX, [[0, 1], [2, 3]]), (A.I64_MATRIX, []), (A.BOOL_ARRAY, [True, False]),
    (A.FLOAT, 0.5), (A.STRING, "s"), (A.SYMBOL, "@f"), (A.SYMBOL_ARRAY, ["f", "g"]),
    (A.UNIT, True), (A.LAYOUTS, [[1, 0], []]), (A.NESTED_INT_ARRAYS, [[0], [1, 0]]),
    (A.RESULT_ACCURACY, "HIGHEST"), (A.RESULT_ACCURACY, {"rtol": 0.5, "ulps": 3}),
    (A.OUTPUT_OPERAND_ALIASES, [((0,), 1, (2,))]), (A.API_VERSION, "API_VERSION_TYPED_FFI"),
    (A.FFT_TYPE, "IRFFT"), (A.RNG_ALGORITHM, "PHILOX"), (A.TRANSPOSE, "ADJOINT"),
    (A.CHLO_PRECISION_CONFIG, ["HIGH", "DEFAULT"]), (A.STRING_OR_DICT, {"k": 1}),
]


@pytest.mark.parametrize("kind,value", ROUND_TRIPS, ids=[f"{type(k).__name__}-{i}" for i, (k, _)
                                                         in enumerate(ROUND_TRIPS)])
@pytest.mark.every_case
def test_attribute_kinds_round_trip(kind, value):
    with CTX, ir.Location.unknown():
        norm = kind.normalize(value)
        back = kind.decode(ir.Attribute.parse(str(kind.encode(norm))))
        if isinstance(norm, np.ndarray):
            assert back.tolist() == norm.tolist() and back.shape == norm.shape
        elif isinstance(norm, dict) and kind is not A.RESULT_ACCURACY:
            assert {k: str(v) for k, v in back.items()} == {k: str(v) for k, v in norm.items()}
        else:
            assert back == norm


STRUCTS = [
    (A.GATHER_DIMS, dict(offset_dims=(1,), collapsed_slice_dims=(0,), operand_batching_dims=(2,),
                         start_indices_batching_dims=(0,), start_index_map=(0,),
                         index_vector_dim=1)),
    (A.SCATTER_DIMS, dict(update_window_dims=(1,), inserted_window_dims=(),
                          input_batching_dims=(), scatter_indices_batching_dims=(),
                          scatter_dims_to_operand_dims=(0,), index_vector_dim=1)),
    (A.CONV_DIMS, CONV),
    (A.CHANNEL_HANDLE, dict(handle=3, type="DEVICE_TO_HOST")),
    (A.RAGGED_DOT_DIMS, dict(lhs_batching_dimensions=(), rhs_batching_dimensions=(),
                             lhs_contracting_dimensions=(1,), rhs_contracting_dimensions=(1,),
                             lhs_ragged_dimensions=(0,), rhs_group_dimensions=(0,))),
]


@pytest.mark.parametrize("struct,values", STRUCTS, ids=[s.mnemonic for s, _ in STRUCTS])
@pytest.mark.every_case
def test_structs_round_trip(struct, values):
    with CTX:
        back = struct.decode(ir.Attribute.parse(str(struct.encode(values))))
    assert {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()} == back


def test_quantized_types():
    with CTX:
        q = T.quant_type("int8", "float32", [0.5, 0.25], [1, -2], axis=1, storage_min=-127)
        p = T.quant_params(q)
        assert (p.storage_min, p.storage_max, p.scales, p.zero_points, p.quantization_dimension) \
            == (-127, 127, [0.5, 0.25], [1, -2], 1) and p.per_axis
        assert T.kind(q) == T.QUANT and str(p.expressed_type) == "f32"
        assert str(T.quant_type("uint8", "bfloat16", 2.0, 3)) == \
            "!quant.uniform<ui8:bf16, 2.000000e+00:3>"


def test_token_tuple_future_and_bounded_types():
    with CTX:
        t, tok = ty(F23), T.token_type()
        tup = T.tuple_type([t, tok])
        assert T.is_tuple(tup) and T.tuple_elements(tup) == [t, tok] and T.is_token(tok)
        fut = T.future_type([t, t])
        assert T.is_future(fut) and T.future_elements(fut) == [t, t]
        bounded = T.tensor_type([None, 3], np.float32, bounds=[4, None])
        assert str(bounded) == "tensor<?x3xf32, #stablehlo.bounds<4, ?>>"
        assert T.bounds(bounded) == [4, None] and T.bounds(t) == [None, None]
