//===- HostKernels.cpp - Host kernels against native C++ ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Inputs, launch geometry, baselines and references of the kernels of
// bench/host/kernels. The references are the kernels' definitions written as
// plain serial loops, independent of both the kernels and the baselines.
//
//===----------------------------------------------------------------------===//

#include "HostKernels.h"

#include "NativeKernels.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <sstream>
#include <type_traits>

using namespace offload_bench;
using namespace offload_bench::host;

const char *offload_bench::host::producerName(Producer P) {
  switch (P) {
  case Producer::Ours:
    return "ours";
  case Producer::Native:
    return "native";
  case Producer::Reference:
    return "reference";
  }
  return "?";
}

std::string offload_bench::host::compareOutputs(const HostKernelCase &Case,
                                                Producer A, Producer B) {
  std::ostringstream Message;
  for (const OutputBuffers &O : Case.outputs()) {
    size_t Bad = 0;
    std::ostringstream First;
    for (size_t I = 0; I < O.Count; ++I) {
      double X, Y;
      if (O.Type == OutputBuffers::F32) {
        X = static_cast<const float *>(O.of(A))[I];
        Y = static_cast<const float *>(O.of(B))[I];
      } else {
        X = static_cast<const int32_t *>(O.of(A))[I];
        Y = static_cast<const int32_t *>(O.of(B))[I];
      }
      if (X == Y)
        continue;
      if (Bad++ < 5)
        First << "\n  " << O.Name << "[" << I << "]: " << producerName(A) << " "
              << X << ", " << producerName(B) << " " << Y;
    }
    if (Bad)
      Message << Case.name() << " (" << Case.problem() << "): " << Bad << " of "
              << O.Count << " elements of " << O.Name << " differ"
              << First.str() << "\n";
  }
  return Message.str();
}

std::string KernelForm::specialize(const std::string &Source) const {
  std::string Text = Source;
  auto IsDigit = [](char C) {
    return std::isdigit(static_cast<unsigned char>(C)) != 0;
  };
  // A character that makes the number part of a name (%c512, @k512, a_512);
  // 'x' does not (the 512 after the x of 512x512 is a dimension).
  auto InName = [](char C) {
    if (std::isalpha(static_cast<unsigned char>(C)))
      return C != 'x';
    return C == '_' || C == '.' || C == '%' || C == '@';
  };
  for (const auto &[From, To] : Substitutions) {
    std::string Out;
    size_t Pos = 0;
    for (size_t Hit; (Hit = Text.find(From, Pos)) != std::string::npos;) {
      size_t End = Hit + From.size();
      bool Whole =
          (Hit == 0 || (!IsDigit(Text[Hit - 1]) && !InName(Text[Hit - 1]))) &&
          (End == Text.size() || !IsDigit(Text[End]));
      Out.append(Text, Pos, Hit - Pos);
      Out += Whole ? To : From;
      Pos = End;
    }
    Out.append(Text, Pos, std::string::npos);
    Text = std::move(Out);
  }
  return Text;
}

namespace {

/// Deterministic pseudo-random numbers, the same on every platform.
class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}
  uint32_t below(uint32_t N) {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((State >> 33) % N);
  }
  /// A small integer in [Low, High], as T.
  template <typename T> T integer(int Low, int High) {
    return static_cast<T>(Low + int(below(uint32_t(High - Low + 1))));
  }

private:
  uint64_t State;
};

uint32_t ceilDiv(size_t A, size_t B) {
  return static_cast<uint32_t>(std::max<size_t>(1, (A + B - 1) / B));
}

/// The three copies of one output.
template <typename T> struct Copies {
  explicit Copies(size_t Count) : Ours(Count), Native(Count), Ref(Count) {}
  Buffer<T> Ours, Native, Ref;
  void clear() {
    for (Buffer<T> *B : {&Ours, &Native, &Ref})
      std::fill(B->begin(), B->end(), T());
  }
  OutputBuffers view(const char *Name) const {
    OutputBuffers O;
    O.Name = Name;
    O.Type = std::is_same_v<T, float> ? OutputBuffers::F32 : OutputBuffers::I32;
    O.Count = Ours.size();
    O.Ours = Ours.data();
    O.Native = Native.data();
    O.Reference = Ref.data();
    return O;
  }
};

template <typename T>
void fillRandom(Buffer<T> &B, uint64_t Seed, int Low, int High) {
  Random R(Seed);
  for (T &V : B)
    V = R.integer<T>(Low, High);
}

int64_t idx(size_t V) { return static_cast<int64_t>(V); }

//===----------------------------------------------------------------------===//
// 1. saxpy
//===----------------------------------------------------------------------===//

class Saxpy : public HostKernelCase {
public:
  explicit Saxpy(size_t N) : N(N), X(N), Y0(N), Y(N) {
    fillRandom(X, 11, -8, 8);
    fillRandom(Y0, 12, -8, 8);
    reset();
    Args.index(idx(N))
        .scalar(A)
        .memref(X.data(), {idx(N)})
        .memref(Y.Ours.data(), {idx(N)});
    setSizes(ceilDiv(N, 256), 1, 256, 1);
    Problem = "n=" + std::to_string(N) + " f32";
    Items = N;
  }
  const char *name() const override { return "saxpy"; }
  const char *file() const override { return "saxpy.mlir"; }
  const char *kernel() const override { return "saxpy"; }
  bool cooperative() const override { return false; }
  void reset() override {
    for (Buffer<float> *B : {&Y.Ours, &Y.Native, &Y.Ref})
      std::memcpy(B->data(), Y0.data(), N * sizeof(float));
  }
  void runNative() override { nativeSaxpy(N, A, X.data(), Y.Native.data()); }
  void runReference() override {
    for (size_t I = 0; I < N; ++I)
      Y.Ref[I] = A * X[I] + Y.Ref[I];
  }
  std::vector<OutputBuffers> outputs() const override { return {Y.view("y")}; }

private:
  size_t N;
  float A = 2.0f;
  Buffer<float> X, Y0;
  Copies<float> Y;
};

//===----------------------------------------------------------------------===//
// 2. stencil3
//===----------------------------------------------------------------------===//

class Stencil3 : public HostKernelCase {
public:
  explicit Stencil3(size_t N) : N(N), In(N), Out(N) {
    fillRandom(In, 21, 0, 15);
    Args.index(idx(N))
        .scalar(W0)
        .scalar(W1)
        .scalar(W2)
        .memref(In.data(), {idx(N)})
        .memref(Out.Ours.data(), {idx(N)});
    setSizes(ceilDiv(N, 256), 1, 256, 1);
    Problem = "n=" + std::to_string(N) + " f32";
    Items = N;
  }
  const char *name() const override { return "stencil3"; }
  const char *file() const override { return "stencil3.mlir"; }
  const char *kernel() const override { return "stencil3"; }
  bool cooperative() const override { return false; }
  void reset() override { Out.clear(); }
  void runNative() override {
    nativeStencil3(N, W0, W1, W2, In.data(), Out.Native.data());
  }
  void runReference() override {
    for (size_t I = 0; I < N; ++I)
      Out.Ref[I] = I == 0 || I == N - 1
                       ? In[I]
                       : W0 * In[I - 1] + W1 * In[I] + W2 * In[I + 1];
  }
  std::vector<OutputBuffers> outputs() const override {
    return {Out.view("out")};
  }

  std::vector<KernelForm> forms() const override {
    float *InP = const_cast<float *>(In.data());
    float *OutP = const_cast<float *>(Out.Ours.data());
    std::vector<KernelForm> F{baseForm()};
    ArgPack Static;
    Static.scalar(W0)
        .scalar(W1)
        .scalar(W2)
        .memref(InP, {idx(N)})
        .memref(OutP, {idx(N)});
    F.push_back(form("static", Static));
    F.back().Substitutions = {{"16777216", std::to_string(N)}};
    ArgPack I32;
    I32.scalar(int32_t(N))
        .scalar(W0)
        .scalar(W1)
        .scalar(W2)
        .memref(InP, {idx(N)})
        .memref(OutP, {idx(N)});
    F.push_back(form("i32", I32));
    F.push_back(form("global_id", Args));
    ArgPack Strided;
    Strided.index(idx(N))
        .scalar(W0)
        .scalar(W1)
        .scalar(W2)
        .stridedMemref(InP, 0, {idx(N)}, {1})
        .stridedMemref(OutP, 0, {idx(N)}, {1});
    F.push_back(form("strided", Strided));
    F.push_back(form("subview", Args));
    F.push_back(form("affine", Args));
    if (N % 256 == 0)
      F.push_back(form("nobounds", Args));
    return F;
  }

private:
  size_t N;
  float W0 = 0.25f, W1 = 0.5f, W2 = 0.25f;
  Buffer<float> In;
  Copies<float> Out;
};

//===----------------------------------------------------------------------===//
// 3, 4. matrix products
//===----------------------------------------------------------------------===//

class Matmul : public HostKernelCase {
public:
  Matmul(size_t M, size_t N, size_t K, bool Tiled)
      : M(M), N(N), K(K), Tiled(Tiled), A(M * K), B(K * N), C(M * N) {
    fillRandom(A, 31, -2, 2);
    fillRandom(B, 32, -2, 2);
    Args.index(idx(M))
        .index(idx(N))
        .index(idx(K))
        .memref(A.data(), {idx(M * K)})
        .memref(B.data(), {idx(K * N)})
        .memref(C.Ours.data(), {idx(M * N)});
    setSizes(ceilDiv(N, 16), ceilDiv(M, 16), 16, 16);
    Problem = std::to_string(M) + "x" + std::to_string(K) + " * " +
              std::to_string(K) + "x" + std::to_string(N) + " f32";
    Items = uint64_t(M) * N * K;
  }
  const char *name() const override {
    return Tiled ? "tiled_matmul" : "naive_matmul";
  }
  const char *file() const override {
    return Tiled ? "matmul_tiled.mlir" : "matmul_naive.mlir";
  }
  const char *kernel() const override {
    return Tiled ? "matmul_tiled" : "matmul_naive";
  }
  bool cooperative() const override { return Tiled; }
  void reset() override { C.clear(); }
  void runNative() override {
    (Tiled ? nativeTiledMatmul : nativeNaiveMatmul)(M, N, K, A.data(), B.data(),
                                                    C.Native.data());
  }
  void runReference() override {
    for (size_t I = 0; I < M; ++I)
      for (size_t J = 0; J < N; ++J) {
        float Sum = 0;
        for (size_t Kk = 0; Kk < K; ++Kk)
          Sum += A[I * K + Kk] * B[Kk * N + J];
        C.Ref[I * N + J] = Sum;
      }
  }
  std::vector<OutputBuffers> outputs() const override { return {C.view("C")}; }

  std::vector<KernelForm> forms() const override {
    float *Cp = const_cast<float *>(C.Ours.data());
    float *Ap = const_cast<float *>(A.data());
    float *Bp = const_cast<float *>(B.data());
    std::vector<KernelForm> F{baseForm()};
    ArgPack TwoD;
    TwoD.memref(Ap, {idx(M), idx(K)})
        .memref(Bp, {idx(K), idx(N)})
        .memref(Cp, {idx(M), idx(N)});
    ArgPack I32;
    I32.scalar(int32_t(M))
        .scalar(int32_t(N))
        .scalar(int32_t(K))
        .memref(Ap, {idx(M * K)})
        .memref(Bp, {idx(K * N)})
        .memref(Cp, {idx(M * N)});
    F.push_back(form("2d_dynamic", TwoD));
    if (M == N && N == K) {
      F.push_back(form("2d_static", TwoD));
      F.back().Substitutions = {{"512", std::to_string(M)}};
    }
    F.push_back(form("i32", I32));
    F.push_back(form("affine", TwoD));
    bool Whole = M % 16 == 0 && N % 16 == 0 && (!Tiled || K % 16 == 0);
    if (Whole)
      F.push_back(form("nobounds", Args));
    if (Tiled) {
      F.push_back(form("flat_tiles", Args));
    } else {
      F.push_back(form("global_id", Args));
      F.push_back(form("strided_subview", TwoD));
    }
    return F;
  }

private:
  size_t M, N, K;
  bool Tiled;
  Buffer<float> A, B;
  Copies<float> C;
};

//===----------------------------------------------------------------------===//
// 10. WMMA matrix product
//===----------------------------------------------------------------------===//

class WmmaMatmul : public HostKernelCase {
public:
  static constexpr size_t Side = 1024;
  WmmaMatmul() : A(Side * Side), B(Side * Side), C(Side * Side) {
    fillRandom(A, 101, -2, 2);
    fillRandom(B, 102, -2, 2);
    Args.memref(A.data(), {idx(Side * Side)})
        .memref(B.data(), {idx(Side * Side)})
        .memref(C.Ours.data(), {idx(Side * Side)});
    setSizes(Side / 32, Side / 32, 128, 1);
    Problem = "1024x1024 * 1024x1024 f16 -> f32";
    Items = uint64_t(Side) * Side * Side;
  }
  const char *name() const override { return "wmma_matmul"; }
  const char *file() const override { return "wmma_matmul.mlir"; }
  const char *kernel() const override { return "wmma_matmul"; }
  bool cooperative() const override { return false; }
  const char *group() const override { return "subgroup-mma"; }
  void reset() override { C.clear(); }
  void runNative() override {
    nativeWmmaMatmul(Side, Side, Side, A.data(), B.data(), C.Native.data());
  }
  void runReference() override {
    std::vector<float> Row(Side);
    for (size_t I = 0; I < Side; ++I) {
      std::fill(Row.begin(), Row.end(), 0.0f);
      for (size_t Kk = 0; Kk < Side; ++Kk) {
        float Aik = float(A[I * Side + Kk]);
        for (size_t J = 0; J < Side; ++J)
          Row[J] += Aik * float(B[Kk * Side + J]);
      }
      std::copy(Row.begin(), Row.end(), C.Ref.data() + I * Side);
    }
  }
  std::vector<OutputBuffers> outputs() const override { return {C.view("C")}; }

private:
  Buffer<_Float16> A, B;
  Copies<float> C;
};

//===----------------------------------------------------------------------===//
// 5, 6. per-block sums
//===----------------------------------------------------------------------===//

class BlockReduction : public HostKernelCase {
public:
  BlockReduction(size_t N, uint32_t BlockSize, bool Shuffles)
      : N(N), BlockSize(BlockSize), Shuffles(Shuffles), In(N),
        Out(ceilDiv(N, BlockSize)) {
    fillRandom(In, Shuffles ? 52 : 51, -8, 8);
    Args.index(idx(N))
        .memref(In.data(), {idx(N)})
        .memref(Out.Ours.data(), {idx(Out.Ours.size())});
    setSizes(ceilDiv(N, BlockSize), 1, BlockSize, 1);
    Problem = "n=" + std::to_string(N) + " f32, " + std::to_string(BlockSize) +
              "/block";
    Items = N;
  }
  const char *name() const override {
    return Shuffles ? "warp_reduce" : "block_sum";
  }
  const char *file() const override {
    return Shuffles ? "warp_reduce.mlir" : "block_sum.mlir";
  }
  const char *kernel() const override {
    return Shuffles ? "warp_reduce" : "block_sum";
  }
  bool cooperative() const override { return true; }
  void reset() override { Out.clear(); }
  void runNative() override {
    nativeBlockSum(N, BlockSize, In.data(), Out.Native.data());
  }
  void runReference() override {
    for (size_t Bk = 0; Bk < Out.Ref.size(); ++Bk) {
      float Sum = 0;
      for (size_t I = Bk * BlockSize; I < N && I < (Bk + 1) * BlockSize; ++I)
        Sum += In[I];
      Out.Ref[Bk] = Sum;
    }
  }
  std::vector<OutputBuffers> outputs() const override {
    return {Out.view("out")};
  }

  std::vector<KernelForm> forms() const override {
    if (Shuffles)
      return {};
    float *InP = const_cast<float *>(In.data());
    float *OutP = const_cast<float *>(Out.Ours.data());
    size_t Blocks = Out.Ours.size();
    std::vector<KernelForm> F{baseForm()};
    ArgPack I32;
    I32.scalar(int32_t(N)).memref(InP, {idx(N)}).memref(OutP, {idx(Blocks)});
    F.push_back(form("i32", I32));
    F.push_back(form("global_id", Args));
    ArgPack Static;
    Static.memref(InP, {idx(N)}).memref(OutP, {idx(Blocks)});
    F.push_back(form("static", Static));
    // The output's size first: the input's may become a number the second
    // substitution would change.
    F.back().Substitutions = {{"65536", std::to_string(Blocks)},
                              {"16777216", std::to_string(N)}};
    F.push_back(form("subview", Args));
    if (N % BlockSize == 0) {
      F.push_back(form("nobounds", Args));
      ArgPack TwoD;
      TwoD.memref(InP, {idx(Blocks), idx(BlockSize)})
          .memref(OutP, {idx(Blocks)});
      F.push_back(form("2d", TwoD));
    }
    if ((BlockSize & (BlockSize - 1)) == 0)
      F.push_back(form("tree", Args));
    return F;
  }

private:
  size_t N;
  uint32_t BlockSize;
  bool Shuffles;
  Buffer<float> In;
  Copies<float> Out;
};

//===----------------------------------------------------------------------===//
// 7. transpose
//===----------------------------------------------------------------------===//

class Transpose : public HostKernelCase {
public:
  Transpose(size_t Rows, size_t Cols)
      : Rows(Rows), Cols(Cols), In(Rows * Cols), Out(Rows * Cols) {
    // Distinct values: a misplaced element is a difference.
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<float>(I % (1 << 24));
    Args.index(idx(Rows))
        .index(idx(Cols))
        .memref(In.data(), {idx(Rows * Cols)})
        .memref(Out.Ours.data(), {idx(Rows * Cols)});
    setSizes(ceilDiv(Cols, 32), ceilDiv(Rows, 32), 32, 8);
    Problem = std::to_string(Rows) + "x" + std::to_string(Cols) + " f32";
    Items = uint64_t(Rows) * Cols;
  }
  const char *name() const override { return "transpose"; }
  const char *file() const override { return "transpose.mlir"; }
  const char *kernel() const override { return "transpose"; }
  bool cooperative() const override { return true; }
  void reset() override { Out.clear(); }
  void runNative() override {
    nativeTranspose(Rows, Cols, In.data(), Out.Native.data());
  }
  void runReference() override {
    for (size_t R = 0; R < Rows; ++R)
      for (size_t C = 0; C < Cols; ++C)
        Out.Ref[C * Rows + R] = In[R * Cols + C];
  }
  std::vector<OutputBuffers> outputs() const override {
    return {Out.view("out")};
  }

  std::vector<KernelForm> forms() const override {
    float *InP = const_cast<float *>(In.data());
    float *OutP = const_cast<float *>(Out.Ours.data());
    std::vector<KernelForm> F{baseForm()};
    ArgPack TwoD;
    TwoD.memref(InP, {idx(Rows), idx(Cols)})
        .memref(OutP, {idx(Cols), idx(Rows)});
    F.push_back(form("2d_dynamic", TwoD));
    if (Rows == Cols) {
      F.push_back(form("2d_static", TwoD));
      F.back().Substitutions = {{"2048", std::to_string(Rows)}};
    }
    ArgPack I32;
    I32.scalar(int32_t(Rows))
        .scalar(int32_t(Cols))
        .memref(InP, {idx(Rows * Cols)})
        .memref(OutP, {idx(Rows * Cols)});
    F.push_back(form("i32", I32));
    ArgPack Strided;
    Strided.stridedMemref(InP, 0, {idx(Rows), idx(Cols)}, {idx(Cols), 1})
        .stridedMemref(OutP, 0, {idx(Cols), idx(Rows)}, {idx(Rows), 1});
    F.push_back(form("strided", Strided));
    F.push_back(form("affine", TwoD));
    if (Rows % 32 == 0 && Cols % 32 == 0)
      F.push_back(form("nobounds", Args));
    return F;
  }

private:
  size_t Rows, Cols;
  Buffer<float> In;
  Copies<float> Out;
};

//===----------------------------------------------------------------------===//
// 8. block scan
//===----------------------------------------------------------------------===//

class BlockScan : public HostKernelCase {
public:
  explicit BlockScan(size_t N) : N(N), In(N), Out(N) {
    fillRandom(In, 81, -100, 100);
    Args.index(idx(N))
        .memref(In.data(), {idx(N)})
        .memref(Out.Ours.data(), {idx(N)});
    setSizes(ceilDiv(N, BlockSize), 1, BlockSize, 1);
    Problem = "n=" + std::to_string(N) + " i32, 1024/block";
    Items = N;
  }
  const char *name() const override { return "block_scan"; }
  const char *file() const override { return "block_scan.mlir"; }
  const char *kernel() const override { return "block_scan"; }
  bool cooperative() const override { return true; }
  void reset() override { Out.clear(); }
  void runNative() override {
    nativeBlockScan(N, BlockSize, In.data(), Out.Native.data());
  }
  void runReference() override {
    for (size_t I = 0; I < N; ++I)
      Out.Ref[I] = In[I] + (I % BlockSize ? Out.Ref[I - 1] : 0);
  }
  std::vector<OutputBuffers> outputs() const override {
    return {Out.view("out")};
  }

private:
  static constexpr uint32_t BlockSize = 1024; // fixed by the kernel
  size_t N;
  Buffer<int32_t> In;
  Copies<int32_t> Out;
};

//===----------------------------------------------------------------------===//
// 9. histogram
//===----------------------------------------------------------------------===//

class Histogram : public HostKernelCase {
public:
  Histogram(size_t N, uint32_t BlockSize, size_t PerThread)
      : N(N), In(N), Hist(256) {
    // Uneven bins: half the bytes fall in 16 bins (contention on them).
    Random R(91);
    for (uint8_t &V : In)
      V = static_cast<uint8_t>(R.below(2) ? R.below(256) : 64 + R.below(16));
    Args.index(idx(N))
        .memref(In.data(), {idx(N)})
        .memref(Hist.Ours.data(), {256});
    setSizes(ceilDiv(N, size_t(BlockSize) * PerThread), 1, BlockSize, 1);
    Problem = "n=" + std::to_string(N) + " u8, 256 bins, " +
              std::to_string(Sizes.NumGroups.x) + " blocks of " +
              std::to_string(BlockSize);
    Items = N;
  }
  const char *name() const override { return "histogram"; }
  const char *file() const override { return "histogram.mlir"; }
  const char *kernel() const override { return "histogram"; }
  bool cooperative() const override { return true; }
  void reset() override { Hist.clear(); }
  void beforeLaunch() override {
    std::memset(Hist.Ours.data(), 0, 256 * sizeof(int32_t));
  }
  void runNative() override {
    nativeHistogram(N, Sizes.NumGroups.x, Sizes.GroupSize.x, In.data(),
                    Hist.Native.data());
  }
  void runReference() override {
    std::fill(Hist.Ref.begin(), Hist.Ref.end(), 0);
    for (size_t I = 0; I < N; ++I)
      ++Hist.Ref[In[I]];
  }
  std::vector<OutputBuffers> outputs() const override {
    return {Hist.view("hist")};
  }

  std::vector<KernelForm> forms() const override {
    uint8_t *InP = const_cast<uint8_t *>(In.data());
    int32_t *HistP = const_cast<int32_t *>(Hist.Ours.data());
    std::vector<KernelForm> F{baseForm()};
    ArgPack I32;
    I32.scalar(int32_t(N)).memref(InP, {idx(N)}).memref(HistP, {256});
    F.push_back(form("i32", I32));
    F.push_back(form("global_id", Args));
    ArgPack Static;
    Static.memref(InP, {idx(N)}).memref(HistP, {256});
    F.push_back(form("static", Static));
    F.back().Substitutions = {{"16777216", std::to_string(N)}};
    ArgPack Strided;
    Strided.index(idx(N))
        .stridedMemref(InP, 0, {idx(N)}, {1})
        .memref(HistP, {256});
    F.push_back(form("strided", Strided));
    F.push_back(form("while", Args));
    return F;
  }

private:
  size_t N;
  Buffer<uint8_t> In;
  Copies<int32_t> Hist;
};

/// \p Side times \p Factor, rounded to a multiple of \p Tile (at least one).
size_t scaleSide(size_t Side, double Factor, size_t Tile) {
  double Scaled = std::round(double(Side) * Factor / double(Tile));
  return std::max<size_t>(1, size_t(Scaled)) * Tile;
}

size_t scaleCount(size_t Count, double Factor) {
  return std::max<size_t>(1, size_t(std::llround(double(Count) * Factor)));
}

} // namespace

std::unique_ptr<HostKernelCase> offload_bench::host::createSaxpy(size_t N) {
  return std::make_unique<Saxpy>(N);
}
std::unique_ptr<HostKernelCase> offload_bench::host::createStencil3(size_t N) {
  return std::make_unique<Stencil3>(N);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createNaiveMatmul(size_t M, size_t N, size_t K) {
  return std::make_unique<Matmul>(M, N, K, /*Tiled=*/false);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createTiledMatmul(size_t M, size_t N, size_t K) {
  return std::make_unique<Matmul>(M, N, K, /*Tiled=*/true);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createBlockSum(size_t N, uint32_t BlockSize) {
  return std::make_unique<BlockReduction>(N, BlockSize, /*Shuffles=*/false);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createWarpReduce(size_t N, uint32_t BlockSize) {
  return std::make_unique<BlockReduction>(N, BlockSize, /*Shuffles=*/true);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createTranspose(size_t Rows, size_t Cols) {
  return std::make_unique<Transpose>(Rows, Cols);
}
std::unique_ptr<HostKernelCase> offload_bench::host::createBlockScan(size_t N) {
  return std::make_unique<BlockScan>(N);
}
std::unique_ptr<HostKernelCase>
offload_bench::host::createHistogram(size_t N, uint32_t BlockSize,
                                     size_t PerThread) {
  return std::make_unique<Histogram>(N, BlockSize, PerThread);
}

std::unique_ptr<HostKernelCase> offload_bench::host::createWmmaMatmul() {
  return std::make_unique<WmmaMatmul>();
}

std::vector<std::unique_ptr<HostKernelCase>>
offload_bench::host::createBenchCases(BenchScale Scale) {
  constexpr size_t N16M = size_t(1) << 24;
  double Free = Scale.BarrierFree, Coop = Scale.Cooperative;
  size_t FreeSide = scaleSide(512, std::cbrt(Free), 16);
  size_t CoopSide = scaleSide(512, std::cbrt(Coop), 16);
  size_t TransposeSide = scaleSide(2048, std::sqrt(Coop), 32);
  size_t CoopN = scaleCount(N16M, Coop);
  std::vector<std::unique_ptr<HostKernelCase>> Cases;
  Cases.push_back(createSaxpy(scaleCount(N16M, Free)));
  Cases.push_back(createStencil3(scaleCount(N16M, Free)));
  Cases.push_back(createNaiveMatmul(FreeSide, FreeSide, FreeSide));
  Cases.push_back(createTiledMatmul(CoopSide, CoopSide, CoopSide));
  Cases.push_back(createBlockSum(CoopN, 256));
  Cases.push_back(createWarpReduce(CoopN, 256));
  Cases.push_back(createTranspose(TransposeSide, TransposeSide));
  Cases.push_back(createBlockScan(CoopN));
  Cases.push_back(createHistogram(CoopN, 256, 64));
  Cases.push_back(createWmmaMatmul());
  return Cases;
}
