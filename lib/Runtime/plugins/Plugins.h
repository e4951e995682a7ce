//===- Plugins.h - The runtime's plugins ------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The create function of every plugin in Plugins.def (generated from the
// build's OFFLOAD_RUNTIME_PLUGINS), and that list as an array, so that the
// core creates its platforms without naming any plugin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_PLUGINS_H
#define OFFLOADRUNTIME_LIB_PLUGINS_PLUGINS_H

#include "../Plugin.h"

#include <memory>

namespace offload {

#define OFFLOAD_PLUGIN(Name) std::unique_ptr<Plugin> createPlugin_##Name();
#include "Plugins.def"

/// A plugin's create function: a plugin without its devices (Plugin::init
/// discovers them).
using PluginFactory = std::unique_ptr<Plugin> (*)();

/// The plugins in platform order (Plugins.def).
inline constexpr PluginFactory kPluginFactories[] = {
#define OFFLOAD_PLUGIN(Name) &createPlugin_##Name,
#include "Plugins.def"
};

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_PLUGINS_H
