"""Google Benchmark JSON as the bench/ scripts read it.

The scripts (run-host-benchmarks.sh, run-forms-benchmarks.sh,
run-rodinia-benchmarks.sh) run a binary with --benchmark_out_format=json and
print tables of medians over the repetitions. This module holds what they
share: reading the files, the per-repetition times in milliseconds, medians
and geometric means, and the pairing of "ours" with a baseline measured in
the same run (benchmark names <prefix>/<name>/<who>/threads:<n>).
"""

import json
import math
import re

# Google Benchmark's time_unit -> milliseconds.
MS_PER_UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def median(values):
    """The median of a non-empty list of numbers."""
    values = sorted(values)
    n = len(values)
    return (values[n // 2] if n % 2 else
            (values[n // 2 - 1] + values[n // 2]) / 2)


def geomean(values):
    """The geometric mean of a non-empty list of positive numbers."""
    return math.exp(sum(map(math.log, values)) / len(values))


def load(paths):
    """[(path, data)] for the JSON files at paths."""
    loaded = []
    for path in paths:
        with open(path) as f:
            loaded.append((path, json.load(f)))
    return loaded


def repetitions(data):
    """(run name, milliseconds, benchmark) of every repetition of data that
    is neither an aggregate (mean, median, ...) nor a failed run."""
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        yield (b.get("run_name", b["name"]),
               b["real_time"] * MS_PER_UNIT[b.get("time_unit", "ns")], b)


def paired_rows(loaded, prefix, baseline):
    """Rows (name, threads, ours ms, baseline ms, context) of the benchmarks
    <prefix>/<name>/ours/threads:<n> that have a <prefix>/<name>/<baseline>/
    threads:<n> in the same file, medians over the repetitions, in the order
    the binary registered them."""
    pattern = re.compile(r"%s/([^/]+)/(ours|%s)/threads:(\d+)" % (
        re.escape(prefix), re.escape(baseline)))
    rows = []
    for _, data in loaded:
        context = data.get("context", {})
        times = {}  # (name, who, threads) -> [ms]
        order = {}
        for name, ms, b in repetitions(data):
            m = pattern.match(name)
            if not m:
                continue
            key = (m.group(1), m.group(2), int(m.group(3)))
            times.setdefault(key, []).append(ms)
            order.setdefault(m.group(1), b.get("family_index", len(order)))
        for kernel in sorted(order, key=order.get):
            for (k, who, threads) in sorted(times):
                if k != kernel or who != "ours":
                    continue
                base = times.get((kernel, baseline, threads))
                if base:
                    rows.append((kernel, threads, median(times[(k, who,
                                                                threads)]),
                                 median(base), context))
    return rows


def print_results(loaded):
    """The closing lines: each file and its host_threads."""
    for path, data in loaded:
        print("results: %s (host_threads=%s)" % (
            path, data.get("context", {}).get("host_threads", "?")))
