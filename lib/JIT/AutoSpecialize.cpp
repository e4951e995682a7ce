//===- AutoSpecialize.cpp - Automatic specialization on stable arguments --===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See AutoSpecialize.h for the rule, the profile's format and the costs.
//
//===----------------------------------------------------------------------===//

#include "AutoSpecialize.h"
#include "DiskCache.h"

#include "OffloadDialect/IR/OffloadDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace offloadjit;

bool offloadjit::isWatchable(mlir::Type Ty) {
  if (llvm::isa<mlir::IndexType>(Ty))
    return true;
  if (auto Int = llvm::dyn_cast<mlir::IntegerType>(Ty))
    return llvm::is_contained({8u, 16u, 32u, 64u}, Int.getWidth());
  if (auto Float = llvm::dyn_cast<mlir::FloatType>(Ty))
    return Float.getWidth() <= 64 && Float.getWidth() % 8 == 0;
  return false;
}

std::string AutoProfile::getProfilePath(llvm::StringRef Directory,
                                        llvm::StringRef ModuleHash,
                                        llvm::StringRef Kernel) {
  std::string Material = (ModuleHash + ";" + Kernel).str();
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Material.data()), Material.size()));
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, llvm::utohexstr(Hash.high64, true, 16) +
                                    llvm::utohexstr(Hash.low64, true, 16) +
                                    kAutoProfileSuffix.str());
  return std::string(Path);
}

AutoProfile::AutoProfile(std::string Kernel, std::vector<AutoArgument> Watched,
                         const AutoOptions &Options, AutoCounters &Counters,
                         std::optional<std::string> ProfilePath)
    : Kernel(std::move(Kernel)), Watched(std::move(Watched)), Options(Options),
      Counters(Counters), ProfilePath(std::move(ProfilePath)) {
  if (this->Watched.size() > 64)
    this->Watched.resize(64);
  this->Options.Threshold = std::max(1u, this->Options.Threshold);
  this->Options.MaxVariants = std::max(1u, this->Options.MaxVariants);
  size_t N = this->Watched.size();
  Last.reset(new std::atomic<uint64_t>[N]);
  Run.reset(new std::atomic<uint32_t>[N]);
  for (size_t I = 0; I < N; ++I) {
    Last[I] = 0;
    Run[I] = 0;
  }
  Variants.reset(new AutoVariant[this->Options.MaxVariants]);
}

AutoProfile::~AutoProfile() = default;

void AutoProfile::trace(const std::string &Message) const {
  if (Options.Trace)
    llvm::errs() << "offload-jit: auto: " << Kernel << ": " << Message << "\n";
}

std::string AutoProfile::describe(uint64_t Mask, const uint64_t *Values) const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (unsigned I = 0, E = Watched.size(); I < E; ++I) {
    if (!(Mask >> I & 1))
      continue;
    const AutoArgument &Arg = Watched[I];
    OS << (Text.empty() ? "" : ", ") << "argument " << Arg.Index << " ("
       << Arg.ArgType << ") = ";
    uint64_t V = Values[I];
    if (auto Float = llvm::dyn_cast<mlir::FloatType>(Arg.ArgType)) {
      llvm::SmallString<32> S;
      llvm::APFloat(Float.getFloatSemantics(), llvm::APInt(Float.getWidth(), V))
          .toString(S);
      OS << S;
    } else {
      // Sign-extended from the field's width.
      unsigned Bits = Arg.Size * 8;
      OS << (Bits == 64 ? int64_t(V) : llvm::SignExtend64(V, Bits));
    }
  }
  return Text;
}

void AutoProfile::load() {
  if (!ProfilePath)
    return;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(*ProfilePath, /*IsText=*/true);
  if (!Buffer)
    return; // no profile yet
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  auto Reject = [&](const llvm::Twine &Why) {
    trace("ignored the profile " + *ProfilePath + ": " + Why.str());
  };
  if (Lines.size() < 3 || Lines[0].trim() != "offload-jit-auto 1")
    return Reject("not an automatic-specialization profile of version 1");
  if (Lines[1].trim() != "kernel " + Kernel)
    return Reject("it is the profile of " + Lines[1].trim().drop_front(7));
  uint64_t Launches = 0;
  llvm::StringRef Count = Lines[2].trim();
  if (!Count.consume_front("launches ") || Count.getAsInteger(10, Launches))
    return Reject("no launch count");
  std::lock_guard<std::mutex> Lock(Mutex);
  unsigned Loaded = 0;
  for (llvm::StringRef Line : llvm::ArrayRef(Lines).drop_front(3)) {
    if (Loaded == Options.MaxVariants)
      break;
    Line = Line.trim();
    if (!Line.consume_front("variant "))
      return Reject("unexpected line '" + Line + "'");
    AutoVariant &V = Variants[Loaded];
    V = AutoVariant();
    V.Values.assign(Watched.size(), 0);
    llvm::SmallVector<llvm::StringRef> Parts;
    Line.split(Parts, ' ', -1, /*KeepEmpty=*/false);
    bool Valid = !Parts.empty();
    for (llvm::StringRef Part : Parts) {
      auto [IndexText, ValueText] = Part.split(':');
      unsigned Index;
      uint64_t Value;
      if (IndexText.getAsInteger(10, Index) ||
          ValueText.getAsInteger(16, Value)) {
        Valid = false;
        break;
      }
      auto It = llvm::find_if(
          Watched, [&](const AutoArgument &A) { return A.Index == Index; });
      if (It == Watched.end() ||
          (It->Size < 8 && Value >> (It->Size * 8) != 0)) {
        Valid = false;
        break;
      }
      unsigned W = It - Watched.begin();
      V.Mask |= uint64_t(1) << W;
      V.Values[W] = Value;
    }
    if (!Valid)
      return Reject("bad variant '" + Line + "'");
    V.FromDisk = true;
    V.Id = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
               reinterpret_cast<const uint8_t *>(V.Values.data()),
               V.Values.size() * sizeof(uint64_t))) ^
           V.Mask;
    ++Loaded;
    trace("variant " + std::to_string(Loaded) +
          " from the disk cache: " + describe(V.Mask, V.Values.data()));
  }
  LaunchCount.fetch_add(Launches, std::memory_order_relaxed);
  Counters.ProfileLoads += Loaded;
  NumVariants.store(Loaded, std::memory_order_release);
  if (Loaded)
    trace(std::to_string(Loaded) + " variant(s) from " + *ProfilePath + " (" +
          std::to_string(Launches) + " launches before)");
}

void AutoProfile::save(uint64_t Launches) {
  if (!ProfilePath)
    return;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "offload-jit-auto 1\nkernel " << Kernel << "\nlaunches " << Launches
     << "\n";
  for (unsigned V = 0, E = NumVariants.load(); V < E; ++V) {
    OS << "variant";
    for (unsigned I = 0, N = Watched.size(); I < N; ++I)
      if (Variants[V].Mask >> I & 1)
        OS << " " << Watched[I].Index << ":"
           << llvm::format_hex_no_prefix(Variants[V].Values[I], 16);
    OS << "\n";
  }
  // A unique temporary file renamed into place: readers in other processes
  // see the old profile or the new one.
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          *ProfilePath + ".tmp.%%%%%%%%", FD, Temp)) {
    trace("cannot write the profile " + *ProfilePath + ": " + EC.message());
    return;
  }
  {
    llvm::raw_fd_ostream File(FD, /*shouldClose=*/true);
    File << Text;
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, *ProfilePath)) {
    llvm::sys::fs::remove(Temp);
    trace("cannot write the profile " + *ProfilePath + ": " + EC.message());
  }
}

const AutoVariant *AutoProfile::decide(uint64_t Mask, const uint64_t *Values,
                                       uint64_t Launches) {
  std::lock_guard<std::mutex> Lock(Mutex);
  unsigned Count = NumVariants.load(std::memory_order_relaxed);
  for (unsigned V = 0; V < Count; ++V) {
    const AutoVariant &Existing = Variants[V];
    bool Same = Existing.Mask == Mask;
    for (unsigned I = 0, E = Watched.size(); Same && I < E; ++I)
      Same = !(Mask >> I & 1) || Existing.Values[I] == Values[I];
    if (Same)
      return &Existing; // another thread decided it meanwhile
  }
  if (Count == Options.MaxVariants) {
    if (!Full.exchange(true)) {
      ++Counters.BoundReached;
      trace("not specializing on " + describe(Mask, Values) +
            ": the kernel "
            "has its " +
            std::to_string(Count) +
            " variants already "
            "(OFFLOAD_JIT_AUTO_MAX_VARIANTS); other values run without "
            "automatic values");
    }
    return nullptr;
  }
  AutoVariant &New = Variants[Count];
  New = AutoVariant();
  New.Mask = Mask;
  New.Values.assign(Watched.size(), 0);
  for (unsigned I = 0, E = Watched.size(); I < E; ++I)
    if (Mask >> I & 1)
      New.Values[I] = Values[I];
  New.Id = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
               reinterpret_cast<const uint8_t *>(New.Values.data()),
               New.Values.size() * sizeof(uint64_t))) ^
           Mask;
  NumVariants.store(Count + 1, std::memory_order_release);
  ++Counters.Variants;
  trace("specializing on " + describe(Mask, Values) + " (the same for " +
        std::to_string(Options.Threshold) + " launches; launch " +
        std::to_string(Launches) + ", variant " + std::to_string(Count + 1) +
        " of at most " + std::to_string(Options.MaxVariants) + ")");
  save(Launches);
  return &New;
}

const AutoVariant *AutoProfile::observe(const char *Args) {
  std::call_once(Loaded, [this] { load(); });
  uint64_t Launches = LaunchCount.fetch_add(1, std::memory_order_relaxed) + 1;
  unsigned N = Watched.size();
  uint64_t Current[64];
  uint64_t Stable = 0;
  for (unsigned I = 0; I < N; ++I) {
    uint64_t V = 0;
    std::memcpy(&V, Args + Watched[I].Offset, Watched[I].Size);
    Current[I] = V;
    uint32_t R;
    if (Last[I].load(std::memory_order_relaxed) == V) {
      R = Run[I].load(std::memory_order_relaxed);
      if (R < Options.Threshold)
        Run[I].store(++R, std::memory_order_relaxed);
    } else {
      Last[I].store(V, std::memory_order_relaxed);
      Run[I].store(R = 1, std::memory_order_relaxed);
    }
    if (R >= Options.Threshold)
      Stable |= uint64_t(1) << I;
  }

  // The variant whose values hold with the most guarded arguments.
  unsigned Count = NumVariants.load(std::memory_order_acquire);
  const AutoVariant *Best = nullptr;
  int BestBits = -1;
  for (unsigned V = 0; V < Count; ++V) {
    const AutoVariant &Variant = Variants[V];
    bool Holds = true;
    for (uint64_t M = Variant.Mask; M && Holds; M &= M - 1)
      Holds =
          Current[llvm::countr_zero(M)] == Variant.Values[llvm::countr_zero(M)];
    int Bits = llvm::popcount(Variant.Mask);
    if (Holds && Bits > BestBits) {
      Best = &Variant;
      BestBits = Bits;
    }
  }
  // Stable values no variant covers: a new one, guarded by them and by what
  // the best one guards (its values hold too).
  if (Stable && (!Best || (Stable & ~Best->Mask)) &&
      !Full.load(std::memory_order_relaxed))
    if (const AutoVariant *New =
            decide(Stable | (Best ? Best->Mask : 0), Current, Launches)) {
      Best = New;
      Count = NumVariants.load(std::memory_order_acquire);
    }

  if (Best)
    ++Counters.Launches;
  else if (Count)
    ++Counters.GuardMisses;
  if (Count && (LastChosen.load(std::memory_order_relaxed) != Best ||
                !AnyChosen.load(std::memory_order_relaxed))) {
    const AutoVariant *Previous =
        LastChosen.exchange(Best, std::memory_order_relaxed);
    bool First = !AnyChosen.exchange(true, std::memory_order_relaxed);
    if (Options.Trace && (Previous != Best || First)) {
      unsigned Number = Best ? Best - Variants.get() + 1 : 0;
      if (Best)
        trace("launch " + std::to_string(Launches) + " runs variant " +
              std::to_string(Number) + " (" + describe(Best->Mask, Current) +
              ")");
      else
        trace("launch " + std::to_string(Launches) + " matches no variant (" +
              describe(Previous ? Previous->Mask : Variants[0].Mask, Current) +
              "): runs without automatic values");
    }
  }
  return Best;
}

void AutoProfile::appendValues(
    const AutoVariant &Variant,
    std::vector<std::pair<unsigned, std::vector<char>>> &Values) const {
  for (unsigned I = 0, E = Watched.size(); I < E; ++I) {
    if (!(Variant.Mask >> I & 1))
      continue;
    std::vector<char> Bytes(Watched[I].Size);
    std::memcpy(Bytes.data(), &Variant.Values[I], Watched[I].Size);
    Values.push_back({Watched[I].Index, std::move(Bytes)});
  }
  llvm::sort(Values,
             [](const auto &A, const auto &B) { return A.first < B.first; });
}

void offloadjit::markRuntimeConstants(mlir::gpu::GPUFuncOp Kernel,
                                      llvm::ArrayRef<unsigned> Indices) {
  if (Kernel.getBody().empty())
    return;
  auto B = mlir::OpBuilder::atBlockBegin(&Kernel.getBody().front());
  for (unsigned Index : Indices) {
    mlir::BlockArgument Arg = Kernel.getArgument(Index);
    auto Mark = mlir::offload::RuntimeConstantOp::create(
        B, Arg.getLoc(), Arg.getType(), Arg, /*contents=*/false);
    Arg.replaceAllUsesExcept(Mark.getResult(), Mark);
  }
}
