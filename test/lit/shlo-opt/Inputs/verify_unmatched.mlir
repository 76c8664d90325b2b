// expected-error @unknown {{an error nowhere}}
// expected-error-re @+1 {{bad {{(}} regex}}
func.func @f() {
  return
}
