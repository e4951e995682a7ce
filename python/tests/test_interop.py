"""DLPack in both directions, the CUDA Array Interface, event timing,
Device.synchronize() and the package's type information."""

import gc
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import offload

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("OFFLOAD_BUILD_DIR", REPO / "build"))


# ---------------------------------------------------------------------------
# DLPack
# ---------------------------------------------------------------------------

def test_from_dlpack_numpy_is_zero_copy(host):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = offload.from_dlpack(x)
    assert a.device == host
    assert a.shape == (3, 4) and a.dtype == np.float32
    assert a.ptr == x.ctypes.data
    x[1, 2] = 100.0
    assert a.numpy()[1, 2] == 100.0
    a.fill(7.0)
    assert (x == 7.0).all()


def test_from_dlpack_keeps_the_producer_alive(host):
    x = np.arange(1000, dtype=np.int64)
    address = x.ctypes.data
    a = offload.from_dlpack(x)
    del x
    gc.collect()
    assert a.ptr == address
    np.testing.assert_array_equal(a.numpy(), np.arange(1000))


def test_numpy_from_dlpack_of_an_imported_array_round_trips(host):
    x = np.linspace(0, 1, 16)
    back = np.from_dlpack(offload.from_dlpack(x))
    assert back.ctypes.data == x.ctypes.data
    np.testing.assert_array_equal(back, x)
    assert offload.from_dlpack(x).__dlpack_device__() == (1, 0)


def test_from_dlpack_of_an_offload_array(host):
    a = offload.asarray(np.arange(8, dtype=np.uint16), device=host)
    b = offload.from_dlpack(a)
    assert b.ptr == a.ptr
    np.testing.assert_array_equal(b.numpy(), np.arange(8))


def test_from_dlpack_copies_what_it_cannot_view(host):
    x = np.arange(20, dtype=np.float64)
    strided = x[::2]
    a = offload.from_dlpack(strided)
    assert a.ptr != strided.ctypes.data
    np.testing.assert_array_equal(a.numpy(), strided)
    with pytest.raises(BufferError, match="C-contiguous"):
        offload.from_dlpack(strided, copy=False)
    copied = offload.from_dlpack(x, copy=True)
    assert copied.ptr != x.ctypes.data
    np.testing.assert_array_equal(copied.numpy(), x)


def test_from_dlpack_read_only_is_copied(host):
    x = np.arange(4, dtype=np.int32)
    x.flags.writeable = False
    a = offload.from_dlpack(x)
    np.testing.assert_array_equal(a.numpy(), x)
    assert a.ptr != x.ctypes.data


def test_from_dlpack_unsupported_dtype(host):
    for copy in (None, False):
        with pytest.raises(TypeError, match="unsupported dtype"):
            offload.from_dlpack(np.zeros(3, dtype=np.complex64), copy=copy)


def test_from_dlpack_without_the_protocol():
    with pytest.raises(TypeError, match="has no __dlpack__"):
        offload.from_dlpack([1, 2, 3])


def test_cuda_array_interface_only_on_cuda(host):
    a = offload.zeros(4, "float32", device=host)
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="CUDA device"):
        a.__cuda_array_interface__


_FAKE_CUDA = BUILD / "lib" / "libfakecuda.so"

_CUDA_SCRIPT = r"""
import numpy as np, offload
cuda = offload.devices("cuda")
assert len(cuda) == 1, cuda
a = offload.asarray(np.arange(6, dtype=np.float32).reshape(2, 3), device=cuda[0])
cai = a.__cuda_array_interface__
assert cai["shape"] == (2, 3), cai
assert cai["typestr"] == "<f4", cai
assert cai["data"] == (a.ptr, False), cai
assert cai["version"] == 3 and cai["strides"] is None, cai
assert a.__dlpack_device__() == (2, 0), a.__dlpack_device__()
b = offload.from_dlpack(a)
assert b.device == cuda[0] and b.ptr == a.ptr
np.testing.assert_array_equal(b.numpy(), np.arange(6).reshape(2, 3))
h = offload.from_dlpack(a, device=offload.host_device())
assert h.device.is_host and h.ptr != a.ptr
np.testing.assert_array_equal(h.numpy(), np.arange(6).reshape(2, 3))
q = cuda[0].queue()
start = q.record()
a.fill(3.0, queue=q)
end = q.record()
cuda[0].synchronize()
assert start.query() and end.query()
assert end.elapsed_time(start) == -start.elapsed_time(end)
try:
    start.elapsed_time(offload.host_device().queue().record())
except offload.OffloadError as e:
    assert e.code == "INVALID_DEVICE", e.code
else:
    raise AssertionError("events of two devices were compared")
print("cuda interop ok")
"""


@pytest.mark.skipif(not _FAKE_CUDA.is_file(),
                    reason="the fake CUDA driver was not built")
def test_cuda_interop_with_the_fake_driver():
    env = dict(os.environ, OFFLOAD_CUDA_LIBRARY=str(_FAKE_CUDA))
    result = subprocess.run([sys.executable, "-c", _CUDA_SCRIPT], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "cuda interop ok" in result.stdout


# ---------------------------------------------------------------------------
# Events and synchronization
# ---------------------------------------------------------------------------

def test_event_elapsed_time(host):
    q = host.queue()
    a = offload.empty(1 << 25, "uint8", device=host)
    start = q.record()
    a.fill(1, queue=q)
    end = q.record()
    end.sync()
    ms = start.elapsed_time(end)
    # Filling 32 MiB takes time: the span is positive, the reverse negative.
    assert ms > 0
    assert end.elapsed_time(start) == -ms
    assert start.elapsed_time(start) == 0
    assert start.query() and end.query()


def test_event_elapsed_time_needs_complete_events(host):
    q = host.queue()
    big = offload.empty(1 << 28, "uint8", device=host)
    start = q.record()
    big.fill(2, queue=q)
    end = q.record()
    try:
        end.elapsed_time(start)
    except offload.OffloadError as error:
        assert error.code == "NOT_READY"
    # (Completing before the call is possible; then it succeeds.)
    end.synchronize()
    assert start.elapsed_time(end) >= 0


def test_device_synchronize_waits_for_every_queue(host):
    queues = [host.queue() for _ in range(3)]
    arrays = [offload.empty(1 << 22, "int32", device=host) for _ in queues]
    events = []
    for value, (q, a) in enumerate(zip(queues, arrays)):
        a.fill(value + 1, queue=q)
        events.append(q.record())
    host.synchronize()
    assert all(e.query() for e in events)
    for value, a in enumerate(arrays):
        assert (a.numpy() == value + 1).all()
    host.synchronize()  # nothing pending: returns at once


# ---------------------------------------------------------------------------
# Type information
# ---------------------------------------------------------------------------

def test_package_is_typed():
    package = pathlib.Path(offload.__file__).parent
    assert (package / "py.typed").is_file()
    stub = package / "_offload.pyi"
    if not stub.is_file():
        pytest.skip("no stub (sanitized build or nanobind without stubgen)")
    text = stub.read_text()
    for name in ("class Array", "class Event", "def elapsed_time",
                 "def synchronize", "def __dlpack__"):
        assert name in text, name


def test_public_functions_are_annotated():
    for name in ("devices", "asarray", "from_dlpack", "compile", "empty"):
        annotations = getattr(offload, name).__annotations__
        assert "return" in annotations, name
