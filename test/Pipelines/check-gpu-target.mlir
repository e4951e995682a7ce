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

// The HIP runtime found decides whether a generic chip (code object v6) can
// be loaded: found first in LD_LIBRARY_PATH, by its file name.
// RUN: rm -rf %t && mkdir -p %t/hip6 %t/hip5
// RUN: touch %t/hip6/libamdhip64.so.6.4.43482 %t/hip5/libamdhip64.so.5.2.21153
// RUN: env LD_LIBRARY_PATH=%t/hip6 offload-opt %s '-offload-check-gpu-target=target=rocdl chip=gfx11-generic' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// GENERIC: remark: ROCDL target gfx11-generic: code object v6 (the generic chip gfx11-generic needs it)
// RUN: env LD_LIBRARY_PATH=%t/hip5 not offload-opt %s '-offload-check-gpu-target=target=rocdl chip=gfx11-generic' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERIC-HIP5
// GENERIC-HIP5: error: invalid ROCDL target: chip gfx11-generic needs code object version 6, which the HIP runtime 5.2 at {{.*}}hip5/libamdhip64.so.5.2.21153 cannot load (it needs 6.3 or newer); choose a specific chip

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
