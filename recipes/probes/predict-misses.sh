# SPDX-License-Identifier: GPL-2.0-or-later
# Probe of r0predict's two misses (issue 17), guest side: one member, md of 2 and 3,
# nvme-real and sata-real, with the profile's budget, tags or request size changed.
# Usage: recipes/sandbox/run -t 1200 recipes/probes/predict-misses.sh
. "$R0_GUEST/guest.sh"
# one r0bench run: MB/s (median of passes), latency p50 / mean / min in ms
fig() {
	label=$1; shift
	timeout 120 r0bench --yes --json "$@" > /tmp/o.json || { echo "$label: r0bench failed rc $?"; return; }
	awk -v l="$label" '
		function val() { v = $0; sub(/^[^:]*:/, "", v); sub(/,$/, "", v); return v + 0 }
		/"bytes_per_s":\{/ { bps = 1 }
		bps && /"median"/ { mb = val() / 1e6; bps = 0 }
		/"latency_ns":/ { lat = 1 }
		lat && /"min"/ { mn = val() / 1e6 }
		lat && /"mean"/ { me = val() / 1e6 }
		lat && /"p50"/ { p = val() / 1e6 }
		lat && /"count"/ { n = val() }
		END { printf "%-44s %7.2f MB/s  lat ms p50 %6.2f mean %6.2f min %6.2f  n %s\n", l, mb, p, me, mn, n }' /tmp/o.json
}
run_set() { # PROFILE OVERRIDES...
	prof=$1; shift
	over="$*"
	set -- $(r0_members "$prof" 3 "$@") || exit 1
	a=$1 b=$2 c=$3
	echo "== $prof $over"
	fig "one: seq 1M QD1" --rw read --bs 1M --qd 1 -t 3 $a
	fig "one: rand 512K QD1" --rw randread --bs 512K --qd 1 -t 3 $a
	for ch in 512K 64K; do
		md=$(r0build create --yes --backend md --chunk $ch --name p $a $b) || { echo "r0build failed"; exit 1; }
		fig "md 2 x $ch: seq 1M QD1" --rw read --bs 1M --qd 1 -t 3 $md
		for eng in io_uring libaio; do
			timeout 60 fio --name=x --filename=$md --ioengine=$eng --direct=1 --rw=read --bs=1M \
				--iodepth=1 --runtime=3 --time_based --output-format=terse > /tmp/f.txt 2>&1
			echo "  fio $eng md 2 x $ch seq 1M QD1: $(cut -d';' -f7 /tmp/f.txt | head -1) KiB/s"
		done
		fig "md 2 x $ch: rand 512K QD1" --rw randread --bs 512K --qd 1 -t 3 $md
		r0build remove p
	done
	md=$(r0build create --yes --backend md --chunk 512K --name p $a $b $c) || exit 1
	fig "md 3 x 512K: seq 1M QD1" --rw read --bs 1M --qd 1 -t 3 $md
	r0build remove p
	r0_cleanup
}
rested() { # PROFILE: single 512K reads, each after a 100 ms rest
	set -- $(r0_members "$1" 1) || exit 1
	i=1 all=""
	while [ $i -le 15 ]; do
		sleep 0.1
		timeout 30 r0bench --yes --json --rw randread --bs 512K --qd 1 -s 512K --seed $i "$1" > /tmp/o.json
		all="$all $(awk '/"latency_ns":/ { l = 1 } l && /"mean"/ { sub(/^[^:]*:/, ""); printf "%.2f", $0 / 1e6; exit }' /tmp/o.json)"
		i=$((i + 1))
	done
	echo "rested $1 512K read after 100 ms idle, ms each:$all"
	r0_cleanup
}
rested nvme-real
run_set nvme-real
run_set nvme-real mbps=0
run_set sata-real
run_set sata-real hw_queue_depth=32
run_set sata-real max_sectors=256
rested sata-real
