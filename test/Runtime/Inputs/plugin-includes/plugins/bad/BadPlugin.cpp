// A plugin that reaches into the core: two private headers, by a relative
// path and by name, next to the allowed ones.
#include "../../Config.h"
#include "../../Plugin.h"
#include "../../Runtime.h"
#include "BadPlugin.h"
#include "Trace.h"
