// RUN: shlo-opt --shlo-saturate-float-to-int %s | filecheck %s
// RUN: shlo-opt --shlo-saturate-float-to-int --shlo-saturate-float-to-int %s | filecheck %s

// f32 -> ui8: clamped to [0, 255.99998] (NaN to 0) and converted; 256 and above are 255.
// CHECK-LABEL: func.func @to_u8
// CHECK-DAG:     %[[LO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK-DAG:     %[[HI:.*]] = stablehlo.constant dense<255.999985> : tensor<8xf32>
// CHECK:         %[[C:.*]] = stablehlo.clamp %[[LO]], %arg0, %[[HI]]
// CHECK:         %[[NAN:.*]] = stablehlo.compare NE, %arg0, %arg0
// CHECK:         %[[IN:.*]] = stablehlo.select %[[NAN]], %{{.*}}, %[[C]]
// CHECK:         %[[R:.*]] = stablehlo.convert %[[IN]] : (tensor<8xf32>) -> tensor<8xui8>
// CHECK:         %[[BIG:.*]] = stablehlo.compare GE, %arg0, %{{.*}}
// CHECK:         stablehlo.select %[[BIG]], %{{.*}}, %[[R]] : tensor<8xi1>, tensor<8xui8>
// CHECK-NOT:     stablehlo.convert
// CHECK:         return
func.func @to_u8(%x: tensor<8xf32>) -> tensor<8xui8> {
  %0 = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xui8>
  return %0 : tensor<8xui8>
}

// f16 -> i32: f16 holds neither bound, so -inf is selected to INT_MIN too.
// CHECK-LABEL: func.func @f16_to_i32
// CHECK-DAG:     %[[MIN:.*]] = stablehlo.constant dense<-2147483648> : tensor<4xi32>
// CHECK-DAG:     %[[BOTTOM:.*]] = stablehlo.constant dense<-6.550400e+04> : tensor<4xf16>
// CHECK:         stablehlo.convert %{{.*}} : (tensor<4xf16>) -> tensor<4xi32>
// CHECK:         %[[LOW:.*]] = stablehlo.compare LT, %arg0, %[[BOTTOM]]
// CHECK:         stablehlo.select %[[LOW]], %[[MIN]], %{{.*}} : tensor<4xi1>, tensor<4xi32>
func.func @f16_to_i32(%x: tensor<4xf16>) -> tensor<4xi32> {
  %0 = stablehlo.convert %x : (tensor<4xf16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Integer, boolean and float results, and integer sources: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     stablehlo.clamp
// CHECK:         return
func.func @unchanged(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xf16>, tensor<4xi8>) {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
  %2 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xi8>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xf16>, tensor<4xi8>
}
