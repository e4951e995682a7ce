// RUN: offload-opt %s -verify-diagnostics -convert-gpu-to-offload=platform=tpu

// expected-error@unknown {{invalid platform 'tpu'; expected host, cuda, hip or any}}
func.func @f() {
  return
}
