# Part of the offload project, under the Apache License v2.0 with LLVM
# Exceptions.
"""The FlyDSL kernels of capture.py (imported by it; needs flydsl)."""

import flydsl.compiler as flyc
import flydsl.expr as fx


@flyc.kernel
def vadd_kernel(A: fx.Tensor, B: fx.Tensor, C: fx.Tensor):
    i = fx.block_idx.x * fx.block_dim.x + fx.thread_idx.x
    C[i] = A[i] + B[i]


@flyc.jit
def vadd(A: fx.Tensor, B: fx.Tensor, C: fx.Tensor):
    vadd_kernel(A, B, C).launch(grid=(4, 1, 1), block=(64, 1, 1))


@flyc.kernel
def saxpy_kernel(a: fx.Float32, X: fx.Tensor, Y: fx.Tensor, Out: fx.Tensor):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    Out[i] = a * X[i] + Y[i]


@flyc.jit
def saxpy(a: fx.Float32, X: fx.Tensor, Y: fx.Tensor, Out: fx.Tensor):
    saxpy_kernel(a, X, Y, Out).launch(grid=(4, 1, 1), block=(64, 1, 1))


@flyc.kernel
def stencil_kernel(X: fx.Tensor, Y: fx.Tensor, n: fx.Int32):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    if i >= 1:
        if i < n - 1:
            Y[i] = 0.25 * X[i - 1] + 0.5 * X[i] + 0.25 * X[i + 1]


@flyc.jit
def stencil(X: fx.Tensor, Y: fx.Tensor, n: fx.Int32):
    stencil_kernel(X, Y, n).launch(grid=(4, 1, 1), block=(64, 1, 1))


@flyc.kernel
def histogram_kernel(X: fx.Tensor, Bins: fx.Tensor):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    fx.atomic_add(Bins.iter + X[i], 1)


@flyc.jit
def histogram(X: fx.Tensor, Bins: fx.Tensor):
    histogram_kernel(X, Bins).launch(grid=(4, 1, 1), block=(64, 1, 1))


@flyc.kernel
def gelu_kernel(X: fx.Tensor, Y: fx.Tensor):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    v = X[i]
    Y[i] = 0.5 * v * (1.0 + fx.math.erf(v * 0.70710678))


@flyc.jit
def gelu(X: fx.Tensor, Y: fx.Tensor):
    gelu_kernel(X, Y).launch(grid=(4, 1, 1), block=(64, 1, 1))


@flyc.kernel
def block_sum_kernel(X: fx.Tensor, Out: fx.Tensor):
    tid = fx.thread_idx.x
    s = fx.SharedAllocator().allocate(fx.Array[fx.Float32, 128]).peek()
    s[tid] = X[fx.block_idx.x * 128 + tid]
    fx.barrier()
    for k in fx.range_constexpr(7):
        stride = 64 >> k
        if tid < stride:
            s[tid] = s[tid] + s[tid + stride]
        fx.barrier()
    if tid == 0:
        Out[fx.block_idx.x] = s[0]


@flyc.jit
def block_sum(X: fx.Tensor, Out: fx.Tensor):
    block_sum_kernel(X, Out).launch(grid=(2, 1, 1), block=(128, 1, 1))


@flyc.kernel
def matmul_kernel(A: fx.Tensor, B: fx.Tensor, C: fx.Tensor, n: fx.Int32):
    alloc = fx.SharedAllocator()
    sA = alloc.allocate(fx.Array[fx.Float32, 256]).peek()
    sB = alloc.allocate(fx.Array[fx.Float32, 256]).peek()
    tx = fx.thread_idx.x
    ty = fx.thread_idx.y
    row = fx.block_idx.y * 16 + ty
    col = fx.block_idx.x * 16 + tx
    acc = fx.Float32(0.0)
    for t in range(n // 16):
        sA[ty * 16 + tx] = A[row * n + t * 16 + tx]
        sB[ty * 16 + tx] = B[(t * 16 + ty) * n + col]
        fx.barrier()
        for k in fx.range_constexpr(16):
            acc = acc + sA[ty * 16 + k] * sB[k * 16 + tx]
        fx.barrier()
    C[row * n + col] = acc


@flyc.jit
def matmul(A: fx.Tensor, B: fx.Tensor, C: fx.Tensor, n: fx.Int32):
    matmul_kernel(A, B, C, n).launch(grid=(2, 2, 1), block=(16, 16, 1))


@flyc.kernel
def warp_sum_kernel(X: fx.Tensor, Out: fx.Tensor):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    v = X[i]
    for k in fx.range_constexpr(5):
        v = v + fx.shuffle_xor(v, 16 >> k, 32)
    Out[i] = v


@flyc.jit
def warp_sum(X: fx.Tensor, Out: fx.Tensor):
    warp_sum_kernel(X, Out).launch(grid=(2, 1, 1), block=(64, 1, 1))


# FlyDSL's own warp reduction: on gfx9, DPP moves and ds_swizzle.
@flyc.kernel
def warp_reduce_kernel(X: fx.Tensor, Out: fx.Tensor):
    i = fx.block_idx.x * 64 + fx.thread_idx.x
    Out[i] = fx.coop.warp_reduce(X[i], fx.ReductionOp.ADD, width=32)


@flyc.jit
def warp_reduce(X: fx.Tensor, Out: fx.Tensor):
    warp_reduce_kernel(X, Out).launch(grid=(2, 1, 1), block=(64, 1, 1))


# Lane intrinsics: readfirstlane, readlane, ds_bpermute (lane i reads lane
# i ^ 1, addressed in bytes). Blocks of 32 threads: a wave of 64 lanes and a
# group of 32 agree on the first lane.
@flyc.kernel
def lanes_kernel(X: fx.Tensor, Out: fx.Tensor):
    i = fx.block_idx.x * 32 + fx.thread_idx.x
    v = X[i]
    i32 = fx.Int32.ir_type
    first = fx.Int32(fx.rocdl.readfirstlane(i32, v))
    third = fx.Int32(fx.rocdl.readlane(i32, v, 3))
    lane = fx.lane_id()
    swapped = fx.Int32(fx.rocdl.ds_bpermute(i32, (lane ^ 1) * 4, v))
    Out[i] = first * 10000 + third * 100 + swapped


@flyc.jit
def lanes(X: fx.Tensor, Out: fx.Tensor):
    lanes_kernel(X, Out).launch(grid=(4, 1, 1), block=(32, 1, 1))
