//===- Plugin.cpp - Interface between the runtime and its plugins ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Plugin.h"

using namespace offload;

// Out-of-line destructors anchor the vtables in this file.
Plugin::~Plugin() = default;
Device::~Device() = default;
Queue::~Queue() = default;
Event::~Event() = default;
Program::~Program() = default;
Symbol::~Symbol() = default;
