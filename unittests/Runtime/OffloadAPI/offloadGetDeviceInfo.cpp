//===- offloadGetDeviceInfo.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One success test per property: the value has the documented type and, on
// the host device, the value the system reports.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <thread>
#include <unistd.h>

using namespace offload_test;

namespace {

class offloadGetDeviceInfoTest : public OffloadDeviceTest {
protected:
  template <typename T> T get(offload_device_info_t Prop) {
    return getDeviceInfo<T>(Device, Prop);
  }
  std::string getString(offload_device_info_t Prop) {
    return getDeviceString(Device, Prop);
  }
  /// Whether the "flags" line of /proc/cpuinfo lists \p Flag.
  static bool hasCpuFlag(const std::string &Flag) {
    std::string Flags = " " + readCpuInfo("flags") + " ";
    return Flags.find(" " + Flag + " ") != std::string::npos;
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetDeviceInfoTest);

constexpr offload_device_fp_capability_flags_t IEEEFlags =
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT |
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO |
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF |
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
    OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM;

TEST_P(offloadGetDeviceInfoTest, SuccessType) {
  auto Type = get<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE);
  EXPECT_LE(Type, OFFLOAD_DEVICE_TYPE_HOST);
  if (isHost())
    EXPECT_EQ(Type, OFFLOAD_DEVICE_TYPE_HOST);
}

TEST_P(offloadGetDeviceInfoTest, SuccessPlatform) {
  EXPECT_EQ(get<offload_platform_handle_t>(OFFLOAD_DEVICE_INFO_PLATFORM),
            Platform);
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetPlatformInfoSize(Platform, OFFLOAD_PLATFORM_INFO_NAME, &Size));
}

TEST_P(offloadGetDeviceInfoTest, SuccessName) {
  std::string Name = getString(OFFLOAD_DEVICE_INFO_NAME);
  EXPECT_FALSE(Name.empty());
  if (isHost()) {
    std::string Model = readCpuInfo("model name");
    EXPECT_EQ(Name, Model.empty() ? "host" : Model);
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessProductName) {
  std::string Name = getString(OFFLOAD_DEVICE_INFO_PRODUCT_NAME);
  EXPECT_FALSE(Name.empty());
  std::string Model = readCpuInfo("model name");
  if (isHost() && !Model.empty())
    EXPECT_EQ(Name, Model);
}

TEST_P(offloadGetDeviceInfoTest, SuccessUID) {
  std::string UID = getString(OFFLOAD_DEVICE_INFO_UID);
  EXPECT_FALSE(UID.empty());
  if (isHost())
    EXPECT_EQ(UID.rfind("host", 0), 0u) << UID;
}

TEST_P(offloadGetDeviceInfoTest, SuccessVendor) {
  std::string Vendor = getString(OFFLOAD_DEVICE_INFO_VENDOR);
  EXPECT_FALSE(Vendor.empty());
  if (isHost()) {
    std::string Expected = readCpuInfo("vendor_id");
    EXPECT_EQ(Vendor, Expected.empty() ? "unknown" : Expected);
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessDriverVersion) {
  std::string Version = getString(OFFLOAD_DEVICE_INFO_DRIVER_VERSION);
  EXPECT_NE(Version.find('.'), std::string::npos) << Version;
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxWorkGroupSize) {
  uint32_t Max = get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(Max, 1u);
  if (isHost())
    EXPECT_EQ(Max, 1024u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxWorkGroupSizePerDimension) {
  auto Dims = get<offload_dimensions_t>(
      OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
  uint32_t Max = get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(Dims.x, 1u);
  EXPECT_GE(Dims.y, 1u);
  EXPECT_GE(Dims.z, 1u);
  EXPECT_LE(Dims.x, Max);
  if (isHost()) {
    EXPECT_EQ(Dims.x, 1024u);
    EXPECT_EQ(Dims.y, 1024u);
    EXPECT_EQ(Dims.z, 64u);
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxWorkSize) {
  uint32_t Max = get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE);
  EXPECT_GE(Max, get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE));
  // The host's grid limit: a global linear thread id fits int32_t.
  if (isHost())
    EXPECT_EQ(Max, uint32_t(INT32_MAX));
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxWorkSizePerDimension) {
  auto Dims = get<offload_dimensions_t>(
      OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION);
  EXPECT_GE(Dims.x, 1u);
  EXPECT_GE(Dims.y, 1u);
  EXPECT_GE(Dims.z, 1u);
  if (isHost()) {
    EXPECT_EQ(Dims.x, uint32_t(INT32_MAX));
    EXPECT_EQ(Dims.y, uint32_t(INT32_MAX));
    EXPECT_EQ(Dims.z, uint32_t(INT32_MAX));
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessVendorId) {
  uint32_t Id = get<uint32_t>(OFFLOAD_DEVICE_INFO_VENDOR_ID);
  if (!isHost())
    return;
  std::string Vendor = readCpuInfo("vendor_id");
  if (Vendor == "GenuineIntel")
    EXPECT_EQ(Id, 0x8086u);
  else if (Vendor == "AuthenticAMD")
    EXPECT_EQ(Id, 0x1022u);
  else if (Vendor.empty())
    EXPECT_EQ(Id, 0u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNumComputeUnits) {
  uint32_t Units = get<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS);
  EXPECT_GE(Units, 1u);
  if (isHost())
    EXPECT_LE(Units, std::max(1u, std::thread::hardware_concurrency()));
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxClockFrequency) {
  uint32_t MHz = get<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY);
  // /proc/cpuinfo's current clock is a lower bound of what we report when it
  // is known (the maximum is at least the current one, give or take
  // rounding).
  std::string Current = readCpuInfo("cpu MHz");
  if (isHost() && !Current.empty()) {
    EXPECT_GT(MHz, 0u);
    EXPECT_LT(MHz, 100000u);
  }
}

/// The memory speed udev's database records (MT/s; the configured speed of
/// each module, else its rated one), 0 without it.
uint32_t readUdevMemorySpeed() {
  std::ifstream File("/run/udev/data/+dmi:id");
  std::map<std::string, uint32_t> Configured, Rated;
  std::string Line;
  const std::string Prefix = "E:MEMORY_DEVICE_";
  while (std::getline(File, Line)) {
    if (Line.compare(0, Prefix.size(), Prefix) != 0)
      continue;
    size_t Underscore = Line.find('_', Prefix.size());
    size_t Equals = Line.find('=');
    if (Underscore == std::string::npos || Equals == std::string::npos)
      continue;
    std::string Index = Line.substr(Prefix.size(), Underscore - Prefix.size());
    std::string Field = Line.substr(Underscore + 1, Equals - Underscore - 1);
    uint32_t Value =
        uint32_t(std::strtoul(Line.c_str() + Equals + 1, nullptr, 10));
    if (Field == "CONFIGURED_SPEED_MTS")
      Configured[Index] = Value;
    else if (Field == "SPEED_MTS")
      Rated[Index] = Value;
  }
  uint32_t Best = 0;
  for (auto &[Index, Speed] : Rated)
    Best = std::max(Best, Configured.count(Index) && Configured[Index]
                              ? Configured[Index]
                              : Speed);
  for (auto &[Index, Speed] : Configured)
    Best = std::max(Best, Speed);
  return Best;
}

TEST_P(offloadGetDeviceInfoTest, SuccessMemoryClockRate) {
  uint32_t Rate = get<uint32_t>(OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE);
  EXPECT_LT(Rate, 100000u);
  // The host states the firmware's speed: from the SMBIOS tables where they
  // are readable (root), else from udev's copy of them (anyone), else 0.
  if (!isHost() || access("/sys/firmware/dmi/tables/DMI", R_OK) == 0)
    return;
  EXPECT_EQ(Rate, readUdevMemorySpeed());
}

TEST_P(offloadGetDeviceInfoTest, SuccessAddressBits) {
  uint32_t Bits = get<uint32_t>(OFFLOAD_DEVICE_INFO_ADDRESS_BITS);
  EXPECT_TRUE(Bits == 32 || Bits == 64) << Bits;
  if (isHost())
    EXPECT_EQ(Bits, sizeof(void *) * 8);
}

TEST_P(offloadGetDeviceInfoTest, SuccessMaxMemAllocSize) {
  uint64_t Max = get<uint64_t>(OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE);
  EXPECT_GT(Max, 0u);
  EXPECT_LE(Max, get<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE));
}

TEST_P(offloadGetDeviceInfoTest, SuccessGlobalMemSize) {
  uint64_t Size = get<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE);
  EXPECT_GT(Size, 0u);
  if (isHost())
    EXPECT_EQ(Size, uint64_t(sysconf(_SC_PHYS_PAGES)) *
                        uint64_t(sysconf(_SC_PAGESIZE)));
}

TEST_P(offloadGetDeviceInfoTest, SuccessWorkGroupLocalMemSize) {
  uint64_t Size = get<uint64_t>(OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  EXPECT_GT(Size, 0u);
  if (isHost())
    EXPECT_EQ(Size, 64u * 1024u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessSingleFPConfig) {
  auto Flags = get<offload_device_fp_capability_flags_t>(
      OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG);
  EXPECT_LT(Flags, 256u);
  if (isHost()) {
    EXPECT_EQ(Flags & IEEEFlags, IEEEFlags);
    if (hasCpuFlag("fma"))
      EXPECT_TRUE(Flags & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA);
    EXPECT_FALSE(Flags & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT);
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessDoubleFPConfig) {
  auto Flags = get<offload_device_fp_capability_flags_t>(
      OFFLOAD_DEVICE_INFO_DOUBLE_FP_CONFIG);
  EXPECT_LT(Flags, 256u);
  if (isHost())
    EXPECT_EQ(Flags, get<offload_device_fp_capability_flags_t>(
                         OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG));
}

TEST_P(offloadGetDeviceInfoTest, SuccessHalfFPConfig) {
  auto Flags = get<offload_device_fp_capability_flags_t>(
      OFFLOAD_DEVICE_INFO_HALF_FP_CONFIG);
  EXPECT_LT(Flags, 256u);
  if (isHost()) {
    EXPECT_NE(Flags, 0u);
    // Emulated through single precision unless the CPU has half arithmetic.
    bool Native = hasCpuFlag("avx512_fp16") || hasCpuFlag("fphp");
    EXPECT_EQ(bool(Flags & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT),
              !Native);
  }
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthChar) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR);
  EXPECT_GE(W, 1u);
  if (isHost() && hasCpuFlag("avx2"))
    EXPECT_GE(W, 32u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthShort) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT);
  EXPECT_GE(W, 1u);
  // Both come from the same vector registers, when there are any.
  uint32_t Char = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR);
  if (isHost() && Char >= 2)
    EXPECT_EQ(W * 2, Char);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthInt) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT);
  EXPECT_GE(W, 1u);
  if (isHost() && hasCpuFlag("avx512f"))
    EXPECT_EQ(W, 16u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthLong) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG);
  EXPECT_GE(W, 1u);
  // Both come from the same vector registers, when there are any.
  uint32_t Int = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT);
  if (isHost() && Int >= 2)
    EXPECT_EQ(W * 2, Int);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthFloat) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT);
  EXPECT_GE(W, 1u);
  if (isHost() && hasCpuFlag("sse2"))
    EXPECT_GE(W, 4u);
  if (isHost() && hasCpuFlag("avx"))
    EXPECT_GE(W, 8u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthDouble) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE);
  EXPECT_GE(W, 1u);
  // Both come from the same vector registers, when there are any.
  uint32_t Float = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT);
  if (isHost() && Float >= 2)
    EXPECT_EQ(W * 2, Float);
}

TEST_P(offloadGetDeviceInfoTest, SuccessNativeVectorWidthHalf) {
  uint32_t W = get<uint32_t>(OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF);
  if (isHost() && !hasCpuFlag("avx512_fp16") && !hasCpuFlag("fphp"))
    EXPECT_EQ(W, 0u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessSubgroupSize) {
  uint32_t Size = get<uint32_t>(OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE);
  EXPECT_GE(Size, 1u);
  if (isHost())
    EXPECT_EQ(Size, 32u);
}

TEST_P(offloadGetDeviceInfoTest, SuccessArchitecture) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetDeviceInfoSize(
      Device, OFFLOAD_DEVICE_INFO_ARCHITECTURE, &Size));
  std::string Arch(Size, '\0');
  ASSERT_SUCCESS(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_ARCHITECTURE,
                                      Size, Arch.data()));
  Arch.resize(strlen(Arch.c_str()));
  ASSERT_FALSE(Arch.empty());
  offload_platform_handle_t Platform = nullptr;
  offload_platform_backend_t Backend;
  ASSERT_SUCCESS(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Backend), &Backend));
  // CUDA: sm_ and the compute capability; HIP: a gfx target id.
  if (Backend == OFFLOAD_PLATFORM_BACKEND_CUDA)
    EXPECT_EQ(Arch.rfind("sm_", 0), 0u) << Arch;
  if (Backend == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    EXPECT_EQ(Arch.rfind("gfx", 0), 0u) << Arch;
}

TEST_P(offloadGetDeviceInfoTest, SuccessEveryPropertyFitsItsSize) {
  for (int Prop = OFFLOAD_DEVICE_INFO_TYPE;
       Prop <= OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT; ++Prop) {
    auto P = static_cast<offload_device_info_t>(Prop);
    size_t Size = 0;
    ASSERT_SUCCESS(offloadGetDeviceInfoSize(Device, P, &Size));
    std::vector<char> Buffer(Size + 8);
    ASSERT_SUCCESS(offloadGetDeviceInfo(Device, P, Size, Buffer.data()));
    ASSERT_SUCCESS(
        offloadGetDeviceInfo(Device, P, Buffer.size(), Buffer.data()));
  }
}

TEST_P(offloadGetDeviceInfoTest, InvalidNullHandle) {
  uint32_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadGetDeviceInfo(nullptr,
                                        OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                        sizeof(Value), &Value));
}

TEST_P(offloadGetDeviceInfoTest, InvalidDevice) {
  uint32_t Value;
  auto Garbage = reinterpret_cast<offload_device_handle_t>(&Value);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
                   offloadGetDeviceInfo(Garbage,
                                        OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                        sizeof(Value), &Value));
}

TEST_P(offloadGetDeviceInfoTest, InvalidEnumeration) {
  uint64_t Value;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      "PropName (1234) is not a valid enumerator",
      offloadGetDeviceInfo(Device, static_cast<offload_device_info_t>(1234),
                           sizeof(Value), &Value));
}

TEST_P(offloadGetDeviceInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
                   offloadGetDeviceInfo(
                       Device, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, 4, nullptr));
}

TEST_P(offloadGetDeviceInfoTest, InvalidSizeZero) {
  uint32_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
                   offloadGetDeviceInfo(
                       Device, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, 0, &Value));
}

TEST_P(offloadGetDeviceInfoTest, InvalidSizeSmall) {
  uint64_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "PropSize (4) is smaller than the property's size (8 bytes)",
                   offloadGetDeviceInfo(
                       Device, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE, 4, &Value));
  char Name[2];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize (2)",
                   offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_NAME,
                                        sizeof(Name), Name));
}

} // namespace
