// Trace.h of a fake runtime core
