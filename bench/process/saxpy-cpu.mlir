// saxpy of examples/saxpy.mlir for the CPU with upstream MLIR alone: the same
// host code and data, the kernel as an scf.parallel loop (no gpu dialect);
// bench/run-process-bench.sh runs it with mlir-opt | mlir-runner as the
// baseline of the whole offload-run process.

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1000000 : index
    %a = arith.constant 2.0 : f32

    // Host data: x[i] = i mod 100, y[i] = 1.
    %hx = memref.alloc(%n) : memref<?xf32>
    %hy = memref.alloc(%n) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %c100 = arith.constant 100 : index
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c100 : index
      %mi = arith.index_cast %m : index to i32
      %xf = arith.sitofp %mi : i32 to f32
      memref.store %xf, %hx[%i] : memref<?xf32>
      memref.store %one, %hy[%i] : memref<?xf32>
    }

    // The kernel as a loop over every element (what upstream MLIR runs on a
    // CPU without a GPU runtime): y = a * x + y.
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %xi = memref.load %hx[%i] : memref<?xf32>
      %yi = memref.load %hy[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xi : f32
      %r = arith.addf %ax, %yi : f32
      memref.store %r, %hy[%i] : memref<?xf32>
      scf.reduce
    }

    // The first results, then the sum of all of them.
    %head = memref.subview %hy[0] [8] [1]
        : memref<?xf32> to memref<8xf32, strided<[1]>>
    %headCast = memref.cast %head
        : memref<8xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%headCast) : (memref<*xf32>) -> ()
    %zero = arith.constant 0.0 : f64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %hy[%i] : memref<?xf32>
      %vd = arith.extf %v : f32 to f64
      %next = arith.addf %acc, %vd : f64
      scf.yield %next : f64
    }
    vector.print str "checksum: "
    vector.print %sum : f64
    memref.dealloc %hx : memref<?xf32>
    memref.dealloc %hy : memref<?xf32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
