"""Command-line tools: shlo-opt, shlo-compile, shlo-run (thin drivers over the library)."""
