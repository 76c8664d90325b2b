"""CHLO to StableHLO: the shlo-legalize-chlo pass and its rule tables, one module per family
(exact arithmetic, broadcasting ops, erf, gamma functions, sin/cos kernels, trigonometry,
structural ops)."""
