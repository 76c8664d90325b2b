"""Random numbers, tokens, host/device I/O and CustomCall: RngUniform, RngNormal,
RngBernoulli (oldest seed), RngBitGenerator, CreateToken, AfterAll, Infeed, Outfeed, Send,
Recv (each also WithToken), SendToHost, RecvFromHost and CustomCall.

The token-less forms make their own token (stablehlo.create_token), as XLA's builder does."""
from __future__ import annotations

import numpy as np

from shlo.dialect import stablehlo
from shlo.dialect import types as T

from .builder import XlaBuilder, XlaOp
from .errors import fail
from .numbers import channel, enum_name
from .operands import array, as_builder, builder_of, op_list
from .shapes import Shape, as_shape


def _dims_constant(shape: Shape):
    return stablehlo.constant(np.asarray(shape.dimensions(), dtype=np.int64))


def _rng(op: str, a: XlaOp, b_: XlaOp, shape: Shape, distribution: str) -> XlaOp:
    b = builder_of(op, a, b_)
    shape = as_shape(op, shape)
    x, y = array(op, a), array(op, b_)
    if not shape.is_array() or shape.element_type() != a.shape().element_type():
        fail(op, f"shape {shape} must be an array of the parameters' type "
             f"{a.shape().element_type()}", "the result has the parameters' element type")
    with b.emit(op):
        return b.wrap(stablehlo.rng(x, y, _dims_constant(shape), rng_distribution=distribution))


def RngUniform(a: XlaOp, b: XlaOp, shape: Shape) -> XlaOp:
    """XLA RngUniform(a, b, shape): uniform in [a, b)."""
    return _rng("RngUniform", a, b, shape, "UNIFORM")


def RngNormal(mu: XlaOp, sigma: XlaOp, shape: Shape) -> XlaOp:
    """XLA RngNormal(mu, sigma, shape): normal with mean mu and standard deviation sigma."""
    return _rng("RngNormal", mu, sigma, shape, "NORMAL")


def RngBernoulli(mean: XlaOp, shape: Shape) -> XlaOp:
    """XLA RngBernoulli(mean, shape) (oldest seed): 1 with probability `mean` (an F32
    scalar), else 0, in shape's element type (the seed's U32, or any other)."""
    b = builder_of("RngBernoulli", mean)
    shape = as_shape("RngBernoulli", shape)
    m = array("RngBernoulli", mean, "mean")
    if T.shape(m.type) != [] or T.kind(T.elem(m.type)) != T.FLOAT:
        fail("RngBernoulli", f"mean must be a floating-point scalar, got {mean.shape()}",
             "mean is a scalar F32")
    with b.emit("RngBernoulli"):
        zero = stablehlo.constant(np.zeros((), T.element_dtype(m.type)))
        one = stablehlo.constant(np.ones((), T.element_dtype(m.type)))
        u = stablehlo.rng(zero, one, _dims_constant(shape), rng_distribution="UNIFORM")
        hit = stablehlo.compare(u, stablehlo.broadcast_in_dim(
            m, broadcast_dimensions=[], result_type=u.type), comparison_direction="LT")
        return b.wrap(stablehlo.convert(hit, result_type=shape.ir_type()))


def RngBitGenerator(algorithm, initial_state: XlaOp, shape: Shape) -> XlaOp:
    """XLA RngBitGenerator(algorithm, initial_state, shape): a tuple (new_state, bits);
    algorithm is RNG_DEFAULT, RNG_THREE_FRY or RNG_PHILOX."""
    b = builder_of("RngBitGenerator", initial_state)
    name = enum_name("RngBitGenerator", "algorithm", algorithm,
                     ("DEFAULT", "THREE_FRY", "PHILOX"), prefix="RNG_")
    shape = as_shape("RngBitGenerator", shape)
    with b.emit("RngBitGenerator"):
        state, bits = stablehlo.rng_bit_generator(array("RngBitGenerator", initial_state,
                                                        "initial_state"),
                                                  rng_algorithm=name,
                                                  result_type=shape.ir_type())
        return b.tuple_of([state, bits])


def CreateToken(builder: XlaBuilder) -> XlaOp:
    """XLA CreateToken(b): a fresh token."""
    b = as_builder("CreateToken", builder)
    with b.emit("CreateToken"):
        return b.wrap(stablehlo.create_token())


def AfterAll(builder: XlaBuilder, tokens=()) -> XlaOp:
    """XLA AfterAll(b, tokens): a token ordered after all `tokens`."""
    b = as_builder("AfterAll", builder)
    toks = op_list("AfterAll", "tokens", tokens)
    if toks and builder_of("AfterAll", toks) is not b:
        fail("AfterAll", "the tokens belong to another builder")
    for i, t in enumerate(toks):
        if not t.shape().is_token():
            fail("AfterAll", f"tokens[{i}] is {t.shape()}, not a token")
    with b.emit("AfterAll"):
        return b.wrap(stablehlo.after_all([t.value for t in toks]))


def _token(op: str, b: XlaBuilder, token):
    if token is None:
        return stablehlo.create_token()
    if not isinstance(token, XlaOp) or not token.shape().is_token():
        fail(op, f"token must be a token XlaOp, got {token!r}")
    return token.value


def _infeed(op: str, b: XlaBuilder, token, shape: Shape, config: str):
    shape = as_shape(op, shape)
    with b.emit(op):
        results = stablehlo.infeed(_token(op, b, token), infeed_config=config or "",
                                   result_type=shape.ir_types() + [T.token_type()])
    results = list(results) if isinstance(results, tuple) else [results]
    return b.unflatten(results[:-1], [shape])[0], b.wrap(results[-1])


def Infeed(builder: XlaBuilder, shape: Shape, config: str = "") -> XlaOp:
    """XLA Infeed(b, shape, config): data of `shape` from the device's infeed queue."""
    data, _ = _infeed("Infeed", as_builder("Infeed", builder), None, shape, config)
    return data


def InfeedWithToken(token: XlaOp, shape: Shape, config: str = "") -> XlaOp:
    """XLA InfeedWithToken: a tuple (data, token)."""
    b = builder_of("InfeedWithToken", token)
    return b.tuple_of(list(_infeed("InfeedWithToken", b, token, shape, config)))


def _outfeed(op: str, operand: XlaOp, token, config: str) -> XlaOp:
    b = builder_of(op, operand, *([token] if token is not None else []))
    with b.emit(op):
        return b.wrap(stablehlo.outfeed(operand.leaves(), _token(op, b, token),
                                        outfeed_config=config or ""))


def Outfeed(operand: XlaOp, shape_with_layout: Shape | None = None,
            outfeed_config: str = "") -> XlaOp:
    """XLA Outfeed(operand, shape_with_layout, outfeed_config): operand to the outfeed queue;
    returns the token (C++ returns nothing)."""
    _check_layout_shape("Outfeed", operand, shape_with_layout)
    return _outfeed("Outfeed", operand, None, outfeed_config)


def OutfeedWithToken(operand: XlaOp, token: XlaOp, shape_with_layout: Shape | None = None,
                     outfeed_config: str = "") -> XlaOp:
    _check_layout_shape("OutfeedWithToken", operand, shape_with_layout)
    return _outfeed("OutfeedWithToken", operand, token, outfeed_config)


def _check_layout_shape(op: str, operand: XlaOp, shape):
    if shape is not None and as_shape(op, shape) != operand.shape():
        fail(op, f"shape_with_layout {shape} differs from the operand's {operand.shape()}",
             "shape_with_layout is the operand's shape")


def _send(op: str, operand: XlaOp, token, handle, host: bool) -> XlaOp:
    b = builder_of(op, operand, *([token] if token is not None else []))
    cid, ctype = channel(op, handle)
    if cid is None:
        fail(op, "needs a channel handle")
    with b.emit(op):
        return b.wrap(stablehlo.send(operand.leaves(), _token(op, b, token), channel_id=cid,
                                     channel_type=ctype or ("DEVICE_TO_HOST" if host else None),
                                     is_host_transfer=host))


def Send(operand: XlaOp, handle) -> XlaOp:
    """XLA Send(operand, handle): operand to the Recv of the same channel; returns the token."""
    return _send("Send", operand, None, handle, False)


def SendWithToken(operand: XlaOp, token: XlaOp, handle) -> XlaOp:
    return _send("SendWithToken", operand, token, handle, False)


def SendToHost(operand: XlaOp, token: XlaOp, shape_with_layout: Shape, handle) -> XlaOp:
    _check_layout_shape("SendToHost", operand, shape_with_layout)
    return _send("SendToHost", operand, token, handle, True)


def _recv(op: str, b: XlaBuilder, token, shape: Shape, handle, host: bool):
    shape = as_shape(op, shape)
    cid, ctype = channel(op, handle)
    if cid is None:
        fail(op, "needs a channel handle")
    with b.emit(op):
        results = stablehlo.recv(_token(op, b, token), channel_id=cid,
                                 channel_type=ctype or ("HOST_TO_DEVICE" if host else None),
                                 is_host_transfer=host,
                                 result_type=shape.ir_types() + [T.token_type()])
    results = list(results) if isinstance(results, tuple) else [results]
    return b.unflatten(results[:-1], [shape])[0], b.wrap(results[-1])


def Recv(builder: XlaBuilder, shape: Shape, handle) -> XlaOp:
    """XLA Recv(b, shape, handle): data of `shape` from the Send of the same channel."""
    data, _ = _recv("Recv", as_builder("Recv", builder), None, shape, handle, False)
    return data


def RecvWithToken(token: XlaOp, shape: Shape, handle) -> XlaOp:
    """XLA RecvWithToken: a tuple (data, token)."""
    b = builder_of("RecvWithToken", token)
    return b.tuple_of(list(_recv("RecvWithToken", b, token, shape, handle, False)))


def RecvFromHost(token: XlaOp, shape: Shape, handle) -> XlaOp:
    b = builder_of("RecvFromHost", token)
    return b.tuple_of(list(_recv("RecvFromHost", b, token, shape, handle, True)))


def CustomCall(builder: XlaBuilder, call_target_name: str, operands, shape: Shape,
               opaque: str = "", has_side_effect: bool = False,
               api_version: str = "API_VERSION_ORIGINAL") -> XlaOp:
    """XLA CustomCall(b, call_target_name, operands, shape, opaque, has_side_effect,
    api_version): a stablehlo.custom_call with `opaque` as its backend_config."""
    b = as_builder("CustomCall", builder)
    ops = op_list("CustomCall", "operands", operands)
    if ops and builder_of("CustomCall", ops) is not b:
        fail("CustomCall", "the operands belong to another builder")
    shape = as_shape("CustomCall", shape)
    version = enum_name("CustomCall", "api_version", api_version, (
        "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"))
    with b.emit("CustomCall"):
        types = shape.ir_types()
        out = stablehlo.custom_call([v for o in ops for v in o.leaves()],
                                    call_target_name=call_target_name,
                                    has_side_effect=bool(has_side_effect),
                                    backend_config=opaque or None, api_version=version,
                                    result_type=types)
    values = list(out) if isinstance(out, tuple) else [out] if types else []
    return b.unflatten(values, [shape])[0]


OPS = dict(RngUniform=RngUniform, RngNormal=RngNormal, RngBernoulli=RngBernoulli,
           RngBitGenerator=RngBitGenerator, CreateToken=CreateToken, AfterAll=AfterAll,
           Infeed=Infeed, InfeedWithToken=InfeedWithToken, Outfeed=Outfeed,
           OutfeedWithToken=OutfeedWithToken, Send=Send, SendWithToken=SendWithToken,
           SendToHost=SendToHost, Recv=Recv, RecvWithToken=RecvWithToken,
           RecvFromHost=RecvFromHost, CustomCall=CustomCall)
