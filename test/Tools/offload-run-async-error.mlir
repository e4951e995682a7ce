// Issue 11 item 3: a runtime error inside async.execute ends the run with
// exit status 1 after its message, instead of hanging in the async runtime's
// destructor (which waits for the very task that reported the error).
//
// RUN: sh -c 'timeout 120 offload-run %s; echo "exit status $?"' > %t.out 2>&1
// RUN: FileCheck %s < %t.out

// CHECK-DAG: offload error: offload.free: OFFLOAD_ERRC_INVALID_ARGUMENT: Address ({{.*}}) was not allocated by offloadMemAlloc or was already freed
// CHECK-DAG: exit status 1
// CHECK-NOT: exit status

func.func @main() {
  %h = memref.alloc() : memref<4xi32>
  %t = async.execute {
    gpu.dealloc %h : memref<4xi32>
    async.yield
  }
  async.await %t : !async.token
  return
}
