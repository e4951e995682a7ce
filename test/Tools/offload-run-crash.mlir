// Issue 11 item 4: a crash is not silent. This input crashes upstream's
// gpu.launch verifier (MLIR 22: a result without `async`; stock mlir-opt
// crashes too); offload-run prints its crash report with its command line
// and the raw stack (written without allocating: issue 20 item 1).
//
// In sanitized builds ASan's own SEGV handler then reports the crash and
// exits (no signal): not what this test checks.
// UNSUPPORTED: sanitized
// RUN: not --crash timeout 10 offload-run %s 2>&1 | FileCheck %s
// CHECK: offload-run crashed. Please report it with the input and the stack dump below.
// CHECK: Stack dump:
// CHECK: Program arguments: {{.*}}offload-run{{.*}}offload-run-crash.mlir
// CHECK-NEXT: offload-run: SIGSEGV (segmentation fault)
// CHECK-NEXT: Stack (return addresses; llvm-symbolizer resolves library+offset):
// CHECK: libMLIR{{.*}}(_ZN4mlir3gpu8LaunchOp{{.*}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %t = gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
                  threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    gpu.terminator
  }
  return
}
