// offload-host-private-alloca-scopes: the accesses to allocas whose address
// does not escape get an alias scope, every other access of the function
// gets it as a noalias scope; escaping allocas change nothing.
//
// RUN: offload-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(llvm.func(offload-host-private-alloca-scopes))' \
// RUN:   | FileCheck %s

// CHECK: #[[DOMAIN:.*]] = #llvm.alias_scope_domain<id = distinct[{{.*}}]<>, description = "private allocas of @gep">
// CHECK: #[[SCOPE:.*]] = #llvm.alias_scope<id = distinct[{{.*}}]<>, domain = #[[DOMAIN]], description = "private allocas">
// CHECK-LABEL: llvm.func @gep(
// CHECK-SAME: %[[A:.*]]: !llvm.ptr, %[[I:.*]]: i64)
// CHECK: %[[P:.*]] = llvm.alloca
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[P]][%[[I]]]
// CHECK: llvm.store %{{.*}}, %[[Q]] {alias_scopes = [#[[SCOPE]]]}
// CHECK: llvm.load %[[A]] {noalias_scopes = [#[[SCOPE]]]}
// CHECK: llvm.load %[[Q]] {alias_scopes = [#[[SCOPE]]]}
// CHECK: llvm.intr.masked.store %{{.*}}, %[[P]]
llvm.func @gep(%a: !llvm.ptr, %i: i64) -> f32 {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.mlir.constant(1.0 : f32) : f32
  llvm.store %x, %q : f32, !llvm.ptr
  %y = llvm.load %a : !llvm.ptr -> f32
  %z = llvm.load %q : !llvm.ptr -> f32
  %v = llvm.mlir.constant(dense<0.0> : vector<4xf32>) : vector<4xf32>
  %m = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
  llvm.intr.masked.store %v, %p, %m {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr
  %s = llvm.fadd %y, %z : f32
  llvm.return %s : f32
}

// -----

// Through a memref descriptor, as the memref lowering builds it: the
// pointers at positions 0 and 1 are the alloca's, the size is not.

// CHECK-LABEL: llvm.func @descriptor(
// CHECK: %[[D:.*]] = llvm.insertvalue %{{.*}}[2]
// CHECK: %[[E:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: llvm.store %{{.*}}, %[[E]] {alias_scopes = [#[[SCOPE:.*]]]}
// CHECK: %[[F:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: llvm.load %[[F]] {alias_scopes = [#[[SCOPE]]]}
// CHECK: llvm.store %{{.*}}, %{{.*}} {noalias_scopes = [#[[SCOPE]]]}
llvm.func @descriptor(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
  %d2 = llvm.insertvalue %n, %d1[2] : !llvm.struct<(ptr, ptr, i64)>
  %e = llvm.extractvalue %d2[1] : !llvm.struct<(ptr, ptr, i64)>
  %x = llvm.mlir.constant(1.0 : f32) : f32
  llvm.store %x, %e : f32, !llvm.ptr
  %f = llvm.extractvalue %d2[0] : !llvm.struct<(ptr, ptr, i64)>
  %y = llvm.load %f : !llvm.ptr -> f32
  %size = llvm.extractvalue %d2[2] : !llvm.struct<(ptr, ptr, i64)>
  %g = llvm.getelementptr %a[%size] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %y, %g : f32, !llvm.ptr
  llvm.return
}

// -----

// Escaping allocas: passed to a call, stored as a value, converted to an
// integer, a branch operand, overwritten in the descriptor position it is
// read back from by another pointer (not an escape: the read is of %a),
// and a copy between a private alloca and the argument (both kinds: left
// alone).

llvm.func @use(!llvm.ptr)

// CHECK-LABEL: llvm.func @call(
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
llvm.func @call(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %x = llvm.mlir.constant(1.0 : f32) : f32
  llvm.store %x, %p : f32, !llvm.ptr
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  %y = llvm.load %a : !llvm.ptr -> f32
  llvm.return
}

// CHECK-LABEL: llvm.func @stored(
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
llvm.func @stored(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.store %q, %a : !llvm.ptr, !llvm.ptr
  %y = llvm.load %p : !llvm.ptr -> f32
  llvm.return
}

// CHECK-LABEL: llvm.func @ptrtoint(
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
llvm.func @ptrtoint(%a: !llvm.ptr) -> i64 {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %y = llvm.load %p : !llvm.ptr -> f32
  %i = llvm.ptrtoint %p : !llvm.ptr to i64
  llvm.return %i : i64
}

// CHECK-LABEL: llvm.func @branch(
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
llvm.func @branch(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  llvm.br ^bb1(%p : !llvm.ptr)
^bb1(%q: !llvm.ptr):
  %y = llvm.load %q : !llvm.ptr -> f32
  %z = llvm.load %a : !llvm.ptr -> f32
  llvm.return
}

// CHECK-LABEL: llvm.func @overwritten(
// CHECK: %[[E:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: llvm.load %[[E]] {noalias_scopes = [#[[SCOPE:.*]]]}
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE]]]}
llvm.func @overwritten(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr)>
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr)>
  %d1 = llvm.insertvalue %a, %d0[0] : !llvm.struct<(ptr, ptr)>
  %e = llvm.extractvalue %d1[0] : !llvm.struct<(ptr, ptr)>
  %y = llvm.load %e : !llvm.ptr -> f32
  %z = llvm.load %p : !llvm.ptr -> f32
  llvm.return
}

// CHECK-LABEL: llvm.func @copy(
// CHECK: "llvm.intr.memcpy"
// CHECK-NOT: alias_scopes
// CHECK-SAME: : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.load %{{.*}} {alias_scopes
llvm.func @copy(%a: !llvm.ptr) {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
  "llvm.intr.memcpy"(%a, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %y = llvm.load %p : !llvm.ptr -> f32
  llvm.return
}
