# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers shared by the r0trim sandbox tests (03x-r0trim-*.sh); sourced
# after lib.sh. Not a test itself (no number).

# trim_pass WHAT ARG...: r0trim ARG... exits 0, prints no FAIL line and a
# PASS verdict; its report is left in /tmp/trim.out.
trim_pass() {
	_what=$1; shift
	r0trim --yes "$@" > /tmp/trim.out 2>&1
	_rc=$?
	[ "$_rc" = 0 ] || { cat /tmp/trim.out; fail "$_what: r0trim exit $_rc, expected 0"; }
	if grep -q '^[a-z-]* *FAIL ' /tmp/trim.out; then
		cat /tmp/trim.out; fail "$_what: a FAIL line although r0trim exited 0"
	fi
	grep -q '^verdict *PASS ' /tmp/trim.out || { cat /tmp/trim.out; fail "$_what: no PASS verdict"; }
	note "ok: $_what: $(grep -c '^[a-z-]* *PASS ' /tmp/trim.out) checks passed, $(grep -c '^[a-z-]* *NOT ' /tmp/trim.out) not checkable or conclusive"
}

# trim_fail WHAT REGEX ARG...: r0trim ARG... exits 1 with a FAIL verdict
# whose line matches REGEX (the cause, the member named).
trim_fail() {
	_what=$1 _re=$2; shift 2
	r0trim --yes "$@" > /tmp/trim.out 2>&1
	_rc=$?
	[ "$_rc" = 1 ] || { cat /tmp/trim.out; fail "$_what: r0trim exit $_rc, expected 1"; }
	grep -q '^verdict *FAIL *no: ' /tmp/trim.out || { cat /tmp/trim.out; fail "$_what: no FAIL verdict"; }
	grep -qE "$_re" /tmp/trim.out || { cat /tmp/trim.out; fail "$_what: the report does not say /$_re/"; }
	note "ok: $_what: $(sed -n 's/^verdict *FAIL *//p' /tmp/trim.out)"
}

# expect_ranges NAME...: every named range has a delivery line in /tmp/trim.out
expect_ranges() {
	for _r in "$@"; do
		grep -q "^delivery .* $_r" /tmp/trim.out || { cat /tmp/trim.out; fail "no delivery line for '$_r'"; }
	done
}

# json_delivery_exact FILE: every member's observed discard sectors equal the
# expected ones in r0trim's JSON, and there is at least one member figure.
json_delivery_exact() {
	awk -F: '/"expected_sectors"/ { gsub(/[^0-9]/, "", $2); e = $2 }
	     /"observed_sectors"/ { gsub(/[^0-9]/, "", $2); n++; if ($2 != e) bad++ }
	     END { if (n == 0 || bad) { print n " figures, " bad + 0 " differ"; exit 1 } print n " figures" }' "$1"
}

# The live check (r0trim --live) on /mnt/live, which holds "the user's" files.

# user_files: a few files of random data and their checksums in /tmp/user.sums
user_files() {
	mkdir -p /mnt/live/home/user
	for f in 3 5 8; do
		dd if=/dev/urandom of="/mnt/live/home/user/file$f" bs=64k count=$f 2> /dev/null ||
			fail "user file $f"
	done
	sync
	(cd /mnt/live && find . -type f | sort | xargs md5sum) > /tmp/user.sums
}
# untouched WHAT: the same files, bit for bit, and nothing else left
untouched() {
	r0_drop_caches
	(cd /mnt/live && find . -type f | sort | xargs md5sum) > /tmp/user.now
	cmp -s /tmp/user.sums /tmp/user.now || { diff /tmp/user.sums /tmp/user.now; fail "$1: the user's files changed"; }
	note "ok: $1: the user's $(wc -l < /tmp/user.sums) files unchanged, no test file left"
}
# live_pass WHAT: r0trim --live passes with every bottom device deallocated;
# its report and the user's checksums before and after are kept in
# $R0_RESULTS/live/WHAT.txt
live_pass() {
	trim_pass "$1" --live /mnt/live
	grep -q '^live-file  *PASS' /tmp/trim.out || fail "$1: no test file line"
	grep -q "^verdict .*PASS .*deallocated" /tmp/trim.out || fail "$1: not deallocated: $(tail -1 /tmp/trim.out)"
	untouched "$1"
	mkdir -p "$R0_RESULTS/live"
	{ cat /tmp/trim.out; echo "the user's files before:"; cat /tmp/user.sums; echo "after:"; cat /tmp/user.now; } \
		> "$R0_RESULTS/live/$(echo "$1" | tr -c 'a-zA-Z0-9\n' - | tr -s -).txt"
}
# live_fs TYPE DEV: a file system with the user's files, mounted at /mnt/live
# (LIVE_EXT4_EXTENDED: more mkfs.ext4 -E options, ",opt=v...")
live_fs() {
	mkdir -p /mnt/live
	if [ "$1" = xfs ]; then mkfs.xfs -q -f "$2"; else mkfs.ext4 -q -F -E nodiscard$LIVE_EXT4_EXTENDED "$2"; fi ||
		fail "mkfs.$1 on $2"
	mount "$2" /mnt/live || fail "mount $2"
	user_files
}
