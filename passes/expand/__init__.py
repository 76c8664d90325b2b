"""StableHLO ops IREE does not lower (or lowers wrongly) rewritten as other StableHLO:
gather/scatter canonical forms, fft, reduce_window, select_and_scatter, linalg, rng,
batch_norm_grad, convolution and dot attributes, VHLO, token ops."""
