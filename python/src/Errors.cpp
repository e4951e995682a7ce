//===- Errors.cpp - Runtime lifetime and errors ---------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The runtime's lifetime as the package sees it (offloadInit on first use,
// offloadShutDown at exit) and offload.OffloadError for the C APIs' errors.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <cstring>
#include <stdexcept>
#include <string>

using namespace nb::literals;

namespace offloadpy {

namespace {

/// offload.OffloadError, set by the Python package at import (a strong
/// reference, never released).
PyObject *ErrorClass = nullptr;

bool Initialized = false;
bool ShutDown = false;

} // namespace

bool runtimeAlive() { return Initialized && !ShutDown; }

void raiseError(offload_result_t R) {
  std::string Code = offloadErrcName(R->Code);
  const std::string Prefix = "OFFLOAD_ERRC_";
  if (Code.compare(0, Prefix.size(), Prefix) == 0)
    Code.erase(0, Prefix.size());
  const char *Details = R->Details ? R->Details : "";
  nb::object Message =
      nb::steal(PyUnicode_DecodeUTF8(Details, std::strlen(Details), "replace"));
  if (!Message.is_valid())
    throw nb::python_error();
  PyObject *Class = ErrorClass ? ErrorClass : PyExc_RuntimeError;
  nb::object Error =
      nb::borrow(Class)(nb::str(Code.c_str()), Message, int(R->Code));
  PyErr_SetObject(Class, Error.ptr());
  throw nb::python_error();
}

void check(offload_result_t R) {
  if (R)
    raiseError(R);
}

void ensureInit() {
  if (ShutDown)
    throw std::runtime_error("the offload runtime was shut down");
  if (Initialized)
    return;
  check(offloadInit());
  Initialized = true;
}

void bindErrors(nb::module_ &m) {
  m.def("_set_error_class", [](nb::handle Class) {
    Py_XINCREF(Class.ptr());
    ErrorClass = Class.ptr();
  });
  m.def("_init", &ensureInit,
        "Initializes the runtime (offloadInit) if needed.");
  m.def("_is_initialized", [] { return runtimeAlive(); });
  m.def("_shutdown", [] {
    if (runtimeAlive()) {
      ShutDown = true;
      nb::gil_scoped_release Release;
      (void)offloadJITWaitForCompiles();
      (void)offloadShutDown();
    }
  });
}

} // namespace offloadpy
