// Diagnostics at locations of every kind (errors.mlir checks how each one prints).
func.func @unknown(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc(unknown)
  return %0 : tensor<2xf32>
}
// -----
func.func @other_file(%x: tensor<2xf32>) -> tensor<2xf32> {
  %1 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc("other.mlir":7:3)
  return %1 : tensor<2xf32>
}
// -----
func.func @fused(%x: tensor<2xf32>) -> tensor<2xf32> {
  %2 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc(fused["Inputs/locations.mlir":1:5, "x.mlir":2:2])
  return %2 : tensor<2xf32>
}
// -----
func.func @callsite(%x: tensor<2xf32>) -> tensor<2xf32> {
  %3 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc(callsite("Inputs/locations.mlir":1:2 at callsite("Inputs/locations.mlir":4:3 at "Inputs/locations.mlir":5:1)))
  return %3 : tensor<2xf32>
}
// -----
func.func @named(%x: tensor<2xf32>) -> tensor<2xf32> {
  %4 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32> loc("named")
  return %4 : tensor<2xf32>
}
// -----
func.func @tab(%x: tensor<2xf32>) -> tensor<2xf32> {
	%6 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %6 : tensor<2xf32>
}
