"""stablehlo.custom_call: the shlo-expand-custom-calls pass, its registry (call target ->
decomposition; registrants register themselves), and the decompositions of the calls jax emits
(LAPACK in lapack/, GPU/TPU solvers, Threefry, FFT, top-k, sharding annotations, scans)."""
