// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-legalize-vendor-ops))' | FileCheck %s

// Issue 19 item 3: vendor ops with a meaning on the CPU become portable gpu
// ops of the host's 32-lane subgroups (VendorOps.cpp, docs/HostTarget.md).

// Special registers: the gpu ids and dimensions; barriers: gpu.barrier.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @nvvm_registers
  gpu.func @nvvm_registers(%out: memref<16xi32>) kernel {
    // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // CHECK: %[[TX:.*]] = gpu.thread_id x
    // CHECK: %[[TXI:.*]] = arith.index_cast %[[TX]] : index to i32
    // CHECK: gpu.thread_id y
    // CHECK: gpu.thread_id z
    // CHECK: gpu.block_dim x
    // CHECK: gpu.block_id x
    // CHECK: gpu.grid_dim x
    // CHECK: %[[LANE:.*]] = gpu.lane_id
    // CHECK: %[[LANEI:.*]] = arith.index_cast %[[LANE]] : index to i32
    // CHECK: %[[L2:.*]] = gpu.lane_id
    // CHECK: %[[L2I:.*]] = arith.index_cast %[[L2]] : index to i32
    // CHECK: %[[BIT:.*]] = arith.shli %[[ONE]], %[[L2I]] : i32
    // CHECK: %[[LT:.*]] = arith.subi %[[BIT]], %[[ONE]] : i32
    %tx = nvvm.read.ptx.sreg.tid.x : i32
    %ty = nvvm.read.ptx.sreg.tid.y : i32
    %tz = nvvm.read.ptx.sreg.tid.z : i32
    %nx = nvvm.read.ptx.sreg.ntid.x : i32
    %bx = nvvm.read.ptx.sreg.ctaid.x : i32
    %gx = nvvm.read.ptx.sreg.nctaid.x : i32
    %lane = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
    %ws = nvvm.read.ptx.sreg.warpsize : i32
    %lt = nvvm.read.ptx.sreg.lanemask.lt : i32
    %c0 = arith.constant 0 : index
    // CHECK: memref.store %[[TXI]]
    memref.store %tx, %out[%c0] : memref<16xi32>
    memref.store %ty, %out[%c0] : memref<16xi32>
    memref.store %tz, %out[%c0] : memref<16xi32>
    memref.store %nx, %out[%c0] : memref<16xi32>
    memref.store %bx, %out[%c0] : memref<16xi32>
    memref.store %gx, %out[%c0] : memref<16xi32>
    // CHECK: memref.store %[[LANEI]]
    // CHECK: memref.store %[[C32]]
    // CHECK: memref.store %[[LT]]
    memref.store %lane, %out[%c0] : memref<16xi32>
    memref.store %ws, %out[%c0] : memref<16xi32>
    memref.store %lt, %out[%c0] : memref<16xi32>
    // CHECK: gpu.barrier
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: gpu.return
    nvvm.barrier0
    nvvm.barrier
    gpu.return
  }

  // CHECK-LABEL: gpu.func @rocdl_registers
  gpu.func @rocdl_registers(%out: memref<16xi32>) kernel {
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // CHECK: gpu.thread_id x
    // CHECK: gpu.block_id y
    // CHECK: gpu.block_dim z
    // CHECK: gpu.grid_dim x
    // CHECK: %[[LANE:.*]] = gpu.lane_id
    // CHECK: %[[LANEI:.*]] = arith.index_cast %[[LANE]] : index to i32
    // CHECK: %[[BIT:.*]] = arith.shli %{{.*}}, %[[LANEI]] : i32
    // CHECK: %[[BELOW:.*]] = arith.subi %[[BIT]], %{{.*}} : i32
    // CHECK: %[[COUNT:.*]] = math.ctpop %[[BELOW]] : i32
    // CHECK: gpu.barrier
    // CHECK-NEXT: gpu.barrier
    %tx = rocdl.workitem.id.x : i32
    %by = rocdl.workgroup.id.y : i32
    %dz = rocdl.workgroup.dim.z : i32
    %gx = rocdl.grid.dim.x : i32
    %ws = rocdl.wavefrontsize : i32
    %m1 = arith.constant -1 : i32
    %zero = arith.constant 0 : i32
    %lo = rocdl.mbcnt.lo %m1, %zero : (i32, i32) -> i32
    %hi = rocdl.mbcnt.hi %m1, %lo : (i32, i32) -> i32
    rocdl.barrier
    rocdl.s.barrier
    %c0 = arith.constant 0 : index
    memref.store %tx, %out[%c0] : memref<16xi32>
    memref.store %by, %out[%c0] : memref<16xi32>
    memref.store %dz, %out[%c0] : memref<16xi32>
    memref.store %gx, %out[%c0] : memref<16xi32>
    // CHECK: memref.store %[[C32]]
    // CHECK: memref.store %[[COUNT]]
    memref.store %ws, %out[%c0] : memref<16xi32>
    memref.store %hi, %out[%c0] : memref<16xi32>
    gpu.return
  }
}

// -----

// nvvm.shfl.sync over the whole warp (segmask 0): gpu.shuffle of width
// clamp + 1; up with clamp 0 over all 32 lanes; the offset's bits [4:0].
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @shfl_warp
  // CHECK-SAME: (%[[V:[^:]*]]: f32, %[[I:[^:]*]]: i32,
  gpu.func @shfl_warp(%v: f32, %i: i32, %out: memref<8xf32>, %ok: memref<8xi1>) kernel {
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
    // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // CHECK: %[[XOR:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[C1]], %[[C32]] : f32
    // CHECK: %[[DOWN:.*]], %{{.*}} = gpu.shuffle down %[[V]], %[[C1]], %[[C16]] : f32
    // CHECK: %[[UP:.*]], %{{.*}} = gpu.shuffle up %[[V]], %[[C1]], %[[C32]] : f32
    // CHECK: %[[LANE:.*]] = arith.andi %[[I]], %[[C31]] : i32
    // CHECK: %[[IDX:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[LANE]], %[[C32]] : f32
    // CHECK: %[[S:.*]], %[[SVALID:.*]] = gpu.shuffle down %[[V]], %[[C1]], %[[C32]] : f32
    %mask = arith.constant -1 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c15 = arith.constant 15 : i32
    %c0 = arith.constant 0 : i32
    %a = nvvm.shfl.sync bfly %mask, %v, %c1, %c31 : f32 -> f32
    %b = nvvm.shfl.sync down %mask, %v, %c1, %c15 : f32 -> f32
    %c = nvvm.shfl.sync up %mask, %v, %c1, %c0 : f32 -> f32
    %d = nvvm.shfl.sync idx %mask, %v, %i, %c31 : f32 -> f32
    // The {value, valid} form.
    %s = nvvm.shfl.sync down %mask, %v, %c1, %c31 {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
    %e = llvm.extractvalue %s[0] : !llvm.struct<(f32, i1)>
    %p = llvm.extractvalue %s[1] : !llvm.struct<(f32, i1)>
    %k = arith.constant 0 : index
    // CHECK: memref.store %[[XOR]]
    // CHECK: memref.store %[[DOWN]]
    // CHECK: memref.store %[[UP]]
    // CHECK: memref.store %[[IDX]]
    // CHECK: memref.store %[[S]]
    // CHECK: memref.store %[[SVALID]]
    memref.store %a, %out[%k] : memref<8xf32>
    memref.store %b, %out[%k] : memref<8xf32>
    memref.store %c, %out[%k] : memref<8xf32>
    memref.store %d, %out[%k] : memref<8xf32>
    memref.store %e, %out[%k] : memref<8xf32>
    memref.store %p, %ok[%k] : memref<8xi1>
    gpu.return
  }

  // Segments (width 8: mask_and_clamp 0x181f) or a clamp known only at run
  // time: the source lane and its validity as PTX computes them, then a
  // shuffle from that lane.
  // CHECK-LABEL: gpu.func @shfl_segments
  // CHECK-SAME: (%[[V:[^:]*]]: i32, %[[OFF:[^:]*]]: i32,
  gpu.func @shfl_segments(%v: i32, %off: i32, %clamp: i32, %out: memref<8xi32>) kernel {
    // CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
    // CHECK-DAG: %[[C24:.*]] = arith.constant 24 : i32
    // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // CHECK: %[[B:.*]] = arith.andi %[[OFF]], %[[C31]] : i32
    // CHECK: %[[L:.*]] = gpu.lane_id
    // CHECK: %[[LANE:.*]] = arith.index_cast %[[L]] : index to i32
    // CHECK: %[[MIN:.*]] = arith.andi %[[LANE]], %[[C24]] : i32
    // CHECK: %[[MAX:.*]] = arith.ori %[[MIN]], %[[C7]] : i32
    // CHECK: %[[J:.*]] = arith.addi %[[LANE]], %[[B]] : i32
    // CHECK: %[[OK:.*]] = arith.cmpi sle, %[[J]], %[[MAX]] : i32
    // CHECK: %[[SRC:.*]] = arith.select %[[OK]], %[[J]], %[[LANE]] : i32
    // CHECK: %[[R:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[SRC]], %[[C32]] : i32
    // CHECK: memref.store %[[R]]
    %mask = arith.constant -1 : i32
    %w8 = arith.constant 6175 : i32
    %a = nvvm.shfl.sync down %mask, %v, %off, %w8 : i32 -> i32
    %k = arith.constant 0 : index
    memref.store %a, %out[%k] : memref<8xi32>
    // CHECK: arith.cmpi sge
    // CHECK: gpu.shuffle idx
    %b = nvvm.shfl.sync up %mask, %v, %off, %clamp : i32 -> i32
    memref.store %b, %out[%k] : memref<8xi32>
    gpu.return
  }
}

// -----

// Votes and ballots: subgroup reductions of the predicate (as a bit of the
// lane for a ballot).
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @votes
  // CHECK-SAME: (%[[P:[^:]*]]: i1,
  gpu.func @votes(%p: i1, %out: memref<8xi32>, %flags: memref<8xi1>, %wide: memref<8xi64>) kernel {
    // CHECK: %[[BIT:.*]] = arith.extui %[[P]] : i1 to i32
    // CHECK: %[[L:.*]] = gpu.lane_id
    // CHECK: %[[LANE:.*]] = arith.index_cast %[[L]] : index to i32
    // CHECK: %[[SHIFTED:.*]] = arith.shli %[[BIT]], %[[LANE]] : i32
    // CHECK: %[[BALLOT:.*]] = gpu.subgroup_reduce or %[[SHIFTED]] : (i32) -> i32
    // CHECK: %[[ANYBIT:.*]] = arith.extui %[[P]] : i1 to i32
    // CHECK: %[[ANYR:.*]] = gpu.subgroup_reduce or %[[ANYBIT]] : (i32) -> i32
    // CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[ANYR]], %{{.*}} : i32
    // CHECK: %[[ALLBIT:.*]] = arith.extui %[[P]] : i1 to i32
    // CHECK: %[[ALLR:.*]] = gpu.subgroup_reduce and %[[ALLBIT]] : (i32) -> i32
    // CHECK: %[[ALL:.*]] = arith.cmpi ne, %[[ALLR]], %{{.*}} : i32
    // CHECK: gpu.subgroup_reduce or
    // CHECK: gpu.subgroup_reduce and
    // CHECK: %[[UNI:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i1
    // CHECK: %[[RB:.*]] = gpu.subgroup_reduce or %{{.*}} : (i32) -> i32
    // CHECK: %[[WIDE:.*]] = arith.extui %[[RB]] : i32 to i64
    %mask = arith.constant -1 : i32
    %b = nvvm.vote.sync ballot %mask, %p -> i32
    %any = nvvm.vote.sync any %mask, %p -> i1
    %all = nvvm.vote.sync all %mask, %p -> i1
    %uni = nvvm.vote.sync uni %mask, %p -> i1
    %r = rocdl.ballot %p : i64
    %k = arith.constant 0 : index
    // CHECK: memref.store %[[BALLOT]]
    // CHECK: memref.store %[[ANY]]
    // CHECK: memref.store %[[ALL]]
    // CHECK: memref.store %[[UNI]]
    // CHECK: memref.store %[[WIDE]]
    memref.store %b, %out[%k] : memref<8xi32>
    memref.store %any, %flags[%k] : memref<8xi1>
    memref.store %all, %flags[%k] : memref<8xi1>
    memref.store %uni, %flags[%k] : memref<8xi1>
    memref.store %r, %wide[%k] : memref<8xi64>
    gpu.return
  }
}

// -----

// AMD lane moves: shuffles from the lane each op names.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @amd_lanes
  // CHECK-SAME: (%[[V:[^:]*]]: i32, %[[ADDR:[^:]*]]: i32,
  gpu.func @amd_lanes(%v: i32, %addr: i32, %out: memref<8xi32>) kernel {
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
    // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
    // CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
    // CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // readfirstlane, readlane 3:
    // CHECK: %[[FIRST:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[C0]], %[[C32]] : i32
    // CHECK: %[[THIRD:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[C3]], %[[C32]] : i32
    // ds_bpermute: the byte address / 4.
    // CHECK: %[[WORD:.*]] = arith.shrui %[[ADDR]], %[[C2]] : i32
    // CHECK: %[[SRC:.*]] = arith.andi %[[WORD]], %[[C31]] : i32
    // CHECK: %[[PERM:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[SRC]], %[[C32]] : i32
    // ds_swizzle, bit mode with only a xor mask (16):
    // CHECK: %[[XOR:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[C16]], %[[C32]] : i32
    // bit mode ((lane & 3) | 1) ^ 1:
    // CHECK: %[[L:.*]] = gpu.lane_id
    // CHECK: %[[LANE:.*]] = arith.index_cast %[[L]] : index to i32
    // CHECK: %[[AND:.*]] = arith.andi %[[LANE]], %[[C3]] : i32
    // CHECK: %[[OR:.*]] = arith.ori %[[AND]], %[[C1]] : i32
    // CHECK: %[[BITS:.*]] = arith.xori %[[OR]], %[[C1]] : i32
    // CHECK: %[[BITMODE:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %[[BITS]], %[[C32]] : i32
    // quad permute mode [3, 2, 1, 0]:
    // CHECK: %[[QUAD:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %{{.*}}, %[[C32]] : i32
    %first = rocdl.readfirstlane %v : i32
    %c3 = arith.constant 3 : i32
    %third = rocdl.readlane %v, %c3 : (i32, i32) -> i32
    %perm = rocdl.ds_bpermute %addr, %v : (i32, i32) -> i32
    %xor16 = arith.constant 16415 : i32
    %sw = rocdl.ds_swizzle %v, %xor16 : (i32, i32) -> i32
    %bitmode = arith.constant 1059 : i32
    %sw2 = rocdl.ds_swizzle %v, %bitmode : (i32, i32) -> i32
    %quad = arith.constant 32795 : i32
    %sw3 = rocdl.ds_swizzle %v, %quad : (i32, i32) -> i32
    %k = arith.constant 0 : index
    // CHECK: memref.store %[[FIRST]]
    // CHECK: memref.store %[[THIRD]]
    // CHECK: memref.store %[[PERM]]
    // CHECK: memref.store %[[XOR]]
    // CHECK: memref.store %[[BITMODE]]
    // CHECK: memref.store %[[QUAD]]
    memref.store %first, %out[%k] : memref<8xi32>
    memref.store %third, %out[%k] : memref<8xi32>
    memref.store %perm, %out[%k] : memref<8xi32>
    memref.store %sw, %out[%k] : memref<8xi32>
    memref.store %sw2, %out[%k] : memref<8xi32>
    memref.store %sw3, %out[%k] : memref<8xi32>
    gpu.return
  }
}

// -----

// DPP moves: the source lane of the control, old where the source is outside
// the row (0 with bound_ctrl) and where the row or bank is masked off.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @dpp
  // CHECK-SAME: (%[[OLD:[^:]*]]: f32, %[[V:[^:]*]]: f32, %[[S1:[^:]*]]: i32, %[[S2:[^:]*]]: i32,
  gpu.func @dpp(%old: f32, %v: f32, %s1: i32, %s2: i32, %out: memref<16xf32>) kernel {
    // CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
    // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
    // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
    // quad_perm [1, 0, 3, 2] (0xb1):
    // CHECK: %[[QP:.*]], %[[QPV:.*]] = gpu.shuffle idx %[[V]], %{{.*}}, %[[C32]] : f32
    // CHECK: %[[A:.*]] = arith.select %[[QPV]], %[[QP]], %[[OLD]] : f32
    // row_shr:1 with bound_ctrl: lanes at the start of a row read 0.
    // CHECK: %[[INROW:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i32
    // CHECK: %[[SH:.*]], %[[SHV:.*]] = gpu.shuffle idx %[[V]], %{{.*}}, %[[C32]] : f32
    // CHECK: %[[SHOK:.*]] = arith.andi %[[SHV]], %[[INROW]] : i1
    // CHECK: %[[B:.*]] = arith.select %[[SHOK]], %[[SH]], %[[ZERO]] : f32
    // row_half_mirror with row mask 0xa and bank mask 3:
    // CHECK: %[[HM:.*]], %[[HMV:.*]] = gpu.shuffle idx %[[V]], %{{.*}}, %[[C32]] : f32
    // CHECK: %[[HMR:.*]] = arith.select %[[HMV]], %[[HM]], %[[OLD]] : f32
    // CHECK: %[[WRITTEN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
    // CHECK: %[[C:.*]] = arith.select %[[WRITTEN]], %[[HMR]], %[[OLD]] : f32
    // amdgpu.dpp row_ror:8, quad_perm with bound_ctrl:
    // CHECK: gpu.shuffle idx %[[V]]
    // CHECK: gpu.shuffle idx %[[V]]
    // CHECK: arith.select %{{.*}}, %{{.*}}, %[[ZERO]] : f32
    // amdgpu.swizzle_bitmode xor 4:
    // CHECK: %[[F:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[C4]], %[[C32]] : f32
    // permlanex16: the other row's lane that {s2, s1} selects.
    // CHECK: %[[SEL:.*]] = arith.select %{{.*}}, %[[S2]], %[[S1]] : i32
    // CHECK: %[[PX:.*]], %[[PXV:.*]] = gpu.shuffle idx %[[V]], %{{.*}}, %[[C32]] : f32
    // CHECK: %[[G:.*]] = arith.select %[[PXV]], %[[PX]], %[[OLD]] : f32
    %a = rocdl.update.dpp %old, %v with 177, 15, 15, false : f32
    %b = rocdl.update.dpp %old, %v with 273, 15, 15, true : f32
    %c = rocdl.update.dpp %old, %v with 321, 10, 3, false : f32
    %d = amdgpu.dpp %old %v row_ror(8 : i32) : f32
    %e = amdgpu.dpp %old %v quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) { bound_ctrl = true } : f32
    %f = amdgpu.swizzle_bitmode %v 31 0 4 : f32
    %g = rocdl.permlanex16 %old, %v, %s1, %s2, false, false : f32, i32
    %k = arith.constant 0 : index
    // CHECK: memref.store %[[A]]
    // CHECK: memref.store %[[B]]
    // CHECK: memref.store %[[C]]
    // CHECK: memref.store
    // CHECK: memref.store
    // CHECK: memref.store %[[F]]
    // CHECK: memref.store %[[G]]
    memref.store %a, %out[%k] : memref<16xf32>
    memref.store %b, %out[%k] : memref<16xf32>
    memref.store %c, %out[%k] : memref<16xf32>
    memref.store %d, %out[%k] : memref<16xf32>
    memref.store %e, %out[%k] : memref<16xf32>
    memref.store %f, %out[%k] : memref<16xf32>
    memref.store %g, %out[%k] : memref<16xf32>
    gpu.return
  }
}
