"""stablehlo.sort: a bitonic network of StableHLO ops, sorts of packed integer keys, and
IREE's top-k for sorts of which only the first k are read."""
