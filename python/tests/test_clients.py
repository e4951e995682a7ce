"""Kernels other compilers emit (test/Clients/Inputs, issue 19), compiled
with offload.compile as their files are and launched from NumPy: the results
a user of numba-cuda-mlir or eudsl-python-extras checks."""

import pathlib
import re

import numpy as np
import pytest

import offload

INPUTS = pathlib.Path(__file__).resolve().parents[2] / "test" / "Clients" / "Inputs"


def load(compiler, kernel, host):
    """The captured module and its (only) kernel."""
    text = (INPUTS / compiler / f"{kernel}.mlir").read_text()
    name = re.search(r"gpu\.func @(\w+)", text).group(1)
    return offload.compile(text, device=host).kernel(name)


def test_numba_vadd(host):
    k = load("numba", "vadd", host)
    a = np.arange(1000, dtype=np.float32)
    b = 2 * a
    c = np.zeros_like(a)
    k(a, b, c, grid=(1000 + 127) // 128, block=128)
    np.testing.assert_array_equal(c, a + b)


def test_numba_saxpy(host):
    k = load("numba", "saxpy", host)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(777, dtype=np.float32)
    y = rng.standard_normal(777, dtype=np.float32)
    out = np.zeros_like(x)
    k(np.float32(1.5), x, y, out, grid=7, block=128)
    np.testing.assert_allclose(out, np.float32(1.5) * x + y, rtol=1e-6)


def test_numba_strided_views(host):
    # numba's arrays are strided views: every other element of a buffer.
    k = load("numba", "vadd", host)
    a = np.arange(512, dtype=np.float32)[::2]
    c = np.zeros(512, dtype=np.float32)[::2]
    k(a, a, c, grid=4, block=64)
    np.testing.assert_array_equal(c, 2 * a)


def test_numba_stencil(host):
    k = load("numba", "stencil", host)
    x = np.random.default_rng(2).standard_normal(300).astype(np.float32)
    y = np.zeros_like(x)
    k(x, y, grid=3, block=128)
    want = np.zeros_like(x)
    want[1:-1] = 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def test_numba_histogram(host):
    k = load("numba", "histogram", host)
    x = np.random.default_rng(3).integers(0, 16, 5000).astype(np.int32)
    bins = np.zeros(16, dtype=np.int32)
    k(x, bins, grid=40, block=128)
    np.testing.assert_array_equal(bins, np.bincount(x, minlength=16))


def test_numba_gelu(host):
    k = load("numba", "gelu", host)
    x = np.linspace(-5, 5, 1024, dtype=np.float32)
    y = np.zeros_like(x)
    k(x, y, grid=8, block=128)
    v = x.astype(np.float64)
    want = 0.5 * v * (1 + np.tanh(0.7978845608 * (v + 0.044715 * v**3)))
    np.testing.assert_allclose(y, want.astype(np.float32), rtol=1e-5, atol=1e-6)


def test_numba_block_sum(host):
    k = load("numba", "block_sum", host)
    x = np.random.default_rng(4).standard_normal(128 * 16).astype(np.float32)
    out = np.zeros(16, dtype=np.float32)
    k(x, out, grid=16, block=128)
    np.testing.assert_allclose(out, x.reshape(16, 128).sum(1), rtol=1e-4, atol=1e-4)


def test_numba_matmul(host):
    k = load("numba", "matmul", host)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, 64)).astype(np.float32)
    b = rng.standard_normal((64, 64)).astype(np.float32)
    c = np.zeros((64, 64), dtype=np.float32)
    k(a, b, c, grid=(4, 4), block=(16, 16))
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_numba_warp_sum(host):
    k = load("numba", "warp_sum", host)
    x = np.arange(256, dtype=np.float32) % 7
    out = np.zeros(8, dtype=np.float32)
    k(x, out, grid=2, block=128)
    np.testing.assert_array_equal(out, x.reshape(8, 32).sum(1))


def test_numba_vote(host):
    k = load("numba", "vote", host)
    x = np.where(np.arange(64) % 5 == 0, 1, -1).astype(np.int32)
    x[32:] = 1  # the second warp: every lane
    out = np.zeros(64, dtype=np.int32)
    k(x, out, grid=1, block=64)
    ballot = sum(1 << lane for lane in range(32) if lane % 5 == 0)
    assert (out[:32] == np.int32(ballot + 1)).all()  # ballot, any
    assert (out[32:] == np.int32(2)).all()  # 0xffffffff + any + 2 * all


def test_eudsl_tile_scale(host):
    k = load("eudsl", "tile_scale", host)
    a = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    b = np.zeros_like(a)
    k(a, b, grid=16, block=16)
    np.testing.assert_array_equal(b, 2 * a)


# FlyDSL's kernels take !llvm.ptr<1> arguments: arrays pass their address.
# Their block sizes are the ones FlyDSL compiled them for (known_block_size).


def test_flydsl_vadd(host):
    k = load("flydsl", "vadd", host)
    a = np.arange(64 * 8, dtype=np.float32)
    b = np.ones_like(a)
    c = np.zeros_like(a)
    k(a, b, c, grid=8, block=64)
    np.testing.assert_array_equal(c, a + 1)


def test_flydsl_saxpy_from_device_arrays(host):
    k = load("flydsl", "saxpy", host)
    x = np.arange(256, dtype=np.float32)
    dx = offload.asarray(x, device=host)
    dy = offload.asarray(np.ones_like(x), device=host)
    out = host.alloc((256,), np.float32)
    k(np.float32(3.0), dx, dy, out, grid=4, block=64)
    np.testing.assert_array_equal(out.numpy(), 3 * x + 1)


def test_flydsl_histogram(host):
    k = load("flydsl", "histogram", host)
    x = np.random.default_rng(6).integers(0, 16, 64 * 32).astype(np.int32)
    bins = np.zeros(16, dtype=np.int32)
    k(x, bins, grid=32, block=64)
    np.testing.assert_array_equal(bins, np.bincount(x, minlength=16))


def test_flydsl_block_sum(host):
    k = load("flydsl", "block_sum", host)
    x = np.random.default_rng(7).standard_normal(128 * 8).astype(np.float32)
    out = np.zeros(8, dtype=np.float32)
    k(x, out, grid=8, block=128)
    np.testing.assert_allclose(out, x.reshape(8, 128).sum(1), rtol=1e-4, atol=1e-4)


def test_flydsl_warp_reduce(host):
    # DPP moves and a swizzle (rocdl.update.dpp, rocdl.ds_swizzle).
    k = load("flydsl", "warp_reduce", host)
    x = np.random.default_rng(8).integers(0, 100, 256).astype(np.float32)
    out = np.zeros_like(x)
    k(x, out, grid=4, block=64)
    np.testing.assert_array_equal(out, np.repeat(x.reshape(8, 32).sum(1), 32))


def test_pointer_argument_rejects_other_objects(host):
    k = load("flydsl", "vadd", host)
    a = np.zeros(64, dtype=np.float32)
    with pytest.raises(TypeError, match="takes an offload.Array"):
        k(a, a, "not an array", grid=1, block=64)
