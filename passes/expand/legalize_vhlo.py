"""shlo-legalize-vhlo: a module of VHLO ops (a deserialized portable artifact) as StableHLO.

stablehlo-opt's `--vhlo-legalize-to-stablehlo`, for shlo-opt: the module's body is converted
by shlo.vhlo (which `shlo.parse_module` also applies when it reads an artifact) and replaced
in place. A module without VHLO ops is left alone; a VHLO construct the conversion does not
know is an error that names it.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.errors import PassError, ParseError
from shlo.module_io import vhlo_to_stablehlo
from shlo.vhlo import is_vhlo
from ..base import Pass


@dataclasses.dataclass
class LegalizeVhlo(Pass):
    """Convert a module of VHLO ops to StableHLO (func, stablehlo)."""

    NAME = "shlo-legalize-vhlo"
    ANCHOR = "builtin.module"

    def run(self, op: ir.Operation) -> None:
        if not is_vhlo(op):
            return
        try:
            converted = vhlo_to_stablehlo(op, op.context)
        except ParseError as e:
            raise PassError(f"shlo-legalize-vhlo: {str(e).splitlines()[0]}", at=op) from None
        old = list(op.regions[0].blocks[0].operations)
        for new in list(converted.body.operations):
            new.operation.move_before(old[0].operation)
        for o in old:
            o.operation.erase()
