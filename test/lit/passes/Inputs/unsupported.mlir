func.func @main(%lhs: tensor<?x5xf32>, %rhs: tensor<3x5x6xf32>, %sizes: tensor<3xi64>) -> tensor<?x6xf32> {
  // a ragged dot over a dynamic number of rows: the group masks need static shapes
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]
  } : (tensor<?x5xf32>, tensor<3x5x6xf32>, tensor<3xi64>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
