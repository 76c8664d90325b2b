"""shlo-reject-token-ops: a clear error for the token-based I/O IREE cannot run.

infeed, outfeed, send and recv exchange data with a host queue or another process through
tokens; IREE's runtime has neither, and IREE 3.13 fails on them with an internal legalization
error. This pass names the op and the reason instead. Token plumbing alone (after_all,
create_token) is pure and is removed when nothing uses it, so it is rejected only when its
token leaves the function.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..errors import PassError
from .base import Pass, nested_ops

IO_OPS = {
    "stablehlo.infeed": "reads a host infeed queue",
    "stablehlo.outfeed": "writes a host outfeed queue",
    "stablehlo.send": "sends to another process",
    "stablehlo.recv": "receives from another process",
}
TOKEN_OPS = ("stablehlo.after_all", "stablehlo.create_token")


@dataclasses.dataclass
class RejectTokenOps(Pass):
    """Reject infeed, outfeed, send, recv and returned tokens with an error naming the op."""

    NAME = "shlo-reject-token-ops"

    def run(self, op: ir.Operation) -> None:
        for o in nested_ops(op, "stablehlo."):
            if o.name in IO_OPS:
                raise PassError(f"{o.name} is not supported: it {IO_OPS[o.name]}, and IREE's "
                                f"runtime has no host queues or other processes to exchange "
                                f"tokens with", at=o)
            if o.name in TOKEN_OPS and any(u.owner.name == "func.return"
                                           for u in o.results[0].uses):
                raise PassError(f"{o.name}: a function returning a !stablehlo.token is not "
                                f"supported (IREE has no token type at its boundary)", at=o)
