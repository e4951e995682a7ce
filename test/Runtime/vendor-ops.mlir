// Issue 19 item 3: the vendor ops that have a meaning on the CPU compute
// what PTX and the AMD ISA define, in one block of 32 threads (a warp, a
// 32-lane group), with thread loops, on fibers and through the JIT. Each row
// holds one op's result in every lane: v = 10 * lane + 1 moved or combined.

// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s

// shfl.sync down 1, segments of 8
// CHECK: [11,   21,   31,   41,   51,   61,   71,   71,   91,   101,   111,   121,   131,   141,   151,   151,   171,   181,   191,   201,   211,   221,   231,   231,   251,   261,   271,   281,   291,   301,   311,   311]
// shfl.sync idx 2, segments of 8
// CHECK-NEXT: [21,   21,   21,   21,   21,   21,   21,   21,   101,   101,   101,   101,   101,   101,   101,   101,   181,   181,   181,   181,   181,   181,   181,   181,   261,   261,   261,   261,   261,   261,   261,   261]
// shfl.sync up 3, segments of 16
// CHECK-NEXT: [1,   11,   21,   1,   11,   21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   161,   171,   181,   161,   171,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281]
// shfl.sync bfly 5
// CHECK-NEXT: [51,   41,   71,   61,   11,   1,   31,   21,   131,   121,   151,   141,   91,   81,   111,   101,   211,   201,   231,   221,   171,   161,   191,   181,   291,   281,   311,   301,   251,   241,   271,   261]
// shfl.sync down 4, valid flag
// CHECK-NEXT: [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   0]
// vote.sync ballot (lane % 3 == 0)
// CHECK-NEXT: [1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513,   1227133513]
// vote.sync any (lane == 7)
// CHECK-NEXT: [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1]
// vote.sync all (lane < 31)
// CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]
// vote.sync uni (lane % 2 == 0 or lane < 64)
// CHECK-NEXT: [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1]
// lanemask.lt
// CHECK-NEXT: [0,   1,   3,   7,   15,   31,   63,   127,   255,   511,   1023,   2047,   4095,   8191,   16383,   32767,   65535,   131071,   262143,   524287,   1048575,   2097151,   4194303,   8388607,   16777215,   33554431,   67108863,   134217727,   268435455,   536870911,   1073741823,   2147483647]
// lanemask.ge
// CHECK-NEXT: [-1,   -2,   -4,   -8,   -16,   -32,   -64,   -128,   -256,   -512,   -1024,   -2048,   -4096,   -8192,   -16384,   -32768,   -65536,   -131072,   -262144,   -524288,   -1048576,   -2097152,   -4194304,   -8388608,   -16777216,   -33554432,   -67108864,   -134217728,   -268435456,   -536870912,   -1073741824,   -2147483648]
// ntid.x * 100 + tid.x + ctaid.x + nctaid.x
// CHECK-NEXT: [3201,   3202,   3203,   3204,   3205,   3206,   3207,   3208,   3209,   3210,   3211,   3212,   3213,   3214,   3215,   3216,   3217,   3218,   3219,   3220,   3221,   3222,   3223,   3224,   3225,   3226,   3227,   3228,   3229,   3230,   3231,   3232]
// ds_swizzle bit mode (lane & 0x1c) ^ 1
// CHECK-NEXT: [11,   11,   11,   11,   51,   51,   51,   51,   91,   91,   91,   91,   131,   131,   131,   131,   171,   171,   171,   171,   211,   211,   211,   211,   251,   251,   251,   251,   291,   291,   291,   291]
// ds_swizzle quad mode [3, 2, 1, 0]
// CHECK-NEXT: [31,   21,   11,   1,   71,   61,   51,   41,   111,   101,   91,   81,   151,   141,   131,   121,   191,   181,   171,   161,   231,   221,   211,   201,   271,   261,   251,   241,   311,   301,   291,   281]
// update.dpp row_shr:1, bound_ctrl
// CHECK-NEXT: [0,   1,   11,   21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   0,   161,   171,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281,   291,   301]
// update.dpp row_mirror, banks 0 and 2
// CHECK-NEXT: [151,   141,   131,   121,   -1,   -1,   -1,   -1,   71,   61,   51,   41,   -1,   -1,   -1,   -1,   311,   301,   291,   281,   -1,   -1,   -1,   -1,   231,   221,   211,   201,   -1,   -1,   -1,   -1]
// amdgpu.dpp row_half_mirror
// CHECK-NEXT: [71,   61,   51,   41,   31,   21,   11,   1,   151,   141,   131,   121,   111,   101,   91,   81,   231,   221,   211,   201,   191,   181,   171,   161,   311,   301,   291,   281,   271,   261,   251,   241]
// amdgpu.dpp row_shl:2 (old at the end of rows), rows 0 and 1 of 0xf
// CHECK-NEXT: [21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151,   -1,   -1,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281,   291,   301,   311,   -1,   -1]
// amdgpu.swizzle_bitmode xor 8
// CHECK-NEXT: [81,   91,   101,   111,   121,   131,   141,   151,   1,   11,   21,   31,   41,   51,   61,   71,   241,   251,   261,   271,   281,   291,   301,   311,   161,   171,   181,   191,   201,   211,   221,   231]
// permlanex16 identity selection: the other row
// CHECK-NEXT: [161,   171,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281,   291,   301,   311,   1,   11,   21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151]
// mbcnt.hi(-1, mbcnt.lo(0xaaaaaaaa, 0)): odd lanes below
// CHECK-NEXT: [0,   0,   1,   1,   2,   2,   3,   3,   4,   4,   5,   5,   6,   6,   7,   7,   8,   8,   9,   9,   10,   10,   11,   11,   12,   12,   13,   13,   14,   14,   15,   15]
// rocdl.ballot (lane < 5)
// CHECK-NEXT: [31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31,   31]
// readlane 9, readfirstlane
// CHECK-NEXT: [9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101,   9101]
// workitem.id.x, workgroup.dim.x, wavefrontsize
// CHECK-NEXT: [1024,   1025,   1026,   1027,   1028,   1029,   1030,   1031,   1032,   1033,   1034,   1035,   1036,   1037,   1038,   1039,   1040,   1041,   1042,   1043,   1044,   1045,   1046,   1047,   1048,   1049,   1050,   1051,   1052,   1053,   1054,   1055]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i32 = arith.constant 32 : index
  %out = gpu.alloc host_shared () : memref<24x32xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %i1, %gy = %i1, %gz = %i1)
             threads(%tx, %ty, %tz) in (%sx = %i32, %sy = %i1, %sz = %i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c9 = arith.constant 9 : i32
    %c31 = arith.constant 31 : i32
    %c64 = arith.constant 64 : i32
    %c100 = arith.constant 100 : i32
    %c1052 = arith.constant 1052 : i32
    %c4096 = arith.constant 4096 : i32
    %c6175 = arith.constant 6175 : i32
    %c32795 = arith.constant 32795 : i32
    %m1 = arith.constant -1 : i32
    %cA = arith.constant -1431655766 : i32
    %sel1 = arith.constant 1985229328 : i32
    %sel2 = arith.constant -19088744 : i32
    %lane = arith.index_cast %tx : index to i32
    %ten = arith.constant 10 : i32
    %v10 = arith.muli %lane, %ten : i32
    %v = arith.addi %v10, %c1 : i32
    // shfl.sync down 1, segments of 8
    %row0 = nvvm.shfl.sync down %m1, %v, %c1, %c6175 : i32 -> i32
    %k0 = arith.constant 0 : index
    memref.store %row0, %out[%k0, %tx] : memref<24x32xi32>
    // shfl.sync idx 2, segments of 8
    %row1 = nvvm.shfl.sync idx %m1, %v, %c2, %c6175 : i32 -> i32
    %k1 = arith.constant 1 : index
    memref.store %row1, %out[%k1, %tx] : memref<24x32xi32>
    // shfl.sync up 3, segments of 16
    %row2 = nvvm.shfl.sync up %m1, %v, %c3, %c4096 : i32 -> i32
    %k2 = arith.constant 2 : index
    memref.store %row2, %out[%k2, %tx] : memref<24x32xi32>
    // shfl.sync bfly 5
    %row3 = nvvm.shfl.sync bfly %m1, %v, %c5, %c31 : i32 -> i32
    %k3 = arith.constant 3 : index
    memref.store %row3, %out[%k3, %tx] : memref<24x32xi32>
    // shfl.sync down 4, valid flag
    %s_4 = nvvm.shfl.sync down %m1, %v, %c4, %c31 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
    %p_4 = llvm.extractvalue %s_4[1] : !llvm.struct<(i32, i1)>
    %row4 = arith.extui %p_4 : i1 to i32
    %k4 = arith.constant 4 : index
    memref.store %row4, %out[%k4, %tx] : memref<24x32xi32>
    // vote.sync ballot (lane % 3 == 0)
    %m3_5 = arith.remui %lane, %c3 : i32
    %q_5 = arith.cmpi eq, %m3_5, %c0 : i32
    %row5 = nvvm.vote.sync ballot %m1, %q_5 -> i32
    %k5 = arith.constant 5 : index
    memref.store %row5, %out[%k5, %tx] : memref<24x32xi32>
    // vote.sync any (lane == 7)
    %q_6 = arith.cmpi eq, %lane, %c7 : i32
    %t_6 = nvvm.vote.sync any %m1, %q_6 -> i1
    %row6 = arith.extui %t_6 : i1 to i32
    %k6 = arith.constant 6 : index
    memref.store %row6, %out[%k6, %tx] : memref<24x32xi32>
    // vote.sync all (lane < 31)
    %q_7 = arith.cmpi ult, %lane, %c31 : i32
    %t_7 = nvvm.vote.sync all %m1, %q_7 -> i1
    %row7 = arith.extui %t_7 : i1 to i32
    %k7 = arith.constant 7 : index
    memref.store %row7, %out[%k7, %tx] : memref<24x32xi32>
    // vote.sync uni (lane % 2 == 0 or lane < 64)
    %q_8 = arith.cmpi ult, %lane, %c64 : i32
    %t_8 = nvvm.vote.sync uni %m1, %q_8 -> i1
    %row8 = arith.extui %t_8 : i1 to i32
    %k8 = arith.constant 8 : index
    memref.store %row8, %out[%k8, %tx] : memref<24x32xi32>
    // lanemask.lt
    %row9 = nvvm.read.ptx.sreg.lanemask.lt : i32
    %k9 = arith.constant 9 : index
    memref.store %row9, %out[%k9, %tx] : memref<24x32xi32>
    // lanemask.ge
    %row10 = nvvm.read.ptx.sreg.lanemask.ge : i32
    %k10 = arith.constant 10 : index
    memref.store %row10, %out[%k10, %tx] : memref<24x32xi32>
    // ntid.x * 100 + tid.x + ctaid.x + nctaid.x
    %nt_11 = nvvm.read.ptx.sreg.ntid.x : i32
    %t_11 = nvvm.read.ptx.sreg.tid.x : i32
    %bi_11 = nvvm.read.ptx.sreg.ctaid.x : i32
    %gd_11 = nvvm.read.ptx.sreg.nctaid.x : i32
    %h_11 = arith.muli %nt_11, %c100 : i32
    %s0_11 = arith.addi %h_11, %t_11 : i32
    %s1_11 = arith.addi %s0_11, %bi_11 : i32
    %row11 = arith.addi %s1_11, %gd_11 : i32
    %k11 = arith.constant 11 : index
    memref.store %row11, %out[%k11, %tx] : memref<24x32xi32>
    // ds_swizzle bit mode (lane & 0x1c) ^ 1
    %row12 = rocdl.ds_swizzle %v, %c1052 : (i32, i32) -> i32
    %k12 = arith.constant 12 : index
    memref.store %row12, %out[%k12, %tx] : memref<24x32xi32>
    // ds_swizzle quad mode [3, 2, 1, 0]
    %row13 = rocdl.ds_swizzle %v, %c32795 : (i32, i32) -> i32
    %k13 = arith.constant 13 : index
    memref.store %row13, %out[%k13, %tx] : memref<24x32xi32>
    // update.dpp row_shr:1, bound_ctrl
    %row14 = rocdl.update.dpp %m1, %v with 273, 15, 15, true : i32
    %k14 = arith.constant 14 : index
    memref.store %row14, %out[%k14, %tx] : memref<24x32xi32>
    // update.dpp row_mirror, banks 0 and 2
    %row15 = rocdl.update.dpp %m1, %v with 320, 15, 5, false : i32
    %k15 = arith.constant 15 : index
    memref.store %row15, %out[%k15, %tx] : memref<24x32xi32>
    // amdgpu.dpp row_half_mirror
    %row16 = amdgpu.dpp %m1 %v row_half_mirror : i32
    %k16 = arith.constant 16 : index
    memref.store %row16, %out[%k16, %tx] : memref<24x32xi32>
    // amdgpu.dpp row_shl:2 (old at the end of rows), rows 0 and 1 of 0xf
    %row17 = amdgpu.dpp %m1 %v row_shl(2 : i32) : i32
    %k17 = arith.constant 17 : index
    memref.store %row17, %out[%k17, %tx] : memref<24x32xi32>
    // amdgpu.swizzle_bitmode xor 8
    %row18 = amdgpu.swizzle_bitmode %v 31 0 8 : i32
    %k18 = arith.constant 18 : index
    memref.store %row18, %out[%k18, %tx] : memref<24x32xi32>
    // permlanex16 identity selection: the other row
    %row19 = rocdl.permlanex16 %m1, %v, %sel1, %sel2, false, false : i32, i32
    %k19 = arith.constant 19 : index
    memref.store %row19, %out[%k19, %tx] : memref<24x32xi32>
    // mbcnt.hi(-1, mbcnt.lo(0xaaaaaaaa, 0)): odd lanes below
    %lo_20 = rocdl.mbcnt.lo %cA, %c0 : (i32, i32) -> i32
    %row20 = rocdl.mbcnt.hi %m1, %lo_20 : (i32, i32) -> i32
    %k20 = arith.constant 20 : index
    memref.store %row20, %out[%k20, %tx] : memref<24x32xi32>
    // rocdl.ballot (lane < 5)
    %q_21 = arith.cmpi ult, %lane, %c5 : i32
    %row21 = rocdl.ballot %q_21 : i32
    %k21 = arith.constant 21 : index
    memref.store %row21, %out[%k21, %tx] : memref<24x32xi32>
    // readlane 9, readfirstlane
    %a_22 = rocdl.readlane %v, %c9 : (i32, i32) -> i32
    %f_22 = rocdl.readfirstlane %v : i32
    %h_22 = arith.muli %a_22, %c100 : i32
    %row22 = arith.addi %h_22, %f_22 : i32
    %k22 = arith.constant 22 : index
    memref.store %row22, %out[%k22, %tx] : memref<24x32xi32>
    // workitem.id.x, workgroup.dim.x, wavefrontsize
    %t_23 = rocdl.workitem.id.x : i32
    %d_23 = rocdl.workgroup.dim.x : i32
    %w_23 = rocdl.wavefrontsize : i32
    %dw_23 = arith.muli %d_23, %w_23 : i32
    %row23 = arith.addi %dw_23, %t_23 : i32
    %k23 = arith.constant 23 : index
    memref.store %row23, %out[%k23, %tx] : memref<24x32xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<24x32xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
