"""shlo's Python passes, grouped by concern into subpackages, and what they share.

Here: the pass base class (base), the pass registry (registry: name -> module, imported on
use), textual pipelines mixing Python and C++ passes (pipeline), and the rule-table driver
(op_rules). Subpackages: chlo, custom_calls (lapack), shapes, expand, element_types, numerics,
sort, collectives, dispatch, folding, targets; lib holds the shared libraries.
"""
