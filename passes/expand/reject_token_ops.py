"""shlo-reject-token-ops: a clear error for a function that returns a !stablehlo.token.

IREE has no token type at a function's boundary and fails on a returned token with an
internal legalization error (docs/iree_gaps.md#shlo-reject-token-ops); this pass names the op
that made the token instead. Token
plumbing inside a function is pure and is removed when nothing uses it; the token I/O ops
(infeed, outfeed, send, recv) run through shlo's host runtime (shlo-host-collectives, which
runs first in the default pipeline and leaves fresh after_all tokens in their place).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.errors import PassError
from ..base import Pass, nested_ops

TOKEN_OPS = ("stablehlo.after_all", "stablehlo.create_token")


@dataclasses.dataclass
class RejectTokenOps(Pass):
    """Reject functions that return a token, with an error naming the op that made it."""

    NAME = "shlo-reject-token-ops"

    def run(self, op: ir.Operation) -> None:
        for o in nested_ops(op, "stablehlo."):
            if o.name in TOKEN_OPS and any(u.owner.name == "func.return"
                                           for u in o.results[0].uses):
                raise PassError(f"{o.name}: a function returning a !stablehlo.token is not "
                                f"supported (IREE has no token type at its boundary)", at=o)
