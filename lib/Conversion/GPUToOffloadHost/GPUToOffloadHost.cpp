// Placeholder, replaced by the real pass.
#include "OffloadDialect/Conversion/Passes.h"
namespace mlir {
namespace offload {
#define GEN_PASS_DEF_CONVERTGPUTOOFFLOADHOST
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir
namespace {
struct Pass : public mlir::offload::impl::ConvertGPUToOffloadHostBase<Pass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
