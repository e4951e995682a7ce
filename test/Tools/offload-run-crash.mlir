// Issue 11 item 4: a crash is not silent. This input's host code calls a
// null function pointer; offload-run prints its crash report with its
// command line and the raw stack (written without allocating: issue 20 item
// 1). (Inputs that crash upstream's parser or verifier are a one-line error
// instead: parser-crash.test.)
//
// In sanitized builds ASan's own SEGV handler then reports the crash and
// exits (no signal): not what this test checks.
// UNSUPPORTED: sanitized
// RUN: not --crash timeout 10 offload-run %s 2>&1 | FileCheck %s
// CHECK: offload-run: the program crashed while it ran. {{.*}} please report it with the input and the stack dump below.
// CHECK: Stack dump:
// CHECK: Program arguments: {{.*}}offload-run{{.*}}offload-run-crash.mlir
// CHECK-NEXT: offload-run: SIGSEGV (segmentation fault)
// CHECK-NEXT: Stack (return addresses; llvm-symbolizer resolves library+offset):

func.func @main() {
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call %null() : !llvm.ptr, () -> ()
  return
}
