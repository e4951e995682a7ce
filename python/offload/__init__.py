"""offload: devices, memory, queues and run-time specialized MLIR kernels.

Python bindings of the offload runtime (``libOffloadRuntime``) and its JIT
(``libOffloadJIT``)::

    import numpy as np
    import offload

    dev = offload.devices()[0]                 # the host CPU is always device 0
    mod = offload.compile(MLIR_TEXT, device=dev)   # or a path to a .mlir file
    saxpy = mod.kernel("saxpy")
    x = offload.asarray(np.arange(1024, dtype=np.float32), device=dev)
    y = offload.zeros(1024, np.float32, device=dev)
    saxpy(np.float32(2.0), x, y, 1024, grid=4, block=256)
    print(y.numpy())

The MLIR is a ``builtin.module`` holding ``gpu.module``s whose ``gpu.func``
kernels take memrefs and scalars (``index``, ``iN``, ``fN``). Arguments marked
with ``offload.runtime_constant`` are folded into the kernel at launch
(run-time specialization, on by default); each specialization is compiled
once and cached in memory and on disk (``OFFLOAD_CACHE_DIR``).

Memory and lifetime: an :class:`Array` owns memory allocated by the runtime on
one device. On the host device (and for ``kind='host'``/``'managed'``)
``Array.numpy()`` is a zero-copy NumPy view that keeps the memory alive;
elsewhere it is a copy. Kernels on the host device also take NumPy arrays
directly, in place. Arrays passed to work on a :class:`Queue` are kept alive
by the queue until ``queue.sync()``.

Interop: :func:`from_dlpack` views any DLPack tensor's memory (NumPy,
PyTorch, CuPy) without a copy, ``np.from_dlpack(array)`` views an Array;
Arrays of CUDA devices have ``__cuda_array_interface__``. Timing:
``start.elapsed_time(end)`` of two ``queue.record()`` events, in ms;
``device.synchronize()`` waits for all of a device's queues.

Errors of the runtime and JIT raise :class:`OffloadError` (``.code``, e.g.
``'INVALID_BINARY'``, and ``.message``); argument mistakes raise
``TypeError``/``ValueError`` before anything runs.

Environment (read when the runtime or JIT starts, i.e. at the first call that
needs them): ``OFFLOAD_TRACE=1`` (one line per runtime call and JIT event on
stderr; or :func:`set_trace` before the first call), ``OFFLOAD_JIT=0``,
``OFFLOAD_JIT_ASYNC=1``, ``OFFLOAD_CACHE_DIR``, ``OFFLOAD_JIT_DUMP``,
``OFFLOAD_HOST_THREADS``, ``OFFLOAD_PROFILE=1`` (kernel, copy and JIT
summaries at exit; docs/Profiling.md) (see the project README).
"""

from __future__ import annotations

import atexit as _atexit
import os as _os
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Union

from . import _offload
from ._offload import (
    Array,
    Device,
    Event,
    Kernel,
    Module,
    Queue,
    clear_jit_cache,
    jit_stats,
    reset_jit_stats,
    set_jit_auto,
    set_jit_enabled,
    wait_for_compiles,
)

if TYPE_CHECKING:
    import numpy.typing as _npt

#: What the ``device=`` arguments take: a Device, an index into devices(), or
#: None for default_device().
DeviceLike = Union[Device, int, None]
#: Shapes: an int or a sequence of ints (elements).
ShapeLike = Union[int, Sequence[int]]

__all__ = [
    "Array", "Device", "DeviceLike", "Event", "Kernel", "Module",
    "OffloadError", "Queue", "ShapeLike",
    "asarray", "clear_jit_cache", "compile", "default_device", "devices",
    "empty", "from_dlpack", "host_device", "init", "jit_stats",
    "reset_jit_stats",
    "set_default_device", "set_jit_auto", "set_jit_enabled", "set_trace", "supported_dtypes",
    "wait_for_compiles", "zeros",
]

__version__ = "0.1.0"


class OffloadError(RuntimeError):
    """An error returned by the offload runtime or JIT.

    Attributes:
        code: the error code's name without its prefix, e.g.
            ``'INVALID_BINARY'`` (unparsable MLIR), ``'COMPILE_FAILURE'``,
            ``'OUT_OF_RESOURCES'``, ``'NOT_FOUND'`` (no such kernel).
        message: the runtime's message (for MLIR, the parser's or compiler's
            diagnostics with their locations).
        errc: the numeric ``offload_errc_t``.
    """

    code: str
    message: str
    errc: int

    def __init__(self, code: str, message: str, errc: int = 0) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.errc = errc

    def __reduce__(self):
        return (type(self), (self.code, self.message, self.errc))


_offload._set_error_class(OffloadError)

_default_device = None


def init() -> None:
    """Initializes the runtime now (otherwise done by the first call that
    needs it). Raises OffloadError if a plugin fails to start."""
    _offload._init()


# The platform backends Device.backend names (python/src/Devices.cpp).
_BACKENDS = ("host", "cuda", "amdgpu")


def devices(backend: Optional[str] = None) -> List[Device]:
    """All devices, the host device first.

    Args:
        backend: None for all, or 'host', 'cuda', 'amdgpu' to keep only that
            platform's devices.

    Returns:
        list of :class:`Device` (properties: name, vendor, type, backend,
        platform, compute_units, global_mem_size (bytes), shared_mem_size
        (bytes), max_block_size, max_block_dims, subgroup_size, ...).

    Raises:
        ValueError: ``backend`` is none of 'host', 'cuda', 'amdgpu'.
    """
    if backend is not None and backend not in _BACKENDS:
        raise ValueError(
            f"unknown backend {backend!r}: expected one of "
            f"{', '.join(repr(b) for b in _BACKENDS)} (or None for all)")
    found = _offload._devices()
    if backend is None:
        return found
    return [d for d in found if d.backend == backend]


def host_device() -> Device:
    """The host device (the CPU this process runs on); always present."""
    return _offload._host_device()


def default_device() -> Device:
    """The device used when ``device=None``: the one given to
    :func:`set_default_device`, else the host device."""
    return _default_device if _default_device is not None else host_device()


def set_default_device(device: DeviceLike) -> None:
    """Sets the device used when ``device=None`` (None restores the host
    device). Accepts a :class:`Device` or an index into :func:`devices`."""
    global _default_device
    if device is not None:
        device = _device(device)
    _default_device = device


def _device(device: DeviceLike) -> Device:
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        available = devices()
        if not -len(available) <= device < len(available):
            raise ValueError(f"no device {device}: offload.devices() has "
                             f"{len(available)}")
        return available[device]
    raise TypeError(f"device must be an offload.Device, an int or None, "
                    f"not {type(device).__name__}")


def supported_dtypes() -> List[str]:
    """Names of the NumPy dtypes arrays can have."""
    return list(_offload._supported_dtypes())


def empty(shape: ShapeLike, dtype: Any = "float32", device: DeviceLike = None,
          kind: str = "device") -> Array:
    """An uninitialized :class:`Array` of ``shape`` (elements) and ``dtype``
    on ``device`` (default: :func:`default_device`). See
    :meth:`Device.alloc` for ``kind`` and errors."""
    return _device(device).alloc(shape, dtype, kind)


def zeros(shape: ShapeLike, dtype: Any = "float32", device: DeviceLike = None,
          kind: str = "device") -> Array:
    """Like :func:`empty`, filled with zeros."""
    array = empty(shape, dtype, device, kind)
    array.fill(0)
    return array


def asarray(obj: Any, dtype: Any = None, device: DeviceLike = None,
            kind: str = "device") -> Array:
    """``obj`` as an :class:`Array` on ``device`` (default:
    :func:`default_device`).

    An Array already on that device with that dtype is returned as is.
    Anything else (a NumPy array, a list, a scalar, an Array of another
    device) is copied into a new C-contiguous Array, converted to ``dtype``
    first when given (NumPy's conversion rules). The result owns its memory
    and does not alias ``obj``.

    Raises TypeError for an unsupported dtype (see :func:`supported_dtypes`),
    OffloadError for allocation failures.
    """
    dev = _device(device)
    if isinstance(obj, Array):
        import numpy as np
        if obj.device == dev and (dtype is None or np.dtype(dtype) == obj.dtype):
            return obj
        if dtype is None or np.dtype(dtype) == obj.dtype:
            result = dev.alloc(obj.shape, obj.dtype, kind)
            result.copy_from(obj)
            return result
        obj = obj.numpy()
    import numpy as np
    host = np.asarray(obj, dtype=dtype, order="C")
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    if host.dtype.name not in _offload._supported_dtypes():
        raise TypeError(f"unsupported dtype {host.dtype}; supported: "
                        f"{', '.join(supported_dtypes())}")
    return _offload._from_numpy(dev, host, kind)


def _check_tools(check: Union[bool, str, Sequence[str], None]) -> str:
    """The tool list of ``compile(check=...)`` as the C API takes it."""
    if check is None or check is False:
        return ""
    if check is True:
        return "memcheck"
    if isinstance(check, str):
        return check
    if isinstance(check, (list, tuple, set, frozenset)) and all(
            isinstance(tool, str) for tool in check):
        return ",".join(check)
    raise TypeError("check must be a bool, a tool name such as 'race', a "
                    "comma-separated string or a list of tool names, not "
                    f"{type(check).__name__}")


def compile(source: Union[str, bytes, bytearray, memoryview, _os.PathLike],
            device: DeviceLike = None, name: Optional[str] = None,
            check: Union[bool, str, Sequence[str], None] = False) -> Module:
    """Creates a :class:`Module` from MLIR for ``device`` (default:
    :func:`default_device`).

    Args:
        source: MLIR text (str), a path to a ``.mlir`` (text) or ``.mlirbc``
            (bytecode) file (str or os.PathLike), or bytes (text or
            bytecode). The module must hold at least one ``gpu.module``;
            other ops (host functions) are ignored.
        device: the device the kernels will run on.
        name: a label for messages (default: the path or '<string>').
        check: the checking tools of the kernels (host device), like
            compute-sanitizer's and ``OFFLOAD_CHECK=`` for this module only:
            ``True`` or ``"memcheck"`` (bounds checks: each thread's first
            bad access is printed with its location, kernel, block, thread,
            index and size, and that thread stops), ``"race"`` (hazards
            between threads of a block within one barrier interval),
            ``"sync"`` (barriers some threads of a block skip),
            ``"init"`` (reads of device memory no copy, fill or kernel
            wrote: allocations are tracked from this call on, process-wide),
            a comma-separated string or a list of these, or ``"all"``.
            Reports are printed on stdout, starting with ``=========``, and
            the launch raises OffloadError ('BACKEND_FAILURE'). ``leak`` is
            process-wide: set ``OFFLOAD_CHECK=leak``.

    Returns:
        a :class:`Module`; ``module.kernel("name")`` gives a launchable
        :class:`Kernel`. Nothing is compiled until the first launch.

    Raises:
        OffloadError: code 'INVALID_BINARY' when the MLIR does not parse,
            crashes upstream MLIR's parser or verifier (the message names
            the crash; the interpreter survives it) or holds no gpu.module
            (the message holds the diagnostics),
            'UNSUPPORTED' for a device the JIT cannot target.
        FileNotFoundError: a path that does not exist.
        ValueError: an empty source (nothing but whitespace).
    """
    dev = _device(device)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        label = name or "<bytes>"
    elif isinstance(source, _os.PathLike) or (
            isinstance(source, str) and "\n" not in source
            and (source.endswith((".mlir", ".mlirbc"))
                 or _os.path.isfile(source))):
        path = _os.fspath(source)
        with open(path, "rb") as f:
            data = f.read()
        label = name or path
    elif isinstance(source, str):
        data = source.encode()
        label = name or "<string>"
    else:
        raise TypeError("source must be MLIR text, bytes or a path, not "
                        f"{type(source).__name__}")
    if not data.strip():
        raise ValueError(f"{label} is empty: there is no MLIR module to "
                         "compile")
    return _offload._create_module(dev, data, label, _check_tools(check))


def from_dlpack(x: Any, device: DeviceLike = None,
                copy: Optional[bool] = None) -> Array:
    """An :class:`Array` viewing the memory of ``x``, any object with
    ``__dlpack__`` (a NumPy array, a PyTorch or CuPy tensor, an Array), as
    the Python Array API's ``from_dlpack``.

    Without a copy (``copy=None`` or ``False``) when ``x`` is C-contiguous,
    writable and of a supported dtype, and its memory is host memory (kDLCPU:
    the result is on the host device) or device memory of a CUDA or HIP
    device of the runtime (kDLCUDA / kDLROCM with that device's ordinal);
    the Array keeps ``x`` alive, and writes through either are seen by both.
    ``device`` asks for the Array on that device: when ``x``'s memory is
    elsewhere (or ``copy=True``, or ``x`` cannot be viewed), the result is a
    copy on it (default device: the host device for host memory).

    Raises BufferError when ``copy=False`` and no view is possible, TypeError
    for an unsupported dtype.
    """
    dev = None if device is None else _device(device)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} has no __dlpack__")
    view = None
    problem = None
    if copy is not True:
        try:
            view = _offload._from_dlpack(x, x)
        except BufferError as error:
            problem = error
        except TypeError as error:
            # nanobind refuses what it cannot import writable (a read-only
            # tensor); an unsupported dtype stays an error.
            if "incompatible function arguments" not in str(error):
                raise
            problem = BufferError("the tensor is read-only")
        if view is not None and (dev is None or view.device == dev):
            return view
        if copy is False:
            if view is not None:
                raise BufferError(f"from_dlpack: the memory is on "
                                  f"{view.device!r}, not the requested "
                                  f"device, and copy=False")
            raise BufferError(f"from_dlpack: cannot view the tensor without "
                              f"a copy: {problem}") from problem
    if view is None:
        try:
            view = _offload._from_dlpack(x, x)
        except (TypeError, BufferError) as error:
            if isinstance(error, TypeError) and \
                    "incompatible function arguments" not in str(error):
                raise
            import numpy as np
            # Not viewable (strided, read-only): NumPy reads host tensors.
            return asarray(np.from_dlpack(x), device=dev)
    target = dev if dev is not None else view.device
    result = target.alloc(view.shape, view.dtype)
    result.copy_from(view)
    return result


def set_trace(enabled: bool = True) -> None:
    """Turns tracing (``OFFLOAD_TRACE``: every runtime call and JIT event on
    stderr) on or off. It must be called before the runtime starts (before
    the first call that uses a device); afterwards it raises RuntimeError:
    set ``OFFLOAD_TRACE=1`` in the environment instead."""
    if _offload._is_initialized():
        raise RuntimeError("set_trace() must be called before the offload "
                           "runtime starts; set OFFLOAD_TRACE=1 in the "
                           "environment instead")
    _os.environ["OFFLOAD_TRACE"] = "1" if enabled else "0"


_atexit.register(_offload._shutdown)
