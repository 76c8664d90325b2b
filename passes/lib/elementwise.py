"""StableHLO ops that apply elementwise: the same op on tensors of any shape computes the same
function of each element. Passes that widen scalar code to tensors (shlo-lower-sort runs a
sort's comparator on whole tensors) and analyses of what a module does read this table.
"""

ELEMENTWISE_OPS = frozenset(f"stablehlo.{name}" for name in (
    "abs add and atan2 bitcast_convert cbrt ceil clamp compare complex convert cosine "
    "count_leading_zeros divide exponential exponential_minus_one floor imag is_finite log "
    "log_plus_one logistic maximum minimum multiply negate not or popcnt power real "
    "reduce_precision remainder round_nearest_afz round_nearest_even rsqrt select shift_left "
    "shift_right_arithmetic shift_right_logical sign sine sqrt subtract tan tanh xor").split())
