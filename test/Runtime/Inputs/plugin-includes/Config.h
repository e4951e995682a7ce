// Config.h of a fake runtime core
