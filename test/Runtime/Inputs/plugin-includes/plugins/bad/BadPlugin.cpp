// A plugin that reaches into the core: two private headers, by a relative
// path and by name, next to the allowed ones.
#include "BadPlugin.h"
#include "../../Config.h"
#include "../../Plugin.h"
#include "../../Runtime.h"
#include "Trace.h"
