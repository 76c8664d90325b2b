// RUN: shlo-opt --split-input-file --shlo-legalize-vulkan-ops %s | filecheck %s --check-prefix=VK
// RUN: shlo-opt --split-input-file --shlo-copy-overlapping-updates %s | filecheck %s --check-prefix=UPD

// vk-sliced-iota: iota[1:8192] as an iota of 8191 plus 1, iota[3::4] as an iota times 4 plus
// 3 (longer than 4096: a shorter 1-D iota becomes a constant, vk-iota-reduce-alloc).
// VK-LABEL: func.func @sliced_iota
// VK-DAG:     %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<8191xi32>
// VK-DAG:     %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<8192xi32>
// VK-DAG:     %[[THREE:.*]] = stablehlo.constant dense<3> : tensor<8192xi32>
// VK-DAG:     %[[I:.*]] = stablehlo.iota dim = 0 : tensor<8191xi32>
// VK-DAG:     %[[A:.*]] = stablehlo.add %[[I]], %[[ONE]] : tensor<8191xi32>
// VK-DAG:     %[[J:.*]] = stablehlo.iota dim = 0 : tensor<8192xi32>
// VK-DAG:     %[[M:.*]] = stablehlo.multiply %[[J]], %[[FOUR]] : tensor<8192xi32>
// VK-DAG:     %[[B:.*]] = stablehlo.add %[[M]], %[[THREE]] : tensor<8192xi32>
// VK-NOT:     stablehlo.slice
// VK:         return %[[A]], %[[B]]
func.func @sliced_iota() -> (tensor<8191xi32>, tensor<8192xi32>) {
  %i = stablehlo.iota dim = 0 : tensor<32768xi32>
  %a = stablehlo.slice %i [1:8192] : (tensor<32768xi32>) -> tensor<8191xi32>
  %b = stablehlo.slice %i [3:32768:4] : (tensor<32768xi32>) -> tensor<8192xi32>
  return %a, %b : tensor<8191xi32>, tensor<8192xi32>
}

// -----

// vk-complex-part-of-view: imag(transpose(reshape(complex(x, y)))) as transpose(reshape(y)).
// VK-LABEL: func.func @complex_part_of_view
// VK:         %[[R:.*]] = stablehlo.reshape %arg1 : (tensor<6xf32>) -> tensor<2x3xf32>
// VK:         %[[T:.*]] = stablehlo.transpose %[[R]], dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// VK-NOT:     stablehlo.imag
// VK:         return %[[T]]
func.func @complex_part_of_view(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<3x2xf32> {
  %c = stablehlo.complex %x, %y : tensor<6xcomplex<f32>>
  %r = stablehlo.reshape %c : (tensor<6xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  %i = stablehlo.imag %t : (tensor<3x2xcomplex<f32>>) -> tensor<3x2xf32>
  return %i : tensor<3x2xf32>
}

// -----

// A pad of a computed value by a value from an if: the value read through a barrier of its
// own; a pad of an argument's slice is left alone.
// UPD-LABEL: func.func @pad_after_if
// UPD:         %[[E:.*]] = stablehlo.exponential %arg0
// UPD:         %[[B:.*]] = stablehlo.optimization_barrier %[[E]] : tensor<4xf32>
// UPD:         stablehlo.pad %[[B]], %{{.*}}, low = [1]
// UPD:         %[[S:.*]] = stablehlo.slice %arg0 [0:2]
// UPD:         stablehlo.pad %[[S]], %{{.*}}, low = [2]
func.func @pad_after_if(%x: tensor<4xf32>, %p: tensor<i1>) -> (tensor<6xf32>, tensor<6xf32>) {
  %e = stablehlo.exponential %x : tensor<4xf32>
  %v = "stablehlo.if"(%p) ({
    %t = stablehlo.slice %x [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %s = stablehlo.reshape %t : (tensor<1xf32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }, {
    %t = stablehlo.slice %x [1:2] : (tensor<4xf32>) -> tensor<1xf32>
    %s = stablehlo.reshape %t : (tensor<1xf32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %r = stablehlo.pad %e, %v, low = [1], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  %a = stablehlo.slice %x [0:2] : (tensor<4xf32>) -> tensor<2xf32>
  %q = stablehlo.pad %a, %v, low = [2], high = [2], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  return %r, %q : tensor<6xf32>, tensor<6xf32>
}
