// Plugin.h of a fake runtime core
