"""shlo's Python passes, their registry, and textual pipelines mixing them with C++ passes."""
