# SPDX-License-Identifier: GPL-2.0-or-later
# Everyday work on 1, 2 and 3 drives (guest side): r0sweep -p everyday on
# three emulated sata-real members (the demo's drive: a SATA SSD at 1/64 of
# its rates): the first alone, md raid0 of 1, 2 and 3 at a 64K chunk, each
# scenario (a large copy, small files, an application start alone and 10 s
# ... here a quarter ... into a copy, unpacking) on ext4 made over a REGION
# test region, REPEATS repeats in a seeded order per repeat. Writes
# $R0_RESULTS/everyday.jsonl, the verdict on stdout, and table.md: every
# scenario's median seconds with min and max per target.
# Usage: tests/sandbox/vm/run -t 3000 recipes/studies/everyday.sh [-- KEY=VALUE...]
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
# the table: median (min-max) seconds per scenario and target
awk '
function field(k,   r) {
	if (!match($0, "\"" k "\":(\"[^\"]*\"|[0-9.e+-]+)")) return ""
	r = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3); gsub(/"/, "", r); return r
}
function med(k,   i, j, a, m, tmp) {
	m = n[k]; for (i = 1; i <= m; i++) a[i] = x[k, i] + 0
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
	return sprintf("%.2f (%.2f-%.2f)", (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2, a[1], a[m])
}
/"type":"cell"/ {
	t = field("layer") == "raw" ? "1 drive" : field("layer") " of " field("members")
	w = field("workload"); k = w SUBSEP t
	if (!(w in wl)) { wl[w] = 1; wo[++nw] = w }
	if (!(t in tg)) { tg[t] = 1; to[++nt] = t }
	x[k, ++n[k]] = field("runtime_s")
}
END {
	# 1 drive first, then the arrays by name and size
	for (i = 2; i <= nt; i++) for (j = i; j > 1 && to[j] < to[j - 1]; j--) { tmp = to[j]; to[j] = to[j - 1]; to[j - 1] = tmp }
	printf "| seconds, median (min-max) |"; for (j = 1; j <= nt; j++) printf " %s |", to[j]; print ""
	printf "|---|"; for (j = 1; j <= nt; j++) printf "---:|"; print ""
	for (i = 1; i <= nw; i++) {
		printf "| %s |", wo[i]
		for (j = 1; j <= nt; j++) printf " %s |", ((wo[i] SUBSEP to[j]) in n) ? med(wo[i] SUBSEP to[j]) : "-"
		print ""
	}
}' "$out" | tee "$R0_RESULTS/table.md"
