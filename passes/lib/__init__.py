"""Libraries the passes share (no passes here): the formula builder the decompositions are
written in (expr), builders of ops shlo.dialect has no typed builder for (builders), and the
elementwise op set (elementwise)."""
