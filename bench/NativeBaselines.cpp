//===- NativeBaselines.cpp - Native C++ versions of the benchmark kernels -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiled with -O3, OFFLOAD_BENCH_NATIVE_FLAGS (default -march=native) and
// -ffp-contract=off (bench/CMakeLists.txt). Each kernel is one template,
// instantiated twice: with a parameter struct read from the packed arguments
// (generic) and with a struct whose members are static constexpr, the
// benchmark's values (specialized). The bodies follow the C++ references of
// BenchKernels.cpp (the kernels' operations in their order); tables are
// read through accessor functions so that both versions share one body.
//
//===----------------------------------------------------------------------===//

#include "NativeBaselines.h"

#include "OffloadSupport/KernelArguments.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

using namespace offload_bench;

#define NATIVE_NOINLINE __attribute__((noinline))

namespace {

//===----------------------------------------------------------------------===//
// Reading the packed arguments
//===----------------------------------------------------------------------===//

/// Reads a packed argument buffer field by field, as ArgPack writes it
/// (OffloadSupport/KernelArguments.h: a memref of rank R is allocated and
/// aligned pointers, offset, R sizes, R strides).
class ArgReader {
public:
  explicit ArgReader(const void *Args)
      : Base(static_cast<const char *>(Args)) {}
  template <typename T> T scalar() {
    unsigned Field = std::is_pointer_v<T> ? Layout.addPointer()
                                          : Layout.addScalar(8 * sizeof(T));
    T Value;
    std::memcpy(&Value, Base + Layout.getFields()[Field].Offset, sizeof(T));
    return Value;
  }
  int64_t index() { return scalar<int64_t>(); }
  /// The first element of a memref of rank \p Rank (aligned pointer plus
  /// offset); sizes and strides are skipped (identity layouts).
  template <typename T> T *memref(int Rank = 1) {
    scalar<T *>(); // allocated
    T *Aligned = scalar<T *>();
    int64_t First = index();
    for (int I = 0; I < 2 * Rank; ++I)
      index();
    return Aligned + First;
  }

private:
  const char *Base;
  offload::kernelargs::ArgumentLayout Layout;
};

/// Whether two values are the same bits (the folded constants are compared
/// exactly; NaN never appears).
template <typename T> bool same(T A, T B) {
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

//===----------------------------------------------------------------------===//
// adam
//===----------------------------------------------------------------------===//

struct AdamArgs {
  float *P, *M, *V, *G;
  float B1, B2, Eps, GradScale, StepSize;
  int32_t TimeStep;
  int64_t N;
  int32_t Mode;
  float Decay;
  explicit AdamArgs(const void *Args) {
    ArgReader R(Args);
    P = R.memref<float>(), M = R.memref<float>(), V = R.memref<float>(),
    G = R.memref<float>();
    B1 = R.scalar<float>(), B2 = R.scalar<float>(), Eps = R.scalar<float>(),
    GradScale = R.scalar<float>(), StepSize = R.scalar<float>();
    TimeStep = R.scalar<int32_t>();
    N = R.index();
    Mode = R.scalar<int32_t>();
    Decay = R.scalar<float>();
  }
};

/// adam.mlir's runtime constants for HeCBench's run.
struct AdamBench {
  static constexpr float B1 = 0.9f, B2 = 0.999f, Eps = 1e-8f,
                         GradScale = 256.0f, StepSize = 1e-3f, Decay = 0.5f;
  static constexpr int32_t TimeStep = 200;
  static constexpr int64_t N = 10000;
  static bool matches(const AdamArgs &A) {
    return same(A.B1, B1) && same(A.B2, B2) && same(A.Eps, Eps) &&
           same(A.GradScale, GradScale) && same(A.StepSize, StepSize) &&
           same(A.Decay, Decay) && A.TimeStep == TimeStep && A.N == N;
  }
};

template <typename C>
NATIVE_NOINLINE void adamKernel(C K, float *__restrict P, float *__restrict M,
                                float *__restrict V, const float *__restrict G,
                                int32_t Mode) {
  for (int64_t J = 0; J < K.N; ++J) {
    for (int32_t T = 1; T <= K.TimeStep; ++T) {
      float ScaledGrad = G[J] / K.GradScale;
      float MNew = K.B1 * M[J] + (1.0f - K.B1) * ScaledGrad;
      M[J] = MNew;
      float VNew = K.B2 * V[J] + ((1.0f - K.B2) * ScaledGrad) * ScaledGrad;
      V[J] = VNew;
      float TF = static_cast<float>(T);
      float MCorrected = MNew / (1.0f - powf(K.B1, TF));
      float VCorrected = VNew / (1.0f - powf(K.B2, TF));
      float Denom =
          Mode == 0 ? sqrtf(VCorrected + K.Eps) : sqrtf(VCorrected) + K.Eps;
      float Update = MCorrected / Denom + K.Decay * P[J];
      P[J] = P[J] - K.StepSize * Update;
    }
  }
}

void adamGeneric(const void *Args) {
  AdamArgs A(Args);
  adamKernel(A, A.P, A.M, A.V, A.G, A.Mode);
}
void adamSpecialized(const void *Args) {
  AdamArgs A(Args);
  adamKernel(AdamBench{}, A.P, A.M, A.V, A.G, A.Mode);
}

//===----------------------------------------------------------------------===//
// rsbench
//===----------------------------------------------------------------------===//

struct RSBenchArgs {
  const double *Energies;
  double *MacroXS;
  const int32_t *NuclideIds;
  const double *Concs, *Windows, *PoleData;
  const int32_t *LValues;
  const double *K0RS;
  int64_t Lookups;
  int32_t NumNucs, NWindows, PolesPerWindow, NumL;
  explicit RSBenchArgs(const void *Args) {
    ArgReader R(Args);
    Energies = R.memref<double>(), MacroXS = R.memref<double>();
    NuclideIds = R.memref<int32_t>();
    Concs = R.memref<double>(), Windows = R.memref<double>(),
    PoleData = R.memref<double>();
    LValues = R.memref<int32_t>();
    K0RS = R.memref<double>();
    Lookups = R.index();
    NumNucs = R.scalar<int32_t>(), NWindows = R.scalar<int32_t>(),
    PolesPerWindow = R.scalar<int32_t>(), NumL = R.scalar<int32_t>();
  }
};

/// RSBench's small problem.
struct RSBenchBench {
  static constexpr int32_t NumNucs = 34, NWindows = 100, PolesPerWindow = 10,
                           NumL = 4;
  static bool matches(const RSBenchArgs &A) {
    return A.NumNucs == NumNucs && A.NWindows == NWindows &&
           A.PolesPerWindow == PolesPerWindow && A.NumL == NumL;
  }
};

inline void cMul(double A, double B, double C, double D, double &Re,
                 double &Im) {
  Re = A * C - B * D;
  Im = A * D + B * C;
}
inline void cDiv(double A, double B, double C, double D, double &Re,
                 double &Im) {
  double Denom = C * C + D * D;
  Re = (A * C + B * D) / Denom;
  Im = (B * C - A * D) / Denom;
}

template <typename C>
NATIVE_NOINLINE void rsbenchKernel(C K, const RSBenchArgs &A) {
  const double *__restrict Energies = A.Energies;
  double *__restrict MacroXS = A.MacroXS;
  const int32_t *__restrict NuclideIds = A.NuclideIds;
  const double *__restrict Concs = A.Concs;
  const double *__restrict Windows = A.Windows;
  const double *__restrict PoleData = A.PoleData;
  const int32_t *__restrict LValues = A.LValues;
  const double *__restrict K0RS = A.K0RS;
  for (int64_t I = 0; I < A.Lookups; ++I) {
    double E = Energies[I];
    double SqrtE = std::sqrt(E);
    double Spacing = 1.0 / static_cast<double>(K.NWindows);
    double XS[4] = {0, 0, 0, 0};
    for (int32_t J = 0; J < K.NumNucs; ++J) {
      size_t Nuc = static_cast<size_t>(NuclideIds[J]);
      double Conc = Concs[J];
      int32_t Window = static_cast<int32_t>(E / Spacing);
      if (Window == K.NWindows)
        Window = Window - 1;
      double SigRe[4], SigIm[4];
      for (int32_t L = 0; L < K.NumL; ++L) {
        double Phi = K0RS[Nuc * K.NumL + L] * SqrtE;
        if (L == 1) {
          Phi = Phi - (-std::atan(Phi));
        } else if (L == 2) {
          Phi = Phi - std::atan((3.0 * Phi) / (3.0 - Phi * Phi));
        } else if (L == 3) {
          double P2 = Phi * Phi;
          Phi = Phi - std::atan((Phi * (15.0 - P2)) / (15.0 - 6.0 * P2));
        }
        Phi = Phi * 2.0;
        SigRe[L] = std::cos(Phi);
        SigIm[L] = -std::sin(Phi);
      }
      size_t W = (Nuc * K.NWindows + Window) * 3;
      double SigT = E * Windows[W], SigA = E * Windows[W + 1],
             SigF = E * Windows[W + 2];
      size_t First = Nuc * K.NWindows * K.PolesPerWindow +
                     size_t(Window) * K.PolesPerWindow;
      for (int32_t Kk = 0; Kk < K.PolesPerWindow; ++Kk) {
        const double *P = &PoleData[(First + Kk) * 8];
        int32_t LV = LValues[First + Kk];
        double PsiRe, PsiIm, CdRe, CdIm, CfRe, CfIm, TRe, TIm, ARe, AIm, FRe,
            FIm;
        cDiv(0.0, 1.0, P[0] - SqrtE, P[1], PsiRe, PsiIm);
        cDiv(PsiRe, PsiIm, E, 0.0, CdRe, CdIm);
        cMul(CdRe, CdIm, SigRe[LV], SigIm[LV], CfRe, CfIm);
        cMul(P[2], P[3], CfRe, CfIm, TRe, TIm);
        cMul(P[4], P[5], CdRe, CdIm, ARe, AIm);
        cMul(P[6], P[7], CdRe, CdIm, FRe, FIm);
        SigT = SigT + TRe;
        SigA = SigA + ARe;
        SigF = SigF + FRe;
      }
      double SigE = SigT - SigA;
      XS[0] = XS[0] + SigT * Conc;
      XS[1] = XS[1] + SigA * Conc;
      XS[2] = XS[2] + SigF * Conc;
      XS[3] = XS[3] + SigE * Conc;
    }
    for (int Cc = 0; Cc < 4; ++Cc)
      MacroXS[I * 4 + Cc] = XS[Cc];
  }
}

void rsbenchGeneric(const void *Args) {
  RSBenchArgs A(Args);
  rsbenchKernel(A, A);
}
void rsbenchSpecialized(const void *Args) {
  rsbenchKernel(RSBenchBench{}, RSBenchArgs(Args));
}

//===----------------------------------------------------------------------===//
// wsm5
//===----------------------------------------------------------------------===//

#define WSM5_CONSTANTS(X)                                                      \
  X(DtCld, 60.0f)                                                              \
  X(QMin, 1.0e-15f)                                                            \
  X(QCRMin, 1.0e-9f)                                                           \
  X(TTP, 273.16f)                                                              \
  X(PSat, 610.78f)                                                             \
  X(XA, 5.0771f)                                                               \
  X(XB, 24.904f)                                                               \
  X(EP2, 0.6217f)                                                              \
  X(Den0, 1.28f)                                                               \
  X(DenR, 1000.0f)                                                             \
  X(PiDN0R, 2.5133e10f)                                                        \
  X(BVTR, 0.8f)                                                                \
  X(PVTR, 2502.8f)                                                             \
  X(QC0, 5.03e-4f)                                                             \
  X(QCK1, 6.774f)                                                              \
  X(PacRR, 2.483e10f)                                                          \
  X(PreCR1, 3.921e7f)                                                          \
  X(PreCR2, 8.265e8f)                                                          \
  X(XLV, 2.5e6f)                                                               \
  X(CPD, 1004.5f)                                                              \
  X(RV, 461.6f)                                                                \
  X(RSlopeRMax, 1.25e-5f)                                                      \
  X(RSlopeBMax, 1.194e-4f)                                                     \
  X(RSlope2Max, 1.5625e-10f)                                                   \
  X(RSlope3Max, 1.953e-15f)

struct WSM5Args {
  const float *T, *Q, *QC, *QR, *P, *Den, *DelZ;
  float *TOut, *QOut, *QCOut, *QROut, *VT, *Rain;
  int64_t NCol;
  int32_t NZ;
#define WSM5_FIELD(Name, Value) float Name;
  WSM5_CONSTANTS(WSM5_FIELD)
#undef WSM5_FIELD
  explicit WSM5Args(const void *Args) {
    ArgReader R(Args);
    T = R.memref<float>(), Q = R.memref<float>(), QC = R.memref<float>(),
    QR = R.memref<float>(), P = R.memref<float>(), Den = R.memref<float>(),
    DelZ = R.memref<float>();
    TOut = R.memref<float>(), QOut = R.memref<float>(),
    QCOut = R.memref<float>(), QROut = R.memref<float>(),
    VT = R.memref<float>(), Rain = R.memref<float>();
    NCol = R.index();
    NZ = R.scalar<int32_t>();
#define WSM5_READ(Name, Value) Name = R.scalar<float>();
    WSM5_CONSTANTS(WSM5_READ)
#undef WSM5_READ
  }
};

/// WSM5's constants (as BenchKernels.cpp) and the CONUS 12 km levels.
struct WSM5Bench {
  static constexpr int32_t NZ = 35;
#define WSM5_CONSTANT(Name, Value) static constexpr float Name = Value;
  WSM5_CONSTANTS(WSM5_CONSTANT)
#undef WSM5_CONSTANT
  static bool matches(const WSM5Args &A) {
    bool Same = A.NZ == NZ;
#define WSM5_SAME(Name, Value) Same = Same && same(A.Name, Name);
    WSM5_CONSTANTS(WSM5_SAME)
#undef WSM5_SAME
    return Same;
  }
};

template <typename C> NATIVE_NOINLINE void wsm5Kernel(C K, const WSM5Args &A) {
  const float *__restrict T = A.T, *__restrict Q = A.Q, *__restrict QC = A.QC,
                          *__restrict QR = A.QR, *__restrict P = A.P,
                          *__restrict Den = A.Den, *__restrict DelZ = A.DelZ;
  float *__restrict TOut = A.TOut, *__restrict QOut = A.QOut,
                    *__restrict QCOut = A.QCOut, *__restrict QROut = A.QROut,
                    *__restrict VT = A.VT, *__restrict Rain = A.Rain;
  const int64_t NCol = A.NCol;
  const float Zero = 0.0f, One = 1.0f;
  for (int64_t I = 0; I < NCol; ++I) {
    float RDtCld = One / K.DtCld;
    for (int32_t Kz = 0; Kz < K.NZ; ++Kz) {
      size_t Idx = Kz * NCol + I;
      float Tk = T[Idx], Qk = Q[Idx], QCk = QC[Idx], QRk = QR[Idx], Pk = P[Idx],
            DenK = Den[Idx];
      float Tr = K.TTP / Tk;
      float E1 = expf(logf(Tr) * K.XA);
      float E2 = expf(K.XB * (One - Tr));
      float Es = (K.PSat * E1) * E2;
      float Qs = fmaxf((K.EP2 * Es) / (Pk - Es), K.QMin);
      float Rh = fmaxf(Qk / Qs, K.QMin);
      float RSlope, RSlopeB, RSlope2, RSlope3;
      if (QRk <= K.QCRMin) {
        RSlope = K.RSlopeRMax, RSlopeB = K.RSlopeBMax, RSlope2 = K.RSlope2Max,
        RSlope3 = K.RSlope3Max;
      } else {
        float Lamdar = sqrtf(sqrtf(K.PiDN0R / (QRk * DenK)));
        RSlope = One / Lamdar;
        RSlopeB = powf(RSlope, K.BVTR);
        RSlope2 = RSlope * RSlope;
        RSlope3 = RSlope2 * RSlope;
      }
      float DenFac = sqrtf(K.Den0 / DenK);
      float Vt = (K.PVTR * RSlopeB) * DenFac;
      float QCRate = QCk * RDtCld;
      float PrAut = Zero;
      if (QCk > K.QC0)
        PrAut = fminf(K.QCK1 * powf(QCk, 2.33333333f), QCRate);
      float PrAcw = Zero;
      if (QRk > K.QCRMin && QCk > K.QMin)
        PrAcw = fminf((((K.PacRR * RSlope3) * RSlopeB) * QCk) * DenFac, QCRate);
      float PrEvp = Zero;
      if (Rh < One && QRk > Zero) {
        float St = sqrtf(Tk);
        float Visc = (((1.496e-6f * Tk) * St) / (Tk + 120.0f)) / DenK;
        float Diffus = (8.794e-5f * expf(logf(Tk) * 1.81f)) / Pk;
        float Xka = (1.414e3f * Visc) * DenK;
        float F1 = (DenK * (K.XLV * K.XLV)) / ((Xka * K.RV) * (Tk * Tk));
        float H1 = One / (Qs * Diffus);
        float Work1 = F1 + H1;
        float Evd = expf(logf(Visc / Diffus) * 0.3333333f);
        float Work2 = (Evd / sqrtf(Visc)) * sqrtf(DenFac);
        float Coeres = RSlope2 * sqrtf(RSlope * RSlopeB);
        float E3 = K.PreCR1 * RSlope2 + (K.PreCR2 * Work2) * Coeres;
        float Pv = ((Rh - One) * E3) / Work1;
        PrEvp = fmaxf(Pv, -(QRk * RDtCld));
      }
      float Conv = PrAut + PrAcw;
      QCOut[Idx] = fmaxf(QCk - Conv * K.DtCld, Zero);
      QROut[Idx] = fmaxf(QRk + (Conv + PrEvp) * K.DtCld, Zero);
      float Dq = PrEvp * K.DtCld;
      QOut[Idx] = fmaxf(Qk - Dq, Zero);
      TOut[Idx] = Tk + Dq * (K.XLV / K.CPD);
      VT[Idx] = Vt;
    }
    float FluxAbove = Zero;
    for (int32_t KK = 0; KK < K.NZ; ++KK) {
      size_t Idx = (K.NZ - 1 - KK) * NCol + I;
      float Flux = (Den[Idx] * QROut[Idx]) * VT[Idx];
      float DQr = ((FluxAbove - Flux) * K.DtCld) / (Den[Idx] * DelZ[Idx]);
      QROut[Idx] = fmaxf(QROut[Idx] + DQr, Zero);
      FluxAbove = Flux;
    }
    Rain[I] = ((FluxAbove * K.DtCld) / K.DenR) * 1000.0f;
  }
}

void wsm5Generic(const void *Args) {
  WSM5Args A(Args);
  wsm5Kernel(A, A);
}
void wsm5Specialized(const void *Args) {
  wsm5Kernel(WSM5Bench{}, WSM5Args(Args));
}

//===----------------------------------------------------------------------===//
// feynman-kac
//===----------------------------------------------------------------------===//

struct FeynmanKacArgs {
  double *W;
  double A, B, C, H;
  int32_t NI, NJ, NK, Trials, Steps, Seed0;
  explicit FeynmanKacArgs(const void *Args) {
    ArgReader R(Args);
    W = R.memref<double>();
    A = R.scalar<double>(), B = R.scalar<double>(), C = R.scalar<double>(),
    H = R.scalar<double>();
    NI = R.scalar<int32_t>(), NJ = R.scalar<int32_t>(),
    NK = R.scalar<int32_t>(), Trials = R.scalar<int32_t>(),
    Steps = R.scalar<int32_t>(), Seed0 = R.scalar<int32_t>();
  }
};

/// Burkardt's ellipsoid and grid, HeCBench's walk count and step bound.
struct FeynmanKacBench {
  static constexpr double A = 3.0, B = 2.0, C = 1.0, H = 0.04;
  static constexpr int32_t NI = 16, NJ = 11, NK = 6, Trials = 32, Steps = 16;
  static bool matches(const FeynmanKacArgs &F) {
    return same(F.A, A) && same(F.B, B) && same(F.C, C) && same(F.H, H) &&
           F.NI == NI && F.NJ == NJ && F.NK == NK && F.Trials == Trials &&
           F.Steps == Steps;
  }
};

inline double uniform01(int32_t &Seed) {
  int32_t K = Seed / 127773;
  // Wrapping arithmetic, as the kernel's i32 operations.
  int32_t S = static_cast<int32_t>(
      static_cast<uint32_t>(16807) * static_cast<uint32_t>(Seed - K * 127773) -
      static_cast<uint32_t>(K) * 2836u);
  if (S < 0)
    S = static_cast<int32_t>(static_cast<uint32_t>(S) + 2147483647u);
  Seed = S;
  return static_cast<double>(S) * 4.656612875E-10;
}

inline double axisStep(int32_t &Seed, double StepSz) {
  double Ut = uniform01(Seed);
  if (Ut < 0.33333333333333331) {
    double Us = uniform01(Seed) - 0.5;
    return Us < 0.0 ? -StepSz : StepSz;
  }
  return 0.0;
}

inline double coordinate(int64_t I, int64_t N, double A) {
  int64_t Nm1 = N - 1;
  double L = static_cast<double>(Nm1 - I) * -A;
  double R = static_cast<double>(I) * A;
  return (L + R) / static_cast<double>(Nm1);
}

template <typename C>
NATIVE_NOINLINE void feynmanKacKernel(C K, double *__restrict W,
                                      int32_t Seed0) {
  auto Potential = [&](double X, double Y, double Z) {
    double Xa = X / K.A / K.A, Yb = Y / K.B / K.B, Zc = Z / K.C / K.C;
    double S = 2.0 * ((Xa * Xa + Yb * Yb) + Zc * Zc);
    return ((S + 1.0 / K.A / K.A) + 1.0 / K.B / K.B) + 1.0 / K.C / K.C;
  };
  auto Ellipse = [&](double X, double Y, double Z) {
    double Xa = X / K.A, Yb = Y / K.B, Zc = Z / K.C;
    return (Xa * Xa + Yb * Yb) + Zc * Zc;
  };
  const int64_t NI = K.NI, NJ = K.NJ, NK = K.NK;
  const int64_t Points = NI * NJ * NK;
  for (int64_t G = 0; G < Points; ++G) {
    int64_t I = G % NI, J = (G / NI) % NJ, Kk = G / (NI * NJ);
    double X = coordinate(I, NI, K.A), Y = coordinate(J, NJ, K.B),
           Z = coordinate(Kk, NK, K.C);
    if (Ellipse(X, Y, Z) > 1.0) {
      W[G] = 1.0;
      continue;
    }
    double StepSz = std::sqrt(3.0 * K.H);
    double HH = 0.5 * K.H;
    int32_t Seed = static_cast<int32_t>(static_cast<uint32_t>(Seed0) +
                                        static_cast<uint32_t>(G));
    double Sum = 0.0;
    for (int32_t Trial = 0; Trial < K.Trials; ++Trial) {
      double X1 = X, X2 = Y, X3 = Z, Wc = 1.0, Chk = 0.0;
      for (int32_t St = 0; St < K.Steps; ++St) {
        if (!(Chk < 1.0))
          continue;
        double Dx = axisStep(Seed, StepSz);
        double Dy = axisStep(Seed, StepSz);
        double Dz = axisStep(Seed, StepSz);
        double Vs = Potential(X1, X2, X3);
        X1 = X1 + Dx, X2 = X2 + Dy, X3 = X3 + Dz;
        double Vh = Potential(X1, X2, X3);
        double We = (1.0 - K.H * Vs) * Wc;
        Wc = Wc - HH * (Vh * We + Vs * Wc);
        Chk = Ellipse(X1, X2, X3);
      }
      Sum = Sum + Wc;
    }
    W[G] = Sum / static_cast<double>(K.Trials);
  }
}

void feynmanKacGeneric(const void *Args) {
  FeynmanKacArgs F(Args);
  feynmanKacKernel(F, F.W, F.Seed0);
}
void feynmanKacSpecialized(const void *Args) {
  FeynmanKacArgs F(Args);
  feynmanKacKernel(FeynmanKacBench{}, F.W, F.Seed0);
}

//===----------------------------------------------------------------------===//
// lulesh
//===----------------------------------------------------------------------===//

struct LuleshArgs {
  const double *X8n, *Y8n, *Z8n, *DvDx, *DvDy, *DvDz, *Determ, *SS, *Mass;
  const int32_t *NodeList;
  const double *XD, *YD, *ZD;
  double *FX, *FY, *FZ;
  int64_t N;
  double HourG;
  const double *GammaTable; // 4 x 8
  double gamma(int I, int J) const { return GammaTable[I * 8 + J]; }
  explicit LuleshArgs(const void *Args) {
    ArgReader R(Args);
    X8n = R.memref<double>(), Y8n = R.memref<double>(),
    Z8n = R.memref<double>(), DvDx = R.memref<double>(),
    DvDy = R.memref<double>(), DvDz = R.memref<double>(),
    Determ = R.memref<double>(), SS = R.memref<double>(),
    Mass = R.memref<double>();
    NodeList = R.memref<int32_t>();
    XD = R.memref<double>(), YD = R.memref<double>(), ZD = R.memref<double>();
    FX = R.memref<double>(), FY = R.memref<double>(), FZ = R.memref<double>();
    N = R.index();
    HourG = R.scalar<double>();
    GammaTable = R.memref<double>(2);
  }
};

/// LULESH's hgcoef and hourglass base vectors.
struct LuleshBench {
  static constexpr double HourG = 3.0;
  static constexpr double Gamma[4][8] = {{1, 1, -1, -1, -1, -1, 1, 1},
                                         {1, -1, -1, 1, -1, 1, 1, -1},
                                         {1, -1, 1, -1, 1, -1, 1, -1},
                                         {-1, 1, -1, 1, 1, -1, 1, -1}};
  static constexpr double gamma(int I, int J) { return Gamma[I][J]; }
  static bool matches(const LuleshArgs &A) {
    bool Same = same(A.HourG, HourG);
    for (int I = 0; I < 4; ++I)
      for (int J = 0; J < 8; ++J)
        Same = Same && same(A.gamma(I, J), Gamma[I][J]);
    return Same;
  }
};

inline void forceDir(const double HourGam[8][4], const double *Vel,
                     double Coefficient, double *Out) {
  double Hxx[4];
  for (int M = 0; M < 4; ++M) {
    double Acc = 0.0;
    for (int J = 0; J < 8; ++J)
      Acc = Acc + HourGam[J][M] * Vel[J];
    Hxx[M] = Acc;
  }
  for (int J = 0; J < 8; ++J) {
    double Acc = 0.0;
    for (int M = 0; M < 4; ++M)
      Acc = Acc + HourGam[J][M] * Hxx[M];
    Out[J] = Coefficient * Acc;
  }
}

template <typename C>
NATIVE_NOINLINE void luleshKernel(C K, const LuleshArgs &A) {
  const double *__restrict X8n = A.X8n, *__restrict Y8n = A.Y8n,
                           *__restrict Z8n = A.Z8n, *__restrict DvDx = A.DvDx,
                           *__restrict DvDy = A.DvDy, *__restrict DvDz = A.DvDz,
                           *__restrict Determ = A.Determ, *__restrict SS = A.SS,
                           *__restrict Mass = A.Mass;
  const int32_t *__restrict NodeList = A.NodeList;
  const double *__restrict XD = A.XD, *__restrict YD = A.YD,
                           *__restrict ZD = A.ZD;
  double *__restrict FX = A.FX, *__restrict FY = A.FY, *__restrict FZ = A.FZ;
  for (int64_t E = 0; E < A.N; ++E) {
    size_t I3 = 8 * E;
    double HourGam[8][4];
    double VolInv = 1.0 / Determ[E];
    for (int I1 = 0; I1 < 4; ++I1) {
      double Hx = 0.0, Hy = 0.0, Hz = 0.0;
      for (int J = 0; J < 8; ++J) {
        Hx = Hx + X8n[I3 + J] * K.gamma(I1, J);
        Hy = Hy + Y8n[I3 + J] * K.gamma(I1, J);
        Hz = Hz + Z8n[I3 + J] * K.gamma(I1, J);
      }
      for (int J = 0; J < 8; ++J)
        HourGam[J][I1] =
            K.gamma(I1, J) - VolInv * ((DvDx[I3 + J] * Hx + DvDy[I3 + J] * Hy) +
                                       DvDz[I3 + J] * Hz);
    }
    double Volume13 = std::cbrt(Determ[E]);
    double Xd1[8], Yd1[8], Zd1[8];
    for (int J = 0; J < 8; ++J) {
      size_t Node = static_cast<size_t>(NodeList[I3 + J]);
      Xd1[J] = XD[Node], Yd1[J] = YD[Node], Zd1[J] = ZD[Node];
    }
    double Coefficient = (((-K.HourG * 0.01) * SS[E]) * Mass[E]) / Volume13;
    forceDir(HourGam, Xd1, Coefficient, &FX[I3]);
    forceDir(HourGam, Yd1, Coefficient, &FY[I3]);
    forceDir(HourGam, Zd1, Coefficient, &FZ[I3]);
  }
}

void luleshGeneric(const void *Args) {
  LuleshArgs A(Args);
  luleshKernel(A, A);
}
void luleshSpecialized(const void *Args) {
  luleshKernel(LuleshBench{}, LuleshArgs(Args));
}

//===----------------------------------------------------------------------===//
// sw4ck
//===----------------------------------------------------------------------===//

struct SW4Args {
  const double *U, *Mu, *La, *UGhost;
  double *LU;
  int64_t NI, NJ;
  const double *ACofTable;  // 6 x 8 x 8
  const double *GhCofTable; // 6
  double Cof, A1;
  double acof(int K, int Q, int M) const {
    return ACofTable[(K * 8 + Q) * 8 + M];
  }
  double ghcof(int K) const { return GhCofTable[K]; }
  explicit SW4Args(const void *Args) {
    ArgReader R(Args);
    U = R.memref<double>(), Mu = R.memref<double>(), La = R.memref<double>(),
    UGhost = R.memref<double>();
    LU = R.memref<double>();
    NI = R.index(), NJ = R.index();
    ACofTable = R.memref<double>(3);
    GhCofTable = R.memref<double>();
    Cof = R.scalar<double>(), A1 = R.scalar<double>();
  }
};

struct ACofValues {
  double V[6][8][8];
};
constexpr int absDiff(int A, int B) { return A > B ? A - B : B - A; }
/// BenchKernels.cpp's banded closure table.
constexpr ACofValues makeACof() {
  ACofValues T{};
  for (int K = 0; K < 6; ++K)
    for (int Q = 0; Q < 8; ++Q)
      for (int M = 0; M < 8; ++M)
        T.V[K][Q][M] =
            absDiff(K, Q) <= 2 && absDiff(Q, M) <= 2
                ? ((K + 1) * 7 - (Q + 1) * 3 + (M + 1) * 5 - 20) / 48.0
                : 0.0;
  return T;
}

struct SW4Bench {
  static constexpr ACofValues ACof = makeACof();
  static constexpr double GhCof[6] = {12.0 / 17.0, 0, 0, 0, 0, 0};
  static constexpr double Cof = 4.0, A1 = 1.0;
  static constexpr double acof(int K, int Q, int M) { return ACof.V[K][Q][M]; }
  static constexpr double ghcof(int K) { return GhCof[K]; }
  static bool matches(const SW4Args &A) {
    bool Same = same(A.Cof, Cof) && same(A.A1, A1);
    for (int K = 0; K < 6; ++K) {
      Same = Same && same(A.ghcof(K), GhCof[K]);
      for (int Q = 0; Q < 8; ++Q)
        for (int M = 0; M < 8; ++M)
          Same = Same && same(A.acof(K, Q, M), ACof.V[K][Q][M]);
    }
    return Same;
  }
};

template <typename C> NATIVE_NOINLINE void sw4Kernel(C K, const SW4Args &A) {
  const double *__restrict U = A.U, *__restrict Mu = A.Mu,
                           *__restrict La = A.La, *__restrict UGhost = A.UGhost;
  double *__restrict LU = A.LU;
  const int64_t NI = A.NI, NJ = A.NJ;
  const int64_t Plane = NI * NJ;
  auto Coefficient = [&](int64_t P, bool WithLambda) {
    return WithLambda ? 2.0 * Mu[P] + La[P] : Mu[P];
  };
  auto Interior4 = [&](int64_t Pm2, int64_t Pm1, int64_t P, int64_t Pp1,
                       int64_t Pp2, bool WithLambda) {
    const double Tf = 0.75, I6 = 0.16666666666666666;
    double Cm2 = Coefficient(Pm2, WithLambda),
           Cm1 = Coefficient(Pm1, WithLambda), C0 = Coefficient(P, WithLambda),
           Cp1 = Coefficient(Pp1, WithLambda),
           Cp2 = Coefficient(Pp2, WithLambda);
    double Mux1 = Cm1 - Tf * (C0 + Cm2);
    double Mux2 = (Cm2 + Cp1) + 3.0 * (C0 + Cm1);
    double Mux3 = (Cm1 + Cp2) + 3.0 * (Cp1 + C0);
    double Mux4 = Cp1 - Tf * (C0 + Cp2);
    double U0 = U[P];
    double F =
        ((Mux1 * (U[Pm2] - U0) + Mux2 * (U[Pm1] - U0)) + Mux3 * (U[Pp1] - U0)) +
        Mux4 * (U[Pp2] - U0);
    return I6 * F;
  };
  for (int64_t J = 2; J < NJ - 2; ++J)
    for (int64_t I = 2; I < NI - 2; ++I) {
      int64_t Col = J * NI + I;
      for (int Kz = 0; Kz < 6; ++Kz) {
        int64_t P = Kz * Plane + Col;
        double Rx = Interior4(P - 2, P - 1, P, P + 1, P + 2, true);
        double Ry = Interior4(P - 2 * NI, P - NI, P, P + NI, P + 2 * NI, false);
        double Rxy = Rx + Ry;
        double Rz = 0.0;
        for (int Q = 0; Q < 8; ++Q) {
          double MuCof = 0.0;
          for (int M = 0; M < 8; ++M) {
            int64_t Pm = M * Plane + Col;
            MuCof = MuCof + K.acof(Kz, Q, M) * (2.0 * Mu[Pm] + La[Pm]);
          }
          Rz = Rz + MuCof * U[Q * Plane + Col];
        }
        double Rzg =
            Rz + (K.ghcof(Kz) * (2.0 * Mu[Col] + La[Col])) * UGhost[Col];
        LU[P] = K.A1 * LU[P] + K.Cof * (Rxy + Rzg);
      }
    }
}

void sw4Generic(const void *Args) {
  SW4Args A(Args);
  sw4Kernel(A, A);
}
void sw4Specialized(const void *Args) { sw4Kernel(SW4Bench{}, SW4Args(Args)); }

//===----------------------------------------------------------------------===//
// stencil
//===----------------------------------------------------------------------===//

struct StencilArgs {
  const float *In;
  float *Out;
  int64_t NX, NY;
  int32_t Radius;
  const float *WeightTable; // 17
  float weight(int R) const { return WeightTable[R]; }
  explicit StencilArgs(const void *Args) {
    ArgReader R(Args);
    In = R.memref<float>(), Out = R.memref<float>();
    NX = R.index(), NY = R.index();
    Radius = R.scalar<int32_t>();
    WeightTable = R.memref<float>();
  }
};

/// Radius 4 and the 8th-order central second-derivative weights, both axes
/// (w0 = 2 c0), as BenchKernels.cpp computes them.
struct StencilBench {
  static constexpr int32_t Radius = 4;
  static constexpr float Weights[17] = {
      static_cast<float>(2.0 * (-205.0 / 72.0)), static_cast<float>(8.0 / 5.0),
      static_cast<float>(-1.0 / 5.0), static_cast<float>(8.0 / 315.0),
      static_cast<float>(-1.0 / 560.0)};
  static constexpr float weight(int R) { return Weights[R]; }
  static bool matches(const StencilArgs &A) {
    bool Same = A.Radius == Radius;
    for (int R = 0; R < 17; ++R)
      Same = Same && same(A.weight(R), Weights[R]);
    return Same;
  }
};

template <typename C>
NATIVE_NOINLINE void stencilKernel(C K, const float *__restrict In,
                                   float *__restrict Out, int64_t NX,
                                   int64_t NY) {
  const int64_t Radius = K.Radius;
  for (int64_t Y = Radius; Y < NY - Radius; ++Y)
    for (int64_t X = Radius; X < NX - Radius; ++X) {
      int64_t P = Y * NX + X;
      float Acc = K.weight(0) * In[P];
      for (int64_t R = 1; R <= Radius; ++R) {
        float S = ((In[P - R] + In[P + R]) + In[P - R * NX]) + In[P + R * NX];
        Acc = Acc + K.weight(R) * S;
      }
      Out[P] = Acc;
    }
}

void stencilGeneric(const void *Args) {
  StencilArgs A(Args);
  stencilKernel(A, A.In, A.Out, A.NX, A.NY);
}
void stencilSpecialized(const void *Args) {
  StencilArgs A(Args);
  stencilKernel(StencilBench{}, A.In, A.Out, A.NX, A.NY);
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

struct MatMulArgs {
  const float *A, *B;
  float *C;
  int64_t M;
  int32_t K, N;
  explicit MatMulArgs(const void *Args) {
    ArgReader R(Args);
    A = R.memref<float>(), B = R.memref<float>(), C = R.memref<float>();
    M = R.index();
    K = R.scalar<int32_t>(), N = R.scalar<int32_t>();
  }
};

struct MatMulBench {
  static constexpr int32_t K = 16, N = 512;
  static bool matches(const MatMulArgs &A) { return A.K == K && A.N == N; }
};

template <typename Cst>
NATIVE_NOINLINE void matmulKernel(Cst S, const float *__restrict A,
                                  const float *__restrict B,
                                  float *__restrict C, int64_t M) {
  const int64_t K = S.K, N = S.N;
  for (int64_t I = 0; I < M; ++I)
    for (int64_t J = 0; J < N; ++J) {
      float Acc = 0.0f;
      for (int64_t Kk = 0; Kk < K; ++Kk)
        Acc = Acc + A[I * K + Kk] * B[Kk * N + J];
      C[I * N + J] = Acc;
    }
}

void matmulGeneric(const void *Args) {
  MatMulArgs A(Args);
  matmulKernel(A, A.A, A.B, A.C, A.M);
}
void matmulSpecialized(const void *Args) {
  MatMulArgs A(Args);
  matmulKernel(MatMulBench{}, A.A, A.B, A.C, A.M);
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

template <typename ArgsT, typename BenchT> bool matchesBench(const void *Args) {
  return BenchT::matches(ArgsT(Args));
}

struct NativeEntry {
  const char *Case;
  NativeKernel Generic, Specialized;
  bool (*Matches)(const void *Args);
};

const NativeEntry Entries[] = {
    {"adam", adamGeneric, adamSpecialized, matchesBench<AdamArgs, AdamBench>},
    {"rsbench", rsbenchGeneric, rsbenchSpecialized,
     matchesBench<RSBenchArgs, RSBenchBench>},
    {"wsm5", wsm5Generic, wsm5Specialized, matchesBench<WSM5Args, WSM5Bench>},
    {"feynman-kac", feynmanKacGeneric, feynmanKacSpecialized,
     matchesBench<FeynmanKacArgs, FeynmanKacBench>},
    {"lulesh", luleshGeneric, luleshSpecialized,
     matchesBench<LuleshArgs, LuleshBench>},
    {"sw4ck", sw4Generic, sw4Specialized, matchesBench<SW4Args, SW4Bench>},
    {"stencil", stencilGeneric, stencilSpecialized,
     matchesBench<StencilArgs, StencilBench>},
    {"matmul", matmulGeneric, matmulSpecialized,
     matchesBench<MatMulArgs, MatMulBench>},
};

} // namespace

NativeKernel offload_bench::getNativeKernel(const std::string &Case,
                                            NativeVersion Version,
                                            const void *Args,
                                            std::string &Error) {
  for (const NativeEntry &E : Entries) {
    if (Case != E.Case)
      continue;
    if (Version == NativeVersion::Generic)
      return E.Generic;
    if (!E.Matches(Args)) {
      Error = "the specialized native " + Case +
              " is compiled for other values of its runtime constants than "
              "these arguments' (bench/NativeBaselines.cpp has the "
              "benchmark's)";
      return nullptr;
    }
    return E.Specialized;
  }
  Error = "no native version of kernel case '" + Case + "'";
  return nullptr;
}
