// Issue 11 item 4: a crash is not silent. This input's host code calls a
// null function pointer; offload-run prints LLVM's stack dump with its
// command line. (Inputs that crash upstream's parser or verifier are an
// error instead: parser-crash.test.)
//
// In sanitized builds ASan's own SEGV handler reports the crash and exits
// (no signal, no LLVM stack dump): not what this test checks.
// UNSUPPORTED: sanitized
// RUN: not --crash offload-run %s 2>&1 | FileCheck %s
// CHECK: offload-run crashed. Please report it with the input and the stack dump below.
// CHECK: Stack dump:
// CHECK: Program arguments: {{.*}}offload-run{{.*}}offload-run-crash.mlir

func.func @main() {
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call %null() : !llvm.ptr, () -> ()
  return
}
