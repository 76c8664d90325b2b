"""jax's LAPACK custom calls (lapack_*_ffi and the legacy ones): decompositions into
StableHLO, and calls of the host LAPACK of shlo's runtime on the cpu target."""
