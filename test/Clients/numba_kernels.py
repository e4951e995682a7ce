# Part of the offload project, under the Apache License v2.0 with LLVM
# Exceptions.
"""The numba-cuda-mlir kernels of capture.py (imported by it; needs
numba-cuda-mlir). Kernels in the CUDA Python of Numba."""

import math

from numba_cuda_mlir import cuda
from numba_cuda_mlir.numba_cuda import float32


def vadd(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def stencil(x, y):
    i = cuda.grid(1)
    if i >= 1 and i < x.size - 1:
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1]


def histogram(x, bins):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(bins, x[i], 1)


def atomics(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(out, 0, x[i])
        cuda.atomic.min(out, 1, x[i])
        cuda.atomic.add(out, 2, x[i])


def gelu(x, y):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        y[i] = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))


def block_sum(x, out):
    s = cuda.shared.array(128, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    stride = 64
    while stride > 0:
        if tid < stride:
            s[tid] += s[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = s[0]


def matmul(a, b, c):
    sa = cuda.shared.array((16, 16), float32)
    sb = cuda.shared.array((16, 16), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * 16 + ty
    col = cuda.blockIdx.x * 16 + tx
    n = a.shape[1]
    acc = float32(0.0)
    for t in range(n // 16):
        sa[ty, tx] = a[row, t * 16 + tx]
        sb[ty, tx] = b[t * 16 + ty, col]
        cuda.syncthreads()
        for k in range(16):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


def warp_sum(x, out):
    i = cuda.grid(1)
    v = x[i]
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, off)
        off //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


def warp_max(x, out):
    i = cuda.grid(1)
    v = x[i]
    off = 1
    while off < 32:
        v = max(v, cuda.shfl_xor_sync(0xFFFFFFFF, v, off))
        off *= 2
    out[i] = v


def warp_scan(x, out):
    i = cuda.grid(1)
    v = x[i]
    lane = cuda.laneid
    off = 1
    while off < 32:
        n = cuda.shfl_up_sync(0xFFFFFFFF, v, off)
        if lane >= off:
            v += n
        off *= 2
    out[i] = v


def warp_broadcast(x, out):
    i = cuda.grid(1)
    out[i] = cuda.shfl_sync(0xFFFFFFFF, x[i], 3)


def vote(x, out):
    i = cuda.grid(1)
    b = cuda.ballot_sync(0xFFFFFFFF, x[i] > 0)
    a = cuda.any_sync(0xFFFFFFFF, x[i] > 0)
    l = cuda.all_sync(0xFFFFFFFF, x[i] > 0)
    out[i] = b + (1 if a else 0) + (2 if l else 0)


def window_sum(x, out):
    i = cuda.grid(1)
    s = x[i * 4 : i * 4 + 4]
    out[i] = s[0] + s[1] + s[2] + s[3]


def dims(out):
    i = cuda.grid(1)
    out[i] = (
        cuda.blockDim.x * 1000 + cuda.gridDim.x * 100 + cuda.threadIdx.x + cuda.warpsize
    )
