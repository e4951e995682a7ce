"""Process-level behavior: tracing, the example, exit."""

import os
import pathlib
import subprocess
import sys

import pytest

import offload

REPO = pathlib.Path(__file__).resolve().parents[2]


def run_python(code, env_extra=None, timeout=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_set_trace_before_init_traces():
    result = run_python(
        "import offload; offload.set_trace(True); "
        "d = offload.host_device(); a = d.alloc(4, 'float32'); print('ok')")
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
    assert "offloadMemAlloc" in result.stderr


def test_set_trace_after_init_raises():
    offload.init()
    with pytest.raises(RuntimeError, match="before the offload runtime starts"):
        offload.set_trace(True)


def test_exit_with_live_objects_is_clean():
    result = run_python(
        "import numpy as np, offload\n"
        "a = offload.asarray(np.arange(4.0))\n"
        "v = a.numpy()\n"
        "q = offload.host_device().queue()\n"
        "a.fill(1.0, queue=q)\n"
        "print('ok')\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert result.stderr == ""


def test_python_saxpy_example():
    example = REPO / "examples" / "python_saxpy.py"
    result = subprocess.run([sys.executable, str(example)],
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                p for p in sys.path if p)),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "max |error| = 0" in result.stdout


FAULTING_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @oob(%m: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %c2 = arith.constant 2 : index
      %far = arith.constant 1099511627776 : index
      %is2 = arith.cmpi eq, %b, %c2 : index
      scf.if %is2 {
        %v = arith.constant 1.0 : f32
        memref.store %v, %m[%far] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""


def test_fault_in_a_kernel_names_the_kernel_and_block():
    # A store 2^40 elements past the buffer in block 2: the process dies of
    # the signal, after the runtime names the kernel and the block.
    result = run_python(
        "import numpy as np, offload\n"
        f"k = offload.compile('''{FAULTING_KERNEL}''').kernel('oob')\n"
        "m = offload.asarray(np.zeros(8, dtype=np.float32))\n"
        "k(m, grid=4, block=8)\n"
        "print('survived')\n",
        {"OFFLOAD_CACHE_DIR": ""})
    if os.environ.get("OFFLOAD_SANITIZED") == "1":
        # ASan's SEGV handler reports the fault and exits with status 1
        # instead of dying of the signal (docs/Fuzzing.md).
        assert result.returncode == 1, (result.returncode, result.stderr)
        assert "AddressSanitizer: SEGV" in result.stderr, result.stderr
    else:
        assert result.returncode < 0, (result.returncode, result.stderr)
    assert "survived" not in result.stdout
    assert ("offload: fault in host kernel 'oob' (specialization oob_spec_" in result.stderr
            and "block (2, 0, 0) of a grid of (4, 1, 1) blocks of (8, 1, 1) "
            "threads" in result.stderr), result.stderr


def test_fault_after_a_contained_parser_crash_names_the_kernel_and_block():
    # The fault reporter's signal handler is installed by the first launch;
    # the recovery from a parser crash (ParserCrash.h) installs its own over
    # it and then puts it back: a later fault is still named.
    crash = ("gpu.module @k { gpu.func @f() kernel attributes "
             "{a = array<index: 1>} { gpu.return } }")
    result = run_python(
        "import numpy as np, offload\n"
        f"k = offload.compile('''{FAULTING_KERNEL}''').kernel('oob')\n"
        "m = offload.asarray(np.zeros(8, dtype=np.float32))\n"
        "k(m, grid=2, block=8)\n"  # blocks 0 and 1 do not fault
        "try:\n"
        f"    offload.compile('{crash}')\n"
        "except offload.OffloadError as e:\n"
        "    print('refused', e.code, flush=True)\n"
        "k(m, grid=4, block=8)\n"
        "print('survived')\n",
        {"OFFLOAD_CACHE_DIR": ""})
    assert "refused INVALID_BINARY" in result.stdout, result.stderr
    assert "survived" not in result.stdout
    if os.environ.get("OFFLOAD_SANITIZED") == "1":
        assert result.returncode == 1, (result.returncode, result.stderr)
    else:
        assert result.returncode < 0, (result.returncode, result.stderr)
    assert ("offload: fault in host kernel 'oob' (specialization oob_spec_" in result.stderr
            and "block (2, 0, 0)" in result.stderr), result.stderr


HEAP_CORRUPTING_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @overrun(%m: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %o = arith.muli %b, %n : index
      %i = arith.addi %o, %t : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.skipif(os.environ.get("OFFLOAD_SANITIZED") == "1",
                    reason="ASan's allocator puts a redzone after the buffer, "
                    "which the uninstrumented kernel writes unnoticed")
def test_heap_corrupting_kernel_ends_the_process():
    # Issue 20 item 1: 1024 threads store into a 1000-element buffer, past
    # it into malloc's next chunk; glibc aborts when the buffer is freed.
    # The process dies of the signal (no handler waits for malloc's lock).
    result = run_python(
        "import numpy as np, offload\n"
        f"k = offload.compile('''{HEAP_CORRUPTING_KERNEL}''').kernel('overrun')\n"
        # NumPy's buffers come from malloc (the host device's own
        # allocations come from reserved regions, not the C heap).
        "a = np.zeros(1000, np.float32)\n"
        "b = np.zeros(1000, np.float32)\n"
        "k(a, grid=8, block=128)\n"
        "del a, b\n"
        "x = [np.zeros(100) for _ in range(1000)]\n"
        "print('survived')\n",
        {"OFFLOAD_CACHE_DIR": ""}, timeout=60)
    assert result.returncode < 0, (result.returncode, result.stderr)
    assert "survived" not in result.stdout


GRID_FAULT_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @far_read(%m: memref<?xf32>, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %o = arith.muli %b, %n : index
      %i = arith.addi %o, %t : index
      %far = arith.constant 1099511627776 : index
      %j = arith.addi %i, %far : index
      %v = memref.load %m[%j] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("threads", ["", "8"])
def test_grid_wide_fault_names_the_kernel_and_a_block(threads):
    # Issue 20 item 2: every thread of the grid faults; the first names its
    # kernel and block, the others wait for the process to die. Five runs.
    code = (
        "import numpy as np, offload\n"
        f"k = offload.compile('''{GRID_FAULT_KERNEL}''').kernel('far_read')\n"
        "m = offload.asarray(np.zeros(4096, dtype=np.float32))\n"
        "out = offload.asarray(np.zeros(4096, dtype=np.float32))\n"
        "k(m, out, grid=64, block=64)\n"
        "print('survived')\n")
    env = {"OFFLOAD_CACHE_DIR": ""}
    if threads:
        env["OFFLOAD_HOST_THREADS"] = threads
    for _ in range(5):
        result = run_python(code, env, timeout=60)
        if os.environ.get("OFFLOAD_SANITIZED") == "1":
            assert result.returncode == 1, (result.returncode, result.stderr)
        else:
            assert result.returncode < 0, (result.returncode, result.stderr)
        assert result.stderr.count(
            "offload: fault in host kernel 'far_read' (specialization far_read_spec_") == 1, result.stderr
        assert ("of a grid of (64, 1, 1) blocks of (64, 1, 1) threads: SIGSEGV"
                in result.stderr), result.stderr
