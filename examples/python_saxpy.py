#!/usr/bin/env python3
"""saxpy from Python: y = a * x + y on one million floats.

The kernel is MLIR text (a gpu.module) compiled at its first launch for the
device and specialized on the runtime constant `a`. Run it after
./scripts/setup.sh (which builds the package and installs it into .venv):

    .venv/bin/python examples/python_saxpy.py

or from a build tree without installing:

    PYTHONPATH=build/python .venv/bin/python examples/python_saxpy.py
"""

import numpy as np

import offload

SAXPY = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index)
        kernel {
      // Fold the value of `a` into the kernel at launch.
      %ka = offload.runtime_constant %a : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %ka, %xi : f32
        %r = arith.addf %ax, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""


def main():
    device = offload.devices()[0]  # the host CPU; GPUs follow when present
    print(device)

    n = 1_000_000
    x = np.arange(n, dtype=np.float32) % 100
    y = np.ones(n, dtype=np.float32)
    a = np.float32(2.0)

    # Device memory: copies of the NumPy arrays.
    dx = offload.asarray(x, device=device)
    dy = offload.asarray(y, device=device)

    saxpy = offload.compile(SAXPY, device=device).kernel("saxpy")
    block = 256
    grid = (n + block - 1) // block
    saxpy(a, dx, dy, n, grid=grid, block=block)  # compiles, then runs
    saxpy(a, dx, dy, n, grid=grid, block=block)  # the cached specialization

    result = dy.numpy()  # on the host device: a view, no copy
    expected = a * x + (a * x + y)
    print("first results:", result[:8])
    print(f"max |error| = {np.abs(result - expected).max():g}")
    stats = offload.jit_stats()
    print(f"jit: {stats['launches']} launches, {stats['compiles']} compiles, "
          f"{stats['memory_hits']} memory hits, {stats['disk_hits']} disk hits")


if __name__ == "__main__":
    main()
