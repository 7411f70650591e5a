# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of recipes/bench/vs-fio: the same loop on a null_blk member
# (the `fast` profile, memory-backed, without a poll queue), JSON files
# into $R0_RESULTS; then the polled rows (r0bench --hipri, fio hipri) on a
# second member with a poll queue (null_blk's poll_queues=1).
. "$R0_GUEST/guest.sh"
pairs=$1 runtime=$2
dev=$(r0_member r0bench fast size=512 poll_queues=0) || exit 1
. ./vs-fio-loop.sh
vs_fio_loop "$dev" "$R0_RESULTS" "$pairs" "$runtime" || exit 1
r0_remove_member r0bench
poll=$(r0_member r0poll fast size=512 poll_queues=1) || exit 1
[ "$(cat /sys/block/r0poll/queue/io_poll)" = 1 ] || { echo "vs-fio: $poll does not poll" >&2; exit 1; }
vs_fio_loop "$poll" "$R0_RESULTS" "$pairs" "$runtime" randread:4k:1:1:hipri randread:4k:32:1:hipri || exit 1
r0_cleanup
