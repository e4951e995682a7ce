#!/usr/bin/env python3
"""Extracts the device images embedded in MLIR text read from stdin.

Images are the `__offload_image.<name>` globals that convert-offload-to-llvm
makes from gpu.binary ops, and the objects of gpu.binary ops themselves
(`assembly = "..."`, `bin = "..."`). MLIR prints them as escaped strings
(`\\XX` for a byte, `\\\\` for a backslash).

Usage:
  extract-gpu-images.py < lowered.mlir           prints every image as text
  extract-gpu-images.py -o DIR < lowered.mlir    writes DIR/<name>.img
"""

import argparse
import os
import re
import sys

GLOBAL = re.compile(r'@__offload_image\.([\w$.]+)\("((?:[^"\\]|\\.)*)"\)')
BINARY = re.compile(r'gpu\.binary @([\w$.]+)\s*(?:<[^>]*>\s*)?\[(.*)')
OBJECT = re.compile(r'(?:assembly|bin|offload)\s*=\s*"((?:[^"\\]|\\.)*)"|, "((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(rb'\\(\\|[0-9A-Fa-f]{2})')


def decode(text):
    def unescape(match):
        token = match.group(1)
        return b"\\" if token == b"\\" else bytes([int(token, 16)])

    return ESCAPE.sub(unescape, text.encode("latin-1"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", "--output-dir")
    args = parser.parse_args()
    text = sys.stdin.read()
    images = [(m.group(1), decode(m.group(2))) for m in GLOBAL.finditer(text)]
    if not images:
        for line in text.splitlines():
            binary = BINARY.search(line)
            if not binary:
                continue
            for index, obj in enumerate(OBJECT.finditer(binary.group(2))):
                name = binary.group(1) + ("" if index == 0 else "." + str(index))
                images.append((name, decode(obj.group(1) or obj.group(2))))
    if not images:
        sys.exit("extract-gpu-images.py: no device image in the input")
    for name, data in images:
        if args.output_dir:
            os.makedirs(args.output_dir, exist_ok=True)
            with open(os.path.join(args.output_dir, name + ".img"), "wb") as f:
                f.write(data)
        else:
            sys.stdout.write("// image: %s\n" % name)
            sys.stdout.write(data.decode("latin-1"))
            sys.stdout.write("\n")


if __name__ == "__main__":
    main()
