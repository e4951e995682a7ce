// RUN: not offload-opt %s 2>&1 | FileCheck %s
// A malformed module gives a diagnostic and exit status 1.
// CHECK: offload-opt-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: custom op 'offload.frobnicate' is unknown
func.func @f() {
  offload.frobnicate
  return
}
