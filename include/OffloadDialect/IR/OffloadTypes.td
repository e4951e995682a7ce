//===- OffloadTypes.td - Offload dialect types ------------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TYPES_TD
#define OFFLOAD_TYPES_TD

include "OffloadDialect/IR/OffloadBase.td"

class Offload_Type<string name, string typeMnemonic>
    : TypeDef<Offload_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Offload_DeviceType : Offload_Type<"Device", "device"> {
  let summary = "a device of an offload platform";
  let description = [{
    An opaque handle to a device (liboffload's `ol_device_handle_t`): the host
    CPU, a CUDA GPU or a HIP GPU.

    ```mlir
    %dev = offload.get_device host 0
    ```
  }];
}

def Offload_QueueType : Offload_Type<"Queue", "queue"> {
  let summary = "an in-order queue of device work";
  let description = [{
    An opaque handle to an in-order queue (a CUDA/HIP stream). Operations
    enqueued on one queue run in submission order; different queues may run
    concurrently.

    ```mlir
    %q = offload.queue_create %dev
    ```
  }];
}

def Offload_EventType : Offload_Type<"Event", "event"> {
  let summary = "a point in a queue's work";
  let description = [{
    An opaque handle to an event recorded on a queue: it completes when the
    work enqueued before it completes.

    ```mlir
    %e = offload.event_record %q
    ```
  }];
}

#endif // OFFLOAD_TYPES_TD
