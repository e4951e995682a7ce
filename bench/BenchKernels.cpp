//===- BenchKernels.cpp - Inputs and references of the benchmark kernels --===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each reference performs the kernel's floating-point operations in the
// kernel's order, so that it matches the kernels to the last bit on the host
// (this file is compiled with -ffp-contract=off, and libm is the same).
//
//===----------------------------------------------------------------------===//

#include "BenchKernels.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace offload_bench;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::vector<double> Output::values() const {
  std::vector<double> Result(Count);
  for (size_t I = 0; I < Count; ++I)
    Result[I] = IsDouble ? static_cast<const double *>(Data)[I]
                         : static_cast<const float *>(Data)[I];
  return Result;
}

std::string offload_bench::readKernelFile(const std::string &Directory,
                                          const std::string &Name,
                                          std::string &Error) {
  std::string Path = Directory + "/" + Name;
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = "cannot read " + Path;
    return "";
  }
  std::stringstream Contents;
  Contents << In.rdbuf();
  return Contents.str();
}

namespace {
/// Deterministic pseudo-random numbers (the same on every platform: no
/// std::uniform_real_distribution, whose algorithm is unspecified).
class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return State >> 11;
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next()) * 0x1.0p-53; }
  double uniform(double Low, double High) {
    return Low + (High - Low) * uniform();
  }
  uint32_t below(uint32_t N) { return static_cast<uint32_t>(next() % N); }

private:
  uint64_t State;
};

uint32_t ceilDiv(uint64_t A, uint64_t B) {
  return static_cast<uint32_t>((A + B - 1) / B);
}

template <typename T>
Output output(const char *Name, const std::vector<T> &V, double Rel,
              double Abs) {
  Output O;
  O.Name = Name;
  O.Data = V.data();
  O.Count = V.size();
  O.IsDouble = sizeof(T) == sizeof(double);
  O.RelTolerance = Rel;
  O.AbsTolerance = Abs;
  return O;
}

//===----------------------------------------------------------------------===//
// adam
//===----------------------------------------------------------------------===//

class Adam : public KernelCase {
public:
  explicit Adam(Scale S) : N(S == Scale::Test ? 1000 : 10000) {
    Random R(1);
    G0.resize(N);
    P0.resize(N);
    M0.resize(N);
    V0.resize(N);
    // As HeCBench: every value uniform in [0, 1].
    for (size_t I = 0; I < N; ++I) {
      M0[I] = static_cast<float>(R.uniform());
      V0[I] = static_cast<float>(R.uniform());
      G0[I] = static_cast<float>(R.uniform());
      P0[I] = static_cast<float>(R.uniform());
    }
    P = P0, M = M0, V = V0, G = G0;
    Args.memref(P.data(), {int64_t(N)})
        .memref(M.data(), {int64_t(N)})
        .memref(V.data(), {int64_t(N)})
        .memref(G.data(), {int64_t(N)})
        .scalar(B1)
        .scalar(B2)
        .scalar(Eps)
        .scalar(GradScale)
        .scalar(StepSize)
        .scalar(TimeStep)
        .index(int64_t(N))
        .scalar(Mode)
        .scalar(Decay);
    setSizes(ceilDiv(N, 256), 1, 256, 1);
  }
  const char *name() const override { return "adam"; }
  const char *file() const override { return "adam.mlir"; }
  const char *kernel() const override { return "adam"; }
  const char *description() const override {
    return "HeCBench adam: time_step Adam updates per parameter; b1, b2, "
           "eps, grad_scale, step_size, time_step, vector_size, decay constant";
  }
  void reset() override { P = P0, M = M0, V = V0, G = G0; }
  void reference() override {
    for (size_t J = 0; J < N; ++J) {
      for (int32_t T = 1; T <= TimeStep; ++T) {
        float ScaledGrad = G[J] / GradScale;
        float MNew = B1 * M[J] + (1.0f - B1) * ScaledGrad;
        M[J] = MNew;
        float VNew = B2 * V[J] + ((1.0f - B2) * ScaledGrad) * ScaledGrad;
        V[J] = VNew;
        float TF = static_cast<float>(T);
        float MCorrected = MNew / (1.0f - powf(B1, TF));
        float VCorrected = VNew / (1.0f - powf(B2, TF));
        float Denom =
            Mode == 0 ? sqrtf(VCorrected + Eps) : sqrtf(VCorrected) + Eps;
        float Update = MCorrected / Denom + Decay * P[J];
        P[J] = P[J] - StepSize * Update;
      }
    }
  }
  std::vector<Output> outputs() const override {
    return {output("p", P, 1e-6, 1e-7), output("m", M, 1e-6, 1e-9),
            output("v", V, 1e-6, 1e-12)};
  }

private:
  size_t N;
  // HeCBench adam's constants and run (main 10000 200 100: 10000
  // parameters, 200 time steps).
  float B1 = 0.9f, B2 = 0.999f, Eps = 1e-8f, GradScale = 256.0f,
        StepSize = 1e-3f, Decay = 0.5f;
  int32_t TimeStep = 200, Mode = 0;
  std::vector<float> P0, M0, V0, G0, P, M, V, G;
};

//===----------------------------------------------------------------------===//
// rsbench
//===----------------------------------------------------------------------===//

class RSBench : public KernelCase {
public:
  explicit RSBench(Scale S) : Lookups(S == Scale::Test ? 300 : 2048) {
    Random R(2);
    size_t Poles = size_t(NNuclides) * NWindows * PolesPerWindow;
    Energies.resize(Lookups);
    for (double &E : Energies)
      E = R.uniform();
    NuclideIds.resize(NumNucs);
    Concs.resize(NumNucs);
    for (int32_t J = 0; J < NumNucs; ++J) {
      NuclideIds[J] = static_cast<int32_t>(R.below(NNuclides));
      Concs[J] = R.uniform();
    }
    Windows.resize(size_t(NNuclides) * NWindows * 3);
    for (double &W : Windows)
      W = R.uniform();
    PoleData.resize(Poles * 8);
    for (double &P : PoleData)
      P = R.uniform();
    LValues.resize(Poles);
    for (int32_t &L : LValues)
      L = static_cast<int32_t>(R.below(NumL));
    K0RS.resize(size_t(NNuclides) * NumL);
    for (double &K : K0RS)
      K = R.uniform();
    MacroXS.assign(Lookups * 4, 0.0);
    Args.memref(Energies.data(), {int64_t(Lookups)})
        .memref(MacroXS.data(), {int64_t(MacroXS.size())})
        .memref(NuclideIds.data(), {int64_t(NumNucs)})
        .memref(Concs.data(), {int64_t(NumNucs)})
        .memref(Windows.data(), {int64_t(Windows.size())})
        .memref(PoleData.data(), {int64_t(PoleData.size())})
        .memref(LValues.data(), {int64_t(LValues.size())})
        .memref(K0RS.data(), {int64_t(K0RS.size())})
        .index(int64_t(Lookups))
        .scalar(NumNucs)
        .scalar(NWindows)
        .scalar(PolesPerWindow)
        .scalar(NumL);
    setSizes(ceilDiv(Lookups, 128), 1, 128, 1);
  }
  const char *name() const override { return "rsbench"; }
  const char *file() const override { return "rsbench.mlir"; }
  const char *kernel() const override { return "xs_lookup"; }
  const char *description() const override {
    return "RSBench multipole lookup: nuclide, l and pole loops; num_nucs, "
           "n_windows, poles_per_window, numL constant";
  }
  void reset() override { std::fill(MacroXS.begin(), MacroXS.end(), 0.0); }

  static void cMul(double A, double B, double C, double D, double &Re,
                   double &Im) {
    Re = A * C - B * D;
    Im = A * D + B * C;
  }
  static void cDiv(double A, double B, double C, double D, double &Re,
                   double &Im) {
    double Denom = C * C + D * D;
    Re = (A * C + B * D) / Denom;
    Im = (B * C - A * D) / Denom;
  }

  void reference() override {
    for (size_t I = 0; I < Lookups; ++I) {
      double E = Energies[I];
      double SqrtE = std::sqrt(E);
      double Spacing = 1.0 / static_cast<double>(NWindows);
      double XS[4] = {0, 0, 0, 0};
      for (int32_t J = 0; J < NumNucs; ++J) {
        size_t Nuc = static_cast<size_t>(NuclideIds[J]);
        double Conc = Concs[J];
        int32_t Window = static_cast<int32_t>(E / Spacing);
        if (Window == NWindows)
          Window = Window - 1;
        double SigRe[4], SigIm[4];
        for (int32_t L = 0; L < NumL; ++L) {
          double Phi = K0RS[Nuc * NumL + L] * SqrtE;
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
        size_t W = (Nuc * NWindows + Window) * 3;
        double SigT = E * Windows[W], SigA = E * Windows[W + 1],
               SigF = E * Windows[W + 2];
        size_t First =
            Nuc * NWindows * PolesPerWindow + size_t(Window) * PolesPerWindow;
        for (int32_t K = 0; K < PolesPerWindow; ++K) {
          const double *P = &PoleData[(First + K) * 8];
          int32_t LV = LValues[First + K];
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
      for (int C = 0; C < 4; ++C)
        MacroXS[I * 4 + C] = XS[C];
    }
  }
  std::vector<Output> outputs() const override {
    return {output("macro_xs", MacroXS, 1e-12, 1e-12)};
  }

private:
  size_t Lookups;
  // RSBench's small problem: 68 nuclides, the fuel's 34 in the material,
  // 1000 poles per nuclide in windows of 10, 4 l values.
  int32_t NNuclides = 68, NumNucs = 34, NWindows = 100, PolesPerWindow = 10,
          NumL = 4;
  std::vector<double> Energies, Concs, Windows, PoleData, K0RS, MacroXS;
  std::vector<int32_t> NuclideIds, LValues;
};

//===----------------------------------------------------------------------===//
// wsm5
//===----------------------------------------------------------------------===//

class WSM5 : public KernelCase {
public:
  explicit WSM5(Scale S) : NCol(S == Scale::Test ? 300 : 1024) {
    Random R(3);
    size_t Cells = NCol * NZ;
    T.resize(Cells), Q.resize(Cells), QC.resize(Cells), QR.resize(Cells),
        P.resize(Cells), Den.resize(Cells), DelZ.resize(Cells);
    for (int32_t K = 0; K < NZ; ++K) {
      double Z = 500.0 * K;
      for (size_t I = 0; I < NCol; ++I) {
        size_t Idx = K * NCol + I;
        T[Idx] = static_cast<float>(295.0 - 6.5e-3 * Z + R.uniform(-2, 2));
        P[Idx] = static_cast<float>(1.0e5 * std::exp(-Z / 8000.0));
        Den[Idx] = static_cast<float>(P[Idx] / (287.0 * T[Idx]));
        Q[Idx] =
            static_cast<float>(R.uniform(0.002, 0.016) * std::exp(-Z / 3000.0));
        QC[Idx] =
            R.uniform() < 0.3 ? 0.0f : static_cast<float>(R.uniform(0, 1.5e-3));
        QR[Idx] =
            R.uniform() < 0.3 ? 0.0f : static_cast<float>(R.uniform(0, 2e-3));
        DelZ[Idx] = 500.0f;
      }
    }
    TOut.assign(Cells, 0), QOut.assign(Cells, 0), QCOut.assign(Cells, 0),
        QROut.assign(Cells, 0), VT.assign(Cells, 0), Rain.assign(NCol, 0);
    int64_t C = static_cast<int64_t>(Cells);
    Args.memref(T.data(), {C})
        .memref(Q.data(), {C})
        .memref(QC.data(), {C})
        .memref(QR.data(), {C})
        .memref(P.data(), {C})
        .memref(Den.data(), {C})
        .memref(DelZ.data(), {C})
        .memref(TOut.data(), {C})
        .memref(QOut.data(), {C})
        .memref(QCOut.data(), {C})
        .memref(QROut.data(), {C})
        .memref(VT.data(), {C})
        .memref(Rain.data(), {int64_t(NCol)})
        .index(int64_t(NCol))
        .scalar(NZ);
    for (float Constant :
         {DtCld,      QMin,       QCRMin,     TTP,       PSat, XA,   XB,
          EP2,        Den0,       DenR,       PiDN0R,    BVTR, PVTR, QC0,
          QCK1,       PacRR,      PreCR1,     PreCR2,    XLV,  CPD,  RV,
          RSlopeRMax, RSlopeBMax, RSlope2Max, RSlope3Max})
      Args.scalar(Constant);
    setSizes(ceilDiv(NCol, 64), 1, 64, 1);
  }
  const char *name() const override { return "wsm5"; }
  const char *file() const override { return "wsm5.mlir"; }
  const char *kernel() const override { return "wsm5"; }
  const char *description() const override {
    return "WSM5 warm-rain microphysics and sedimentation per column; nz and "
           "25 physical constants constant";
  }
  void reset() override {
    std::fill(TOut.begin(), TOut.end(), 0.0f);
    std::fill(QOut.begin(), QOut.end(), 0.0f);
    std::fill(QCOut.begin(), QCOut.end(), 0.0f);
    std::fill(QROut.begin(), QROut.end(), 0.0f);
    std::fill(VT.begin(), VT.end(), 0.0f);
    std::fill(Rain.begin(), Rain.end(), 0.0f);
  }
  void reference() override {
    const float Zero = 0.0f, One = 1.0f;
    for (size_t I = 0; I < NCol; ++I) {
      float RDtCld = One / DtCld;
      for (int32_t K = 0; K < NZ; ++K) {
        size_t Idx = K * NCol + I;
        float Tk = T[Idx], Qk = Q[Idx], QCk = QC[Idx], QRk = QR[Idx],
              Pk = P[Idx], DenK = Den[Idx];
        float Tr = TTP / Tk;
        float E1 = expf(logf(Tr) * XA);
        float E2 = expf(XB * (One - Tr));
        float Es = (PSat * E1) * E2;
        float Qs = fmaxf((EP2 * Es) / (Pk - Es), QMin);
        float Rh = fmaxf(Qk / Qs, QMin);
        float RSlope, RSlopeB, RSlope2, RSlope3;
        if (QRk <= QCRMin) {
          RSlope = RSlopeRMax, RSlopeB = RSlopeBMax, RSlope2 = RSlope2Max,
          RSlope3 = RSlope3Max;
        } else {
          float Lamdar = sqrtf(sqrtf(PiDN0R / (QRk * DenK)));
          RSlope = One / Lamdar;
          RSlopeB = powf(RSlope, BVTR);
          RSlope2 = RSlope * RSlope;
          RSlope3 = RSlope2 * RSlope;
        }
        float DenFac = sqrtf(Den0 / DenK);
        float Vt = (PVTR * RSlopeB) * DenFac;
        float QCRate = QCk * RDtCld;
        float PrAut = Zero;
        if (QCk > QC0)
          PrAut = fminf(QCK1 * powf(QCk, 2.33333333f), QCRate);
        float PrAcw = Zero;
        if (QRk > QCRMin && QCk > QMin)
          PrAcw = fminf((((PacRR * RSlope3) * RSlopeB) * QCk) * DenFac, QCRate);
        float PrEvp = Zero;
        if (Rh < One && QRk > Zero) {
          float St = sqrtf(Tk);
          float Visc = (((1.496e-6f * Tk) * St) / (Tk + 120.0f)) / DenK;
          float Diffus = (8.794e-5f * expf(logf(Tk) * 1.81f)) / Pk;
          float Xka = (1.414e3f * Visc) * DenK;
          float F1 = (DenK * (XLV * XLV)) / ((Xka * RV) * (Tk * Tk));
          float H1 = One / (Qs * Diffus);
          float Work1 = F1 + H1;
          float Evd = expf(logf(Visc / Diffus) * 0.3333333f);
          float Work2 = (Evd / sqrtf(Visc)) * sqrtf(DenFac);
          float Coeres = RSlope2 * sqrtf(RSlope * RSlopeB);
          float E3 = PreCR1 * RSlope2 + (PreCR2 * Work2) * Coeres;
          float Pv = ((Rh - One) * E3) / Work1;
          PrEvp = fmaxf(Pv, -(QRk * RDtCld));
        }
        float Conv = PrAut + PrAcw;
        QCOut[Idx] = fmaxf(QCk - Conv * DtCld, Zero);
        QROut[Idx] = fmaxf(QRk + (Conv + PrEvp) * DtCld, Zero);
        float Dq = PrEvp * DtCld;
        QOut[Idx] = fmaxf(Qk - Dq, Zero);
        TOut[Idx] = Tk + Dq * (XLV / CPD);
        VT[Idx] = Vt;
      }
      float FluxAbove = Zero;
      for (int32_t KK = 0; KK < NZ; ++KK) {
        size_t Idx = (NZ - 1 - KK) * NCol + I;
        float Flux = (Den[Idx] * QROut[Idx]) * VT[Idx];
        float DQr = ((FluxAbove - Flux) * DtCld) / (Den[Idx] * DelZ[Idx]);
        QROut[Idx] = fmaxf(QROut[Idx] + DQr, Zero);
        FluxAbove = Flux;
      }
      Rain[I] = ((FluxAbove * DtCld) / DenR) * 1000.0f;
    }
  }
  std::vector<Output> outputs() const override {
    return {output("t", TOut, 1e-6, 1e-4),    output("q", QOut, 1e-5, 1e-10),
            output("qc", QCOut, 1e-5, 1e-10), output("qr", QROut, 1e-5, 1e-10),
            output("vt", VT, 1e-5, 1e-8),     output("rain", Rain, 1e-5, 1e-8)};
  }

private:
  size_t NCol;
  int32_t NZ = 35; // the WRF CONUS 12 km benchmark's 35 levels
  // WSM5's constants (module_mp_wsm5 / wsm5init), derived values rounded.
  float DtCld = 60.0f, QMin = 1.0e-15f, QCRMin = 1.0e-9f, TTP = 273.16f,
        PSat = 610.78f, XA = 5.0771f, XB = 24.904f, EP2 = 0.6217f, Den0 = 1.28f,
        DenR = 1000.0f, PiDN0R = 2.5133e10f, BVTR = 0.8f, PVTR = 2502.8f,
        QC0 = 5.03e-4f, QCK1 = 6.774f, PacRR = 2.483e10f, PreCR1 = 3.921e7f,
        PreCR2 = 8.265e8f, XLV = 2.5e6f, CPD = 1004.5f, RV = 461.6f,
        RSlopeRMax = 1.25e-5f, RSlopeBMax = 1.194e-4f, RSlope2Max = 1.5625e-10f,
        RSlope3Max = 1.953e-15f;
  std::vector<float> T, Q, QC, QR, P, Den, DelZ, TOut, QOut, QCOut, QROut, VT,
      Rain;
};

//===----------------------------------------------------------------------===//
// feynman-kac
//===----------------------------------------------------------------------===//

class FeynmanKac : public KernelCase {
public:
  explicit FeynmanKac(Scale S) : Trials(S == Scale::Test ? 8 : 32) {
    W.assign(size_t(NI) * NJ * NK, 0.0);
    Args.memref(W.data(), {int64_t(W.size())})
        .scalar(A)
        .scalar(B)
        .scalar(C)
        .scalar(H)
        .scalar(NI)
        .scalar(NJ)
        .scalar(NK)
        .scalar(Trials)
        .scalar(Steps)
        .scalar(Seed0);
    setSizes(ceilDiv(W.size(), 64), 1, 64, 1);
  }
  const char *name() const override { return "feynman-kac"; }
  const char *file() const override { return "feynman-kac.mlir"; }
  const char *kernel() const override { return "feynman_kac"; }
  const char *description() const override {
    return "Feynman-Kac random walks in an ellipsoid; a, b, c, h, N, steps, "
           "grid size constant";
  }
  void reset() override { std::fill(W.begin(), W.end(), 0.0); }

  static double uniform01(int32_t &Seed) {
    int32_t K = Seed / 127773;
    // Wrapping arithmetic, as the kernel's i32 operations.
    int32_t S =
        static_cast<int32_t>(static_cast<uint32_t>(16807) *
                                 static_cast<uint32_t>(Seed - K * 127773) -
                             static_cast<uint32_t>(K) * 2836u);
    if (S < 0)
      S = static_cast<int32_t>(static_cast<uint32_t>(S) + 2147483647u);
    Seed = S;
    return static_cast<double>(S) * 4.656612875E-10;
  }
  double potential(double X, double Y, double Z) const {
    double Xa = X / A / A, Yb = Y / B / B, Zc = Z / C / C;
    double S = 2.0 * ((Xa * Xa + Yb * Yb) + Zc * Zc);
    return ((S + 1.0 / A / A) + 1.0 / B / B) + 1.0 / C / C;
  }
  double ellipse(double X, double Y, double Z) const {
    double Xa = X / A, Yb = Y / B, Zc = Z / C;
    return (Xa * Xa + Yb * Yb) + Zc * Zc;
  }
  static double axisStep(int32_t &Seed, double StepSz) {
    double Ut = uniform01(Seed);
    if (Ut < 0.33333333333333331) {
      double Us = uniform01(Seed) - 0.5;
      return Us < 0.0 ? -StepSz : StepSz;
    }
    return 0.0;
  }
  static double coordinate(int64_t I, int64_t N, double A) {
    int64_t Nm1 = N - 1;
    double L = static_cast<double>(Nm1 - I) * -A;
    double R = static_cast<double>(I) * A;
    return (L + R) / static_cast<double>(Nm1);
  }

  void reference() override {
    for (size_t G = 0; G < W.size(); ++G) {
      int64_t I = G % NI, J = (G / NI) % NJ, K = G / (size_t(NI) * NJ);
      double X = coordinate(I, NI, A), Y = coordinate(J, NJ, B),
             Z = coordinate(K, NK, C);
      if (ellipse(X, Y, Z) > 1.0) {
        W[G] = 1.0;
        continue;
      }
      double StepSz = std::sqrt(3.0 * H);
      double HH = 0.5 * H;
      int32_t Seed = static_cast<int32_t>(static_cast<uint32_t>(Seed0) +
                                          static_cast<uint32_t>(G));
      double Sum = 0.0;
      for (int32_t Trial = 0; Trial < Trials; ++Trial) {
        double X1 = X, X2 = Y, X3 = Z, Wc = 1.0, Chk = 0.0;
        for (int32_t St = 0; St < Steps; ++St) {
          if (!(Chk < 1.0))
            continue;
          double Dx = axisStep(Seed, StepSz);
          double Dy = axisStep(Seed, StepSz);
          double Dz = axisStep(Seed, StepSz);
          double Vs = potential(X1, X2, X3);
          X1 = X1 + Dx, X2 = X2 + Dy, X3 = X3 + Dz;
          double Vh = potential(X1, X2, X3);
          double We = (1.0 - H * Vs) * Wc;
          Wc = Wc - HH * (Vh * We + Vs * Wc);
          Chk = ellipse(X1, X2, X3);
        }
        Sum = Sum + Wc;
      }
      W[G] = Sum / static_cast<double>(Trials);
    }
  }
  std::vector<Output> outputs() const override {
    return {output("w", W, 1e-12, 1e-12)};
  }

private:
  // Burkardt's feynman_kac_3d: a = 3, b = 2, c = 1 on a 16 x 11 x 6 grid;
  // h = 0.04 so that walks from points near the surface leave within the
  // step bound.
  double A = 3.0, B = 2.0, C = 1.0, H = 0.04;
  int32_t NI = 16, NJ = 11, NK = 6, Trials, Steps = 16, Seed0 = 123456789;
  std::vector<double> W;
};

//===----------------------------------------------------------------------===//
// lulesh
//===----------------------------------------------------------------------===//

class Lulesh : public KernelCase {
public:
  explicit Lulesh(Scale S) : Edge(S == Scale::Test ? 8 : 32) {
    Random R(5);
    NumElem = size_t(Edge) * Edge * Edge;
    size_t NodesPerEdge = Edge + 1;
    size_t NumNode = NodesPerEdge * NodesPerEdge * NodesPerEdge;
    auto Fill = [&](std::vector<double> &V, size_t N, double Lo, double Hi) {
      V.resize(N);
      for (double &X : V)
        X = R.uniform(Lo, Hi);
    };
    Fill(X8n, 8 * NumElem, -1, 1), Fill(Y8n, 8 * NumElem, -1, 1),
        Fill(Z8n, 8 * NumElem, -1, 1);
    Fill(DvDx, 8 * NumElem, -0.5, 0.5), Fill(DvDy, 8 * NumElem, -0.5, 0.5),
        Fill(DvDz, 8 * NumElem, -0.5, 0.5);
    Fill(Determ, NumElem, 0.5, 1.5), Fill(SS, NumElem, 0.5, 1.0),
        Fill(Mass, NumElem, 0.5, 1.5);
    Fill(XD, NumNode, -1, 1), Fill(YD, NumNode, -1, 1),
        Fill(ZD, NumNode, -1, 1);
    // LULESH's structured mesh: element (i, j, k) has the nodes of its cube
    // in LULESH's order.
    NodeList.resize(8 * NumElem);
    auto Node = [&](size_t I, size_t J, size_t K) {
      return static_cast<int32_t>((K * NodesPerEdge + J) * NodesPerEdge + I);
    };
    for (size_t K = 0, E = 0; K < Edge; ++K)
      for (size_t J = 0; J < Edge; ++J)
        for (size_t I = 0; I < Edge; ++I, ++E) {
          int32_t *L = &NodeList[8 * E];
          L[0] = Node(I, J, K), L[1] = Node(I + 1, J, K),
          L[2] = Node(I + 1, J + 1, K), L[3] = Node(I, J + 1, K);
          L[4] = Node(I, J, K + 1), L[5] = Node(I + 1, J, K + 1),
          L[6] = Node(I + 1, J + 1, K + 1), L[7] = Node(I, J + 1, K + 1);
        }
    FX.assign(8 * NumElem, 0), FY.assign(8 * NumElem, 0),
        FZ.assign(8 * NumElem, 0);
    int64_t N8 = 8 * NumElem, N = NumElem, NN = NumNode;
    Args.memref(X8n.data(), {N8})
        .memref(Y8n.data(), {N8})
        .memref(Z8n.data(), {N8})
        .memref(DvDx.data(), {N8})
        .memref(DvDy.data(), {N8})
        .memref(DvDz.data(), {N8})
        .memref(Determ.data(), {N})
        .memref(SS.data(), {N})
        .memref(Mass.data(), {N})
        .memref(NodeList.data(), {N8})
        .memref(XD.data(), {NN})
        .memref(YD.data(), {NN})
        .memref(ZD.data(), {NN})
        .memref(FX.data(), {N8})
        .memref(FY.data(), {N8})
        .memref(FZ.data(), {N8})
        .index(N)
        .scalar(HourG)
        .memref(&Gamma[0][0], {4, 8});
    setSizes(ceilDiv(NumElem, 64), 1, 64, 1);
  }
  const char *name() const override { return "lulesh"; }
  const char *file() const override { return "lulesh.mlir"; }
  const char *kernel() const override { return "hourglass"; }
  const char *description() const override {
    return "LULESH CalcFBHourglassForceForElems per element; hourg and the "
           "4x8 gamma table constant";
  }
  void reset() override {
    std::fill(FX.begin(), FX.end(), 0.0);
    std::fill(FY.begin(), FY.end(), 0.0);
    std::fill(FZ.begin(), FZ.end(), 0.0);
  }
  static void forceDir(const double HourGam[8][4], const double *Vel,
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
  void reference() override {
    for (size_t E = 0; E < NumElem; ++E) {
      size_t I3 = 8 * E;
      double HourGam[8][4];
      double VolInv = 1.0 / Determ[E];
      for (int I1 = 0; I1 < 4; ++I1) {
        double Hx = 0.0, Hy = 0.0, Hz = 0.0;
        for (int J = 0; J < 8; ++J) {
          Hx = Hx + X8n[I3 + J] * Gamma[I1][J];
          Hy = Hy + Y8n[I3 + J] * Gamma[I1][J];
          Hz = Hz + Z8n[I3 + J] * Gamma[I1][J];
        }
        for (int J = 0; J < 8; ++J)
          HourGam[J][I1] =
              Gamma[I1][J] - VolInv * ((DvDx[I3 + J] * Hx + DvDy[I3 + J] * Hy) +
                                       DvDz[I3 + J] * Hz);
      }
      double Volume13 = std::cbrt(Determ[E]);
      double Xd1[8], Yd1[8], Zd1[8];
      for (int J = 0; J < 8; ++J) {
        size_t Node = static_cast<size_t>(NodeList[I3 + J]);
        Xd1[J] = XD[Node], Yd1[J] = YD[Node], Zd1[J] = ZD[Node];
      }
      double Coefficient = (((-HourG * 0.01) * SS[E]) * Mass[E]) / Volume13;
      forceDir(HourGam, Xd1, Coefficient, &FX[I3]);
      forceDir(HourGam, Yd1, Coefficient, &FY[I3]);
      forceDir(HourGam, Zd1, Coefficient, &FZ[I3]);
    }
  }
  std::vector<Output> outputs() const override {
    return {output("fx", FX, 1e-12, 1e-14), output("fy", FY, 1e-12, 1e-14),
            output("fz", FZ, 1e-12, 1e-14)};
  }

private:
  size_t Edge, NumElem;
  double HourG = 3.0; // LULESH's hgcoef
  double Gamma[4][8] = {{1, 1, -1, -1, -1, -1, 1, 1},
                        {1, -1, -1, 1, -1, 1, 1, -1},
                        {1, -1, 1, -1, 1, -1, 1, -1},
                        {-1, 1, -1, 1, 1, -1, 1, -1}};
  std::vector<double> X8n, Y8n, Z8n, DvDx, DvDy, DvDz, Determ, SS, Mass, XD, YD,
      ZD, FX, FY, FZ;
  std::vector<int32_t> NodeList;
};

//===----------------------------------------------------------------------===//
// sw4ck
//===----------------------------------------------------------------------===//

class SW4ck : public KernelCase {
public:
  explicit SW4ck(Scale S)
      : NI(S == Scale::Test ? 21 : 100), NJ(S == Scale::Test ? 19 : 100) {
    Random R(6);
    size_t Plane = NI * NJ, Cells = Plane * NK;
    U.resize(Cells), Mu.resize(Cells), La.resize(Cells), UGhost.resize(Plane);
    for (size_t I = 0; I < Cells; ++I) {
      U[I] = R.uniform(-1, 1);
      Mu[I] = R.uniform(1, 2);
      La[I] = R.uniform(1, 3);
    }
    for (double &G : UGhost)
      G = R.uniform(-1, 1);
    LU0.resize(Cells);
    for (double &L : LU0)
      L = R.uniform(-1, 1);
    LU = LU0;
    // A banded 6x8x8 closure standing in for SW4's acof (its values come
    // from varcoeffs4): entries with |k - q| <= 2 and |q - m| <= 2 are
    // nonzero, the rest zero, as in SW4's table.
    for (int K = 0; K < 6; ++K)
      for (int Q = 0; Q < 8; ++Q)
        for (int M = 0; M < 8; ++M)
          ACof[K][Q][M] =
              std::abs(K - Q) <= 2 && std::abs(Q - M) <= 2
                  ? ((K + 1) * 7 - (Q + 1) * 3 + (M + 1) * 5 - 20) / 48.0
                  : 0.0;
    // SW4's ghcof: only the first plane sees the ghost point.
    GhCof[0] = 12.0 / 17.0;
    for (int K = 1; K < 6; ++K)
      GhCof[K] = 0.0;
    int64_t C = Cells, P = Plane;
    Args.memref(U.data(), {C})
        .memref(Mu.data(), {C})
        .memref(La.data(), {C})
        .memref(UGhost.data(), {P})
        .memref(LU.data(), {C})
        .index(int64_t(NI))
        .index(int64_t(NJ))
        .memref(&ACof[0][0][0], {6, 8, 8})
        .memref(GhCof, {6})
        .scalar(Cof)
        .scalar(A1);
    setSizes(ceilDiv(NI - 4, 16), ceilDiv(NJ - 4, 8), 16, 8);
  }
  const char *name() const override { return "sw4ck"; }
  const char *file() const override { return "sw4ck.mlir"; }
  const char *kernel() const override { return "rhs4_boundary"; }
  const char *description() const override {
    return "SW4 4th-order operator with SBP boundary closure (6 planes); "
           "acof, ghcof by contents, cof, a1 constant";
  }
  void reset() override { LU = LU0; }

  double coefficient(size_t P, bool WithLambda) const {
    return WithLambda ? 2.0 * Mu[P] + La[P] : Mu[P];
  }
  double interior4(size_t Pm2, size_t Pm1, size_t P, size_t Pp1, size_t Pp2,
                   bool WithLambda) const {
    const double Tf = 0.75, I6 = 0.16666666666666666;
    double Cm2 = coefficient(Pm2, WithLambda),
           Cm1 = coefficient(Pm1, WithLambda), C0 = coefficient(P, WithLambda),
           Cp1 = coefficient(Pp1, WithLambda),
           Cp2 = coefficient(Pp2, WithLambda);
    double Mux1 = Cm1 - Tf * (C0 + Cm2);
    double Mux2 = (Cm2 + Cp1) + 3.0 * (C0 + Cm1);
    double Mux3 = (Cm1 + Cp2) + 3.0 * (Cp1 + C0);
    double Mux4 = Cp1 - Tf * (C0 + Cp2);
    double U0 = U[P];
    double F =
        ((Mux1 * (U[Pm2] - U0) + Mux2 * (U[Pm1] - U0)) + Mux3 * (U[Pp1] - U0)) +
        Mux4 * (U[Pp2] - U0);
    return I6 * F;
  }
  void reference() override {
    size_t Plane = NI * NJ;
    for (size_t J = 2; J < NJ - 2; ++J)
      for (size_t I = 2; I < NI - 2; ++I) {
        size_t Col = J * NI + I;
        for (size_t K = 0; K < 6; ++K) {
          size_t P = K * Plane + Col;
          double Rx = interior4(P - 2, P - 1, P, P + 1, P + 2, true);
          double Ry =
              interior4(P - 2 * NI, P - NI, P, P + NI, P + 2 * NI, false);
          double Rxy = Rx + Ry;
          double Rz = 0.0;
          for (size_t Q = 0; Q < 8; ++Q) {
            double MuCof = 0.0;
            for (size_t M = 0; M < 8; ++M) {
              size_t Pm = M * Plane + Col;
              MuCof = MuCof + ACof[K][Q][M] * (2.0 * Mu[Pm] + La[Pm]);
            }
            Rz = Rz + MuCof * U[Q * Plane + Col];
          }
          double Rzg =
              Rz + (GhCof[K] * (2.0 * Mu[Col] + La[Col])) * UGhost[Col];
          LU[P] = A1 * LU[P] + Cof * (Rxy + Rzg);
        }
      }
  }
  std::vector<Output> outputs() const override {
    return {output("lu", LU, 1e-12, 1e-12)};
  }

private:
  size_t NI, NJ, NK = 8;
  double Cof = 4.0, A1 = 1.0; // cof = 1/h^2 with h = 0.5; accumulate
  double ACof[6][8][8];
  double GhCof[6];
  std::vector<double> U, Mu, La, UGhost, LU0, LU;
};

//===----------------------------------------------------------------------===//
// stencil
//===----------------------------------------------------------------------===//

class Stencil : public KernelCase {
public:
  explicit Stencil(Scale S)
      : NX(S == Scale::Test ? 70 : 1024), NY(S == Scale::Test ? 45 : 512) {
    Random R(7);
    In.resize(NX * NY);
    for (float &V : In)
      V = static_cast<float>(R.uniform(-1, 1));
    Out.assign(NX * NY, 0.0f);
    // 8th-order central second derivative, both axes: w0 = 2 c0.
    const double C[5] = {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0,
                         -1.0 / 560.0};
    for (float &W : Weights)
      W = 0.0f;
    Weights[0] = static_cast<float>(2.0 * C[0]);
    for (int Rr = 1; Rr <= Radius; ++Rr)
      Weights[Rr] = static_cast<float>(C[Rr]);
    Args.memref(In.data(), {int64_t(In.size())})
        .memref(Out.data(), {int64_t(Out.size())})
        .index(int64_t(NX))
        .index(int64_t(NY))
        .scalar(Radius)
        .memref(Weights, {17});
    setSizes(ceilDiv(NX - 2 * Radius, 32), ceilDiv(NY - 2 * Radius, 4), 32, 4);
  }
  const char *name() const override { return "stencil"; }
  const char *file() const override { return "stencil.mlir"; }
  const char *kernel() const override { return "star2d"; }
  const char *description() const override {
    return "2D star stencil of run-time radius 4; radius and weights (by "
           "contents) constant";
  }
  void reset() override { std::fill(Out.begin(), Out.end(), 0.0f); }
  void reference() override {
    for (size_t Y = Radius; Y < NY - Radius; ++Y)
      for (size_t X = Radius; X < NX - Radius; ++X) {
        size_t P = Y * NX + X;
        float Acc = Weights[0] * In[P];
        for (size_t Rr = 1; Rr <= size_t(Radius); ++Rr) {
          float S =
              ((In[P - Rr] + In[P + Rr]) + In[P - Rr * NX]) + In[P + Rr * NX];
          Acc = Acc + Weights[Rr] * S;
        }
        Out[P] = Acc;
      }
  }
  std::vector<Output> outputs() const override {
    return {output("out", Out, 1e-6, 1e-6)};
  }

private:
  size_t NX, NY;
  int32_t Radius = 4;
  float Weights[17];
  std::vector<float> In, Out;
};

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

class MatMul : public KernelCase {
public:
  explicit MatMul(Scale S)
      : M(S == Scale::Test ? 37 : 512), K(S == Scale::Test ? 16 : 16),
        N(S == Scale::Test ? 40 : 512) {
    Random R(8);
    A.resize(size_t(M) * K), B.resize(size_t(K) * N);
    for (float &V : A)
      V = static_cast<float>(R.uniform(-1, 1));
    for (float &V : B)
      V = static_cast<float>(R.uniform(-1, 1));
    C.assign(size_t(M) * N, 0.0f);
    Args.memref(A.data(), {int64_t(A.size())})
        .memref(B.data(), {int64_t(B.size())})
        .memref(C.data(), {int64_t(C.size())})
        .index(M)
        .scalar(K)
        .scalar(N);
    setSizes(ceilDiv(N, 32), ceilDiv(M, 8), 32, 8);
  }
  const char *name() const override { return "matmul"; }
  const char *file() const override { return "matmul.mlir"; }
  const char *kernel() const override { return "matmul"; }
  const char *description() const override {
    return "C = A B, one thread per element; K and N constant";
  }
  void reset() override { std::fill(C.begin(), C.end(), 0.0f); }
  void reference() override {
    for (int64_t I = 0; I < M; ++I)
      for (int64_t J = 0; J < N; ++J) {
        float Acc = 0.0f;
        for (int64_t Kk = 0; Kk < K; ++Kk)
          Acc = Acc + A[I * K + Kk] * B[Kk * N + J];
        C[I * N + J] = Acc;
      }
  }
  std::vector<Output> outputs() const override {
    return {output("c", C, 1e-6, 1e-6)};
  }

private:
  int64_t M;
  int32_t K, N;
  std::vector<float> A, B, C;
};
} // namespace

std::vector<std::unique_ptr<KernelCase>>
offload_bench::createKernelCases(Scale S) {
  std::vector<std::unique_ptr<KernelCase>> Cases;
  Cases.push_back(std::make_unique<Adam>(S));
  Cases.push_back(std::make_unique<RSBench>(S));
  Cases.push_back(std::make_unique<WSM5>(S));
  Cases.push_back(std::make_unique<FeynmanKac>(S));
  Cases.push_back(std::make_unique<Lulesh>(S));
  Cases.push_back(std::make_unique<SW4ck>(S));
  Cases.push_back(std::make_unique<Stencil>(S));
  Cases.push_back(std::make_unique<MatMul>(S));
  return Cases;
}
