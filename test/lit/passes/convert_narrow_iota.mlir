// RUN: shlo-opt --shlo-convert-narrow-iota %s | filecheck %s

// Iotas of floats narrower than 32 bits count in i32 and convert; f32 stays.
// CHECK-LABEL: func.func @iotas
// CHECK:         %[[A:.*]] = stablehlo.iota dim = 0 : tensor<65536xi32>
// CHECK:         %[[AF:.*]] = stablehlo.convert %[[A]] : (tensor<65536xi32>) -> tensor<65536xf16>
// CHECK:         %[[B:.*]] = stablehlo.iota dim = 1 : tensor<4x300xi32>
// CHECK:         %[[BF:.*]] = stablehlo.convert %[[B]] : (tensor<4x300xi32>) -> tensor<4x300xf8E4M3FN>
// CHECK:         %[[C:.*]] = stablehlo.iota dim = 0 : tensor<8xf32>
// CHECK:         %[[D:.*]] = stablehlo.dynamic_iota %arg0, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
// CHECK:         %[[DF:.*]] = stablehlo.convert %[[D]] : (tensor<?xi32>) -> tensor<?xbf16>
// CHECK:         return %[[AF]], %[[BF]], %[[C]], %[[DF]]
func.func @iotas(%n: tensor<1xi32>) -> (tensor<65536xf16>, tensor<4x300xf8E4M3FN>, tensor<8xf32>, tensor<?xbf16>) {
  %0 = stablehlo.iota dim = 0 : tensor<65536xf16>
  %1 = stablehlo.iota dim = 1 : tensor<4x300xf8E4M3FN>
  %2 = stablehlo.iota dim = 0 : tensor<8xf32>
  %3 = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi32>) -> tensor<?xbf16>
  return %0, %1, %2, %3 : tensor<65536xf16>, tensor<4x300xf8E4M3FN>, tensor<8xf32>, tensor<?xbf16>
}
