#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reads the WORKLOAD.PAIR.TOOL.json files of recipes/bench/vs-fio and prints,
# per workload, the medians of r0bench and fio (IOPS, MB/s, CPU us per I/O,
# p50 latency) and the ratios r0bench / fio.
import glob, json, os, statistics, sys

# latency: fio's lat (submission to completion, --lat_percentiles=1), what
# r0bench measures; fio's clat leaves out the submission, and on a device
# that completes inline (null_blk, zram) the I/O happens during it.
# CPU: user + system seconds of the whole process (r0cputime's .cpu file,
# start-up included) over the I/Os the tool counted
def cpu_s(json_path):
    u, s = open(json_path[:-5] + ".cpu").read().split()
    return float(u) + float(s)

def fio_fig(d, f):
    j = d["jobs"][0]
    side = j["read"] if j["read"]["io_bytes"] else j["write"]
    ios = side["total_ios"]
    return side["iops"], side["bw_bytes"] / 1e6, cpu_s(f) / ios * 1e6, side["lat_ns"]["percentile"]["50.000000"] / 1e3

def r0_fig(d, f):
    t = d["tests"][0]
    p = t["passes"][0]
    return p["iops"], p["bytes_per_s"] / 1e6, cpu_s(f) / p["ios"] * 1e6, t["latency_ns"]["p50"] / 1e3

def main(folder, where):
    order = ["randread-4k-qd1", "randread-4k-qd32", "read-1m-qd8", "randwrite-4k-qd32",
             "randread-4k-qd32-batch8", "randread-4k-qd32-sqpoll", "randread-4k-qd1-hipri",
             "randread-4k-qd32-hipri"]
    names = sorted({os.path.basename(f).split(".")[0] for f in glob.glob(folder + "/*.json")},
                   key=lambda n: order.index(n) if n in order else len(order))
    print(f"r0bench against fio 3.33 (io_uring, psync at QD1; O_DIRECT) on {where}")
    print("medians over the pairs; ratio = r0bench / fio within each pair, median [min..max];")
    print("CPU = user + system seconds of the whole process per I/O")
    print()
    print("| workload | pairs | r0bench IOPS | fio IOPS | IOPS ratio | r0bench MB/s | fio MB/s | r0bench CPU us/IO | fio CPU us/IO | CPU ratio | r0bench p50 us | fio p50 us |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = None
    for n in names:
        pairs = {}
        for f in sorted(glob.glob(f"{folder}/{n}.*.json")):
            if not os.path.getsize(f):
                continue
            _, pair, tool, _ = os.path.basename(f).split(".")
            with open(f) as fh:
                d = json.load(fh)
            pairs.setdefault(pair, {})[tool] = r0_fig(d, f) if tool == "r0bench" else fio_fig(d, f)
        full = [p for p in pairs.values() if len(p) == 2]
        if not full:
            continue
        med = lambda tool, i: statistics.median(p[tool][i] for p in full)
        ratios = [p["r0bench"][0] / p["fio"][0] for p in full]
        cpus = [p["r0bench"][2] / p["fio"][2] for p in full]
        ratio = statistics.median(ratios)
        worst = ratio if worst is None else min(worst, ratio)
        print(f"| {n} | {len(full)} | {med('r0bench', 0):.0f} | {med('fio', 0):.0f} | "
              f"{ratio:.3f} [{min(ratios):.2f}..{max(ratios):.2f}] | {med('r0bench', 1):.1f} | {med('fio', 1):.1f} | "
              f"{med('r0bench', 2):.2f} | {med('fio', 2):.2f} | {statistics.median(cpus):.3f} [{min(cpus):.2f}..{max(cpus):.2f}] | "
              f"{med('r0bench', 3):.1f} | {med('fio', 3):.1f} |")
    print()
    print(f"lowest median IOPS ratio: {worst:.3f}" if worst is not None else "no results")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1])
