// wsm5: the WRF single-moment 5-class microphysics (HeCBench `wsm5`, after
// WRF's module_mp_wsm5). One thread per column walks the column's nz levels
// twice, as the scheme does:
//   1. per level: saturation mixing ratio over water (the fpvs formula:
//      psat * exp(log(ttp/t) * xa) * exp(xb * (1 - ttp/t))), relative
//      humidity, the rain slope parameters (slope_rain: lamdar =
//      sqrt(sqrt(pidn0r / (qr * den))), rslopeb = rslope ** bvtr, with the
//      qcrmin clamps), the fall speed, and three warm-rain processes:
//      autoconversion praut = qck1 * qc ** (7/3), accretion pracw and rain
//      evaporation prevp with WSM5's statement functions diffac, venfac,
//      viscos and diffus; then the tendencies update t, q, qc and qr;
//   2. top-down sedimentation of rain with an upwind flux, the bottom flux
//      accumulating into the surface rain.
// Arrays are [level][column]. Runtime constants: nz (the trip count of both
// level loops) and the scheme's physical constants (passed as kernel
// arguments by the HeCBench kernel), which Proteus folds.
module attributes {gpu.container_module} {
  gpu.module @wsm5 {
    gpu.func @wsm5(%t: memref<?xf32>, %q: memref<?xf32>, %qc: memref<?xf32>,
                   %qr: memref<?xf32>, %p: memref<?xf32>, %den: memref<?xf32>,
                   %delz: memref<?xf32>,
                   %t_out: memref<?xf32>, %q_out: memref<?xf32>,
                   %qc_out: memref<?xf32>, %qr_out: memref<?xf32>,
                   %vt_work: memref<?xf32>, %rain: memref<?xf32>,
                   %ncol: index, %nz_arg: i32,
                   %dtcld_arg: f32, %qmin_arg: f32, %qcrmin_arg: f32,
                   %ttp_arg: f32, %psat_arg: f32, %xa_arg: f32, %xb_arg: f32,
                   %ep2_arg: f32, %den0_arg: f32, %denr_arg: f32,
                   %pidn0r_arg: f32, %bvtr_arg: f32, %pvtr_arg: f32,
                   %qc0_arg: f32, %qck1_arg: f32, %pacrr_arg: f32,
                   %precr1_arg: f32, %precr2_arg: f32, %xlv_arg: f32,
                   %cpd_arg: f32, %rv_arg: f32, %rslopermax_arg: f32,
                   %rslopebmax_arg: f32, %rslope2max_arg: f32,
                   %rslope3max_arg: f32) kernel {
      %nz_i32 = offload.runtime_constant %nz_arg : i32
      %dtcld = offload.runtime_constant %dtcld_arg : f32
      %qmin = offload.runtime_constant %qmin_arg : f32
      %qcrmin = offload.runtime_constant %qcrmin_arg : f32
      %ttp = offload.runtime_constant %ttp_arg : f32
      %psat = offload.runtime_constant %psat_arg : f32
      %xa = offload.runtime_constant %xa_arg : f32
      %xb = offload.runtime_constant %xb_arg : f32
      %ep2 = offload.runtime_constant %ep2_arg : f32
      %den0 = offload.runtime_constant %den0_arg : f32
      %denr = offload.runtime_constant %denr_arg : f32
      %pidn0r = offload.runtime_constant %pidn0r_arg : f32
      %bvtr = offload.runtime_constant %bvtr_arg : f32
      %pvtr = offload.runtime_constant %pvtr_arg : f32
      %qc0 = offload.runtime_constant %qc0_arg : f32
      %qck1 = offload.runtime_constant %qck1_arg : f32
      %pacrr = offload.runtime_constant %pacrr_arg : f32
      %precr1 = offload.runtime_constant %precr1_arg : f32
      %precr2 = offload.runtime_constant %precr2_arg : f32
      %xlv = offload.runtime_constant %xlv_arg : f32
      %cpd = offload.runtime_constant %cpd_arg : f32
      %rv = offload.runtime_constant %rv_arg : f32
      %rslopermax = offload.runtime_constant %rslopermax_arg : f32
      %rslopebmax = offload.runtime_constant %rslopebmax_arg : f32
      %rslope2max = offload.runtime_constant %rslope2max_arg : f32
      %rslope3max = offload.runtime_constant %rslope3max_arg : f32
      %nz = arith.index_cast %nz_i32 : i32 to index

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %seven_thirds = arith.constant 2.33333333 : f32
      %third = arith.constant 0.3333333 : f32
      %k_xka = arith.constant 1.414e3 : f32
      %k_visc = arith.constant 1.496e-6 : f32
      %k_120 = arith.constant 120.0 : f32
      %k_diff = arith.constant 8.794e-5 : f32
      %k_181 = arith.constant 1.81 : f32

      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_range = arith.cmpi ult, %i, %ncol : index
      scf.if %in_range {
        %rdtcld = arith.divf %one, %dtcld : f32
        // 1. Microphysics, level by level.
        scf.for %k = %c0 to %nz step %c1 {
          %kc = arith.muli %k, %ncol : index
          %idx = arith.addi %kc, %i : index
          %tk = memref.load %t[%idx] : memref<?xf32>
          %qk = memref.load %q[%idx] : memref<?xf32>
          %qck = memref.load %qc[%idx] : memref<?xf32>
          %qrk = memref.load %qr[%idx] : memref<?xf32>
          %pk = memref.load %p[%idx] : memref<?xf32>
          %denk = memref.load %den[%idx] : memref<?xf32>

          // Saturation mixing ratio over water and relative humidity.
          %tr = arith.divf %ttp, %tk : f32
          %logtr = math.log %tr : f32
          %e1a = arith.mulf %logtr, %xa : f32
          %e1 = math.exp %e1a : f32
          %omtr = arith.subf %one, %tr : f32
          %e2a = arith.mulf %xb, %omtr : f32
          %e2 = math.exp %e2a : f32
          %es0 = arith.mulf %psat, %e1 : f32
          %es = arith.mulf %es0, %e2 : f32
          %qs_num = arith.mulf %ep2, %es : f32
          %qs_den = arith.subf %pk, %es : f32
          %qs0 = arith.divf %qs_num, %qs_den : f32
          %qs = arith.maximumf %qs0, %qmin : f32
          %rh0 = arith.divf %qk, %qs : f32
          %rh = arith.maximumf %rh0, %qmin : f32

          // slope_rain
          %no_rain = arith.cmpf ole, %qrk, %qcrmin : f32
          %rslope, %rslopeb, %rslope2, %rslope3 = scf.if %no_rain
              -> (f32, f32, f32, f32) {
            scf.yield %rslopermax, %rslopebmax, %rslope2max, %rslope3max
                : f32, f32, f32, f32
          } else {
            %qd = arith.mulf %qrk, %denk : f32
            %x = arith.divf %pidn0r, %qd : f32
            %s1 = math.sqrt %x : f32
            %lamdar = math.sqrt %s1 : f32
            %rs = arith.divf %one, %lamdar : f32
            %rsb = math.powf %rs, %bvtr : f32
            %rs2 = arith.mulf %rs, %rs : f32
            %rs3 = arith.mulf %rs2, %rs : f32
            scf.yield %rs, %rsb, %rs2, %rs3 : f32, f32, f32, f32
          }
          %dr = arith.divf %den0, %denk : f32
          %denfac = math.sqrt %dr : f32
          %vt0 = arith.mulf %pvtr, %rslopeb : f32
          %vt = arith.mulf %vt0, %denfac : f32

          // praut: autoconversion of cloud water to rain.
          %auto = arith.cmpf ogt, %qck, %qc0 : f32
          %qc_rate = arith.mulf %qck, %rdtcld : f32
          %praut = scf.if %auto -> f32 {
            %pw = math.powf %qck, %seven_thirds : f32
            %r0 = arith.mulf %qck1, %pw : f32
            %r = arith.minimumf %r0, %qc_rate : f32
            scf.yield %r : f32
          } else {
            scf.yield %zero : f32
          }
          // pracw: accretion of cloud water by rain.
          %has_rain = arith.cmpf ogt, %qrk, %qcrmin : f32
          %has_cloud = arith.cmpf ogt, %qck, %qmin : f32
          %accrete = arith.andi %has_rain, %has_cloud : i1
          %pracw = scf.if %accrete -> f32 {
            %a0 = arith.mulf %pacrr, %rslope3 : f32
            %a1 = arith.mulf %a0, %rslopeb : f32
            %a2 = arith.mulf %a1, %qck : f32
            %a3 = arith.mulf %a2, %denfac : f32
            %r = arith.minimumf %a3, %qc_rate : f32
            scf.yield %r : f32
          } else {
            scf.yield %zero : f32
          }
          // prevp: evaporation of rain in subsaturated air.
          %subsat = arith.cmpf olt, %rh, %one : f32
          %rain_here = arith.cmpf ogt, %qrk, %zero : f32
          %evap = arith.andi %subsat, %rain_here : i1
          %prevp = scf.if %evap -> f32 {
            // viscos(t, den) = 1.496e-6 * t * sqrt(t) / (t + 120) / den
            %st = math.sqrt %tk : f32
            %v0 = arith.mulf %k_visc, %tk : f32
            %v1 = arith.mulf %v0, %st : f32
            %tp = arith.addf %tk, %k_120 : f32
            %v2 = arith.divf %v1, %tp : f32
            %visc = arith.divf %v2, %denk : f32
            // diffus(t, p) = 8.794e-5 * exp(log(t) * 1.81) / p
            %lt = math.log %tk : f32
            %lt181 = arith.mulf %lt, %k_181 : f32
            %et = math.exp %lt181 : f32
            %d0 = arith.mulf %k_diff, %et : f32
            %diffus = arith.divf %d0, %pk : f32
            // xka(t, den) = 1.414e3 * viscos * den
            %x0 = arith.mulf %k_xka, %visc : f32
            %xka = arith.mulf %x0, %denk : f32
            // diffac(xlv, p, t, den, qs) = den * xlv^2 / (xka * rv * t^2)
            //                              + 1 / (qs * diffus)
            %xl2 = arith.mulf %xlv, %xlv : f32
            %f0 = arith.mulf %denk, %xl2 : f32
            %t2 = arith.mulf %tk, %tk : f32
            %g0 = arith.mulf %xka, %rv : f32
            %g1 = arith.mulf %g0, %t2 : f32
            %f1 = arith.divf %f0, %g1 : f32
            %h0 = arith.mulf %qs, %diffus : f32
            %h1 = arith.divf %one, %h0 : f32
            %work1 = arith.addf %f1, %h1 : f32
            // venfac(p, t, den) = exp(log(viscos / diffus) / 3)
            //                     / sqrt(viscos) * sqrt(sqrt(den0 / den))
            %vd = arith.divf %visc, %diffus : f32
            %lvd = math.log %vd : f32
            %lvd3 = arith.mulf %lvd, %third : f32
            %evd = math.exp %lvd3 : f32
            %sv = math.sqrt %visc : f32
            %w0 = arith.divf %evd, %sv : f32
            %sdf = math.sqrt %denfac : f32
            %work2 = arith.mulf %w0, %sdf : f32
            // coeres = rslope2 * sqrt(rslope * rslopeb)
            %rr = arith.mulf %rslope, %rslopeb : f32
            %srr = math.sqrt %rr : f32
            %coeres = arith.mulf %rslope2, %srr : f32
            %e0 = arith.mulf %precr1, %rslope2 : f32
            %e1b = arith.mulf %precr2, %work2 : f32
            %e2b = arith.mulf %e1b, %coeres : f32
            %e3 = arith.addf %e0, %e2b : f32
            %rhm1 = arith.subf %rh, %one : f32
            %e4 = arith.mulf %rhm1, %e3 : f32
            %pv = arith.divf %e4, %work1 : f32
            %qr_rate = arith.mulf %qrk, %rdtcld : f32
            %lim = arith.negf %qr_rate : f32
            %r = arith.maximumf %pv, %lim : f32
            scf.yield %r : f32
          } else {
            scf.yield %zero : f32
          }

          // Tendencies.
          %conv = arith.addf %praut, %pracw : f32
          %dqc = arith.mulf %conv, %dtcld : f32
          %qc1 = arith.subf %qck, %dqc : f32
          %qc_new = arith.maximumf %qc1, %zero : f32
          %rsrc = arith.addf %conv, %prevp : f32
          %dqr = arith.mulf %rsrc, %dtcld : f32
          %qr1 = arith.addf %qrk, %dqr : f32
          %qr_new = arith.maximumf %qr1, %zero : f32
          %dq = arith.mulf %prevp, %dtcld : f32
          %q1 = arith.subf %qk, %dq : f32
          %q_new = arith.maximumf %q1, %zero : f32
          %lc = arith.divf %xlv, %cpd : f32
          %dt0 = arith.mulf %dq, %lc : f32
          %t_new = arith.addf %tk, %dt0 : f32
          memref.store %t_new, %t_out[%idx] : memref<?xf32>
          memref.store %q_new, %q_out[%idx] : memref<?xf32>
          memref.store %qc_new, %qc_out[%idx] : memref<?xf32>
          memref.store %qr_new, %qr_out[%idx] : memref<?xf32>
          memref.store %vt, %vt_work[%idx] : memref<?xf32>
        }

        // 2. Sedimentation of rain, from the top level down.
        %nzm1 = arith.subi %nz, %c1 : index
        %flux_bottom = scf.for %kk = %c0 to %nz step %c1
            iter_args(%flux_above = %zero) -> (f32) {
          %k = arith.subi %nzm1, %kk : index
          %kc = arith.muli %k, %ncol : index
          %idx = arith.addi %kc, %i : index
          %qrk = memref.load %qr_out[%idx] : memref<?xf32>
          %denk = memref.load %den[%idx] : memref<?xf32>
          %vtk = memref.load %vt_work[%idx] : memref<?xf32>
          %dz = memref.load %delz[%idx] : memref<?xf32>
          %m0 = arith.mulf %denk, %qrk : f32
          %flux = arith.mulf %m0, %vtk : f32
          %df = arith.subf %flux_above, %flux : f32
          %ddt = arith.mulf %df, %dtcld : f32
          %mass = arith.mulf %denk, %dz : f32
          %dqr = arith.divf %ddt, %mass : f32
          %qr1 = arith.addf %qrk, %dqr : f32
          %qr_new = arith.maximumf %qr1, %zero : f32
          memref.store %qr_new, %qr_out[%idx] : memref<?xf32>
          scf.yield %flux : f32
        }
        // Surface precipitation (mm of water) during the step.
        %fall = arith.mulf %flux_bottom, %dtcld : f32
        %mm = arith.divf %fall, %denr : f32
        %thousand = arith.constant 1000.0 : f32
        %rain_mm = arith.mulf %mm, %thousand : f32
        memref.store %rain_mm, %rain[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
