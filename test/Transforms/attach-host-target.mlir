// RUN: offload-opt %s -offload-attach-host-target | FileCheck %s --check-prefix=DEFAULT
// RUN: offload-opt %s '-offload-attach-host-target=O=1 chip=znver3 features=+avx2,-avx512f' | FileCheck %s --check-prefix=OPTIONS
// RUN: offload-opt %s -offload-attach-host-target=O=1 | FileCheck %s --check-prefix=EXISTING
// RUN: offload-opt %s -offload-attach-host-target=module=^gpu_ | FileCheck %s --check-prefix=MATCH
// RUN: offload-opt %s -offload-attach-host-target -offload-attach-host-target | FileCheck %s --check-prefix=TWICE

// Invalid options: attach-host-target-invalid-*.mlir.

// Default options: every gpu.module gets #offload.host (O = 3, the host CPU),
// appended after the targets it already has.
// DEFAULT-LABEL: module {
// DEFAULT: gpu.module @gpu_kernels [#offload.host] {
// DEFAULT: gpu.module @other [#offload.host<O = 1>, #offload.host] {

// The options become the attribute's parameters.
// OPTIONS-LABEL: module {
// OPTIONS: gpu.module @gpu_kernels [#offload.host<O = 1, chip = "znver3", features = "+avx2,-avx512f">] {
// OPTIONS: gpu.module @other [#offload.host<O = 1>, #offload.host<O = 1, chip = "znver3", features = "+avx2,-avx512f">] {

// A module that already has an identical target is left as it is.
// EXISTING-LABEL: module {
// EXISTING: gpu.module @gpu_kernels [#offload.host<O = 1>] {
// EXISTING: gpu.module @other [#offload.host<O = 1>] {

// `module` is a regular expression selecting modules by name.
// MATCH-LABEL: module {
// MATCH: gpu.module @gpu_kernels [#offload.host] {
// MATCH: gpu.module @other [#offload.host<O = 1>] {

// The pass is idempotent: running it twice adds one target.
// TWICE-LABEL: module {
// TWICE: gpu.module @gpu_kernels [#offload.host] {
// TWICE: gpu.module @other [#offload.host<O = 1>, #offload.host] {

module {
  gpu.module @gpu_kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @other [#offload.host<O = 1>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
