"""The calls a compiled module makes to shlo's host runtime (the `shlo_host` VM module).

IREE's CPU and Vulkan devices run one process and have no channels between processes, no
infeed or outfeed queues. shlo-host-collectives turns the ops that need them into calls of
functions the host provides (shlo.runtime.host_module), so that several processes (threads,
one VM context each) can run one program: `shlo.runtime.run_parallel`.

Data crosses as raw bytes (`tensor<?xi8>`), so each host function has one signature whatever
the tensor's type; the program reshapes and bitcasts on its side, the host moves bytes.
Both sides read the constants below.
"""
from __future__ import annotations

MODULE = "shlo_host"                 # the VM module name the program imports from
REFLECTION_KEY = "shlo.host"         # iree.reflection entry on public functions that call it

# Host functions: name -> IREE calling convention. Each takes first, and ignores, `after`:
# a previous host call's result in the same block (IREE reorders calls that do not depend on
# each other's data; this keeps program order), and returns bytes (empty for send/outfeed).
#   collective(after, data, groups, primitive, op, mode, replicas, partitions) -> data
#   process_id(after, replicas, partitions) -> 8 bytes: (replica_id, partition_id) as u32
#   send(after, data, channel, pairs, mode, replicas, partitions)
#   recv(after, channel, byte count, pairs, mode, replicas, partitions) -> data
#     (pairs: the op's (source, target) processes, named as MODES[mode] says; none (0 x 0):
#     a FIFO per channel that any process may read, which only the thread engine has)
#   infeed(after, descriptor, part, parts) -> data; outfeed(after, data, descriptor, part, parts)
FUNCTIONS = {
    "collective": "0rrriiiii_r",
    "process_id": "0rii_r",
    "send": "0rrIriii_r",
    "recv": "0rIIriii_r",
    "infeed": "0rrii_r",
    "outfeed": "0rrrii_r",
}

# How a collective moves data among the processes of the caller's group (see the host module).
# GROUP_SIZE: the size of the caller's group as an i32 (ragged groups: -1 pads replica_groups,
# and GATHER pads the shorter groups' results with zeros to the longest group's size).
# BROADCAST_FROM: like BROADCAST, from the group member whose index (an i32) ends the data.
GATHER, ALL_TO_ALL, BROADCAST, PERMUTE, ROOT_ONLY, GROUP_SIZE, BROADCAST_FROM = range(7)

# The spec's ways of forming process groups from replica_groups (or source_target_pairs).
MODES = ("cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids")

# Ops named in the host's messages, by index.
OPS = ("stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.reduce_scatter",
       "stablehlo.all_to_all", "stablehlo.collective_broadcast",
       "stablehlo.collective_permute", "stablehlo.collective_reduce")

# Element types of infeed/outfeed descriptors ([element index, rank, dims..., config bytes]).
ELEMENTS = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16",
            "f32", "f64", "complex<f32>", "complex<f64>", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ",
            "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E4M3", "f8E3M4", "f8E8M0FNU")
