"""jax's CPU FFT custom call of 2023, `ducc_fft(descriptor, x)` (jaxlib's DUCC kernel), as
`stablehlo.fft`, registered with shlo-expand-custom-calls.

The descriptor is a constant ui8 tensor holding a flatbuffer (jaxlib/cpu/ducc_fft.fbs):
table DuccFftDescriptor { dtype; fft_type: C2C 0, C2R 1, R2C 2; shape: [uint64];
strides_in, strides_out: [uint64]; axes: [uint32]; forward: bool; scale: double }. C2C is FFT
or IFFT by `forward`, R2C is RFFT, C2R is IRFFT; the transform lengths are the real side's
sizes on `axes`, which jax makes the trailing dimensions (others are a clear error). StableHLO's
inverse transforms divide by the transform size, which is the scale jax asks for; another
scale multiplies the result by its ratio to that one.
"""
from __future__ import annotations

import math
import struct

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..lib.expr import Num
from .registry import register_custom_call

_C2C, _C2R, _R2C = 0, 1, 2


class _Flatbuffer:
    """The fields of a flatbuffer's root table, by slot."""

    def __init__(self, data: bytes):
        self.data = data
        self.table = struct.unpack_from("<I", data, 0)[0]
        vtable = self.table - struct.unpack_from("<i", data, self.table)[0]
        size = struct.unpack_from("<H", data, vtable)[0]
        self.offsets = [struct.unpack_from("<H", data, vtable + 4 + 2 * i)[0]
                        for i in range((size - 4) // 2)]

    def scalar(self, slot: int, fmt: str, default):
        if slot >= len(self.offsets) or not self.offsets[slot]:
            return default
        return struct.unpack_from(fmt, self.data, self.table + self.offsets[slot])[0]

    def vector(self, slot: int, fmt: str) -> list:
        if slot >= len(self.offsets) or not self.offsets[slot]:
            return []
        at = self.table + self.offsets[slot]
        at += struct.unpack_from("<I", self.data, at)[0]
        count, size = struct.unpack_from("<I", self.data, at)[0], struct.calcsize(fmt)
        return [struct.unpack_from(fmt, self.data, at + 4 + size * i)[0] for i in range(count)]


def ducc_fft(op: ir.Operation, descriptor: ir.Value, x: ir.Value):
    owner = descriptor.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or \
            owner.operation.name != "stablehlo.constant":
        raise PassError("stablehlo.custom_call @ducc_fft: its descriptor (operand 0) is not a "
                        "constant", at=op)
    try:
        fields = _Flatbuffer(bytes(int(b) & 0xFF for b in ir.DenseIntElementsAttr(
            owner.operation.attributes["value"])))
        kind, axes = fields.scalar(1, "<b", _C2C), fields.vector(5, "<I")
        forward, scale = fields.scalar(6, "<?", False), fields.scalar(7, "<d", 0.0)
    except struct.error:
        raise PassError("stablehlo.custom_call @ducc_fft: its descriptor is not a "
                        "DuccFftDescriptor flatbuffer", at=op) from None
    result = ir.RankedTensorType(op.results[0].type)
    rank = ir.RankedTensorType(x.type).rank
    if not axes or sorted(axes) != list(range(rank - len(axes), rank)):
        raise PassError(f"stablehlo.custom_call @ducc_fft: transforms over axes {axes}; shlo "
                        f"supports the trailing axes jax uses", at=op)
    real_side = result if kind == _C2R else ir.RankedTensorType(x.type)
    lengths = [real_side.shape[a] for a in range(rank - len(axes), rank)]
    fft_type = {_C2C: "FFT" if forward else "IFFT", _R2C: "RFFT", _C2R: "IRFFT"}.get(kind)
    if fft_type is None:
        raise PassError(f"stablehlo.custom_call @ducc_fft: unknown fft_type {kind}", at=op)
    out = stablehlo.fft(x, fft_type=fft_type, fft_length=lengths, result_type=result)
    ratio = scale * (1 if fft_type in ("FFT", "RFFT") else math.prod(lengths))
    if ratio != 1:
        out = (Num(out) * ratio).value
    return out


register_custom_call("ducc_fft", ducc_fft, static_shapes_only=True)
