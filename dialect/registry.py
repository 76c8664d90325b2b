"""Turns OpDef tables into a namespace of builder functions (mnemonic -> function)."""
from __future__ import annotations

import keyword

from .opdef import OpDef, builder


def pyname(mnemonic: str) -> str:
    """The Python name of an op's builder: its mnemonic with '-' as '_' (`cross_replica_sum`),
    no leading '_' (`chlo._asin_acos_kernel` -> `asin_acos_kernel`), and a trailing _ for
    Python keywords (`if_`, `while_`)."""
    name = mnemonic.replace("-", "_").lstrip("_")
    return name + "_" if keyword.iskeyword(name) else name


def builders(ops: list[OpDef]) -> dict:
    """{python name: builder function} for the ops, in table order; duplicate names are an error."""
    out = {}
    for op in ops:
        name = pyname(op.mnemonic)
        if name in out:
            raise ValueError(f"op {op.name} is declared twice")
        out[name] = builder(op, name)
    return out
