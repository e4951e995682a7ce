"""Kernels from MLIR text: results against NumPy, specialization counters,
argument checking and error reporting."""

import os
import uuid

import numpy as np
import pytest

import offload
from kernels import BLOCK_SUM, COOPERATIVE, MATMUL, MISC, SAXPY


def unique(source):
    """The same MLIR with a fresh comment: another module hash, so nothing
    is found in the JIT's caches."""
    return source + f"\n// {uuid.uuid4()}\n"


@pytest.fixture(scope="module")
def misc(host):
    return offload.compile(MISC, device=host)


@pytest.fixture(scope="module")
def saxpy(host):
    return offload.compile(SAXPY, device=host).kernel("saxpy")


def test_saxpy_against_numpy(host, saxpy):
    n = 100_003
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    dx = offload.asarray(x, device=host)
    dy = offload.asarray(y, device=host)
    saxpy(np.float32(2.5), dx, dy, n, grid=(n + 255) // 256, block=256)
    np.testing.assert_allclose(dy.numpy(), np.float32(2.5) * x + y, rtol=1e-6)


def test_saxpy_on_numpy_arrays_in_place(saxpy):
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    saxpy(3.0, x, y, 1000, grid=(4,), block=(256,))
    np.testing.assert_array_equal(y, 3 * np.arange(1000, dtype=np.float32) + 1)


def test_kernel_introspection(saxpy):
    assert saxpy.name == "saxpy"
    assert saxpy.arg_types == ["f32", "memref<?xf32>", "memref<?xf32>",
                               "index"]
    assert saxpy.runtime_constants == [0]
    # f32 (padded to 8), two memrefs of 5 fields, index.
    assert saxpy.arguments_size == 8 + 2 * 40 + 8
    assert "saxpy(f32 {runtime_constant}" in repr(saxpy)
    assert saxpy.module.kernel("saxpy").name == "saxpy"


@pytest.mark.parametrize("m,k,n", [(64, 48, 32), (37, 19, 23)])
def test_matmul_against_numpy(host, m, k, n):
    kernel = offload.compile(MATMUL, device=host).kernel("matmul")
    rng = np.random.default_rng(1)
    a = rng.integers(-4, 5, (m, k)).astype(np.float32)
    b = rng.integers(-4, 5, (k, n)).astype(np.float32)
    da, db = offload.asarray(a), offload.asarray(b)
    dc = offload.zeros((m, n), np.float32)
    kernel(da, db, dc, k, grid=((n + 15) // 16, (m + 15) // 16), block=(16, 16))
    np.testing.assert_array_equal(dc.numpy(), a @ b)


@pytest.mark.parametrize("block", [32, 64, 96, 256, 1024])
def test_block_reduction_used_by_one_thread(host, block):
    # Specialized for the block size and optimized at -O3, whatever LLVM does
    # with the barrier calls, they stay the reduction's two barriers.
    kernel = offload.compile(BLOCK_SUM, device=host).kernel("block_sum")
    x = np.arange(3 * block, dtype=np.float32) % 7
    out = np.zeros(3, np.float32)
    kernel(x, out, grid=3, block=block)
    np.testing.assert_array_equal(out, x.reshape(3, block).sum(axis=1))


def test_specialization_counters(host):
    kernel = offload.compile(unique(SAXPY), device=host).kernel("saxpy")
    x = np.arange(256, dtype=np.float32)

    def run(a, block=64):
        y = np.zeros(256, np.float32)
        kernel(a, x, y, 256, grid=256 // block, block=block)
        np.testing.assert_array_equal(y, np.float32(a) * x)

    offload.reset_jit_stats()
    run(2.0)
    s = offload.jit_stats()
    assert (s["launches"], s["compiles"], s["memory_hits"]) == (1, 1, 0)
    run(2.0)  # same runtime-constant value: served from memory
    s = offload.jit_stats()
    assert (s["launches"], s["compiles"], s["memory_hits"]) == (2, 1, 1)
    run(3.0)  # another value: another specialization
    assert offload.jit_stats()["compiles"] == 2
    run(3.0, block=32)  # the block size is in the key too
    assert offload.jit_stats()["compiles"] == 3
    offload.set_jit_enabled(False)
    try:
        run(4.0)  # generic kernel, compiled once
        run(5.0)
    finally:
        offload.set_jit_enabled(True)
    s = offload.jit_stats()
    assert s["compiles"] == 4 and s["generic_launches"] == 2
    assert s["compile_ms"] > 0
    # Without the in-memory cache, the disk cache (OFFLOAD_CACHE_DIR) serves.
    offload.clear_jit_cache()
    run(2.0)
    s = offload.jit_stats()
    assert s["compiles"] == 4 and s["disk_hits"] == 1
    assert set(s) == {"launches", "compiles", "memory_hits", "disk_hits",
                      "disk_writes", "corrupt_entries", "generic_launches",
                      "async_compiles", "compile_ms", "auto_variants",
                      "auto_launches", "auto_guard_misses",
                      "auto_profile_loads", "auto_bound_reached",
                      "measured_launches", "measured_faster",
                      "measured_slower", "verdict_loads"}


AXPK = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @axpk(%x: memref<?xf32>, %n: index, %a: f32) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32>
        %r = arith.mulf %a, %v : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""


def test_automatic_specialization(host):
    # No runtime constants: with set_jit_auto(True), n and a are specialized
    # on once they kept their values for 8 launches (the default threshold).
    kernel = offload.compile(unique(AXPK), device=host).kernel("axpk")

    def run(a):
        x = np.arange(256, dtype=np.float32)
        kernel(x, 256, a, grid=4, block=64)
        np.testing.assert_array_equal(x, np.float32(a) *
                                      np.arange(256, dtype=np.float32))

    offload.reset_jit_stats()
    offload.set_jit_auto(True)
    try:
        for _ in range(7):
            run(1.5)
        assert offload.jit_stats()["auto_variants"] == 0
        run(1.5)
        s = offload.jit_stats()
        assert (s["auto_variants"], s["auto_launches"], s["compiles"]) == \
            (1, 1, 2)
        run(-2.0)  # a changed; n still stable: a variant on n alone
        s = offload.jit_stats()
        assert (s["auto_variants"], s["auto_launches"],
                s["auto_guard_misses"]) == (2, 2, 0)
    finally:
        offload.set_jit_auto(False)
    run(1.5)
    assert offload.jit_stats()["auto_launches"] == s["auto_launches"]


def test_contents_specialization(host):
    kernel = offload.compile(unique(MISC), device=host).kernel("affine")
    offload.reset_jit_stats()
    x = np.arange(8, dtype=np.float32)
    c = np.array([1.0, 2.0], np.float32)
    y = x.copy()
    kernel(y, c, grid=1, block=8)
    np.testing.assert_array_equal(y, 1 + 2 * x)
    y = x.copy()
    kernel(y, offload.asarray(c), grid=1, block=8)  # same contents: a hit
    np.testing.assert_array_equal(y, 1 + 2 * x)
    assert offload.jit_stats()["compiles"] == 1
    y = x.copy()
    kernel(y, np.array([0.0, -1.0], np.float32), grid=1, block=8)
    np.testing.assert_array_equal(y, -x)
    assert offload.jit_stats()["compiles"] == 2


def test_scalar_types(misc):
    x = np.arange(16, dtype=np.int32)
    misc.kernel("add_i32")(x, -5, grid=1, block=16)
    np.testing.assert_array_equal(x, np.arange(16) - 5)
    misc.kernel("add_i32")(x, np.int32(5), grid=1, block=16)
    np.testing.assert_array_equal(x, np.arange(16))

    d = np.linspace(0, 1, 8)
    misc.kernel("scale_f64")(d, 1 / 3, grid=1, block=8)
    np.testing.assert_array_equal(d, np.linspace(0, 1, 8) * (1 / 3))

    b = np.array([0, 100, 200, 250], np.uint8)  # signless i8 takes uint8
    misc.kernel("add_i8")(b, 5, grid=1, block=4)
    np.testing.assert_array_equal(b, [5, 105, 205, 255])
    s = np.array([-3, 3], np.int8)
    misc.kernel("add_i8")(s, -1, grid=1, block=2)
    np.testing.assert_array_equal(s, [-4, 2])

    big = np.array([2**40, -(2**40)], np.int64)
    misc.kernel("add_i64")(big, 2**33, grid=1, block=2)
    np.testing.assert_array_equal(big, [2**40 + 2**33, -(2**40) + 2**33])

    h = np.arange(8, dtype=np.float16)
    misc.kernel("add_f16")(h, 0.5, grid=1, block=8)
    np.testing.assert_array_equal(h, np.arange(8, dtype=np.float16) + 0.5)


def test_static_shape_and_strided_layout(misc):
    m = offload.zeros((4, 4), np.float32)
    misc.kernel("add_static")(m, 1.5, grid=1, block=(4, 4))
    assert (m.numpy() == 1.5).all()

    base = np.arange(20, dtype=np.float32)
    view = base[1::3]  # 7 elements, stride 3, offset 1
    misc.kernel("double_strided")(view, grid=1, block=view.size)
    expected = np.arange(20, dtype=np.float32)
    expected[1::3] *= 2
    np.testing.assert_array_equal(base, expected)


def test_queue_launches(host, saxpy):
    n = 4096
    q = host.queue()
    x = offload.asarray(np.ones(n, np.float32))
    y = offload.zeros(n, np.float32)
    for _ in range(3):
        saxpy(1.0, x, y, n, grid=n // 128, block=128, queue=q)
    done = q.record()
    x.free()  # the queue keeps the memory alive until sync()
    done.sync()
    q.sync()
    assert (y.numpy() == 3).all()


#===------------------------------------------------------------------------===#
# Errors
#===------------------------------------------------------------------------===#


def test_wrong_dtype(saxpy):
    x = np.zeros(8, np.float64)
    y = np.zeros(8, np.float32)
    with pytest.raises(TypeError, match=r"argument 1 of kernel 'saxpy' "
                       r"\(memref<\?xf32>\) takes float32 elements, not float64"):
        saxpy(1.0, x, y, 8, grid=1, block=8)
    with pytest.raises(TypeError, match="takes float32 elements, not int32"):
        saxpy(1.0, offload.zeros(8, "int32"), y, 8, grid=1, block=8)


def test_wrong_rank_and_static_shape(saxpy, misc):
    y = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match="takes rank 1, not rank 2"):
        saxpy(1.0, np.zeros((2, 4), np.float32), y, 8, grid=1, block=8)
    with pytest.raises(ValueError, match=r"static shape; got shape \(4, 5\)"):
        misc.kernel("add_static")(np.zeros((4, 5), np.float32), 1.0, grid=1)
    with pytest.raises(ValueError, match="C-contiguous"):
        saxpy(1.0, np.zeros(16, np.float32)[::2], y, 8, grid=1, block=8)
    readonly = np.zeros(8, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        saxpy(1.0, readonly, y, 8, grid=1, block=8)


def test_wrong_arguments(saxpy, misc):
    x = np.zeros(8, np.float32)
    with pytest.raises(TypeError, match="takes 4 arguments but 3 were given"):
        saxpy(1.0, x, x, grid=1)
    with pytest.raises(TypeError, match="takes a scalar"):
        saxpy(x, x, x, 8, grid=1)
    with pytest.raises(TypeError, match="takes an offload.Array or a NumPy "
                       "array, not float"):
        saxpy(1.0, 2.0, x, 8, grid=1)
    with pytest.raises(TypeError, match="takes an integer, not float"):
        saxpy(1.0, x, x, 8.0, grid=1)
    with pytest.raises(TypeError, match="takes a real number, not str"):
        saxpy("1", x, x, 8, grid=1)
    with pytest.raises(ValueError, match="out of range"):
        misc.kernel("add_i8")(np.zeros(2, np.int8), 300, grid=1)
    with pytest.raises(ValueError, match="out of range"):
        misc.kernel("add_i32")(np.zeros(2, np.int32), 2**32, grid=1)
    with pytest.raises(ValueError, match="out of range"):
        misc.kernel("add_i32")(np.zeros(2, np.int32), -(2**31) - 1, grid=1)
    with pytest.raises(TypeError, match="needs grid="):
        saxpy(1.0, x, x, 8)
    with pytest.raises(ValueError, match="between 1 and"):
        saxpy(1.0, x, x, 8, grid=0)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        saxpy(1.0, x, x, 8, grid=(1, 1, 1, 1))
    with pytest.raises(TypeError, match="unexpected keyword argument 'blocks'"):
        saxpy(1.0, x, x, 8, grid=1, blocks=8)
    with pytest.raises(TypeError, match="queue must be"):
        saxpy(1.0, x, x, 8, grid=1, queue="q")


def test_launch_on_a_freed_array(saxpy):
    x = offload.zeros(8, np.float32)
    y = offload.zeros(8, np.float32)
    x.free()
    with pytest.raises(ValueError, match="argument 1 .* was freed"):
        saxpy(1.0, x, y, 8, grid=1, block=8)


def test_block_too_large_is_an_offload_error(host, saxpy):
    x = np.zeros(8, np.float32)
    with pytest.raises(offload.OffloadError) as info:
        saxpy(1.0, x, x, 8, grid=1, block=host.max_block_size + 1)
    assert info.value.code == "INVALID_SIZE"


def test_bad_mlir_reports_the_diagnostic(host):
    bad = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<?xf32>) kernel {
      %v = arith.addf %x, %x : f32
      gpu.return
    }
  }
}
"""
    with pytest.raises(offload.OffloadError) as info:
        offload.compile(bad, device=host)
    error = info.value
    assert error.code == "INVALID_BINARY"
    assert "cannot parse the MLIR module" in error.message
    assert "\"jit-module\":5:" in error.message  # the line of the problem
    assert "use of value '%x' expects different type" in error.message
    assert str(error).startswith("INVALID_BINARY: ")
    assert isinstance(error, RuntimeError)

    with pytest.raises(offload.OffloadError, match="no gpu.module"):
        offload.compile("module {}", device=host)
    with pytest.raises(offload.OffloadError, match="cannot parse"):
        offload.compile("this is not MLIR", device=host)
    with pytest.raises(ValueError, match="<string> is empty"):
        offload.compile("", device=host)
    with pytest.raises(ValueError, match="<bytes> is empty"):
        offload.compile(b" \n", device=host)


# Inputs that crash Debian's MLIR 22 parser or verifier: an OffloadError
# naming the crash, and the interpreter goes on (the same input twice, then a
# module that works).
PARSER_CRASHES = [
    ("""
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel { gpu.return }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %t = gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
                    threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      gpu.terminator
    }
    return
  }
}
""", "a `gpu.launch` with a result but without `async`"),
    ("""
gpu.module @k {
  gpu.func @f() kernel attributes {a = array<index: 1>} { gpu.return }
}
""", "a dense array of `index`"),
]


@pytest.mark.parametrize("source,known", PARSER_CRASHES,
                         ids=["gpu-launch-result", "index-array"])
def test_compile_refuses_inputs_that_crash_the_parser(host, source, known):
    for _ in range(2):
        with pytest.raises(offload.OffloadError) as info:
            offload.compile(source, device=host)
        assert info.value.code == "INVALID_BINARY"
        assert "parser or verifier crashed on the input" in info.value.message
        assert "SIGSEGV" in info.value.message
        assert known in info.value.message
    module = offload.compile(SAXPY, device=host)
    assert module.kernel("saxpy") is not None


def test_missing_kernel(host):
    module = offload.compile(SAXPY, device=host)
    with pytest.raises(offload.OffloadError) as info:
        module.kernel("nosuch")
    assert info.value.code == "NOT_FOUND"
    assert "nosuch" in info.value.message


def test_compile_from_path_and_bytes(host, tmp_path):
    path = tmp_path / "saxpy.mlir"
    path.write_text(SAXPY)
    for source in (path, str(path), SAXPY.encode()):
        module = offload.compile(source, device=host)
        assert module.kernel("kernels::saxpy").name == "kernels::saxpy"
    assert offload.compile(path).name == str(path)
    with pytest.raises(FileNotFoundError):
        offload.compile(str(tmp_path / "missing.mlir"))
    with pytest.raises(TypeError):
        offload.compile(42)


@pytest.fixture(scope="module")
def cooperative(host):
    return offload.compile(COOPERATIVE, device=host)


@pytest.mark.parametrize("threads", [32, 64, 96, 100, 128, 256, 512, 1024])
def test_all_reduce_used_by_thread_zero(cooperative, threads):
    out = offload.zeros((1,), dtype="int32")
    cooperative.kernel("thread0_sum")(out, grid=1, block=threads)
    assert out.numpy()[0] == threads * (threads - 1) // 2


def test_workgroup_memory_and_barrier(host, cooperative):
    threads, blocks = 96, 7
    x = np.arange(threads * blocks, dtype=np.float32)
    dx = offload.asarray(x, device=host)
    dy = offload.zeros((threads * blocks,), dtype="float32", device=host)
    cooperative.kernel("reverse")(dx, dy, grid=blocks, block=threads)
    expected = x.reshape(blocks, threads)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(dy.numpy(), expected)


WORKGROUP_GLOBAL = """
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @tile : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.func @reverse(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tile = memref.get_global @tile : memref<256xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c1 = arith.constant 1 : index
      %last = arith.subi %d, %c1 : index
      %r = arith.subi %last, %t : index
      %w = memref.load %tile[%r] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""


def test_workgroup_global_is_per_block(host):
    # numba-cuda's cuda.shared.array: a workgroup memref.global in a module
    # that targets NVVM. Every block that runs at once has its own copy.
    reverse = offload.compile(WORKGROUP_GLOBAL, device=host).kernel("reverse")
    threads, blocks = 256, 1000
    x = np.arange(threads * blocks, dtype=np.float32)
    expected = x.reshape(blocks, threads)[:, ::-1].reshape(-1)
    dx = offload.asarray(x, device=host)
    for _ in range(20):
        dy = offload.zeros((threads * blocks,), dtype="float32", device=host)
        reverse(dx, dy, grid=blocks, block=threads)
        np.testing.assert_array_equal(dy.numpy(), expected)


OUT_OF_BOUNDS_COPY = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%src: memref<?xf32>, %dst: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %src[%i] : memref<?xf32>
      memref.store %v, %dst[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""


def test_check_reports_out_of_bounds_accesses(capfd):
    src = np.arange(8, dtype=np.float32)
    dst = np.zeros(6, dtype=np.float32)  # two elements short
    checked = offload.compile(OUT_OF_BOUNDS_COPY, check=True).kernel("copy")
    with pytest.raises(offload.OffloadError) as info:
        checked(src, dst, grid=1, block=8)
    assert info.value.code == "BACKEND_FAILURE"
    assert "2 thread(s) accessed memory out of bounds" in str(info.value)
    out = capfd.readouterr().out
    assert ("out-of-bounds memref.store in kernel 'copy', block: [0,0,0], "
            "thread: [6,0,0]: index 6 of dimension 0 is not below its size 6"
            in out), out
    # The threads in bounds stored; the two others' stores were skipped.
    np.testing.assert_array_equal(dst, src[:6])
    # The same module without checks is a different specialization.
    plain = offload.compile(OUT_OF_BOUNDS_COPY).kernel("copy")
    dst2 = np.zeros(8, dtype=np.float32)
    plain(src, dst2, grid=1, block=8)
    np.testing.assert_array_equal(dst2, src)


RACY_SLOT = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @slot(%out: memref<?xi32>)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %v = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("check", ["race", ["memcheck", "race"], "all"])
def test_check_race_reports_hazards(capfd, check):
    out = np.zeros(4, dtype=np.int32)
    racy = offload.compile(RACY_SLOT, check=check).kernel("slot")
    with pytest.raises(offload.OffloadError) as info:
        racy(out, grid=1, block=4)
    assert info.value.code == "BACKEND_FAILURE"
    assert "race hazard(s) between threads of a block (racecheck)" in str(
        info.value)
    printed = capfd.readouterr().out
    assert ("========= Error: Race reported between Write access at "
            "jit-module:9:7" in printed), printed
    assert ("=========     block: [0,0,0], threads: [0,0,0] (write) and "
            "[1,0,0] (write)" in printed), printed
    # Without the tool the same kernel runs.
    offload.compile(RACY_SLOT).kernel("slot")(out, grid=1, block=4)


def test_check_init_reports_reads_of_unwritten_memory(capfd):
    # Compiling with initcheck starts tracking allocations (also without
    # OFFLOAD_CHECK=init): src is made after it.
    copy = offload.compile(OUT_OF_BOUNDS_COPY, check="init").kernel("copy")
    src = offload.empty(8, "float32")
    dst = offload.empty(8, "float32")
    with pytest.raises(offload.OffloadError) as info:
        copy(src, dst, grid=1, block=8)
    assert info.value.code == "BACKEND_FAILURE"
    assert "1 uninitialized read(s) of device memory (initcheck)" in str(
        info.value)
    printed = capfd.readouterr().out
    assert ("========= Uninitialized __global__ memory read of size 4 bytes\n"
            "=========     at jit-module:6:12 in kernel 'copy'\n"
            "=========     by thread (0,0,0) in block (0,0,0)\n"
            in printed), printed
    assert "is at offset 0 of an allocation of 32 bytes of device memory" in (
        printed)
    # Written by a copy, then by a fill: no report.
    src.copy_from(np.arange(8, dtype=np.float32))
    copy(src, dst, grid=1, block=8)
    np.testing.assert_array_equal(dst.numpy(), np.arange(8, dtype=np.float32))
    filled = offload.zeros(8, "float32")
    copy(filled, dst, grid=1, block=8)
    np.testing.assert_array_equal(dst.numpy(), np.zeros(8, dtype=np.float32))
    assert "=========" not in capfd.readouterr().out


def test_check_rejects_unknown_tools():
    with pytest.raises(offload.OffloadError) as info:
        offload.compile(RACY_SLOT, check="racy")
    assert info.value.code == "INVALID_VALUE"
    assert "'racy' is not a checking tool" in str(info.value)
    with pytest.raises(TypeError):
        offload.compile(RACY_SLOT, check=3)
