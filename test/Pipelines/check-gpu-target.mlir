// offload-check-gpu-target, the first step of the GPU pipelines: defaults
// chosen from the machine are reported in one remark; requests that say
// everything get none.

// RUN: offload-opt %s '-offload-check-gpu-target=target=nvvm format=isa' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVVM-ISA
// NVVM-ISA: remark: NVVM target sm_90: PTX ISA 8.0 (+ptx80) derived from sm_90

// RUN: offload-opt %s '-offload-check-gpu-target=target=nvvm chip=sm_100 format=isa' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVVM-SM100
// NVVM-SM100: remark: NVVM target sm_100: PTX ISA 8.6 (+ptx86) derived from sm_100

// RUN: offload-opt %s '-offload-check-gpu-target=target=nvvm format=isa features=+ptx84 toolkit=%S' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NVVM-QUIET --allow-empty
// NVVM-QUIET-NOT: remark: NVVM target sm_90: {{.*}}PTX ISA

// RUN: offload-opt %s '-offload-check-gpu-target=target=rocdl code-object-version=4' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROCDL
// ROCDL: remark: ROCDL target gfx90a: toolkit {{.*}}

// Generic chips need code object v6, which HIP 6.3 and newer load: the HIP
// runtime found first (here a stand-in file in LD_LIBRARY_PATH, so that the
// machine's own runtime, if any, does not decide) must be one.
// RUN: rm -rf %t.hip63 %t.hip52 && mkdir -p %t.hip63 %t.hip52
// RUN: touch %t.hip63/libamdhip64.so.6.3.0 %t.hip52/libamdhip64.so.5.2.21153
// RUN: env LD_LIBRARY_PATH=%t.hip63 offload-opt %s '-offload-check-gpu-target=target=rocdl chip=gfx11-generic' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// GENERIC: remark: ROCDL target gfx11-generic: code object v6 (the generic chip gfx11-generic needs it)
// RUN: env LD_LIBRARY_PATH=%t.hip52 not offload-opt %s '-offload-check-gpu-target=target=rocdl chip=gfx11-generic' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERIC-OLD
// GENERIC-OLD: error: invalid ROCDL target: chip gfx11-generic needs code object version 6, which the HIP runtime 5.2 at {{.*}}libamdhip64.so.5.2.21153 cannot load (it needs 6.3 or newer); choose a specific chip

// The IR is not changed.
// RUN: offload-opt %s '-offload-check-gpu-target=target=nvvm format=isa' 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=IR
// IR: gpu.module @kernels {
// IR-NEXT: gpu.func @k() kernel {

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
