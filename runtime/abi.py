"""Function signatures of a compiled module, read from the .vmfb's own reflection data.

IREE records each exported function's signature as it compiled it
(`iree.abi.declaration`, with `iree.abi.encoding` for unsigned types). Where
shlo changed the boundary (sub-byte integers travel as bytes; f64 demoted on
request) it also records the user's own signature (`shlo.signature`, written by
shlo.runtime.boundary), so a loaded .vmfb validates and converts its inputs
exactly like a fresh one. The implementation lives in `standalone_loader`,
which deploys without shlo; this module is its name inside shlo.
"""
from .standalone_loader import (ELEMENT_DTYPES, Signature, TensorSpec, Value, describe,
                                parse_reflection, tensor_spec, validate)

__all__ = ["ELEMENT_DTYPES", "Signature", "TensorSpec", "Value", "describe", "parse_reflection",
           "tensor_spec", "validate"]
