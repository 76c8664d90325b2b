"""XLA's structured arguments as small classes with XLA's field names: dimension numbers,
Padding (SAME/VALID), ChannelHandle; and the enum/precision/padding normalizers."""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import fail


def _ints(v) -> tuple:
    return tuple(int(x) for x in v)


@dataclass
class DotDimensionNumbers:
    lhs_contracting_dimensions: Sequence[int] = ()
    rhs_contracting_dimensions: Sequence[int] = ()
    lhs_batch_dimensions: Sequence[int] = ()
    rhs_batch_dimensions: Sequence[int] = ()

    def __post_init__(self):
        for f in self.__dataclass_fields__:
            setattr(self, f, _ints(getattr(self, f)))


@dataclass
class RaggedDotDimensionNumbers:
    dot_dimension_numbers: DotDimensionNumbers = field(default_factory=DotDimensionNumbers)
    lhs_ragged_dimensions: tuple = ()
    rhs_group_dimensions: tuple = ()


@dataclass
class GatherDimensionNumbers:
    offset_dims: Sequence[int] = ()
    collapsed_slice_dims: Sequence[int] = ()
    start_index_map: Sequence[int] = ()
    index_vector_dim: int = 0
    operand_batching_dims: Sequence[int] = ()
    start_indices_batching_dims: Sequence[int] = ()


@dataclass
class ScatterDimensionNumbers:
    update_window_dims: Sequence[int] = ()
    inserted_window_dims: Sequence[int] = ()
    scatter_dims_to_operand_dims: Sequence[int] = ()
    index_vector_dim: int = 0
    input_batching_dims: Sequence[int] = ()
    scatter_indices_batching_dims: Sequence[int] = ()


@dataclass
class ConvolutionDimensionNumbers:
    input_batch_dimension: int = 0
    input_feature_dimension: int = 1
    input_spatial_dimensions: tuple = ()
    kernel_input_feature_dimension: int = 1
    kernel_output_feature_dimension: int = 0
    kernel_spatial_dimensions: tuple = ()
    output_batch_dimension: int = 0
    output_feature_dimension: int = 1
    output_spatial_dimensions: tuple = ()

    @staticmethod
    def default(num_spatial: int) -> "ConvolutionDimensionNumbers":
        """XLA's default: input [b, f, spatial...], kernel [o, i, spatial...], output as input."""
        sp = tuple(range(2, 2 + num_spatial))
        return ConvolutionDimensionNumbers(0, 1, sp, 1, 0, sp, 0, 1, sp)

    def as_keywords(self) -> dict:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


class Padding(enum.Enum):
    """Window padding by name: SAME keeps ceil(size / stride) outputs, VALID pads nothing."""
    SAME = "SAME"
    VALID = "VALID"


@dataclass
class ChannelHandle:
    """XLA's ChannelHandle: a channel id and its type."""
    handle: int = 1
    type: str = "DEVICE_TO_DEVICE"


def check_fields(op: str, what: str, value, cls):
    if not isinstance(value, cls):
        fail(op, f"{what} must be an xla.{cls.__name__}, got {type(value).__name__}")
    return value


def make_padding(op: str, padding, input_dims, window_dims, strides, dilations=None) -> list:
    """(low, high) per dimension for an xla.Padding (XLA's MakePadding) or given pairs."""
    if isinstance(padding, str) and padding.upper() in Padding.__members__:
        padding = Padding[padding.upper()]
    if isinstance(padding, Padding):
        if padding is Padding.VALID:
            return [[0, 0] for _ in input_dims]
        out = []
        for i, (n, w, s) in enumerate(zip(input_dims, window_dims, strides)):
            w = (w - 1) * (dilations[i] if dilations else 1) + 1
            total = max((-(-n // s) - 1) * s + w - n, 0)
            out.append([total // 2, total - total // 2])
        return out
    try:
        out = [[int(lo), int(hi)] for lo, hi in padding]
    except (TypeError, ValueError):
        fail(op, f"padding must be xla.Padding.SAME/VALID or (low, high) pairs, got {padding!r}")
    if len(out) != len(input_dims):
        fail(op, f"padding has {len(out)} pairs for {len(input_dims)} dimensions",
             "one (low, high) pair per window dimension")
    return out


PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def precisions(op: str, config) -> list | None:
    """None, one precision for both operands, or a pair (XLA's operand_precision)."""
    if config is None:
        return None
    if isinstance(config, str):
        config = [config, config]
    config = [getattr(c, "name", c) for c in config]
    if len(config) != 2 or any(not isinstance(c, str) or c.upper() not in PRECISIONS
                               for c in config):
        fail(op, f"precision_config must be one of {', '.join(PRECISIONS)} or a pair of them, "
             f"got {config!r}")
    return [c.upper() for c in config]


def enum_name(op: str, what: str, value, names, prefix: str = "") -> str:
    """An enum given by XLA's name (`"NO_TRANSPOSE"`, `"RNG_PHILOX"`), an enum member or bool."""
    name = getattr(value, "name", value)
    if isinstance(name, str):
        name = name.upper()
        if prefix and name.startswith(prefix):
            name = name[len(prefix):]
        if name in names:
            return name
    fail(op, f"{what} must be one of {', '.join(prefix + n for n in names)}, got {value!r}")


def channel(op: str, handle) -> tuple[int | None, str | None]:
    """(channel_id, channel_type) of an int, a ChannelHandle, or None."""
    if handle is None:
        return None, None
    if isinstance(handle, ChannelHandle):
        return int(handle.handle), handle.type
    if isinstance(handle, int) and not isinstance(handle, bool):
        return handle, None
    fail(op, f"channel must be an int or xla.ChannelHandle, got {type(handle).__name__}")
