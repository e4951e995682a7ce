#!/usr/bin/env python3
# Part of the offload project, under the Apache License v2.0 with LLVM
# Exceptions.
"""Prints one program made of a captured module and a host wrapper.

    combine.py CAPTURED WRAPPER

CAPTURED is a file as a compiler emitted it (Inputs/<compiler>/<kernel>.mlir):
one top-level `module ... {` with the compiler's gpu.module (and, from
FlyDSL, its host function), possibly with location aliases around it.
WRAPPER is a lit test: top-level ops (func.func @main ...) and comments. The
output is one `module attributes {gpu.container_module}` holding the
captured module's body, verbatim, followed by the wrapper; the captured
file's other lines (aliases) stay outside it.
"""

import sys


def main(captured_path, wrapper_path):
    with open(captured_path) as f:
        captured = f.read().splitlines()
    with open(wrapper_path) as f:
        wrapper = f.read().splitlines()
    # The top-level module: the first line that opens one, and its closing
    # brace, the last line that starts with one (nested ops are indented).
    begin = next(i for i, line in enumerate(captured) if line.startswith("module"))
    end = max(i for i, line in enumerate(captured) if line.startswith("}"))
    out = captured[:begin]
    out.append("module attributes {gpu.container_module} {")
    out += captured[begin + 1:end]
    out += wrapper
    out.append("}" + captured[end][1:])
    out += captured[end + 1:]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
