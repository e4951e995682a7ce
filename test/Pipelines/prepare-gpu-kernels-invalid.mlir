// RUN: offload-opt %s -verify-diagnostics \
// RUN:   -pass-pipeline='builtin.module(gpu.module(offload-prepare-gpu-kernels{subgroup-size=48}))'

// expected-error @below {{subgroup-size must be a power of two, not 48}}
gpu.module @bad {
}
