// -----
func.func @after_a_leading_marker() {
  return
}
// ----- 
func.func @b() {
  return
}
// ---- near miss
func.func @still_b() {
  return
}
// -----0
// -----
func.func @bad() {
  %x = 3
}
// -----
// -----
func.func @custom() {
  return
}
// @@@@@
func.func @after_custom() {
  return
}
// -----