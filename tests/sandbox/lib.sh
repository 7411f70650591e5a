# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the sandbox tests (sourced; busybox sh in the guest).
# A test exits 0 to pass; anything else fails. There is no skip: the sandbox
# is ours, so a module or tool that is missing there is a failure.
. "$R0_GUEST/guest.sh"

fail() { echo "FAIL: $*"; exit 1; }
note() { echo "  $*"; }

# check EXPR WHAT: an awk condition on numbers ("$waf < 1.05"); fails unless
# EXPR holds, and also when a value in it is missing, null or not a number
# (awk would read "null" as 0, and "" < 1.05 as true).
check() {
	case $1 in
	*[!0-9.\ \<\>=!\&\|+*/\(\)-]*) fail "$2: not a number in ($1)" ;;
	esac
	awk "BEGIN { exit !($1) }" 2> /dev/null || fail "$2 ($1)"
	note "ok: $2 ($1)"
}

# holds EXPR: whether an awk condition on numbers holds (no output); for
# deciding whether a measurement is taken again before check asserts it
holds() { awk "BEGIN { exit !($1) }" 2> /dev/null; }
# least A B, most A B: the smaller, the larger of two numbers. Of two runs
# the less disturbed one: a busy host only raises a latency and lowers a rate
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
most() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }

# fio_p50 FILE [clat]: fio's p50 in ns from its JSON output (--lat_percentiles
# and --clat_percentiles), of total latency (lat_ns: from preparing a request
# to reaping it) or with "clat" of completion latency; clat_ns's percentiles
# come first in the file, then lat_ns's
fio_p50() {
	grep '"50.000000"' "$1" | sed -n "$([ "$2" = clat ] && echo 1 || echo 2)p" |
		tr -dc '0-9\n' | sed 's/^50000000//'
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
	note "ok: $3 = $2"
}

# expect_status CODE WHAT CMD...: runs CMD and checks its exit status.
expect_status() {
	_want=$1 _what=$2; shift 2
	"$@" > /tmp/expect.out 2>&1
	_got=$?
	[ "$_got" = "$_want" ] || { cat /tmp/expect.out; fail "$_what: exit $_got, expected $_want"; }
	note "ok: $_what (exit $_got)"
}

# doc_example NAME PATTERN [SED]: the lines of /tmp/expect.out (what
# expect_status caught) that PATTERN finds, the device names made the docs'
# by SED ("s|$dev|/dev/nullb0|g"), saved as the docs' example NAME
# (tests/docs/examples.txt "@sandbox"; host test 064 compares it with the
# golden file)
doc_example() {
	mkdir -p "$R0_RESULTS/doc-examples"
	grep -e "$2" /tmp/expect.out | sed -e "${3:-}" > "$R0_RESULTS/doc-examples/$1.out"
}

# chunk_sum DEV BS INDEX: md5 of block INDEX (of BS bytes) of DEV.
chunk_sum() {
	dd if="$1" bs="$2" skip="$3" count=1 2>/dev/null | md5sum | cut -d' ' -f1
}

# check_stripe_placement ARRAY CHUNK_BYTES N_CHUNKS MEMBER...: writes random
# data over N_CHUNKS chunks of ARRAY, reads it back through the array, and
# finds chunk k on member k mod n at row k / n, as raid0 and dm-stripe with
# equal members place it.
check_stripe_placement() {
	_arr=$1 _cb=$2 _nc=$3; shift 3
	_n=$#
	head -c $((_cb * _nc)) /dev/urandom > /tmp/pattern
	dd if=/tmp/pattern of="$_arr" bs="$_cb" count="$_nc" conv=fsync 2>/dev/null ||
		fail "write to $_arr"
	r0_drop_caches
	_got=$(dd if="$_arr" bs="$_cb" count="$_nc" 2>/dev/null | md5sum | cut -d' ' -f1)
	expect_eq "$_got" "$(md5sum < /tmp/pattern | cut -d' ' -f1)" "$_arr reads back what was written"
	_k=0
	while [ "$_k" -lt "$_nc" ]; do
		_i=$((_k % _n)) _row=$((_k / _n))
		eval "_m=\${$((_i + 1))}"
		[ "$(chunk_sum /tmp/pattern "$_cb" "$_k")" = "$(chunk_sum "$_m" "$_cb" "$_row")" ] ||
			fail "chunk $_k is not on $_m at row $_row"
		_k=$((_k + 1))
	done
	note "ok: $_nc chunks of $_cb bytes found on the members where the geometry puts them"
}
