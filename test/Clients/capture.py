#!/usr/bin/env python3
# Part of the offload project, under the Apache License v2.0 with LLVM
# Exceptions.
"""Captures the gpu-dialect MLIR that third-party compilers emit.

Defines small kernels in each compiler's own language and writes what the
compiler emits, unmodified, to Inputs/<compiler>/<kernel>.mlir (README.md says
which versions made the files and under which licenses they are). The
compilers are not dependencies of the project: install them into a throwaway
virtual environment, never into the project's .venv (README.md), and run this
from test/Clients:

    python3 -m venv /tmp/clients-venv
    /tmp/clients-venv/bin/pip install numba-cuda-mlir==0.6.0 flydsl==0.5.0 \\
        eudsl-python-extras==0.1.0 numpy
    cd test/Clients && /tmp/clients-venv/bin/python capture.py [numba|flydsl|eudsl]

No GPU is needed. Each compiler runs in a process of its own (each ships its
own copy of the MLIR Python bindings):

- numba-cuda-mlir: `numba_cuda_mlir.cuda.compile_mlir(fn, sig, device=False)`;
  it asks the CUDA driver for the compute capability, which this script sets
  (sm_90) where there is no driver.
- FlyDSL: `FLYDSL_COMPILE_ONLY=1 FLYDSL_DUMP_IR=1`, for gfx942; the file is
  the stage that `convert-gpu-to-rocdl` reads (the dump before the stage that
  runs it). Serializing to HSACO fails without ROCm, after the dump. FlyDSL
  imports torch only for its tensor and stream types; without torch a
  stand-in module with those names is installed (the kernels take NumPy
  arrays through DLPack).
- eudsl-python-extras: over the MLIR Python bindings numba-cuda-mlir ships
  (`numba_cuda_mlir._mlir`), printed as the module the builders made.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "Inputs")


def write(compiler, name, text):
    os.makedirs(os.path.join(INPUTS, compiler), exist_ok=True)
    path = os.path.join(INPUTS, compiler, name + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(path, HERE))


# ===---------------------------------------------------------------------=== #
# numba-cuda-mlir
# ===---------------------------------------------------------------------=== #


def capture_numba():
    import numba_cuda_mlir.tools as tools
    from numba_cuda_mlir import cuda

    # No CUDA driver: compile for sm_90 (compile_mlir asks the driver).
    if tools._cached_cc is None:
        tools._cached_cc = (9, 0)

    sys.path.insert(0, HERE)
    import numba_kernels as k

    f32v = "float32[:]"
    i32v = "int32[:]"
    kernels = {
        "vadd": (k.vadd, f"void({f32v}, {f32v}, {f32v})"),
        "saxpy": (k.saxpy, f"void(float32, {f32v}, {f32v}, {f32v})"),
        "stencil": (k.stencil, f"void({f32v}, {f32v})"),
        "histogram": (k.histogram, f"void({i32v}, {i32v})"),
        "atomics": (k.atomics, f"void({i32v}, {i32v})"),
        "gelu": (k.gelu, f"void({f32v}, {f32v})"),
        "block_sum": (k.block_sum, f"void({f32v}, {f32v})"),
        "matmul": (k.matmul, "void(float32[:,:], float32[:,:], float32[:,:])"),
        "warp_sum": (k.warp_sum, f"void({f32v}, {f32v})"),
        "warp_max": (k.warp_max, f"void({f32v}, {f32v})"),
        "warp_scan": (k.warp_scan, f"void({i32v}, {i32v})"),
        "warp_broadcast": (k.warp_broadcast, f"void({f32v}, {f32v})"),
        "vote": (k.vote, f"void({i32v}, {i32v})"),
        "window_sum": (k.window_sum, f"void({f32v}, {f32v})"),
        "dims": (k.dims, f"void({i32v})"),
    }
    for name, (fn, sig) in kernels.items():
        write("numba", name, cuda.compile_mlir(fn, sig, device=False))


# ===---------------------------------------------------------------------=== #
# FlyDSL
# ===---------------------------------------------------------------------=== #


def install_torch_stand_in():
    """FlyDSL registers argument types for torch.Tensor and torch.cuda.Stream
    at import; without torch, a module with just those names."""
    try:
        import torch  # noqa: F401

        return
    except ImportError:
        pass
    torch = types.ModuleType("torch")
    cuda = types.ModuleType("torch.cuda")

    class Tensor:
        pass

    class Stream:
        pass

    class dtype:
        def __init__(self, name):
            self.name = name

    for name in ("float16", "bfloat16", "float32", "float64", "bool", "uint8",
                 "int8", "int16", "int32", "int64"):
        setattr(torch, name, dtype(name))

    def no_device(*args, **kwargs):
        raise RuntimeError("no torch")

    cuda.Stream = Stream
    cuda.is_available = lambda: False
    cuda.get_device_properties = no_device
    torch.Tensor = Tensor
    torch.cuda = cuda
    torch.nn = types.ModuleType("torch.nn")
    sys.modules.update({"torch": torch, "torch.cuda": cuda, "torch.nn": torch.nn})


def capture_flydsl():
    dump = tempfile.mkdtemp(prefix="flydsl-dump-")
    os.environ.update({
        "FLYDSL_COMPILE_ONLY": "1",
        "FLYDSL_DUMP_IR": "1",
        "FLYDSL_DUMP_DIR": dump,
        "FLYDSL_COMPILE_ARCH": "gfx942",
        "FLYDSL_RUNTIME_ENABLE_CACHE": "0",
    })
    install_torch_stand_in()
    import numpy as np

    import flydsl.compiler as flyc
    import flydsl.expr as fx

    # The kernels are in a file of their own, loaded by its relative name:
    # the locations FlyDSL records name it (flydsl_kernels.py).
    import importlib.util

    spec = importlib.util.spec_from_file_location("flydsl_kernels", "flydsl_kernels.py")
    k = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(k)

    def arr(n, dtype=np.float32):
        return flyc.from_dlpack(np.zeros(n, dtype))

    launches = {
        "vadd": lambda: k.vadd(arr(256), arr(256), arr(256)),
        "saxpy": lambda: k.saxpy(2.0, arr(256), arr(256), arr(256)),
        "stencil": lambda: k.stencil(arr(256), arr(256), 256),
        "histogram": lambda: k.histogram(arr(256, np.int32), arr(16, np.int32)),
        "gelu": lambda: k.gelu(arr(256), arr(256)),
        "block_sum": lambda: k.block_sum(arr(256), arr(2)),
        "matmul": lambda: k.matmul(arr(32 * 32), arr(32 * 32), arr(32 * 32), 32),
        "warp_sum": lambda: k.warp_sum(arr(128), arr(128)),
        "warp_reduce": lambda: k.warp_reduce(arr(128), arr(128)),
        "lanes": lambda: k.lanes(arr(128, np.int32), arr(128, np.int32)),
    }
    for name, launch in launches.items():
        try:
            launch()
        except Exception as e:  # serialization needs ROCm; the dump is done
            if "FLYDSL_COMPILE_ONLY" not in os.environ:
                raise
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            print(f"flydsl {name}: {first} (after the dump)")
        kernel_dir = os.path.join(dump, name + "_kernel_0")
        stages = sorted(os.listdir(kernel_dir))
        # The stage that convert-gpu-to-rocdl reads: the one before it runs.
        rocdl = next(i for i, s in enumerate(stages) if "convert_gpu_to_rocdl" in s)
        with open(os.path.join(kernel_dir, stages[rocdl - 1])) as f:
            write("flydsl", name, f.read())
    shutil.rmtree(dump)


# ===---------------------------------------------------------------------=== #
# eudsl-python-extras
# ===---------------------------------------------------------------------=== #


def capture_eudsl():
    import importlib

    # eudsl-python-extras installs `mlir/extras` for an `mlir` package with
    # the bindings; numba-cuda-mlir's bindings are `numba_cuda_mlir._mlir`.
    import numba_cuda_mlir._mlir as bindings
    import numba_cuda_mlir._mlir.extras as extras

    site = os.path.dirname(os.path.dirname(list(bindings.__path__)[0]))
    extras.__path__.append(os.path.join(site, "mlir", "extras"))

    def imp(name):
        return importlib.import_module("numba_cuda_mlir._mlir." + name)

    T = imp("extras.types")
    context = imp("extras.context")
    gpu = imp("extras.dialects.gpu")
    scf = imp("extras.dialects.scf")
    imp("extras.dialects.arith")
    imp("extras.dialects.memref")
    vector = imp("extras.dialects.vector")
    canonicalize = imp("extras.ast.canonicalize").canonicalize

    def kernel(body):
        return gpu.func(emit=True)(canonicalize(using=scf.canonicalizer)(body))

    N = 256
    for name in ("vadd", "saxpy", "tile_scale"):
        with context.mlir_mod_ctx() as ctx:
            gpu.set_container_module(ctx.module)
            if name == "vadd":
                class eudsl_kernels(metaclass=gpu.GPUModuleMeta,
                                    targets=["#nvvm.target"]):
                    @kernel
                    def vadd(A: T.memref(N, T.f32()), B: T.memref(N, T.f32()),
                             C: T.memref(N, T.f32())):
                        i = gpu.block_idx.x * gpu.block_dim.x + gpu.thread_idx.x
                        C[i] = A[i] + B[i]
                        return
            elif name == "saxpy":
                class eudsl_kernels(metaclass=gpu.GPUModuleMeta,
                                    targets=["#nvvm.target"]):
                    @kernel
                    def saxpy(a: T.f32(), X: T.memref(N, T.f32()),
                              Y: T.memref(N, T.f32())):
                        i = gpu.block_idx.x * gpu.block_dim.x + gpu.thread_idx.x
                        Y[i] = a * X[i] + Y[i]
                        return
            else:
                class eudsl_kernels(metaclass=gpu.GPUModuleMeta,
                                    targets=["#nvvm.target"]):
                    # Each thread doubles a 4x4 tile with 2-D vector transfers.
                    @kernel
                    def tile_scale(A: T.memref(64, 64, T.f32()),
                                   B: T.memref(64, 64, T.f32())):
                        r = gpu.block_idx.x * 4
                        c = gpu.thread_idx.x * 4
                        v = vector.transfer_read(T.vector(4, 4, T.f32()), A, [r, c],
                                                 in_bounds=[True, True])
                        vector.transfer_write(v + v, B, [r, c], in_bounds=[True, True])
                        return
            ctx.module.operation.verify()
            write("eudsl", name, str(ctx.module))


CAPTURES = {"numba": capture_numba, "flydsl": capture_flydsl, "eudsl": capture_eudsl}


def main(argv):
    names = argv[1:] or list(CAPTURES)
    if len(names) == 1:
        CAPTURES[names[0]]()
        return 0
    # One process per compiler: each ships its own MLIR bindings.
    status = 0
    for name in names:
        status |= subprocess.call([sys.executable, os.path.abspath(__file__), name],
                                  cwd=HERE)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
