//===- AltStackTest.cpp - Kernels keep the thread's alternate signal stack ===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A program, not a GoogleTest: the runtime installs its fault reporter once
// per process, when a thread first runs a block, so the check needs a
// process of its own. The thread that runs the first block (the launching
// thread, with OFFLOAD_HOST_THREADS=1) has a small alternate signal stack of
// its own; after the launch it must still be that one. The reporter used to
// be registered with LLVM, whose first signal-handler registration replaces
// a smaller stack with a malloc'ed one, which broke ASan builds: ASan unmaps
// the alternate stack it finds when a thread exits (HostFault.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "OffloadRuntime/OffloadAPI.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

static int fail(const char *What, offload_result_t R = nullptr) {
  std::fprintf(stderr, "alt-stack test: %s%s%s\n", What, R ? ": " : "",
               R && R->Details ? R->Details : "");
  return 1;
}

int main() {
  setenv("OFFLOAD_HOST_THREADS", "1", 1);
  const size_t Size = 16 * 1024; // smaller than the stack LLVM wants
  void *Mine = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Mine == MAP_FAILED)
    return fail("cannot map a stack");
  stack_t Stack = {};
  Stack.ss_sp = Mine;
  Stack.ss_size = Size;
  if (sigaltstack(&Stack, nullptr) != 0)
    return fail("cannot set the alternate signal stack");

  offload_device_handle_t Host;
  offload_program_handle_t Program;
  offload_symbol_handle_t Kernel;
  void *Out;
  if (offload_result_t R = offloadInit())
    return fail("offloadInit", R);
  if (offload_result_t R = offloadGetHostDevice(&Host))
    return fail("offloadGetHostDevice", R);
  const std::string &Image = offload_test::getTestKernels();
  if (offload_result_t R =
          offloadCreateProgram(Host, Image.data(), Image.size(), &Program))
    return fail("offloadCreateProgram", R);
  if (offload_result_t R = offloadGetSymbol(
          Program, "read_global", OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel))
    return fail("offloadGetSymbol", R);
  if (offload_result_t R =
          offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 4, &Out))
    return fail("offloadMemAlloc", R);
  offload_kernel_launch_size_args_t Launch = {1, {1, 1, 1}, {1, 1, 1}, 0};
  if (offload_result_t R = offloadLaunchKernel(nullptr, Host, Kernel, &Out,
                                               sizeof(Out), &Launch))
    return fail("offloadLaunchKernel", R);
  if (*static_cast<int *>(Out) != 42)
    return fail("the kernel did not run");

  stack_t Now = {};
  if (sigaltstack(nullptr, &Now) != 0)
    return fail("cannot read the alternate signal stack");
  if (Now.ss_sp != Mine) {
    std::fprintf(stderr,
                 "alt-stack test: the launch replaced the thread's alternate "
                 "signal stack (%p, %zu bytes) with %p (%zu bytes)\n",
                 Mine, Size, Now.ss_sp, size_t(Now.ss_size));
    return 1;
  }
  offloadMemFree(Out);
  offloadDestroyProgram(Program);
  offloadShutDown();
  std::printf("alternate signal stack kept\n");
  return 0;
}
