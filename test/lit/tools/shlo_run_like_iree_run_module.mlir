// shlo-run prints results exactly as iree-run-module does, for the same .vmfb and inputs.
// RUN: shlo-compile %s --target cpu --pipeline none -o %t.vmfb
// RUN: iree-run-module --module=%t.vmfb --input=2x3xf32=1,2.5,3e10,-0,1e-7,0.1 --input="2xf64=0.1 -inf" --input=i32=-7 --input=2xbf16=1.5,3.14159 --input=2xui8=250,3 --input=2xf16=0.1,65504 --input=2x1x2xi8=[1,2][3,4] > %t.iree.txt
// RUN: shlo-run %t.vmfb --input=2x3xf32=1,2.5,3e10,-0,1e-7,0.1 --input="2xf64=0.1 -inf" --input=i32=-7 --input=2xbf16=1.5,3.14159 --input=2xui8=250,3 --input=2xf16=0.1,65504 --input=2x1x2xi8=[1,2][3,4] > %t.shlo.txt
// RUN: diff %t.iree.txt %t.shlo.txt
// RUN: iree-run-module --module=%t.vmfb --input=2x3xf32=1 --input=2xf64=0 --input=i32=0 --input=2xbf16=0 --input=2xui8=0 --input=2xf16=0 --input=2x1x2xi8=0 --output_max_element_count=4 > %t.iree-elided.txt
// RUN: shlo-run %t.vmfb --input=2x3xf32=1 --input=2xf64=0 --input=i32=0 --input=2xbf16=0 --input=2xui8=0 --input=2xf16=0 --input=2x1x2xi8=0 --output_max_element_count=4 > %t.shlo-elided.txt
// RUN: diff %t.iree-elided.txt %t.shlo-elided.txt
// RUN: filecheck %s < %t.shlo.txt

// CHECK:      EXEC @main
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 2x3xf32=[1 2.5 3E+10][-0 1E-07 0.1]
// CHECK:      2xf64=0.1 -INF
// CHECK:      i32=-7
// CHECK:      2xbf16=1.5 3.14062
// CHECK:      2xui8=250 3
// CHECK:      2xf16=0.0999756 65504
// CHECK:      2x1x2xi8={{\[\[}}1 2]]{{\[\[}}3 4]]
// CHECK:      3xi1=01 00 01
func.func @main(%a: tensor<2x3xf32>, %c: tensor<2xf64>, %d: tensor<i32>, %e: tensor<2xbf16>,
                %g: tensor<2xui8>, %h: tensor<2xf16>, %b: tensor<2x1x2xi8>)
    -> (tensor<2x3xf32>, tensor<2xf64>, tensor<i32>, tensor<2xbf16>, tensor<2xui8>,
        tensor<2xf16>, tensor<2x1x2xi8>, tensor<3xi1>) {
  %t = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  return %a, %c, %d, %e, %g, %h, %b, %t : tensor<2x3xf32>, tensor<2xf64>, tensor<i32>,
      tensor<2xbf16>, tensor<2xui8>, tensor<2xf16>, tensor<2x1x2xi8>, tensor<3xi1>
}
