#!/usr/bin/env python3
"""Checks that the runtime's plugins include no private header of its core.

A plugin (every file under lib/Runtime/plugins/) may include, of the headers
of lib/Runtime itself, only the plugin interface and the leaf headers made for
plugins: Plugin.h (the interface), Config.h (validation and trace settings,
trace lines) and CheckServices.h (the checking tools' reports and initcheck's
shadow). Everything else there (Runtime.h, Trace.h, Check.h, InitCheck.h,
Validation.h, HandleTable.h, ...) is the core's own: a plugin that needs
something from it gets it through one of those headers instead
(docs/GPU.md, "Plugins").

An include is resolved as the compiler would: next to the including file,
then in lib/Runtime (a private include directory of the runtime), so that
both `#include "../../Runtime.h"` and `#include "Runtime.h"` count.

usage: check-plugin-includes.py [RUNTIME_DIR]   (default: lib/Runtime)
Prints one line per forbidden include ("FILE:LINE: includes core header H")
and exits 1 if there is any; else prints how many files it read.
"""

import os
import re
import sys

ALLOWED = {"Plugin.h", "Config.h", "CheckServices.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCES = (".h", ".cpp", ".def", ".inc", ".in")


def main(argv):
    runtime = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "lib", "Runtime"))
    plugins = os.path.join(runtime, "plugins")
    if not os.path.isdir(plugins):
        print(f"check-plugin-includes: no plugins folder in {runtime}")
        return 2
    bad, files = [], 0
    for root, _, names in sorted(os.walk(plugins)):
        for name in sorted(names):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(root, name)
            files += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = None
                    for base in (root, runtime):
                        candidate = os.path.normpath(os.path.join(base, m.group(1)))
                        if os.path.isfile(candidate):
                            target = candidate
                            break
                    if target is None:
                        continue  # a generated file, or another library's
                    rel = os.path.relpath(target, runtime)
                    in_core = not rel.startswith("..") and not rel.startswith(
                        "plugins" + os.sep)
                    if in_core and rel not in ALLOWED:
                        bad.append(f"{os.path.relpath(path, runtime)}:{number}: "
                                   f"includes core header {rel}")
    for line in bad:
        print(line)
    if bad:
        print(f"check-plugin-includes: {len(bad)} include(s) of private "
              f"headers of the core; allowed: {', '.join(sorted(ALLOWED))}")
        return 1
    print(f"check-plugin-includes: OK ({files} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
