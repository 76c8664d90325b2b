// --allow-unregistered-dialect: ops of dialects nobody registered, in generic form, parse and
// print (as in iree-opt); without it they are an error.
//
// RUN: not shlo-opt %s 2> %t.shlo
// RUN: not iree-opt %s 2> %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: not shlo-opt %s 2>&1 | filecheck %s --check-prefix=NO-FLAG
// NO-FLAG: unregistered.mlir:30:17: error: operation being parsed with an unregistered dialect
// RUN: shlo-opt %s --allow-unregistered-dialect --cse > %t.shlo
// RUN: iree-opt %s --allow-unregistered-dialect --cse > %t.iree
// RUN: diff %t.shlo %t.iree
//
// The check and interpreter ops of StableHLO's interpreter tests are written in their custom
// syntax, which MLIR cannot parse for an unregistered dialect, and IREE registers a `check`
// dialect of its own whose ops clash with them (iree-opt fails on these files, flag or not).
// With the flag shlo-opt reads them as generic ops of an unregistered dialect (GUIDE §5);
// without it, a note says so.
// RUN: shlo-opt %S/Inputs/test_ops.mlir --allow-unregistered-dialect | filecheck %s --check-prefix=TEST-OPS
// TEST-OPS: stablehlo.add
// TEST-OPS: expect_eq"
// TEST-OPS: expect_eq_const"
// TEST-OPS: expect_almost_eq_const"
// TEST-OPS: expect_close"
// TEST-OPS: probe"
// TEST-OPS: expect_serialized_eq"
// RUN: not shlo-opt %S/Inputs/test_ops.mlir 2>&1 | filecheck %s --check-prefix=HINT
// HINT: test_ops.mlir:4:3: note: 'check.expect_eq' is an op of StableHLO's test dialects, which IREE does not have (its own 'check' dialect differs): --allow-unregistered-dialect parses it
// RUN: not iree-opt %S/Inputs/test_ops.mlir --allow-unregistered-dialect
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "foo.bar"(%a) {attr = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "foo.bar"(%a) {attr = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  "foo.use"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> ()
  return %0 : tensor<2xf32>
}
