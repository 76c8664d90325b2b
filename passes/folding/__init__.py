"""Compile-time folding: shlo-simplify (constants and exact identities) and folds of
dynamic ops on themselves."""
