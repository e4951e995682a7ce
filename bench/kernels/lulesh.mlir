// lulesh: LULESH 2.0's CalcFBHourglassForceForElems (the hourglass-control
// force of the Flanagan-Belytschko kinematic hourglass filter, the element
// kernel that dominates LULESH's force computation). One thread per hexahedral
// element:
//   - for each of the 4 hourglass modes, hourmod = sum over the 8 nodes of
//     x8n * gamma[mode], and hourgam[node][mode] = gamma[mode][node]
//     - volinv * (dvdx hourmodx + dvdy hourmody + dvdz hourmodz);
//   - the element's node velocities are gathered through nodelist;
//   - coefficient = -hourg * 0.01 * ss * mass / cbrt(determ);
//   - CalcElemFBHourglassForce: hxx[mode] = sum_node hourgam * xd and
//     hgf[node] = coefficient * sum_mode hourgam * hxx, for x, y and z;
// and writes the 8 node forces of the element (fx_elem, as the GPU ports do
// before the per-node gather). Per-element arrays are [element][8].
// Runtime constants: the hourglass coefficient hourg and the 4x8 gamma table
// of +-1 (a constant table of LULESH, here read from memory like a
// __constant__ array), which folds the mode sums into additions and
// subtractions.
module attributes {gpu.container_module} {
  gpu.module @lulesh {
    // One direction of CalcElemFBHourglassForce: hxx[m] = sum_j hourgam[j][m]
    // * vel[j]; out[i3 + j] = coefficient * sum_m hourgam[j][m] * hxx[m].
    func.func private @fb_hourglass_force(%hourgam: memref<8x4xf64>,
                                  %vel: memref<8xf64>, %coefficient: f64,
                                  %out: memref<?xf64>, %i3: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f64
      %hxx = memref.alloca() : memref<4xf64>
      scf.for %m = %c0 to %c4 step %c1 {
        %h = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
          %hg = memref.load %hourgam[%j, %m] : memref<8x4xf64>
          %v = memref.load %vel[%j] : memref<8xf64>
          %t = arith.mulf %hg, %v : f64
          %a = arith.addf %acc, %t : f64
          scf.yield %a : f64
        }
        memref.store %h, %hxx[%m] : memref<4xf64>
      }
      scf.for %j = %c0 to %c8 step %c1 {
        %sum = scf.for %m = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
          %hg = memref.load %hourgam[%j, %m] : memref<8x4xf64>
          %hx = memref.load %hxx[%m] : memref<4xf64>
          %t = arith.mulf %hg, %hx : f64
          %a = arith.addf %acc, %t : f64
          scf.yield %a : f64
        }
        %f = arith.mulf %coefficient, %sum : f64
        %n = arith.addi %i3, %j : index
        memref.store %f, %out[%n] : memref<?xf64>
      }
      return
    }

    gpu.func @hourglass(%x8n: memref<?xf64>, %y8n: memref<?xf64>,
                        %z8n: memref<?xf64>, %dvdx: memref<?xf64>,
                        %dvdy: memref<?xf64>, %dvdz: memref<?xf64>,
                        %determ: memref<?xf64>, %ss: memref<?xf64>,
                        %elem_mass: memref<?xf64>, %nodelist: memref<?xi32>,
                        %xd: memref<?xf64>, %yd: memref<?xf64>,
                        %zd: memref<?xf64>, %fx: memref<?xf64>,
                        %fy: memref<?xf64>, %fz: memref<?xf64>,
                        %num_elem: index, %hourg_arg: f64,
                        %gamma_arg: memref<4x8xf64>) kernel {
      %hourg = offload.runtime_constant %hourg_arg : f64
      %gamma = offload.runtime_constant %gamma_arg contents : memref<4x8xf64>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f64
      %one = arith.constant 1.0 : f64
      %hundredth = arith.constant 0.01 : f64

      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %e = arith.addi %base, %tid : index
      %in_range = arith.cmpi ult, %e, %num_elem : index
      scf.if %in_range {
        %i3 = arith.muli %e, %c8 : index
        %hourgam = memref.alloca() : memref<8x4xf64>
        %xd1 = memref.alloca() : memref<8xf64>
        %yd1 = memref.alloca() : memref<8xf64>
        %zd1 = memref.alloca() : memref<8xf64>
        %det = memref.load %determ[%e] : memref<?xf64>
        %volinv = arith.divf %one, %det : f64

        scf.for %i1 = %c0 to %c4 step %c1 {
          %hmx, %hmy, %hmz = scf.for %j = %c0 to %c8 step %c1
              iter_args(%ax = %zero, %ay = %zero, %az = %zero)
              -> (f64, f64, f64) {
            %n = arith.addi %i3, %j : index
            %g = memref.load %gamma[%i1, %j] : memref<4x8xf64>
            %xv = memref.load %x8n[%n] : memref<?xf64>
            %yv = memref.load %y8n[%n] : memref<?xf64>
            %zv = memref.load %z8n[%n] : memref<?xf64>
            %tx = arith.mulf %xv, %g : f64
            %ty = arith.mulf %yv, %g : f64
            %tz = arith.mulf %zv, %g : f64
            %nx = arith.addf %ax, %tx : f64
            %ny = arith.addf %ay, %ty : f64
            %nz = arith.addf %az, %tz : f64
            scf.yield %nx, %ny, %nz : f64, f64, f64
          }
          scf.for %j = %c0 to %c8 step %c1 {
            %n = arith.addi %i3, %j : index
            %g = memref.load %gamma[%i1, %j] : memref<4x8xf64>
            %dx = memref.load %dvdx[%n] : memref<?xf64>
            %dy = memref.load %dvdy[%n] : memref<?xf64>
            %dz = memref.load %dvdz[%n] : memref<?xf64>
            %px = arith.mulf %dx, %hmx : f64
            %py = arith.mulf %dy, %hmy : f64
            %pz = arith.mulf %dz, %hmz : f64
            %s0 = arith.addf %px, %py : f64
            %s1 = arith.addf %s0, %pz : f64
            %sv = arith.mulf %volinv, %s1 : f64
            %hg = arith.subf %g, %sv : f64
            memref.store %hg, %hourgam[%j, %i1] : memref<8x4xf64>
          }
        }

        %ss1 = memref.load %ss[%e] : memref<?xf64>
        %mass1 = memref.load %elem_mass[%e] : memref<?xf64>
        %volume13 = math.cbrt %det : f64
        scf.for %j = %c0 to %c8 step %c1 {
          %n = arith.addi %i3, %j : index
          %node_i32 = memref.load %nodelist[%n] : memref<?xi32>
          %node = arith.index_cast %node_i32 : i32 to index
          %vx = memref.load %xd[%node] : memref<?xf64>
          %vy = memref.load %yd[%node] : memref<?xf64>
          %vz = memref.load %zd[%node] : memref<?xf64>
          memref.store %vx, %xd1[%j] : memref<8xf64>
          memref.store %vy, %yd1[%j] : memref<8xf64>
          memref.store %vz, %zd1[%j] : memref<8xf64>
        }
        %h0 = arith.negf %hourg : f64
        %h1 = arith.mulf %h0, %hundredth : f64
        %h2 = arith.mulf %h1, %ss1 : f64
        %h3 = arith.mulf %h2, %mass1 : f64
        %coefficient = arith.divf %h3, %volume13 : f64

        // CalcElemFBHourglassForce
        func.call @fb_hourglass_force(%hourgam, %xd1, %coefficient, %fx, %i3)
            : (memref<8x4xf64>, memref<8xf64>, f64, memref<?xf64>, index) -> ()
        func.call @fb_hourglass_force(%hourgam, %yd1, %coefficient, %fy, %i3)
            : (memref<8x4xf64>, memref<8xf64>, f64, memref<?xf64>, index) -> ()
        func.call @fb_hourglass_force(%hourgam, %zd1, %coefficient, %fz, %i3)
            : (memref<8x4xf64>, memref<8xf64>, f64, memref<?xf64>, index) -> ()
      }
      gpu.return
    }
  }
}
