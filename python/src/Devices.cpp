//===- Devices.cpp - offload.Device ---------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The runtime's devices as offload.Device: their properties (queried on
// access), allocation, queues and synchronization.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdio>
#include <optional>
#include <string>

using namespace nb::literals;

namespace offloadpy {

// If-chains rather than switches: the runtime's enums grow.
const char *backendName(offload_platform_backend_t Backend) {
  if (Backend == OFFLOAD_PLATFORM_BACKEND_HOST)
    return "host";
  if (Backend == OFFLOAD_PLATFORM_BACKEND_CUDA)
    return "cuda";
  if (Backend == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    return "amdgpu";
  return "unknown";
}

static const char *deviceTypeName(offload_device_type_t Type) {
  if (Type == OFFLOAD_DEVICE_TYPE_GPU)
    return "gpu";
  if (Type == OFFLOAD_DEVICE_TYPE_CPU)
    return "cpu";
  if (Type == OFFLOAD_DEVICE_TYPE_HOST)
    return "host";
  return "unknown";
}

std::vector<Device> listDevices() {
  ensureInit();
  std::vector<offload_device_handle_t> Handles;
  check(offloadIterateDevices(
      [](offload_device_handle_t D, void *User) {
        static_cast<std::vector<offload_device_handle_t> *>(User)->push_back(D);
        return true;
      },
      &Handles));
  std::vector<Device> Devices;
  for (size_t I = 0; I < Handles.size(); ++I)
    Devices.push_back({Handles[I], uint32_t(I)});
  return Devices;
}

Device hostDevice() {
  static std::optional<Device> Host;
  if (Host && runtimeAlive())
    return *Host;
  ensureInit();
  offload_device_handle_t H = nullptr;
  check(offloadGetHostDevice(&H));
  Host = Device{H, 0};
  for (const Device &D : listDevices())
    if (D.Handle == H)
      Host = D;
  return *Host;
}

static std::string formatBytes(uint64_t Bytes) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double Value = double(Bytes);
  int Unit = 0;
  while (Value >= 1024 && Unit < 4) {
    Value /= 1024;
    ++Unit;
  }
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), Unit ? "%.1f %s" : "%.0f %s", Value,
                Units[Unit]);
  return Buffer;
}

static std::string deviceRepr(const Device &D) {
  std::string Name = D.infoString(OFFLOAD_DEVICE_INFO_NAME);
  return "<offload.Device " + std::to_string(D.Index) + " " +
         backendName(D.backend()) + ": '" + Name + "' (" +
         deviceTypeName(
             D.info<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE)) +
         ", " +
         std::to_string(
             D.info<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS)) +
         " compute units, " +
         formatBytes(D.info<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE)) +
         ")>";
}

void bindDevices(nb::module_ &m) {
  nb::class_<Device>(m, "Device",
                     "A device of the offload runtime (the host CPU is always "
                     "device 0). Get them with offload.devices(); properties "
                     "are queried from the runtime on access.")
      .def_prop_ro(
          "index", [](const Device &D) { return D.Index; },
          "Position in offload.devices() (the host device is 0).")
      .def_prop_ro(
          "name",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_NAME);
          },
          "Device name (for the host device, the CPU model).")
      .def_prop_ro(
          "vendor",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_VENDOR);
          },
          "Vendor name.")
      .def_prop_ro(
          "driver_version",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_DRIVER_VERSION);
          },
          "Driver version string.")
      .def_prop_ro(
          "type",
          [](const Device &D) {
            return deviceTypeName(
                D.info<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE));
          },
          "'cpu', 'gpu', 'host' or 'unknown'.")
      .def_prop_ro(
          "backend", [](const Device &D) { return backendName(D.backend()); },
          "Platform backend: 'host', 'cuda', 'amdgpu' or 'unknown'.")
      .def_prop_ro("is_host", &Device::isHost,
                   "Whether this is the host device (memory is host memory; "
                   "kernels also take NumPy arrays directly).")
      .def_prop_ro(
          "platform",
          [](const Device &D) {
            nb::dict P;
            P["name"] = D.platformString(OFFLOAD_PLATFORM_INFO_NAME);
            P["vendor"] = D.platformString(OFFLOAD_PLATFORM_INFO_VENDOR_NAME);
            P["version"] = D.platformString(OFFLOAD_PLATFORM_INFO_VERSION);
            P["backend"] = backendName(D.backend());
            return P;
          },
          "The device's platform as a dict: name, vendor, version, "
          "backend.")
      .def_prop_ro(
          "compute_units",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS);
          },
          "Number of compute units (CPU cores, GPU SMs/CUs).")
      .def_prop_ro(
          "max_block_size",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
          },
          "Maximum threads per block (all dimensions together).")
      .def_prop_ro(
          "max_block_dims",
          [](const Device &D) {
            auto V = D.info<offload_dimensions_t>(
                OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
            return nb::make_tuple(V.x, V.y, V.z);
          },
          "Maximum threads per block in each dimension, (x, y, z).")
      .def_prop_ro(
          "global_mem_size",
          [](const Device &D) {
            return D.info<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE);
          },
          "Global memory size in bytes.")
      .def_prop_ro(
          "shared_mem_size",
          [](const Device &D) {
            return D.info<uint64_t>(
                OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
          },
          "Shared (work-group local) memory per block in bytes.")
      .def_prop_ro(
          "subgroup_size",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE);
          },
          "Threads per subgroup (warp/wavefront).")
      .def("__repr__", &deviceRepr)
      .def("__eq__",
           [](const Device &A, nb::handle B) {
             Device *Other = nullptr;
             return nb::try_cast<Device *>(B, Other) && Other &&
                    Other->Handle == A.Handle;
           })
      .def("__hash__",
           [](const Device &D) { return std::hash<void *>()(D.Handle); })
      .def(
          "alloc",
          [](const Device &D, nb::handle Shape, nb::handle Dtype,
             const std::string &Kind) {
            return allocate(D, toShape(Shape), toDType(Dtype),
                            parseAllocKind(Kind));
          },
          "shape"_a, "dtype"_a = "float32", "kind"_a = "device",
          "alloc(shape, dtype='float32', kind='device') -> Array\n\n"
          "Allocates an uninitialized array of `shape` (int or tuple of "
          "ints, in elements) and `dtype` (anything numpy.dtype accepts; "
          "supported: float16/32/64, int8/16/32/64, uint8/16/32/64) on this "
          "device. `kind` is 'device' (device memory), 'host' (pinned host "
          "memory the device can access) or 'managed' (unified). Raises "
          "TypeError (dtype), ValueError (shape, kind), OffloadError "
          "(OUT_OF_RESOURCES).")
      .def(
          "queue",
          [](const Device &D) {
            ensureInit();
            Queue Q;
            Q.Dev = D;
            check(offloadCreateQueue(D.Handle, &Q.Handle));
            liveQueues().push_back(&Q);
            return Q;
          },
          "queue() -> Queue\n\nCreates an in-order queue on this device.")
      .def(
          "synchronize",
          [](const Device &D) {
            ensureInit();
            // The Python objects keep the queues alive while the GIL is
            // released in sync().
            std::vector<nb::object> Queues;
            for (Queue *Q : liveQueues())
              if (Q->Dev.Handle == D.Handle)
                if (nb::handle H = nb::find(Q); H.is_valid())
                  Queues.push_back(nb::borrow(H));
            for (nb::object &Q : Queues) {
              Queue &Ref = nb::cast<Queue &>(Q);
              if (Ref.Handle)
                Ref.sync();
            }
          },
          "synchronize()\n\nBlocks until the work of every queue of this "
          "device is done (torch.cuda.synchronize()); copies, fills and "
          "launches without a queue are synchronous already. Raises "
          "OffloadError with the first error of a queue's work (queues "
          "after it are not waited for).");

  m.def("_devices", &listDevices);
  m.def("_host_device", &hostDevice);
}

} // namespace offloadpy
