"""Arrays: allocation, NumPy round trips, views, copies, lifetime."""

import gc

import numpy as np
import pytest

import offload

DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64"]


def sample(dtype, shape=(3, 5)):
    n = int(np.prod(shape))
    values = np.arange(n) * 7 - n
    if np.dtype(dtype).kind == "u":
        values = np.abs(values)
    return values.astype(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", DTYPES)
def test_round_trip_every_dtype(host, dtype):
    data = sample(dtype)
    array = offload.asarray(data, device=host)
    assert array.shape == data.shape
    assert array.dtype == np.dtype(dtype)
    assert array.nbytes == data.nbytes
    assert array.itemsize == data.itemsize
    assert array.strides == data.strides
    back = array.numpy()
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, data)
    # Through copy_to as well, and np.asarray.
    out = np.empty_like(data)
    array.copy_to(out)
    np.testing.assert_array_equal(out, data)
    np.testing.assert_array_equal(np.asarray(array), data)


@pytest.mark.parametrize("dtype", ["float32", np.float64, np.dtype("int8"),
                                   "i4"])
def test_alloc_accepts_dtype_spellings(host, dtype):
    array = host.alloc((2, 3), dtype)
    assert array.dtype == np.dtype(dtype)
    assert array.shape == (2, 3) and array.ndim == 2 and array.size == 6
    assert len(array) == 2


def test_alloc_rejects_bad_arguments(host):
    with pytest.raises(TypeError, match="unsupported dtype"):
        host.alloc(4, np.complex64)
    with pytest.raises(TypeError, match="unsupported dtype"):
        offload.asarray(np.array(["a"]))
    with pytest.raises(ValueError, match=">= 0"):
        host.alloc((-1,), "float32")
    with pytest.raises(ValueError, match="kind"):
        host.alloc(4, "float32", kind="pinned")
    with pytest.raises(TypeError):
        host.alloc("four", "float32")


def test_zero_size_and_scalar_shapes(host):
    empty = offload.empty((0, 3), "float32", device=host)
    assert empty.size == 0 and empty.numpy().shape == (0, 3)
    scalar = offload.asarray(np.float64(2.5))
    assert scalar.shape == () and scalar.numpy()[()] == 2.5


def test_host_numpy_is_a_view(host):
    array = offload.zeros(8, "int32", device=host)
    assert array.host_accessible
    view = array.numpy()
    view[3] = 42
    assert array.numpy()[3] == 42
    assert view.ctypes.data == array.ptr
    assert np.from_dlpack(array).ctypes.data == array.ptr


def test_view_keeps_memory_alive_after_free(host):
    array = offload.asarray(np.arange(16, dtype=np.float32), device=host)
    view = array.numpy()
    array.free()
    assert array.freed
    array.free()  # harmless
    with pytest.raises(ValueError, match="freed"):
        array.numpy()
    with pytest.raises(ValueError, match="freed"):
        _ = array.ptr
    del array
    gc.collect()
    np.testing.assert_array_equal(view, np.arange(16, dtype=np.float32))


def test_asarray_converts_and_copies(host):
    data = np.arange(6, dtype=np.int64)
    array = offload.asarray(data, dtype="float32", device=host)
    assert array.dtype == np.float32
    data[0] = 100  # no aliasing
    assert array.numpy()[0] == 0
    assert offload.asarray(array, device=host) is array
    converted = offload.asarray(array, dtype="float64", device=host)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted.numpy(), np.arange(6))
    from_list = offload.asarray([[1, 2], [3, 4]], dtype=np.int16)
    assert from_list.shape == (2, 2)
    # Non-contiguous and byte-swapped inputs are made contiguous and native.
    strided = np.arange(20, dtype=np.float32)[::2]
    np.testing.assert_array_equal(offload.asarray(strided).numpy(), strided)
    swapped = np.arange(4, dtype=">i4")
    np.testing.assert_array_equal(offload.asarray(swapped).numpy(), [0, 1, 2, 3])


def test_copies_fill_and_checks(host):
    a = offload.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    b = offload.empty((3, 4), np.float32)
    b.copy_from(a)
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    b.fill(1.5)
    assert (b.numpy() == 1.5).all()
    b.copy_from(np.full((3, 4), 7, np.float32))
    assert (b.numpy() == 7).all()
    with pytest.raises(TypeError, match="dtype"):
        b.copy_from(np.zeros((3, 4), np.float64))
    with pytest.raises(ValueError, match="elements"):
        b.copy_from(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        b.copy_from(np.zeros((4, 6), np.float32)[:, ::2].T.copy().T)
    with pytest.raises(ValueError, match="read-only"):
        readonly = np.zeros((3, 4), np.float32)
        readonly.flags.writeable = False
        b.copy_to(readonly)
    with pytest.raises(TypeError, match="dtype"):
        b.copy_from(offload.zeros((3, 4), np.int32))


def test_queue_copies_and_events(host):
    q = host.queue()
    assert q.device == host
    src = np.arange(1000, dtype=np.float64)
    a = offload.empty(1000, np.float64)
    out = np.zeros_like(src)
    a.copy_from(src, queue=q)
    a.copy_to(out, queue=q)
    event = q.record()
    event.sync()
    np.testing.assert_array_equal(out, src)
    q2 = host.queue()
    q2.wait(event)
    q2.sync()
    with q:
        a.fill(2.0, queue=q)
    assert (a.numpy() == 2.0).all()
    q.destroy()
    with pytest.raises(ValueError, match="destroyed"):
        q.sync()
    assert "destroyed" in repr(q)


def test_array_repr(host):
    a = offload.zeros((2, 3), "int8")
    assert repr(a) == "<offload.Array shape=(2, 3) dtype=int8 device=0 (host) kind=device>"
    a.free()
    assert repr(a).endswith("freed>")


def test_bad_device_and_event_arguments_name_the_problem(host):
    # An index past the devices, a name, and something that is no Event:
    # errors that say what was wrong (they were IndexError, a TypeError about
    # list indices, and RuntimeError: std::bad_cast).
    count = len(offload.devices())
    with pytest.raises(ValueError, match=f"no device {count + 6}"):
        offload.asarray(np.zeros(4, np.float32), device=count + 6)
    with pytest.raises(TypeError, match="device must be an offload.Device"):
        offload.set_default_device("gpu9")
    with pytest.raises(TypeError, match="takes offload.Event objects"):
        host.queue().wait(5)
    assert offload.default_device() == host
