#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# table.py SCENARIO.jsonl: the r0scenario/1 lines of raid0-without-trim as
# a Markdown table, one row a cycle, the array with TRIM beside the one without.
import json, sys

rows = {}
meta = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("r0kit_schema") != "r0scenario/1":
        sys.exit(f"{sys.argv[1]}: not an r0scenario/1 line: {line.strip()}")
    rows.setdefault(d["cycle"], {})["trim" if d["trim"] else "notrim"] = d
    meta = d

def cells(d):
    if not d:
        return ["-"] * 6
    return [f'{d["randwrite_iops"]:,}', f'{d["randwrite_mb_s"]:.1f}', f'{d["seqwrite_mb_s"]:.1f}',
            f'{d["waf_randwrite"]:.2f}' if d["waf_randwrite"] is not None else "-",
            "-" if d.get("mapped_after_delete_pct") is None else f'{d["mapped_after_delete_pct"]:.0f} %',
            f'{d["mapped_before_bench_pct"]:.0f} %']

print(f'md raid0 of 2 r0ssd ({meta.get("ssd_mib")} MiB each, 64K chunk), ext4 filled to {meta.get("fill_pct")} % and '
      f'emptied each cycle; r0bench on the raw array, {meta.get("bench_s")} s each: 4K random write '
      f'QD32, then 128K sequential write QD8. WAF: flash programs / host writes of the 4K phase. '
      f'Mapped: the SSDs\' mapped share once the files are deleted (before fstrim) '
      f'and before the benchmark (after fstrim where it passes). Cycle 0: fresh.')
print()
hdr = ["4K IOPS", "4K MB/s", "seq MB/s", "WAF", "mapped deleted", "mapped bench"]
print("| cycle | " + " | ".join(f"TRIM {h}" for h in hdr) + " | " + " | ".join(f"no TRIM {h}" for h in hdr) + " |")
print("|---:|" + "---:|" * (2 * len(hdr)))
for c in sorted(rows):
    r = rows[c]
    print(f"| {c} | " + " | ".join(cells(r.get("trim"))) + " | " + " | ".join(cells(r.get("notrim"))) + " |")
