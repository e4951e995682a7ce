// offload-run applies the transform script an input carries
// (`transform.named_sequence @__transform_main`) before its pipeline, as
// upstream's RUN lines do with -transform-interpreter, then erases it;
// --transform=off leaves the input as it is.

// RUN: split-file %s %t
// RUN: offload-run %t/script.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: offload-run --transform=auto --print-lowered-ir %t/script.mlir 2>/dev/null | FileCheck %s --check-prefix=ERASED
// RUN: offload-run --transform=off %t/script.mlir 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not offload-run %t/failing.mlir 2>&1 | FileCheck %s --check-prefix=FAILING
// RUN: not offload-run --transform=bogus %t/script.mlir 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: offload-run --help | FileCheck %s --check-prefix=HELP

// AUTO: script.mlir:1:1: remark: the script runs on the payload
// AUTO: 42

// ERASED-NOT: transform.
// ERASED: llvm.func @main
// ERASED-NOT: transform.

// OFF-NOT: remark
// OFF: 42

// FAILING: failing.mlir:{{[0-9]+}}:{{[0-9]+}}: error: incompatible payload operation name expected linalg.matmul vs func.func
// FAILING-NOT: never printed

// BOGUS: offload-run: unknown --transform value 'bogus'; expected auto or off

// HELP: --transform=<auto|off>

//--- script.mlir
func.func @main() {
  %c = arith.constant 42 : i32
  vector.print %c : i32
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "the script runs on the payload" : !transform.any_op
    transform.yield
  }
}

//--- failing.mlir
func.func @main() {
  %c = arith.constant 7 : i32
  vector.print %c : i32
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.cast %f : !transform.any_op to !transform.op<"linalg.matmul">
    transform.yield
  }
}
