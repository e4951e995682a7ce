//===- DeviceTest.cpp - Devices and their info ----------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <fstream>
#include <thread>
#include <unistd.h>

using namespace offload_test;

namespace {

//===----------------------------------------------------------------------===//
// offloadIterateDevices, offloadGetDevice, offloadGetHostDevice
//===----------------------------------------------------------------------===//

using DeviceLookupTest = OffloadTest;

TEST_F(DeviceLookupTest, IterateDevicesHostFirst) {
  std::vector<offload_device_handle_t> Devices;
  ASSERT_SUCCESS(offloadIterateDevices(
      [](offload_device_handle_t D, void *Data) {
        static_cast<std::vector<offload_device_handle_t> *>(Data)->push_back(D);
        return true;
      },
      &Devices));
  ASSERT_GE(Devices.size(), 1u);
  EXPECT_EQ(Devices.front(), Host);
}

TEST_F(DeviceLookupTest, IterateDevicesStops) {
  int Calls = 0;
  ASSERT_SUCCESS(offloadIterateDevices(
      [](offload_device_handle_t, void *Data) {
        ++*static_cast<int *>(Data);
        return false;
      },
      &Calls));
  EXPECT_EQ(Calls, 1);
}

TEST_F(DeviceLookupTest, IterateDevicesNullCallback) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
                   offloadIterateDevices(nullptr, nullptr));
}

TEST_F(DeviceLookupTest, GetDevice) {
  offload_device_handle_t Device = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, &Device));
  EXPECT_EQ(Device, Host);
  ASSERT_SUCCESS(
      offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, 0, &Device));
  EXPECT_EQ(Device, Host);
}

TEST_F(DeviceLookupTest, GetDeviceNotFound) {
  offload_device_handle_t Device = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 1, &Device));
  // No CUDA plugin yet.
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &Device));
}

TEST_F(DeviceLookupTest, GetDeviceInvalidArguments) {
  offload_device_handle_t Device = nullptr;
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      offloadGetDevice(static_cast<offload_platform_backend_t>(9), 0, &Device));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetHostDevice(nullptr));
}

//===----------------------------------------------------------------------===//
// offloadGetDeviceInfo(Size)
//===----------------------------------------------------------------------===//

class DeviceInfoTest : public OffloadDeviceTest {
protected:
  template <typename T> T get(offload_device_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetDeviceInfoSize(Device, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    EXPECT_EQ(Size, sizeof(T));
    T Value{};
    R = offloadGetDeviceInfo(Device, Prop, sizeof(T), &Value);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return Value;
  }

  std::string getString(offload_device_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetDeviceInfoSize(Device, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    std::string Value(Size, 'x');
    R = offloadGetDeviceInfo(Device, Prop, Size, Value.data());
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    EXPECT_EQ(strlen(Value.c_str()) + 1, Size);
    return Value.c_str();
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(DeviceInfoTest);

TEST_P(DeviceInfoTest, Strings) {
  EXPECT_FALSE(getString(OFFLOAD_DEVICE_INFO_NAME).empty());
  EXPECT_FALSE(getString(OFFLOAD_DEVICE_INFO_VENDOR).empty());
  EXPECT_FALSE(getString(OFFLOAD_DEVICE_INFO_DRIVER_VERSION).empty());
}

TEST_P(DeviceInfoTest, Limits) {
  EXPECT_GE(get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE), 1u);
  auto PerDim = get<offload_dimensions_t>(
      OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
  EXPECT_GE(PerDim.x, 1u);
  EXPECT_GE(PerDim.y, 1u);
  EXPECT_GE(PerDim.z, 1u);
  EXPECT_GE(get<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS), 1u);
  EXPECT_GT(get<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE), 0u);
  EXPECT_GT(get<uint64_t>(OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE), 0u);
  EXPECT_GE(get<uint32_t>(OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE), 1u);
}

TEST_P(DeviceInfoTest, PlatformIsLive) {
  auto Platform = get<offload_platform_handle_t>(OFFLOAD_DEVICE_INFO_PLATFORM);
  ASSERT_NE(Platform, nullptr);
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetPlatformInfoSize(Platform, OFFLOAD_PLATFORM_INFO_NAME, &Size));
}

/// The first "Key : value" of /proc/cpuinfo.
static std::string cpuInfo(const std::string &Key) {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Name = Line.substr(0, Colon);
    Name.erase(Name.find_last_not_of(" \t") + 1);
    if (Name != Key)
      continue;
    std::string Value = Line.substr(Colon + 1);
    Value.erase(0, Value.find_first_not_of(" \t"));
    Value.erase(Value.find_last_not_of(" \t") + 1);
    return Value;
  }
  return "";
}

TEST_P(DeviceInfoTest, HostValues) {
  if (Device != Host)
    GTEST_SKIP() << "host device only";
  EXPECT_EQ(get<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE),
            OFFLOAD_DEVICE_TYPE_HOST);
  std::string Model = cpuInfo("model name");
  EXPECT_EQ(getString(OFFLOAD_DEVICE_INFO_NAME),
            Model.empty() ? "host" : Model);
  EXPECT_EQ(get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE), 1024u);
  auto PerDim = get<offload_dimensions_t>(
      OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
  EXPECT_EQ(PerDim.x, 1024u);
  EXPECT_EQ(PerDim.y, 1024u);
  EXPECT_EQ(PerDim.z, 64u);
  EXPECT_EQ(get<uint32_t>(OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE), 32u);
  EXPECT_EQ(get<uint64_t>(OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE),
            64u * 1024u);
  EXPECT_EQ(get<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE),
            uint64_t(sysconf(_SC_PHYS_PAGES)) *
                uint64_t(sysconf(_SC_PAGESIZE)));
  uint32_t Units = get<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS);
  EXPECT_GE(Units, 1u);
  EXPECT_LE(Units, std::max(1u, std::thread::hardware_concurrency()));
}

TEST_P(DeviceInfoTest, InvalidHandle) {
  uint32_t Value;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadGetDeviceInfo(nullptr, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                    sizeof(Value), &Value));
  auto Garbage = reinterpret_cast<offload_device_handle_t>(&Value);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
                   offloadGetDeviceInfo(Garbage,
                                        OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                        sizeof(Value), &Value));
  size_t Size;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_DEVICE,
               offloadGetDeviceInfoSize(
                   Garbage, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, &Size));
}

TEST_P(DeviceInfoTest, InvalidArguments) {
  uint64_t Value;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ENUMERATION,
               offloadGetDeviceInfo(Device,
                                    static_cast<offload_device_info_t>(1234),
                                    sizeof(Value), &Value));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                    sizeof(Value), nullptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize",
                   offloadGetDeviceInfo(
                       Device, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE, 4, &Value));
  char Name[2];
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_NAME,
                                    sizeof(Name), Name));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_NULL_POINTER,
      offloadGetDeviceInfoSize(Device, OFFLOAD_DEVICE_INFO_NAME, nullptr));
}

} // namespace
