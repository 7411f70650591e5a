# SPDX-License-Identifier: GPL-2.0-or-later
# Everyday work on 1, 2 and 3 drives (guest side): r0sweep -p everyday on
# three emulated sata-real members (the demo's drive: a SATA SSD at 1/64 of
# its rates): the first alone, md raid0 of 1, 2 and 3 at a 64K chunk, each
# scenario (a large copy, small files, an application start alone and 10 s
# ... here a quarter ... into a copy, unpacking) on ext4 made over a REGION
# test region, REPEATS repeats in a seeded order per repeat. Writes
# $R0_RESULTS/everyday.jsonl, the verdict on stdout, report/ (r0report)
# and table.md: every scenario's median seconds with min and max per target.
# Usage: sandbox/vm/run -t 3000 recipes/studies/everyday.sh [-- KEY=VALUE...]
#   REPEATS (3), REGION (64M), CHUNK (64K), FS (everyday: ext4; everyday-xfs needs REGION 300M)
. "$R0_GUEST/guest.sh"
set -e
REPEATS=${REPEATS:-3} REGION=${REGION:-64M} CHUNK=${CHUNK:-64K} FS=${FS:-everyday}
for kv in "$@"; do case $kv in REPEATS=*|REGION=*|CHUNK=*|FS=*) eval "$kv" ;; esac; done
members=$(r0_members sata-real 3)
set -- $members
out=$R0_RESULTS/everyday.jsonl
r0sweep --output "$out" --yes -p "$FS" --backend md --chunks "$CHUNK" --members 1,2,3 \
	-r "$REPEATS" --region "$REGION" --no-precondition "$@" | tee "$R0_RESULTS/verdict.txt"
# the table: r0report's, every scenario's median (min-max) seconds per target
r0report --output-dir "$R0_RESULTS/report" "$out" > /dev/null
sed -n '/^## Time taken/,/^## /p' "$R0_RESULTS/report/report.md" | sed '$d' | tee "$R0_RESULTS/table.md"
