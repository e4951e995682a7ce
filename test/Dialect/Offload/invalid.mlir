// RUN: offload-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// get_device
//===----------------------------------------------------------------------===//

func.func @get_device_unknown_platform() {
  // expected-error @+2 {{expected ::mlir::offload::Platform to be one of: host, cuda, hip, any}}
  // expected-error @+1 {{failed to parse Offload_PlatformAttr parameter 'value'}}
  %dev = offload.get_device opencl 0
  return
}

// -----

func.func @get_device_negative_index() {
  // expected-error @+1 {{attribute 'index' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %dev = offload.get_device host -1
  return
}

// -----

//===----------------------------------------------------------------------===//
// alloc
//===----------------------------------------------------------------------===//

func.func @alloc_unranked(%dev: !offload.device) {
  // expected-error @+1 {{result #0 must be memref of any type values, but got 'memref<*xf32>'}}
  %m = "offload.alloc"(%dev) <{kind = #offload<alloc_kind device>}>
      : (!offload.device) -> memref<*xf32>
  return
}

// -----

func.func @alloc_unknown_kind(%dev: !offload.device) {
  // expected-error @+2 {{expected ::mlir::offload::AllocKind to be one of: device, host, managed}}
  // expected-error @+1 {{failed to parse Offload_AllocKindAttr parameter 'value'}}
  %m = offload.alloc shared on %dev : memref<4xf32>
  return
}

// -----

func.func @alloc_strided(%dev: !offload.device) {
  // expected-error @+1 {{result must have the identity layout, got 'memref<4xf32, strided<[2]>>'}}
  %m = offload.alloc device on %dev : memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @alloc_missing_dynamic_size(%dev: !offload.device, %n: index) {
  // expected-error @+1 {{expected 2 dynamic size(s) for 'memref<?x?xf32>', got 1}}
  %m = offload.alloc device on %dev (%n) : memref<?x?xf32>
  return
}

// -----

func.func @alloc_extra_dynamic_size(%dev: !offload.device, %n: index) {
  // expected-error @+1 {{expected 0 dynamic size(s) for 'memref<4xf32>', got 1}}
  %m = offload.alloc device on %dev (%n) : memref<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// memcpy
//===----------------------------------------------------------------------===//

func.func @memcpy_element_types(%dev: !offload.device, %dst: memref<?xf32>,
                                %src: memref<?xi32>) {
  // expected-error @+1 {{failed to verify that all of {dst, src} have same element type}}
  offload.memcpy %dst, %src on %dev : memref<?xf32>, memref<?xi32>
  return
}

// -----

func.func @memcpy_element_counts(%dev: !offload.device, %dst: memref<4xf32>,
                                 %src: memref<2x3xf32>) {
  // expected-error @+1 {{source has 6 elements but destination has 4}}
  offload.memcpy %dst, %src on %dev : memref<4xf32>, memref<2x3xf32>
  return
}

// -----

func.func @memcpy_strided(%dev: !offload.device,
                          %dst: memref<4xf32, strided<[2]>>,
                          %src: memref<4xf32>) {
  // expected-error @+1 {{source and destination must be contiguous}}
  offload.memcpy %dst, %src on %dev : memref<4xf32, strided<[2]>>, memref<4xf32>
  return
}

// -----

func.func @memcpy_not_a_memref(%dev: !offload.device, %dst: memref<4xf32>,
                               %src: tensor<4xf32>) {
  // expected-error @+1 {{operand #1 must be memref of any type values or unranked.memref of any type values, but got 'tensor<4xf32>'}}
  offload.memcpy %dst, %src on %dev : memref<4xf32>, tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// memfill
//===----------------------------------------------------------------------===//

func.func @memfill_value_type(%dev: !offload.device, %dst: memref<?xf32>,
                              %v: i32) {
  // expected-error @+1 {{failed to verify that value type matches element type of dst}}
  offload.memfill %dst, %v on %dev : memref<?xf32>, i32
  return
}

// -----

func.func @memfill_vector_elements(%dev: !offload.device,
                                   %dst: memref<?xvector<4xf32>>,
                                   %v: vector<4xf32>) {
  // expected-error @+1 {{element type must be an integer, index or float, got 'vector<4xf32>'}}
  offload.memfill %dst, %v on %dev : memref<?xvector<4xf32>>, vector<4xf32>
  return
}

// -----

func.func @memfill_strided(%dev: !offload.device,
                           %dst: memref<4xf32, strided<[2]>>, %v: f32) {
  // expected-error @+1 {{destination must be contiguous}}
  offload.memfill %dst, %v on %dev : memref<4xf32, strided<[2]>>, f32
  return
}

// -----

//===----------------------------------------------------------------------===//
// queue_wait
//===----------------------------------------------------------------------===//

func.func @queue_wait_no_events(%q: !offload.queue) {
  // expected-error @+1 {{expects at least one event}}
  offload.queue_wait %q []
  return
}

// -----

//===----------------------------------------------------------------------===//
// launch
//===----------------------------------------------------------------------===//

gpu.module @kernels {
  gpu.func @k(%a: f32, %x: memref<?xf32>) kernel {
    gpu.return
  }
}

func.func @launch_flat_symbol(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{expects a kernel symbol of the form @module::@kernel, got @kernels}}
  offload.launch @kernels on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}

func.func @launch_deep_symbol(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{expects a kernel symbol of the form @module::@kernel, got @kernels::@k::@x}}
  offload.launch @kernels::@k::@x on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}

func.func @launch_event_without_queue(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{an event result requires a queue}}
  %e = offload.launch @kernels::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) -> !offload.event
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @launch_non_index_grid(%dev: !offload.device, %c1: index, %g: i32) {
  // expected-error @+2 {{use of value '%g' expects different type than prior uses: 'index' vs 'i32'}}
  offload.launch @kernels::@k on %dev
      blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

func.func @launch_undefined_module(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{kernel module 'missing' is undefined}}
  offload.launch @missing::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

func.func @not_a_module() {
  return
}

func.func @launch_not_a_module(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{'not_a_module' is not a gpu.module or gpu.binary}}
  offload.launch @not_a_module::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}

func.func @launch_undefined_kernel(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{kernel 'missing' is undefined in module 'kernels'}}
  offload.launch @kernels::@missing on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

gpu.module @kernels {
  gpu.func @helper() {
    gpu.return
  }
}

func.func @launch_not_a_kernel(%dev: !offload.device, %c1: index) {
  // expected-error @+1 {{'@kernels::@helper' is not a kernel (gpu.func without the 'kernel' attribute)}}
  offload.launch @kernels::@helper on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

gpu.module @kernels {
  gpu.func @k(%a: f32, %x: memref<?xf32>) kernel {
    gpu.return
  }
}

func.func @launch_argument_count(%dev: !offload.device, %c1: index, %a: f32) {
  // expected-error @+1 {{kernel 'k' expects 2 argument(s), got 1}}
  offload.launch @kernels::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32)
  return
}

// -----

gpu.module @kernels {
  gpu.func @k(%a: f32, %x: memref<?xf32>) kernel {
    gpu.return
  }
}

func.func @launch_argument_type(%dev: !offload.device, %c1: index, %a: f32,
                                %x: memref<4xf32>) {
  // expected-error @+1 {{argument #1 has type 'memref<4xf32>' but kernel 'k' expects 'memref<?xf32>'}}
  offload.launch @kernels::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : f32, %x : memref<4xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// runtime_constant
//===----------------------------------------------------------------------===//

func.func @runtime_constant_on_host(%v: i32) -> i32 {
  // expected-error @+1 {{expects to be inside a gpu.func or a function nested in a gpu.module}}
  %c = offload.runtime_constant %v : i32
  return %c : i32
}

// -----

func.func @runtime_constant_in_gpu_launch(%v: i32, %c1: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{expects to be inside a gpu.func or a function nested in a gpu.module}}
    %c = offload.runtime_constant %v : i32
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  gpu.func @k(%v: i32) kernel {
    // expected-error @+1 {{requires the same type for all operands and results}}
    %c = "offload.runtime_constant"(%v) : (i32) -> i64
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%w: memref<?xf32>) kernel {
    // expected-error @+1 {{'contents' requires a statically shaped memref, got 'memref<?xf32>'}}
    %c = offload.runtime_constant %w contents : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%w: vector<4xf32>) kernel {
    // expected-error @+1 {{'contents' requires a statically shaped memref, got 'vector<4xf32>'}}
    %c = offload.runtime_constant %w contents : vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%w: memref<4xcomplex<f32>>) kernel {
    // expected-error @+1 {{'contents' requires integer or float elements, got 'complex<f32>'}}
    %c = offload.runtime_constant %w contents : memref<4xcomplex<f32>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%w: memref<8xf32>) kernel {
    // expected-error @+1 {{expects an integer, index or float value (or a memref with 'contents'), got 'memref<8xf32>'}}
    %c = offload.runtime_constant %w : memref<8xf32>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// #offload.host
//===----------------------------------------------------------------------===//

// expected-error @+1 {{optimization level must be in [0, 3], got 4}}
gpu.module @kernels [#offload.host<O = 4>] {
}

// -----

// expected-error @+1 {{optimization level must be in [0, 3], got -1}}
gpu.module @kernels [#offload.host<O = -1>] {
}
