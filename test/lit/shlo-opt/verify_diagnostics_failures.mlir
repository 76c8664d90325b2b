// --verify-diagnostics reports, like mlir-opt, each diagnostic nobody expected (as it happens)
// and each expectation nobody produced (at the end), and exits with status 1; the report is
// iree-opt's, byte for byte.
//
// RUN: not shlo-opt %s --split-input-file --verify-diagnostics 2> %t.shlo
// RUN: not iree-opt %s --split-input-file --verify-diagnostics 2> %t.iree
// RUN: diff %t.shlo %t.iree
// RUN: not shlo-opt %s --split-input-file --verify-diagnostics 2>&1 > /dev/null | filecheck %s --strict-whitespace
// A bad regex is reported where it is written, first (the designators are read first):
// RUN: not shlo-opt %s --split-input-file --verify-diagnostics 2>&1 > /dev/null | filecheck %s --check-prefix=REGEX
// REGEX:      .mlir:{{[0-9]+}}:4: error: found start of regex with no end '}}'
//
// CHECK:      .mlir:{{[0-9]+}}:3: error: unexpected error: type of return operand 0
// CHECK-NEXT: {{^}}  return %x : tensor<2xf32>
// CHECK-NEXT: {{^}}  ^
// CHECK:      .mlir:{{[0-9]+}}:6: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK:      .mlir:{{[0-9]+}}:1: error: unexpected note: see existing symbol definition here
// CHECK:      .mlir:{{[0-9]+}}:4: error: expected error "this is never said" was not produced
// CHECK-NEXT: {{^}}// expected{{-}}error @+1 {{.}}{this is never said}}
// CHECK-NEXT: {{^}}   ^~~~~~~~~~~~~~~~~~
// CHECK:      error: expected remark "nobody remarks" was not produced
// CHECK:      error: expected note "on the wrong line" was not produced
//
// --verify-diagnostics=only-expected reports only what was expected and not produced:
// RUN: not shlo-opt %s --split-input-file --verify-diagnostics=only-expected 2>&1 > /dev/null | filecheck %s --check-prefix=ONLY
// ONLY-NOT:   unexpected error
// ONLY:       expected error "this is never said" was not produced

func.func @unexpected(%x: tensor<2xf32>) -> tensor<3xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @wrong_kind(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-warning @+1 {{type of return operand 0}}
  return %x : tensor<2xf32>
}

// -----

// expected-error @+1 {{this is never said}}
func.func @missing() {
  return
}

// -----

func.func @remark() {
  return // expected-remark {{nobody remarks}}
}

// -----

// expected-note @+2 {{on the wrong line}}
// expected-error @+2 {{redefinition of symbol named 'twice'}}
func.func @twice() {
  return
}
func.func @twice() {
  return
}

// -----

// expected-error-re @+1 {{unbalanced {{(}}
func.func @bad_regex() {
  return
}
