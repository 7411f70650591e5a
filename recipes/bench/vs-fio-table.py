#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reads the WORKLOAD.PAIR.TOOL.json files of recipes/bench/vs-fio and prints,
# per workload, the medians of r0bench and fio (IOPS, MB/s, CPU us per I/O,
# p50 latency) and the ratios r0bench / fio.
import glob, json, os, statistics, sys

def fio_fig(d):
    j = d["jobs"][0]
    side = j["read"] if j["read"]["io_bytes"] else j["write"]
    ios = side["total_ios"]
    secs = j["job_runtime"] / 1000.0
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * secs
    return side["iops"], side["bw_bytes"] / 1e6, cpu / ios * 1e6 if ios else 0, side["clat_ns"]["percentile"]["50.000000"] / 1e3 if "percentile" in side["clat_ns"] else side["lat_ns"]["mean"] / 1e3

def r0_fig(d):
    t = d["tests"][0]
    p = t["passes"][0]
    return p["iops"], p["bytes_per_s"] / 1e6, p["cpu_per_io_s"] * 1e6, t["latency_ns"]["p50"] / 1e3

def main(folder, where):
    names = sorted({os.path.basename(f).split(".")[0] for f in glob.glob(folder + "/*.json")},
                   key=lambda n: ["randread-4k-qd1", "randread-4k-qd32", "read-1m-qd8", "randwrite-4k-qd32"].index(n) if n in ["randread-4k-qd1", "randread-4k-qd32", "read-1m-qd8", "randwrite-4k-qd32"] else 9)
    print(f"r0bench against fio 3.33 (io_uring, O_DIRECT) on {where}: medians of the pairs")
    print()
    print("| workload | pairs | r0bench IOPS | fio IOPS | IOPS ratio | r0bench MB/s | fio MB/s | r0bench CPU us/IO | fio CPU us/IO | CPU ratio | r0bench p50 us | fio p50 us |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = None
    for n in names:
        figs = {"r0bench": [], "fio": []}
        for f in sorted(glob.glob(f"{folder}/{n}.*.json")):
            tool = f.rsplit(".", 2)[1]
            with open(f) as fh:
                d = json.load(fh)
            figs[tool].append(r0_fig(d) if tool == "r0bench" else fio_fig(d))
        if not figs["r0bench"] or not figs["fio"]:
            continue
        med = {k: [statistics.median(x[i] for x in v) for i in range(4)] for k, v in figs.items()}
        r, f = med["r0bench"], med["fio"]
        ratio = r[0] / f[0] if f[0] else 0
        cpu = r[2] / f[2] if f[2] else 0
        worst = ratio if worst is None else min(worst, ratio)
        print(f"| {n} | {len(figs['fio'])} | {r[0]:.0f} | {f[0]:.0f} | {ratio:.3f} | {r[1]:.1f} | {f[1]:.1f} | {r[2]:.2f} | {f[2]:.2f} | {cpu:.3f} | {r[3]:.1f} | {f[3]:.1f} |")
    print()
    print(f"lowest IOPS ratio: {worst:.3f}" if worst is not None else "no results")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1])
