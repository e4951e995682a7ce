// rsbench: RSBench (HeCBench `rsbench`), the multipole cross-section lookup
// of OpenMC. One thread per lookup: for every nuclide of the material it
// finds the energy window of E, computes the four sigT factors of the
// nuclide's l values (calculate_sig_T) and sums the contributions of the
// window's poles (calculate_micro_xs, the non-Doppler path), then adds the
// micro cross sections weighted by the concentrations into the macroscopic
// total, absorption, fission and elastic cross sections.
//
// Model: every nuclide has n_windows windows of poles_per_window poles (in
// RSBench the pole count per nuclide varies around avg_n_poles and windows
// hold avg_n_poles_per_window = 10 poles on average); the material is one
// list of nuclides. Runtime constants: num_nucs, n_windows, poles_per_window
// and numL (the trip counts of the nuclide, pole and l loops) — with them the
// pole loop is fully unrolled, the l loop's per-l branches fold and the window
// spacing 1 / n_windows becomes a constant.
module attributes {gpu.container_module} {
  gpu.module @rsbench {
    // RSComplex helpers of RSBench (complex.cu).
    func.func private @c_mul(%a: f64, %b: f64, %c: f64, %d: f64) -> (f64, f64) {
      %ac = arith.mulf %a, %c : f64
      %bd = arith.mulf %b, %d : f64
      %ad = arith.mulf %a, %d : f64
      %bc = arith.mulf %b, %c : f64
      %r = arith.subf %ac, %bd : f64
      %i = arith.addf %ad, %bc : f64
      return %r, %i : f64, f64
    }
    func.func private @c_div(%a: f64, %b: f64, %c: f64, %d: f64) -> (f64, f64) {
      %cc = arith.mulf %c, %c : f64
      %dd = arith.mulf %d, %d : f64
      %denom = arith.addf %cc, %dd : f64
      %ac = arith.mulf %a, %c : f64
      %bd = arith.mulf %b, %d : f64
      %bc = arith.mulf %b, %c : f64
      %ad = arith.mulf %a, %d : f64
      %rn = arith.addf %ac, %bd : f64
      %in = arith.subf %bc, %ad : f64
      %r = arith.divf %rn, %denom : f64
      %i = arith.divf %in, %denom : f64
      return %r, %i : f64, f64
    }

    gpu.func @xs_lookup(%energies: memref<?xf64>, %macro_xs: memref<?xf64>,
                        %nuclide_ids: memref<?xi32>, %concs: memref<?xf64>,
                        %windows: memref<?xf64>, %poles: memref<?xf64>,
                        %l_values: memref<?xi32>, %pseudo_K0RS: memref<?xf64>,
                        %n_lookups: index, %num_nucs_arg: i32,
                        %n_windows_arg: i32, %poles_per_window_arg: i32,
                        %numL_arg: i32) kernel {
      %num_nucs_i32 = offload.runtime_constant %num_nucs_arg : i32
      %n_windows_i32 = offload.runtime_constant %n_windows_arg : i32
      %ppw_i32 = offload.runtime_constant %poles_per_window_arg : i32
      %numL_i32 = offload.runtime_constant %numL_arg : i32
      %num_nucs = arith.index_cast %num_nucs_i32 : i32 to index
      %n_windows = arith.index_cast %n_windows_i32 : i32 to index
      %ppw = arith.index_cast %ppw_i32 : i32 to index
      %numL = arith.index_cast %numL_i32 : i32 to index
      %n_poles = arith.muli %n_windows, %ppw : index

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f64
      %one = arith.constant 1.0 : f64
      %two = arith.constant 2.0 : f64
      %three = arith.constant 3.0 : f64
      %six = arith.constant 6.0 : f64
      %fifteen = arith.constant 15.0 : f64

      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_range = arith.cmpi ult, %i, %n_lookups : index
      scf.if %in_range {
        %E = memref.load %energies[%i] : memref<?xf64>
        %sqrtE = math.sqrt %E : f64
        %sig_re = memref.alloca() : memref<4xf64>
        %sig_im = memref.alloca() : memref<4xf64>
        %nw_f = arith.sitofp %n_windows_i32 : i32 to f64
        %spacing = arith.divf %one, %nw_f : f64
        %xsT, %xsA, %xsF, %xsE = scf.for %j = %c0 to %num_nucs step %c1
            iter_args(%mT = %zero, %mA = %zero, %mF = %zero, %mE = %zero)
            -> (f64, f64, f64, f64) {
          %nuc_i32 = memref.load %nuclide_ids[%j] : memref<?xi32>
          %nuc = arith.index_cast %nuc_i32 : i32 to index
          %conc = memref.load %concs[%j] : memref<?xf64>

          // window = (int)(E / spacing); the last window closes the range.
          %wf = arith.divf %E, %spacing : f64
          %w_i32 = arith.fptosi %wf : f64 to i32
          %at_end = arith.cmpi eq, %w_i32, %n_windows_i32 : i32
          %c1_i32 = arith.constant 1 : i32
          %w_dec = arith.subi %w_i32, %c1_i32 : i32
          %w_sel = arith.select %at_end, %w_dec, %w_i32 : i32
          %window = arith.index_cast %w_sel : i32 to index

          // calculate_sig_T
          %k0_base = arith.muli %nuc, %numL : index
          scf.for %l = %c0 to %numL step %c1 {
            %k0_idx = arith.addi %k0_base, %l : index
            %k0 = memref.load %pseudo_K0RS[%k0_idx] : memref<?xf64>
            %phi0 = arith.mulf %k0, %sqrtE : f64
            %is1 = arith.cmpi eq, %l, %c1 : index
            %phi = scf.if %is1 -> f64 {
              %at = math.atan %phi0 : f64
              %neg = arith.negf %at : f64
              %r = arith.subf %phi0, %neg : f64
              scf.yield %r : f64
            } else {
              %is2 = arith.cmpi eq, %l, %c2 : index
              %r2 = scf.if %is2 -> f64 {
                %p2 = arith.mulf %phi0, %phi0 : f64
                %num = arith.mulf %three, %phi0 : f64
                %den = arith.subf %three, %p2 : f64
                %q = arith.divf %num, %den : f64
                %at = math.atan %q : f64
                %r = arith.subf %phi0, %at : f64
                scf.yield %r : f64
              } else {
                %is3 = arith.cmpi eq, %l, %c3 : index
                %r3 = scf.if %is3 -> f64 {
                  %p2 = arith.mulf %phi0, %phi0 : f64
                  %a = arith.subf %fifteen, %p2 : f64
                  %num = arith.mulf %phi0, %a : f64
                  %six_p2 = arith.mulf %six, %p2 : f64
                  %den = arith.subf %fifteen, %six_p2 : f64
                  %q = arith.divf %num, %den : f64
                  %at = math.atan %q : f64
                  %r = arith.subf %phi0, %at : f64
                  scf.yield %r : f64
                } else {
                  scf.yield %phi0 : f64
                }
                scf.yield %r3 : f64
              }
              scf.yield %r2 : f64
            }
            %phi2 = arith.mulf %phi, %two : f64
            %cs = math.cos %phi2 : f64
            %sn = math.sin %phi2 : f64
            %nsn = arith.negf %sn : f64
            memref.store %cs, %sig_re[%l] : memref<4xf64>
            memref.store %nsn, %sig_im[%l] : memref<4xf64>
          }

          // The window's background cross sections.
          %nuc_windows = arith.muli %nuc, %n_windows : index
          %w_linear = arith.addi %nuc_windows, %window : index
          %w3 = arith.muli %w_linear, %c3 : index
          %w3_1 = arith.addi %w3, %c1 : index
          %w3_2 = arith.addi %w3, %c2 : index
          %wT = memref.load %windows[%w3] : memref<?xf64>
          %wA = memref.load %windows[%w3_1] : memref<?xf64>
          %wF = memref.load %windows[%w3_2] : memref<?xf64>
          %sigT0 = arith.mulf %E, %wT : f64
          %sigA0 = arith.mulf %E, %wA : f64
          %sigF0 = arith.mulf %E, %wF : f64

          // The window's poles.
          %nuc_poles = arith.muli %nuc, %n_poles : index
          %w_start = arith.muli %window, %ppw : index
          %first = arith.addi %nuc_poles, %w_start : index
          %sigT, %sigA, %sigF = scf.for %k = %c0 to %ppw step %c1
              iter_args(%sT = %sigT0, %sA = %sigA0, %sF = %sigF0)
              -> (f64, f64, f64) {
            %pole = arith.addi %first, %k : index
            %p8 = arith.muli %pole, %c8 : index
            %p8_1 = arith.addi %p8, %c1 : index
            %p8_2 = arith.addi %p8, %c2 : index
            %p8_3 = arith.addi %p8, %c3 : index
            %p8_4 = arith.addi %p8, %c4 : index
            %p8_5 = arith.addi %p8, %c5 : index
            %p8_6 = arith.addi %p8, %c6 : index
            %p8_7 = arith.addi %p8, %c7 : index
            %ea_r = memref.load %poles[%p8] : memref<?xf64>
            %ea_i = memref.load %poles[%p8_1] : memref<?xf64>
            %rt_r = memref.load %poles[%p8_2] : memref<?xf64>
            %rt_i = memref.load %poles[%p8_3] : memref<?xf64>
            %ra_r = memref.load %poles[%p8_4] : memref<?xf64>
            %ra_i = memref.load %poles[%p8_5] : memref<?xf64>
            %rf_r = memref.load %poles[%p8_6] : memref<?xf64>
            %rf_i = memref.load %poles[%p8_7] : memref<?xf64>
            %lv_i32 = memref.load %l_values[%pole] : memref<?xi32>
            %lv = arith.index_cast %lv_i32 : i32 to index
            // PSIIKI = (0 + 1i) / (MP_EA - sqrt(E)); CDUM = PSIIKI / E
            %d_r = arith.subf %ea_r, %sqrtE : f64
            %psi_r, %psi_i = func.call @c_div(%zero, %one, %d_r, %ea_i)
                : (f64, f64, f64, f64) -> (f64, f64)
            %cd_r, %cd_i = func.call @c_div(%psi_r, %psi_i, %E, %zero)
                : (f64, f64, f64, f64) -> (f64, f64)
            %f_r = memref.load %sig_re[%lv] : memref<4xf64>
            %f_i = memref.load %sig_im[%lv] : memref<4xf64>
            %cf_r, %cf_i = func.call @c_mul(%cd_r, %cd_i, %f_r, %f_i)
                : (f64, f64, f64, f64) -> (f64, f64)
            %t_r, %t_i = func.call @c_mul(%rt_r, %rt_i, %cf_r, %cf_i)
                : (f64, f64, f64, f64) -> (f64, f64)
            %a_r, %a_i = func.call @c_mul(%ra_r, %ra_i, %cd_r, %cd_i)
                : (f64, f64, f64, f64) -> (f64, f64)
            %f2_r, %f2_i = func.call @c_mul(%rf_r, %rf_i, %cd_r, %cd_i)
                : (f64, f64, f64, f64) -> (f64, f64)
            %nT = arith.addf %sT, %t_r : f64
            %nA = arith.addf %sA, %a_r : f64
            %nF = arith.addf %sF, %f2_r : f64
            scf.yield %nT, %nA, %nF : f64, f64, f64
          }
          %sigE = arith.subf %sigT, %sigA : f64
          %cT = arith.mulf %sigT, %conc : f64
          %cA = arith.mulf %sigA, %conc : f64
          %cF = arith.mulf %sigF, %conc : f64
          %cE = arith.mulf %sigE, %conc : f64
          %nT = arith.addf %mT, %cT : f64
          %nA = arith.addf %mA, %cA : f64
          %nF = arith.addf %mF, %cF : f64
          %nE = arith.addf %mE, %cE : f64
          scf.yield %nT, %nA, %nF, %nE : f64, f64, f64, f64
        }
        %o = arith.muli %i, %c4 : index
        %o1 = arith.addi %o, %c1 : index
        %o2 = arith.addi %o, %c2 : index
        %o3 = arith.addi %o, %c3 : index
        memref.store %xsT, %macro_xs[%o] : memref<?xf64>
        memref.store %xsA, %macro_xs[%o1] : memref<?xf64>
        memref.store %xsF, %macro_xs[%o2] : memref<?xf64>
        memref.store %xsE, %macro_xs[%o3] : memref<?xf64>
      }
      gpu.return
    }
  }
}
