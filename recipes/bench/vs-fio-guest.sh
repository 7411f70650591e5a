# SPDX-License-Identifier: GPL-2.0-or-later
# Guest half of recipes/bench/vs-fio: the same loop on a null_blk member
# (the `fast` profile, memory-backed), JSON files into $R0_RESULTS.
. "$R0_GUEST/guest.sh"
pairs=$1 runtime=$2
dev=$(r0_member r0bench fast size=512) || exit 1
. ./vs-fio-loop.sh
vs_fio_loop "$dev" "$R0_RESULTS" "$pairs" "$runtime"
r0_cleanup
