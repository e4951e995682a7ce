//===- HostDeviceInfo.cpp - Properties of the host device -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The answers of offloadGetDeviceInfo for the host device, read from the
// system once, when the plugin is initialized: /proc/cpuinfo, sysconf and
// getrlimit, cpufreq in sysfs, the SMBIOS tables (when readable, else udev's
// copy of their memory devices), the machine id, and LLVM's view of the CPU
// (sys::getHostCPUFeatures) for vector widths and floating-point
// capabilities. What cannot be read is reported as 0.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;
using namespace offload;
using namespace offload::host;

/// Reads a whole (small, possibly virtual) file; empty if unreadable.
static std::string readFile(const Twine &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileAsStream(Path);
  if (!Buffer)
    return "";
  return (*Buffer)->getBuffer().str();
}

/// Values of every "Key : value" line of /proc/cpuinfo with key \p Key, one
/// per logical CPU on x86.
static SmallVector<std::string> readCpuInfoAll(StringRef CpuInfo,
                                               StringRef Key) {
  SmallVector<std::string> Values;
  SmallVector<StringRef> Lines;
  CpuInfo.split(Lines, '\n');
  for (StringRef Line : Lines) {
    auto [Name, Value] = Line.split(':');
    if (Name.trim() == Key)
      Values.push_back(Value.trim().str());
  }
  return Values;
}

static std::string readCpuInfo(StringRef CpuInfo, StringRef Key) {
  SmallVector<std::string> Values = readCpuInfoAll(CpuInfo, Key);
  return Values.empty() ? std::string() : Values.front();
}

/// The PCI-SIG vendor id of a CPU vendor (CPUID vendor string); 0 if none.
static uint32_t getPciVendorId(StringRef Vendor) {
  return StringSwitch<uint32_t>(Vendor)
      .Case("GenuineIntel", 0x8086)
      .Case("AuthenticAMD", 0x1022)
      .Case("HygonGenuine", 0x1d94)
      .Case("CentaurHauls", 0x1106)
      .Case("Shanghai", 0x1d17)
      .Default(0);
}

/// Maximum clock frequency in MHz: the largest cpufreq maximum of any CPU,
/// else the largest "cpu MHz" of /proc/cpuinfo (the current clock), else 0.
static uint32_t getMaxClockMHz(StringRef CpuInfo, unsigned NumCpus) {
  uint64_t MaxKHz = 0;
  for (unsigned Cpu = 0; Cpu < NumCpus; ++Cpu) {
    std::string Text = readFile("/sys/devices/system/cpu/cpu" + Twine(Cpu) +
                                "/cpufreq/cpuinfo_max_freq");
    uint64_t KHz = 0;
    if (!StringRef(Text).trim().getAsInteger(10, KHz))
      MaxKHz = std::max(MaxKHz, KHz);
  }
  if (MaxKHz)
    return uint32_t(MaxKHz / 1000);
  double MaxMHz = 0;
  for (const std::string &Value : readCpuInfoAll(CpuInfo, "cpu MHz")) {
    double MHz = 0;
    if (!StringRef(Value).getAsDouble(MHz))
      MaxMHz = std::max(MaxMHz, MHz);
  }
  return uint32_t(std::lround(MaxMHz));
}

/// The configured speed of the fastest memory module in the SMBIOS tables
/// (structure type 17, "Memory Device"); 0 if the tables are not readable
/// (they are root-only on most systems) or list no speed.
static uint32_t getSMBIOSMemorySpeed() {
  std::string Table = readFile("/sys/firmware/dmi/tables/DMI");
  const auto *Data = reinterpret_cast<const uint8_t *>(Table.data());
  size_t Size = Table.size();
  auto Word = [&](size_t At) { return uint32_t(Data[At] | Data[At + 1] << 8); };
  auto DWord = [&](size_t At) { return Word(At) | Word(At + 2) << 16; };
  uint32_t Best = 0;
  size_t At = 0;
  while (At + 4 <= Size) {
    uint8_t Type = Data[At], Length = Data[At + 1];
    if (Length < 4 || At + Length > Size || Type == 127)
      break;
    if (Type == 17) {
      uint32_t Speed = 0;
      // Configured memory speed (SMBIOS 2.7+), then the module's speed;
      // 0xFFFF means "see the extended field" (SMBIOS 3.3+).
      if (Length > 0x21)
        Speed = Word(At + 0x20);
      if (Speed == 0xFFFF && Length >= 0x5C)
        Speed = DWord(At + 0x58);
      if ((Speed == 0 || Speed == 0xFFFF) && Length > 0x16)
        Speed = Word(At + 0x15);
      if (Speed == 0xFFFF && Length >= 0x58)
        Speed = DWord(At + 0x54);
      if (Speed != 0xFFFF)
        Best = std::max(Best, Speed);
    }
    // The formatted area is followed by strings ending with a double NUL.
    size_t Next = At + Length;
    while (Next + 1 < Size && (Data[Next] || Data[Next + 1]))
      ++Next;
    At = Next + 2;
  }
  return Best;
}

/// The same speed from udev's database, which anyone may read: systemd's
/// udevd (248 and later, 70-memory.rules) runs as root, reads the SMBIOS
/// memory devices and records MEMORY_DEVICE_<n>_CONFIGURED_SPEED_MTS and
/// MEMORY_DEVICE_<n>_SPEED_MTS for the dmi device. The configured speed of
/// each module, else its speed; 0 without the file.
static uint32_t getUdevMemorySpeed() {
  std::string Data = readFile("/run/udev/data/+dmi:id");
  StringMap<uint32_t> Configured, Rated;
  SmallVector<StringRef> Lines;
  StringRef(Data).split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (!Line.consume_front("E:MEMORY_DEVICE_"))
      continue;
    auto [Key, Value] = Line.split('=');
    auto [Index, Field] = Key.split('_');
    uint32_t Speed;
    if (Value.trim().getAsInteger(10, Speed))
      continue;
    if (Field == "CONFIGURED_SPEED_MTS")
      Configured[Index] = Speed;
    else if (Field == "SPEED_MTS")
      Rated[Index] = Speed;
  }
  uint32_t Best = 0;
  for (const auto &Entry : Rated)
    if (!Configured.count(Entry.getKey()))
      Best = std::max(Best, Entry.getValue());
  for (const auto &Entry : Configured)
    Best = std::max(Best, Entry.getValue() ? Entry.getValue()
                                           : Rated.lookup(Entry.getKey()));
  return Best;
}

/// The memory's speed as the firmware states it (MT/s for DDR memory): the
/// SMBIOS tables where readable (root), else udev's copy of them (any
/// user), else 0.
static uint32_t getMemoryClockMHz() {
  if (uint32_t Speed = getSMBIOSMemorySpeed())
    return Speed;
  return getUdevMemorySpeed();
}

/// A stable identifier of this machine.
static std::string getMachineUID() {
  for (const char *Path : {"/etc/machine-id", "/var/lib/dbus/machine-id",
                           "/proc/sys/kernel/random/boot_id"}) {
    std::string Id = StringRef(readFile(Path)).trim().str();
    if (!Id.empty())
      return "host-" + Id;
  }
  char Host[256] = {};
  if (gethostname(Host, sizeof(Host) - 1) == 0 && Host[0])
    return std::string("host-") + Host;
  return "host";
}

/// The largest allocation the process may make: physical memory, limited by
/// the address-space and data-segment resource limits.
static uint64_t getMaxAllocBytes(uint64_t PhysicalBytes) {
  uint64_t Max = PhysicalBytes;
  for (int Resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit Limit;
    if (getrlimit(Resource, &Limit) == 0 && Limit.rlim_cur != RLIM_INFINITY)
      Max = std::min<uint64_t>(Max, Limit.rlim_cur);
  }
  return Max;
}

namespace {
/// What LLVM knows about the host CPU's vector and floating-point units.
struct VectorUnits {
  /// Widest vector register, in bits, for each element class.
  unsigned FloatBits = 0, DoubleBits = 0, IntBits = 0, ByteBits = 0;
  /// Native half-precision arithmetic, and its widest vector in bits.
  bool NativeHalf = false;
  unsigned HalfBits = 0;
  bool HasFMA = false;
};
} // namespace

static VectorUnits getVectorUnits() {
  VectorUnits Units;
  StringMap<bool> Features = sys::getHostCPUFeatures();
  auto Has = [&](StringRef Name) { return Features.lookup(Name); };
  Triple Host(sys::getProcessTriple());
  if (Host.isX86()) {
    unsigned Fp = Has("avx512f") ? 512 : Has("avx") ? 256 : 128;
    Units.FloatBits = Units.DoubleBits = Fp;
    Units.IntBits = Has("avx512f") ? 512 : Has("avx2") ? 256 : 128;
    Units.ByteBits = Has("avx512bw") ? 512 : Has("avx2") ? 256 : 128;
    Units.NativeHalf = Has("avx512fp16");
    Units.HalfBits = Units.NativeHalf ? 512 : 0;
    Units.HasFMA = Has("fma") || Has("fma4");
  } else if (Host.isAArch64()) {
    // NEON: 128-bit registers, fused multiply-add, IEEE arithmetic.
    Units.FloatBits = Units.DoubleBits = Units.IntBits = Units.ByteBits = 128;
    Units.NativeHalf = Has("fullfp16");
    Units.HalfBits = Units.NativeHalf ? 128 : 0;
    Units.HasFMA = true;
  } else {
    // Scalar only, as far as we know.
    Units.FloatBits = 32;
    Units.DoubleBits = 64;
    Units.IntBits = 64;
    Units.ByteBits = 8;
  }
  return Units;
}

/// Elements of \p ElementBytes bytes in a \p Bits -bit vector, at least 1
/// (0 stays 0: no native arithmetic for the type).
static uint32_t lanes(unsigned Bits, unsigned ElementBytes) {
  if (!Bits)
    return 0;
  return std::max(1u, Bits / (8 * ElementBytes));
}

/// The properties that depend only on the machine, read once per process
/// (every offloadInit creates a device; the system does not change).
static DeviceInfo readSystemInfo() {
  DeviceInfo Info;
  std::string CpuInfo = readFile("/proc/cpuinfo");
  unsigned NumCpus =
      std::max(1u, llvm::hardware_concurrency().compute_thread_count());

  Info.Type = OFFLOAD_DEVICE_TYPE_HOST;
  Info.Name = readCpuInfo(CpuInfo, "model name");
  if (Info.Name.empty())
    Info.Name = "host";
  // On CPUs the model name is the marketing name; where /proc/cpuinfo has
  // none (AArch64), LLVM's name of the CPU is the closest thing.
  Info.ProductName = readCpuInfo(CpuInfo, "model name");
  if (Info.ProductName.empty())
    Info.ProductName = sys::getHostCPUName().str();
  Info.UID = getMachineUID();
  Info.Vendor = readCpuInfo(CpuInfo, "vendor_id");
  if (Info.Vendor.empty())
    Info.Vendor = "unknown";
  Info.DriverVersion = LLVM_VERSION_STRING;

  // Block limits: CUDA's, so that programs written for GPUs launch unchanged.
  Info.MaxWorkGroupSize = 1024;
  Info.MaxWorkGroupSizePerDimension = {1024, 1024, 64};
  // Grid limits, in threads: every global thread id, per dimension and
  // linear over the grid, fits a signed 32-bit integer (what kernels written
  // for GPUs assume), and the largest launch (2^31 - 1 threads) finishes in
  // seconds on the host, where a grid of 2^64 blocks would run for ever.
  constexpr uint32_t MaxGridThreads = std::numeric_limits<int32_t>::max();
  Info.MaxWorkSize = MaxGridThreads;
  Info.MaxWorkSizePerDimension = {MaxGridThreads, MaxGridThreads,
                                  MaxGridThreads};

  Info.VendorId = getPciVendorId(Info.Vendor);
  Info.NumComputeUnits = NumCpus;
  Info.MaxClockFrequency = getMaxClockMHz(CpuInfo, NumCpus);
  Info.MemoryClockRate = getMemoryClockMHz();
  Info.AddressBits = sizeof(void *) * 8;

  long Pages = sysconf(_SC_PHYS_PAGES);
  long PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    Info.GlobalMemSize = uint64_t(Pages) * uint64_t(PageSize);
  Info.MaxMemAllocSize = getMaxAllocBytes(Info.GlobalMemSize);

  VectorUnits Units = getVectorUnits();
  offload_device_fp_capability_flags_t IEEE =
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM;
  offload_device_fp_capability_flags_t FMA =
      Units.HasFMA ? OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA : 0;
  Info.SingleFPConfig = IEEE | FMA;
  Info.DoubleFPConfig = IEEE | FMA;
  // Without native half arithmetic, LLVM computes in single precision and
  // rounds back, which is still correctly rounded for half.
  Info.HalfFPConfig = Units.NativeHalf
                          ? IEEE | FMA
                          : IEEE | OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT;

  Info.NativeVectorWidthChar = lanes(Units.ByteBits, 1);
  Info.NativeVectorWidthShort = lanes(Units.ByteBits, 2);
  Info.NativeVectorWidthInt = lanes(Units.IntBits, 4);
  Info.NativeVectorWidthLong = lanes(Units.IntBits, 8);
  Info.NativeVectorWidthFloat = lanes(Units.FloatBits, 4);
  Info.NativeVectorWidthDouble = lanes(Units.DoubleBits, 8);
  Info.NativeVectorWidthHalf = lanes(Units.HalfBits, 2);
  Info.SubgroupSize = OFFLOAD_HOST_SUBGROUP_SIZE;
  // Each block of a cooperative grid gets a thread of its own (HostLaunch.cpp).
  Info.CooperativeLaunchSupport = true;
  Info.Architecture = sys::getHostCPUName().str();
  return Info;
}

DeviceInfo offload::host::queryHostDeviceInfo(const HostConfig &Config) {
  static const DeviceInfo System = readSystemInfo();
  DeviceInfo Info = System;
  Info.WorkGroupLocalMemSize = Config.SharedMemoryPerBlock;
  return Info;
}
