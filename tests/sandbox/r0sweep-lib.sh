# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers shared by the r0sweep sandbox tests (040, 044, 046); sourced after
# lib.sh. Not a test itself (no number).

# keys FILE: the key of each cell line: target, workload, repeat
keys() {
	sed -n 's/.*"layer":"\([a-z]*\)","chunk_bytes":\([0-9]*\),"members":\([0-9]*\),"workload":"\([^"]*\)","rw":"\([a-z]*\)".*"queue_depth":\([0-9]*\),"jobs":[0-9]*,"repeat":\([0-9]*\),.*/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}
# no_arrays WHAT: fails when an md or dm array is left
no_arrays() {
	left=$(ls /sys/block | grep -E '^(md|dm-)' || true)
	[ -z "$left" ] || fail "$1: arrays left behind: $left"
	note "ok: $1: no array left"
}
