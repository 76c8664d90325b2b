"""What the StableHLO spec numbers, as data: how many constraints (C1..Cn) each op has, and for
each constraint shlo does not check as a `Check`, why.

`COUNTS` lists the spec's ops with their number of constraints (105 ops, 436 constraints in
the spec text this was read from). A constraint is covered when an op's table checks it
(`Check(id)`), ties its result to it (`result_id` / `result_element_id`), or is listed here:
`BY_CONSTRUCTION` (the builder makes it hold, so it cannot be violated through it) or
`NOT_CHECKED` (with the reason). coverage.py derives docs/dialect_coverage.md from all this.
"""
from __future__ import annotations

COUNTS = {
    "abs": 2, "add": 7, "after_all": 0, "all_gather": 6, "all_reduce": 7, "all_to_all": 9,
    "and": 1, "atan2": 1, "batch_norm_grad": 5, "batch_norm_inference": 7,
    "batch_norm_training": 7, "bitcast_convert": 2, "broadcast_in_dim": 6, "case": 4, "cbrt": 1,
    "ceil": 1, "cholesky": 3, "clamp": 4, "collective_broadcast": 3, "collective_permute": 5,
    "compare": 3, "complex": 3, "composite": 4, "concatenate": 6, "constant": 1, "convert": 1,
    "convolution": 34, "cosine": 1, "count_leading_zeros": 1, "custom_call": 0, "divide": 1,
    "dot_general": 24, "dynamic_broadcast_in_dim": 10, "dynamic_conv": 34,
    "dynamic_gather": 14, "dynamic_iota": 2, "dynamic_pad": 4, "dynamic_reshape": 4,
    "dynamic_slice": 5, "dynamic_update_slice": 6, "exponential": 1,
    "exponential_minus_one": 1, "fft": 5, "floor": 1, "gather": 23, "get_dimension_size": 1,
    "get_tuple_element": 2, "if": 3, "imag": 2, "infeed": 3, "iota": 1, "is_finite": 1,
    "log": 1, "log_plus_one": 1, "logistic": 1, "map": 4, "maximum": 1, "minimum": 1,
    "multiply": 1, "negate": 1, "not": 1, "optimization_barrier": 1, "or": 1, "outfeed": 0,
    "pad": 4, "partition_id": 0, "popcnt": 1, "power": 1, "real": 2, "recv": 4, "reduce": 8,
    "reduce_precision": 3, "reduce_scatter": 9, "reduce_window": 16, "remainder": 1,
    "replica_id": 0, "reshape": 3, "reverse": 3, "rng": 3, "rng_bit_generator": 2,
    "round_nearest_afz": 1, "round_nearest_even": 1, "rsqrt": 1, "scatter": 25, "select": 2,
    "select_and_scatter": 12, "send": 1, "shift_left": 1, "shift_right_arithmetic": 1,
    "shift_right_logical": 1, "sign": 1, "sine": 1, "slice": 5, "sort": 5, "sqrt": 1,
    "subtract": 1, "tan": 1, "tanh": 1, "transpose": 4, "triangular_solve": 4, "tuple": 1,
    "uniform_dequantize": 2, "uniform_quantize": 2, "while": 3, "xor": 1,
}

_NO_ARGS = "the builder makes branch blocks with no arguments (the callables take none)"

BY_CONSTRUCTION = {
    "if": {"C1": _NO_ARGS},
    "case": {"C2": _NO_ARGS},
    "batch_norm_training": {
        "C5": "batch_mean is inferred with dim(operand, feature_index) entries",
        "C6": "batch_var is inferred with dim(operand, feature_index) entries"},
    "reduce_window": {"C14": "every result is inferred with one shape; a given result_type "
                             "of another shape fails C15"},
    "convolution": {"C26": "the result is inferred with rank N; a given result_type of "
                           "another rank fails C25"},
    "dynamic_conv": {"C26": "the result is inferred with rank N; a given result_type of "
                            "another rank fails C25"},
}

NOT_CHECKED: dict[str, dict[str, str]] = {}
