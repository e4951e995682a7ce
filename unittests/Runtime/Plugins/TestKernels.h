//===- TestKernels.h - PTX kernels of the CUDA plugin's tests ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One PTX module, real code (ptxas accepts it; the driver JITs it on any GPU
// of compute capability 7.5 or newer) that the fake driver (FakeCUDA.cpp)
// also understands by kernel name:
//  - add_one(int32_t *Data, int64_t N): Data[i] += 1 for each global thread
//    index i < N (1-D grids);
//  - saxpy(float A, float *X, float *Y, int64_t N): Y = A * X + Y;
//  - report_launch(uint32_t *Out): Out[0..2] the grid, Out[3..5] the block,
//    Out[6] the dynamic shared memory, Out[7] the argument bytes (8);
//  - store_n(uint32_t *Out, uint32_t N): *Out = N (12 bytes of parameters,
//    16 with a struct's tail padding);
//  - fault(): returns (the fake driver fails it with
//    CUDA_ERROR_ILLEGAL_ADDRESS; never launched on a real GPU);
// and the globals `counter` (u32, 42) and `table` (4 x u64).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_UNITTESTS_PLUGINS_TESTKERNELS_H
#define OFFLOADRUNTIME_UNITTESTS_PLUGINS_TESTKERNELS_H

namespace offload_test {

inline const char *getTestPTX() {
  return R"ptx(//
// Test kernels of the offload runtime's CUDA plugin.
//
.version 7.0
.target sm_75
.address_size 64

.visible .global .align 4 .u32 counter = 42;
.visible .global .align 8 .u64 table[4];

.visible .entry add_one(.param .u64 add_one_data, .param .u64 add_one_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [add_one_data];
  ld.param.u64 %rd2, [add_one_n];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd3, %r1, %r2;
  cvt.u64.u32 %rd4, %r3;
  add.s64 %rd3, %rd3, %rd4;
  setp.ge.s64 %p1, %rd3, %rd2;
  @%p1 bra ADD_ONE_DONE;
  cvta.to.global.u64 %rd5, %rd1;
  shl.b64 %rd6, %rd3, 2;
  add.s64 %rd7, %rd5, %rd6;
  ld.global.u32 %r4, [%rd7];
  add.s32 %r5, %r4, 1;
  st.global.u32 [%rd7], %r5;
ADD_ONE_DONE:
  ret;
}

.visible .entry saxpy(.param .f32 saxpy_a, .param .u64 saxpy_x,
                      .param .u64 saxpy_y, .param .u64 saxpy_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<12>;
  ld.param.f32 %f1, [saxpy_a];
  ld.param.u64 %rd1, [saxpy_x];
  ld.param.u64 %rd2, [saxpy_y];
  ld.param.u64 %rd3, [saxpy_n];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.s64 %rd4, %rd4, %rd5;
  setp.ge.s64 %p1, %rd4, %rd3;
  @%p1 bra SAXPY_DONE;
  shl.b64 %rd6, %rd4, 2;
  cvta.to.global.u64 %rd7, %rd1;
  add.s64 %rd8, %rd7, %rd6;
  cvta.to.global.u64 %rd9, %rd2;
  add.s64 %rd10, %rd9, %rd6;
  ld.global.f32 %f2, [%rd8];
  ld.global.f32 %f3, [%rd10];
  fma.rn.f32 %f4, %f1, %f2, %f3;
  st.global.f32 [%rd10], %f4;
SAXPY_DONE:
  ret;
}

.visible .entry report_launch(.param .u64 report_launch_out)
{
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [report_launch_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %nctaid.x;
  mov.u32 %r2, %nctaid.y;
  mov.u32 %r3, %nctaid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mov.u32 %r6, %ntid.z;
  mov.u32 %r7, %dynamic_smem_size;
  mov.u32 %r8, 8;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  st.global.u32 [%rd2+8], %r3;
  st.global.u32 [%rd2+12], %r4;
  st.global.u32 [%rd2+16], %r5;
  st.global.u32 [%rd2+20], %r6;
  st.global.u32 [%rd2+24], %r7;
  st.global.u32 [%rd2+28], %r8;
  ret;
}

.visible .entry store_n(.param .u64 .ptr .global .align 4 store_n_out,
                        .param .u32 store_n_n)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [store_n_out];
  ld.param.u32 %r1, [store_n_n];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r1;
  ret;
}

.visible .entry fault()
{
  ret;
}
)ptx";
}

} // namespace offload_test

#endif // OFFLOADRUNTIME_UNITTESTS_PLUGINS_TESTKERNELS_H
