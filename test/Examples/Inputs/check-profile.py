"""Checks an OFFLOAD_PROFILE=json:PATH file: python check-profile.py PATH
KERNEL INSTANCES COPY COUNT BYTES.

The kernel's row of offload_kern_sum (named KERNEL, or KERNEL_spec_<hash> for
a specialization) must have INSTANCES instances; the copy
kind COPY must appear COUNT times in offload_mem_time_sum and move BYTES bytes
in offload_mem_size_sum (MB = 10^6 bytes); the statistics of every row must
be consistent (Min <= Med <= Max, Avg = Total / Instances, shares sum to 100).
"""

import json
import math
import sys

path, kernel, instances, copy, count, nbytes = sys.argv[1:]
with open(path) as f:
    profile = json.load(f)

for key in ("offload_kern_sum", "offload_mem_time_sum", "offload_mem_size_sum",
            "offload_jit_sum"):
    assert key in profile, f"missing table {key}: {sorted(profile)}"


def check_time_rows(rows, count_key):
    assert rows, "empty table"
    assert math.isclose(sum(r["Time (%)"] for r in rows), 100.0, abs_tol=0.01)
    for r in rows:
        assert r["Min (ns)"] <= r["Med (ns)"] <= r["Max (ns)"], r
        assert math.isclose(r["Avg (ns)"], r["Total Time (ns)"] / r[count_key],
                            rel_tol=1e-9), r
        assert r["StdDev (ns)"] >= 0, r
    totals = [r["Total Time (ns)"] for r in rows]
    assert totals == sorted(totals, reverse=True), "not sorted by total time"


kern = profile["offload_kern_sum"]
check_time_rows(kern, "Instances")
rows = [r for r in kern
        if r["Name"] == kernel or r["Name"].startswith(kernel + "_spec_")]
assert len(rows) == 1, f"no row for kernel {kernel}: {kern}"
assert rows[0]["Instances"] == int(instances), rows[0]
assert rows[0]["Total Time (ns)"] > 0, rows[0]

mem = profile["offload_mem_time_sum"]
check_time_rows(mem, "Count")
rows = [r for r in mem if r["Operation"] == copy]
assert len(rows) == 1, f"no row for {copy}: {mem}"
assert rows[0]["Count"] == int(count), rows[0]

size = [r for r in profile["offload_mem_size_sum"] if r["Operation"] == copy]
assert len(size) == 1, size
assert size[0]["Count"] == int(count), size[0]
assert math.isclose(size[0]["Total (MB)"], int(nbytes) / 1e6), size[0]
assert size[0]["Bandwidth (GB/s)"] > 0, size[0]
print(f"profile ok: {kernel} x{instances}, {copy} x{count}")
