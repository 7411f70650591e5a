# SPDX-License-Identifier: GPL-2.0-or-later
# A quick study with fio as the ruler (guest side): does RAID0 scale on
# these emulated drives? 1, 2 and 3 sata-ssd members (KEY=VALUE arguments
# override the profile: mbps=60) as md raid0 and dm-stripe (64K chunk,
# built by r0build), sequential 1M reads at QD8 and 4K random reads at QD1
# and QD32, measured with fio (libaio, O_DIRECT), 3 repeats of 3 s each,
# the repeats interleaved; the median is reported with min and max.
# Writes report.md and fio's raw output to $R0_RESULTS.
# Usage: sandbox/vm/run recipes/studies/quick-scaling.sh [-- KEY=VALUE...]
. "$R0_GUEST/guest.sh"
set -e
REPEATS=${REPEATS:-3} RUNTIME=${RUNTIME:-3}
# libaio, not io_uring: fio 3.33 io_uring reads of 1M on dm-stripe under
# 6.12 fail with EAGAIN (REQ_NOWAIT on split bios) instead of being retried
ENGINE=${ENGINE:-libaio}
WORKLOADS="seq:read:1M:8 q1:randread:4k:1 q32:randread:4k:32"

overrides="$*"
members=$(r0_members sata-ssd 3 "$@")
set -- $members
members="$*"
report=$R0_RESULTS/report.md

# measure LABEL DEV: one fio run (its start-up is slow under TCG) with every
# workload x repeat as a stonewalled job; appends "LABEL med min max" x 3
measure() {
	label=$1 dev=$2 jobs=$R0_RESULTS/$1.fio
	printf '[global]\nfilename=%s\ndirect=1\nioengine=%s\ntime_based\nruntime=%s\nramp_time=1\nstonewall\n' \
		"$dev" "$ENGINE" "$RUNTIME" > "$jobs"
	for r in $(seq "$REPEATS"); do
		for w in $WORKLOADS; do
			ifs=$IFS; IFS=:; set -- $w; IFS=$ifs   # name rw bs qd
			printf '[%s-%s]\nrw=%s\nbs=%s\niodepth=%s\n' "$1" "$r" "$2" "$3" "$4" >> "$jobs"
		done
	done
	fio --minimal "$jobs" > "$R0_RESULTS/$label.terse" || { echo "demo: fio failed on $dev" >&2; exit 1; }
	line=$label
	for w in $WORKLOADS; do
		name=${w%%:*}
		# terse v3: field 3 job name, 7 read bandwidth (KiB/s), 8 read IOPS
		stats=$(awk -F';' -v n="$name" '$3 ~ "^" n "-" {
				v = (n == "seq") ? sprintf("%.0f", $7 * 1024 / 1e6) : $8; print v }' \
			"$R0_RESULTS/$label.terse" | sort -n |
			awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1], a[NR] }')
		line="$line $stats"
	done
	echo "$line" >> /tmp/rows
	echo "demo: $label done" >&2
}

: > /tmp/rows
measure single "$1"
for be in md dm; do
	for n in 1 2 3; do
		devs=$(echo $members | cut -d' ' -f1-$n)
		arr=$(r0build create --yes --quiet --backend $be --chunk 64K --name demo $devs)
		measure "$be-$n" "$arr"
		r0build remove demo
	done
done

{
	echo "# r0kit quick scaling study (fio)"
	echo
	echo "Sandbox: QEMU TCG, kernel $(uname -r), members: 3 x null_blk profile sata-ssd"
	echo "($(grep -v '^#' "$R0_GUEST/drives/sata-ssd.drive" | tr '\n' ' ')), overridden: ${overrides:-nothing}."
	echo "Arrays built by r0build, chunk 64K. $(fio --version), $ENGINE, O_DIRECT,"
	echo "$REPEATS interleaved repeats of ${RUNTIME} s after 1 s ramp; median (min-max);"
	echo "x = median / the single drive's median."
	echo
	echo "| array | seq 1M QD8 MB/s | x | 4K QD1 IOPS | x | 4K QD32 IOPS | x |"
	echo "|---|---|---|---|---|---|---|"
	awk 'NR == 1 { s = $2; a = $5; b = $8 }
	     { printf "| %s | %s (%s-%s) | %.2f | %s (%s-%s) | %.2f | %s (%s-%s) | %.2f |\n",
	       $1, $2, $3, $4, $2 / s, $5, $6, $7, $5 / a, $8, $9, $10, $8 / b }' /tmp/rows
} > "$report"
r0_cleanup
