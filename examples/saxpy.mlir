// saxpy: y = a * x + y on 1,000,000 floats, the hello-world of offloading.
//
// A gpu.module holds the kernel; the host allocates device memory, copies the
// inputs in, launches a grid of 256-thread blocks and copies the result back.
// Run it with:
//   build/bin/offload-run examples/saxpy.mlir
// It prints the first eight results and a checksum computed on the host.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // One thread per element; threads past the end do nothing.
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index)
        kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xi : f32
        %r = arith.addf %ax, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

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

    // Device buffers and copies.
    %dx = gpu.alloc (%n) : memref<?xf32>
    %dy = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %dx, %hx : memref<?xf32>, memref<?xf32>
    gpu.memcpy %dy, %hy : memref<?xf32>, memref<?xf32>

    // ceil(n / 256) blocks of 256 threads.
    %c255 = arith.constant 255 : index
    %np = arith.addi %n, %c255 : index
    %blocks = arith.divui %np, %c256 : index
    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : f32, %dx : memref<?xf32>, %dy : memref<?xf32>, %n : index)

    gpu.memcpy %hy, %dy : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dx : memref<?xf32>
    gpu.dealloc %dy : memref<?xf32>

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
