// Hand-shrunk from shlo-fuzz --seed 24 --first 116 (the form after shlo's default pipeline).
// A while loop carries the argument %x and a trip count computed from it; with zero trips
// (x = -3.7) IREE 3.13's runtime fails most runs: "transient buffer has not been committed"
// (cpu, in hal.device.queue.dealloca), "transient buffer has no staged Vulkan backing" (vulkan).
// Expected result for x = -3.7: [[-3, 0]].
func.func @main(%x: tensor<1xf32>) -> tensor<1x2xi32> {
  %zeros = stablehlo.constant dense<0> : tensor<1xi32>
  %ones = stablehlo.constant dense<1> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %hi = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
  %lo = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
  %f0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %nan = stablehlo.compare NE, %x, %x, FLOAT : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %f0s = stablehlo.broadcast_in_dim %f0, dims = [] : (tensor<f32>) -> tensor<1xf32>
  %clean = stablehlo.select %nan, %f0s, %x : tensor<1xi1>, tensor<1xf32>
  %bounded = stablehlo.clamp %lo, %clean, %hi : (tensor<f32>, tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  %k = stablehlo.convert %bounded : (tensor<1xf32>) -> tensor<1xi32>
  %k0 = stablehlo.reshape %k : (tensor<1xi32>) -> tensor<i32>
  %n = stablehlo.clamp %c0, %k0, %c5 : tensor<i32>
  %w:3 = stablehlo.while(%i = %c0, %m = %n, %v = %x) : tensor<i32>, tensor<i32>, tensor<1xf32>
  cond {
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %u = stablehlo.add %v, %v : tensor<1xf32>
    stablehlo.return %j, %m, %u : tensor<i32>, tensor<i32>, tensor<1xf32>
  }
  %same = stablehlo.compare EQ, %w#2, %x, TOTALORDER : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %flag = stablehlo.select %same, %ones, %zeros : tensor<1xi1>, tensor<1xi32>
  %padded = stablehlo.pad %k, %c0, low = [0], high = [1], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
  %row = stablehlo.reshape %padded : (tensor<2xi32>) -> tensor<1x2xi32>
  %flags = stablehlo.broadcast_in_dim %flag, dims = [0] : (tensor<1xi32>) -> tensor<1x2xi32>
  %r = stablehlo.multiply %flags, %row : tensor<1x2xi32>
  return %r : tensor<1x2xi32>
}
