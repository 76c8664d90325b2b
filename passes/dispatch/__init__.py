"""Rewrites that shape the dispatches IREE forms, for speed or to stay within its limits:
barriers (fences) that split fusions, bounded reductions, loop rewrites, convolution and dot
layouts. The results are unchanged; what IREE fuses changes."""
