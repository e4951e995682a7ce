// bfs (Rodinia 3.1, after Harish and Narayanan, "Accelerating large graph
// algorithms on the GPU using CUDA", HiPC 2007): breadth-first search levels
// from a source node, one thread per node, 512 threads per block. The host
// launches bfs_expand and bfs_update until no node joined the frontier.
//   nodes: (first edge, edge count) per node, interleaved i32
//   edges: destination node of each edge
//   mask: the frontier, updating: the next frontier, visited (i8 booleans)
//   cost: the level of each node (-1: not reached)
// Written after Rodinia's CUDA kernels Kernel and Kernel2.
module attributes {gpu.container_module} {
  gpu.module @bfs {
    gpu.func @bfs_expand(%nodes: memref<?xi32>, %edges: memref<?xi32>,
                         %mask: memref<?xi8>, %updating: memref<?xi8>,
                         %visited: memref<?xi8>, %cost: memref<?xi32>,
                         %n: index) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c512 = arith.constant 512 : index
      %zero = arith.constant 0 : i8
      %true = arith.constant 1 : i8
      %one = arith.constant 1 : i32
      %bid = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %bid, %c512 : index
      %tid = arith.addi %base, %t : index
      %inside = arith.cmpi ult, %tid, %n : index
      scf.if %inside {
        %m = memref.load %mask[%tid] : memref<?xi8>
        %on = arith.cmpi ne, %m, %zero : i8
        scf.if %on {
          memref.store %zero, %mask[%tid] : memref<?xi8>
          %s_at = arith.muli %tid, %c2 : index
          %c_at = arith.addi %s_at, %c1 : index
          %start32 = memref.load %nodes[%s_at] : memref<?xi32>
          %count32 = memref.load %nodes[%c_at] : memref<?xi32>
          %start = arith.index_cast %start32 : i32 to index
          %count = arith.index_cast %count32 : i32 to index
          %end = arith.addi %start, %count : index
          %mycost = memref.load %cost[%tid] : memref<?xi32>
          %next = arith.addi %mycost, %one : i32
          scf.for %e = %start to %end step %c1 {
            %id32 = memref.load %edges[%e] : memref<?xi32>
            %id = arith.index_cast %id32 : i32 to index
            %v = memref.load %visited[%id] : memref<?xi8>
            %seen = arith.cmpi ne, %v, %zero : i8
            scf.if %seen {
            } else {
              memref.store %next, %cost[%id] : memref<?xi32>
              memref.store %true, %updating[%id] : memref<?xi8>
            }
          }
        }
      }
      gpu.return
    }

    gpu.func @bfs_update(%mask: memref<?xi8>, %updating: memref<?xi8>,
                         %visited: memref<?xi8>, %over: memref<?xi8>,
                         %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %zero = arith.constant 0 : i8
      %true = arith.constant 1 : i8
      %bid = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %bid, %c512 : index
      %tid = arith.addi %base, %t : index
      %inside = arith.cmpi ult, %tid, %n : index
      scf.if %inside {
        %u = memref.load %updating[%tid] : memref<?xi8>
        %on = arith.cmpi ne, %u, %zero : i8
        scf.if %on {
          memref.store %true, %mask[%tid] : memref<?xi8>
          memref.store %true, %visited[%tid] : memref<?xi8>
          memref.store %true, %over[%c0] : memref<?xi8>
          memref.store %zero, %updating[%tid] : memref<?xi8>
        }
      }
      gpu.return
    }
  }
}
