"""Devices and their properties."""

import pytest

import offload


def test_devices_start_with_the_host(host):
    devices = offload.devices()
    assert devices, "the host device is always there"
    assert devices[0] == host
    assert devices[0].index == 0
    assert host.is_host
    assert host.backend == "host"
    assert offload.devices(backend="host") == [host]
    assert offload.devices(backend="cuda") == [d for d in devices
                                               if d.backend == "cuda"]


def test_unknown_backend_is_an_error():
    with pytest.raises(ValueError, match="unknown backend 'tpu'"):
        offload.devices("tpu")


def test_device_properties(host):
    assert isinstance(host.name, str) and host.name
    assert isinstance(host.vendor, str) and host.vendor
    assert host.type in ("cpu", "host")
    assert host.compute_units >= 1
    assert host.global_mem_size > 0
    assert host.shared_mem_size > 0
    assert host.max_block_size >= 1
    dims = host.max_block_dims
    assert len(dims) == 3 and all(d >= 1 for d in dims)
    assert host.subgroup_size >= 1
    assert isinstance(host.driver_version, str)
    platform = host.platform
    assert platform["backend"] == "host"
    assert set(platform) == {"name", "vendor", "version", "backend"}


def test_device_repr_and_hash(host):
    text = repr(host)
    assert text.startswith("<offload.Device 0 host:")
    assert host.name in text and "compute units" in text
    assert hash(host) == hash(offload.devices()[0])
    assert {host: 1}[offload.host_device()] == 1
    assert host != "host"


def test_default_device(host):
    assert offload.default_device() == host
    offload.set_default_device(0)
    try:
        assert offload.default_device() == host
    finally:
        offload.set_default_device(None)


def test_supported_dtypes():
    names = offload.supported_dtypes()
    for name in ("float16", "float32", "float64", "int8", "int16", "int32",
                 "int64", "uint8"):
        assert name in names
