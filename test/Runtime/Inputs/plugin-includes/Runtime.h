// Runtime.h of a fake runtime core
