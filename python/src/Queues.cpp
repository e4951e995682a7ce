//===- Queues.cpp - offload.Queue and offload.Event -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <string>

using namespace nb::literals;

namespace offloadpy {

std::vector<Queue *> &liveQueues() {
  static auto *Queues = new std::vector<Queue *>();
  return *Queues;
}
void forgetQueue(Queue *Q) {
  std::vector<Queue *> &L = liveQueues();
  L.erase(std::remove(L.begin(), L.end(), Q), L.end());
}

Queue *toQueue(nb::handle Object) {
  if (Object.is_none())
    return nullptr;
  Queue *Q = nullptr;
  if (!nb::try_cast<Queue *>(Object, Q) || !Q)
    throw nb::type_error("queue must be an offload.Queue or None");
  return Q;
}

void bindQueues(nb::module_ &m) {
  nb::class_<Queue>(m, "Queue",
                    "An in-order queue of a device: copies, fills and kernel "
                    "launches given queue=q run in submission order, "
                    "asynchronously. The queue keeps the arrays its pending "
                    "work uses alive until sync(). Usable as a context "
                    "manager (syncs on exit).")
      .def_prop_ro("device", [](const Queue &Q) { return Q.Dev; })
      .def("sync", &Queue::sync,
           "sync()\n\nBlocks until all enqueued work is done; raises "
           "OffloadError with the first error of an enqueued operation.")
      .def(
          "record",
          [](nb::handle Self) {
            Queue &Q = nb::cast<Queue &>(Self);
            Event E;
            E.QueueRef = nb::borrow(Self);
            check(offloadCreateEvent(Q.handle(), &E.Handle));
            return E;
          },
          "record() -> Event\n\nAn event marking the current end of the "
          "queue's work.")
      .def(
          "wait",
          [](Queue &Q, nb::args Events) {
            std::vector<offload_event_handle_t> Handles;
            for (nb::handle E : Events) {
              if (!nb::isinstance<Event>(E))
                throw nb::type_error(
                    ("Queue.wait() takes offload.Event objects (from "
                     "Queue.record()), not " +
                     std::string(nb::type_name(E.type()).c_str()))
                        .c_str());
              Handles.push_back(nb::cast<Event &>(E).Handle);
            }
            if (Handles.empty())
              return;
            check(
                offloadWaitEvents(Q.handle(), Handles.data(), Handles.size()));
          },
          "wait(*events)\n\nMakes later work on this queue wait until every "
          "event is complete, without blocking the caller.")
      .def("destroy", &Queue::destroy,
           "destroy()\n\nWaits for the queue's work and destroys it (done "
           "automatically when the Queue is garbage collected).")
      .def("__enter__", [](nb::handle Self) { return nb::borrow(Self); })
      .def(
          "__exit__",
          [](Queue &Q, nb::handle, nb::handle, nb::handle) {
            if (Q.Handle)
              Q.sync();
          },
          nb::arg().none(), nb::arg().none(), nb::arg().none())
      .def("__repr__", [](const Queue &Q) {
        return "<offload.Queue on device " + std::to_string(Q.Dev.Index) +
               (Q.Handle ? ">" : " destroyed>");
      });

  nb::class_<Event>(m, "Event", "A point in a queue's work (Queue.record()).")
      .def("sync", &Event::sync,
           "sync()\n\nBlocks until the work before the event is done.")
      .def("synchronize", &Event::sync, "synchronize()\n\nSame as sync().")
      .def(
          "query",
          [](const Event &E) {
            bool Complete = false;
            check(offloadGetEventInfo(E.Handle, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                      sizeof(Complete), &Complete));
            return Complete;
          },
          "query() -> bool\n\nWhether the work before the event is done.")
      .def(
          "elapsed_time",
          [](const Event &Start, const Event &End) {
            float Ms = 0;
            check(offloadGetEventElapsedTime(Start.Handle, End.Handle, &Ms));
            return Ms;
          },
          "end_event"_a,
          "elapsed_time(end_event) -> float\n\nMilliseconds from this "
          "event's completion to end_event's (torch.cuda.Event."
          "elapsed_time; offloadGetEventElapsedTime): negative if end_event "
          "completed first. Both must be complete (sync() them) and of "
          "queues of one device: else OffloadError 'NOT_READY' or "
          "'INVALID_DEVICE'.")
      .def_prop_ro("queue", [](const Event &E) { return E.QueueRef; })
      .def("__repr__", [](const Event &) { return "<offload.Event>"; });
}

} // namespace offloadpy
