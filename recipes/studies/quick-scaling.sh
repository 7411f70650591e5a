# SPDX-License-Identifier: GPL-2.0-or-later
# Interim study (guest side): does RAID0 scale on these emulated drives?
# 1, 2 and 3 sata-ssd members as md raid0 and dm-stripe (64K chunk, built
# by r0build), sequential 1M reads at QD8 and 4K random reads at QD1 and
# QD32, measured with fio (io_uring, O_DIRECT), 3 repeats of 4 s each;
# the median is reported with min and max. Writes report.md to $R0_RESULTS.
. "$R0_GUEST/guest.sh"
set -e
REPEATS=${REPEATS:-3} RUNTIME=${RUNTIME:-4}
set -- $(r0_members sata-ssd 3)
members="$*"
report=$R0_RESULTS/report.md

# measure DEV NAME RW BS QD: prints "median min max" of MB/s (seq) or IOPS (4K)
measure() {
	dev=$1 name=$2 rw=$3 bs=$4 qd=$5 vals=""
	for r in $(seq "$REPEATS"); do
		fio --name="$name" --filename="$dev" --rw="$rw" --bs="$bs" --iodepth="$qd" \
			--direct=1 --ioengine=io_uring --runtime="$RUNTIME" --time_based \
			--ramp_time=1 --minimal > "$R0_RESULTS/$name-$r.terse" ||
			{ echo "demo: fio failed on $dev" >&2; exit 1; }
		# terse v3: field 7 read bandwidth (KiB/s), field 8 read IOPS
		if [ "$bs" = 1M ]; then
			v=$(awk -F';' '{ printf "%.0f", $7 * 1024 / 1e6 }' "$R0_RESULTS/$name-$r.terse")
		else
			v=$(awk -F';' '{ print $8 }' "$R0_RESULTS/$name-$r.terse")
		fi
		vals="$vals $v"
	done
	echo $vals | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1], a[NR] }'
}

row() {   # LABEL DEV
	seq=$(measure "$2" "$1-seq" read 1M 8)
	q1=$(measure "$2" "$1-4k-qd1" randread 4k 1)
	q32=$(measure "$2" "$1-4k-qd32" randread 4k 32)
	echo "$1 $seq $q1 $q32" >> /tmp/rows
	echo "demo: $1 done" >&2
}

: > /tmp/rows
row single "$1"
for be in md dm; do
	for n in 1 2 3; do
		devs=$(echo $members | cut -d' ' -f1-$n)
		arr=$(r0build create --backend $be --chunk 64K --name demo $devs)
		row "$be-$n" "$arr"
		r0build remove demo
	done
done

{
	echo "# r0kit quick scaling study (interim)"
	echo
	echo "Sandbox: QEMU TCG, kernel $(uname -r), members: 3 x null_blk profile sata-ssd"
	echo "($(grep -v '^#' "$R0_GUEST/drives/sata-ssd.profile" | tr '\n' ' '))."
	echo "Arrays built by r0build, chunk 64K. fio $(fio --version), io_uring, O_DIRECT,"
	echo "$REPEATS repeats of ${RUNTIME} s after 1 s ramp; median (min-max); speed-up = median / single drive's."
	echo "This is the interim demo: r0sweep (chunk sweep, CDM sets, verdict) and r0report are not written yet."
	echo
	echo "| array | seq 1M QD8 MB/s | x | 4K QD1 IOPS | x | 4K QD32 IOPS | x |"
	echo "|---|---|---|---|---|---|---|"
	awk 'NR == 1 { s = $2; a = $5; b = $8 }
	     { printf "| %s | %s (%s-%s) | %.2f | %s (%s-%s) | %.2f | %s (%s-%s) | %.2f |\n",
	       $1, $2, $3, $4, $2 / s, $5, $6, $7, $5 / a, $8, $9, $10, $8 / b }' /tmp/rows
} > "$report"
r0_cleanup
