// --split-input-file: each chunk between split markers is parsed and run on its own, a failing
// chunk does not stop the others (exit status 1), the outputs are joined by the marker, and
// diagnostics keep the file's line numbers; markers and near misses follow MLIR's rules, as
// iree-opt's output and messages show:
//
// RUN: not shlo-opt %S/Inputs/split_markers.mlir --split-input-file > %t.shlo.out 2> %t.shlo.err
// RUN: not iree-opt %S/Inputs/split_markers.mlir --split-input-file > %t.iree.out 2> %t.iree.err
// RUN: diff %t.shlo.out %t.iree.out
// RUN: diff %t.shlo.err %t.iree.err
// RUN: not shlo-opt %S/Inputs/split_markers.mlir '--split-input-file=// @@@@@' '--output-split-marker=// ===' > %t.shlo.out 2> %t.shlo.err
// RUN: not iree-opt %S/Inputs/split_markers.mlir '--split-input-file=// @@@@@' '--output-split-marker=// ===' > %t.iree.out 2> %t.iree.err
// RUN: diff %t.shlo.out %t.iree.out
// RUN: diff %t.shlo.err %t.iree.err
//
// RUN: not shlo-opt %S/Inputs/split_markers.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=ERR
// ERR: split_markers.mlir:9:7: warning: near miss with file split marker
// ERR: split_markers.mlir:13:7: warning: near miss with file split marker
// ERR: split_markers.mlir:16:7: error: expected operation name in quotes
// RUN: not shlo-opt %S/Inputs/split_markers.mlir --split-input-file 2> /dev/null | filecheck %s
// CHECK:      // {{-}}----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @b()
// CHECK:        func.func @still_b()
// CHECK:      // {{-}}----
// CHECK-NEXT: // {{-}}----
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK:      // {{-}}----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @custom()
//
// Without the flag the markers are comments: one module.
// RUN: shlo-opt %s | filecheck %s --check-prefix=WHOLE
// WHOLE:      func.func @first
// WHOLE-NEXT:   return
// WHOLE-NEXT: }
// WHOLE-NEXT: func.func @second
// RUN: shlo-opt %s --split-input-file | filecheck %s --check-prefix=SPLIT
// SPLIT:      func.func @first
// SPLIT:      // {{-}}----
// SPLIT-NEXT: module {
// SPLIT-NEXT:   func.func @second

func.func @first() {
  return
}
// -----
func.func @second() {
  return
}
