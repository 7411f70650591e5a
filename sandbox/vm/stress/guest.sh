# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of sandbox/vm/stress/run: what the demo's first minutes
# do, over and over, for SECONDS (first argument, default 60): io_uring on
# three sata-ssd null_blk members, then md raid0 and dm-stripe arrays of
# them built, measured and removed. Large transfers come first and most
# often: the deaths seen so far were in io-wq workers, and io_uring hands
# a request to io-wq when the block layer must split it (1M and 512K here;
# 4K requests at QD32 never reach io-wq). Prints one line per
# round; any failure of a tool ends the script with exit 1 (a tool error is
# not a guest death and must not be counted as one).
. "$R0_GUEST/guest.sh"
secs=${1:-60}
set -- $(r0_members sata-ssd 3)
[ $# = 3 ] || { echo "stress: cannot create the members"; exit 1; }
end=$(( $(cut -d. -f1 /proc/uptime) + secs ))
round=0
bench() {   # TARGET RW BS QD
	r0bench --yes --rw "$2" --bs "$3" --qd "$4" -t 0.7 --span 64M "$1" > /dev/null 2> /tmp/bench.err ||
		{ echo "stress: r0bench $2 $3 QD$4 on $1 failed:"; cat /tmp/bench.err; exit 1; }
}
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	round=$((round + 1))
	bench "$1" read 1M 8
	bench "$1" write 1M 8
	bench "$1" randread 512K 4
	bench "$1" randread 4K 32
	for backend in md dm; do
		for chunk in 4K 64K 512K; do
			a=$(r0build create --yes --quiet --backend $backend --chunk $chunk --name s "$@") ||
				{ echo "stress: r0build $backend $chunk failed"; exit 1; }
			bench "$a" read 1M 8
			bench "$a" randread 512K 4
			bench "$a" randread 4K 32
			r0build remove s > /dev/null || { echo "stress: cannot remove $a"; exit 1; }
		done
	done
	echo "stress: round $round done at $(cut -d' ' -f1 /proc/uptime) s"
done
r0_cleanup
echo "stress: $round rounds in $secs s"
