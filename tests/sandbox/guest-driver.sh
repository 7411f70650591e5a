# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside the guest: every sandbox test given (or all), one after the
# other in one boot, each from a bare kernel; a test that leaves an md, dm,
# loop or ublk device, an r0ssd server or a null_blk member behind, or
# makes the kernel warn, fails; so does one that exits 77 (no skips: the
# sandbox is ours). A test that passed but met an emulator fault
# (r0_emulator_warning) is "TCG": the host runs it again in a fresh boot.
# A boot module that did not load fails the boot's first line,
# "boot-modules". Writes results/summary and ships results/ to the
# host after every test, so a later death keeps what finished.
. "$R0_GUEST/guest.sh"
cd /r0/files/sandbox || exit 126
summary=$R0_RESULTS/summary
: > "$summary"
missing=$(r0_boot_modules)
if [ -n "$missing" ]; then
	echo "FAIL: boot modules not loaded: $(echo $missing)"
	echo "FAIL boot-modules 0" >> "$summary"
fi
tests=$*
[ -n "$tests" ] || tests=$(ls [0-9]*.sh)
for t in $tests; do
	name=$(basename "${t%.sh}")
	dmesg -c > /dev/null
	start=$(cut -d' ' -f1 /proc/uptime)
	echo "=== $name"
	# a test that measures again on a miss may ask for more than 300 s in its header
	limit=$(sed -n 's/^# r0-test-timeout: *\([0-9][0-9]*\)$/\1/p' "$t")
	# busybox execs its own applets first: name dash, not sh
	timeout "${limit:-${R0_TEST_TIMEOUT:-300}}" dash "./$t" < /dev/null > "/tmp/$name.log" 2>&1
	rc=$?
	cat "/tmp/$name.log"
	left=$(r0_leftovers)
	# md removes a stopped array's disk from a workqueue, and udev may still
	# hold a device it probes: what is gone after the events settle and 2 s
	# was being torn down, not left behind
	if [ -n "$left" ] && [ "$rc" = 0 ]; then
		r0_settle
		sleep 2
		still=$(r0_leftovers)
		[ -n "$still" ] || echo "driver: gone within 2 s after the test: $(echo $left)"
		left=$still
	fi
	# the driver's own findings go into the test's log too: the host prints
	# a failed test's log, and a CI report shows nothing else
	if [ -n "$left" ] && [ "$rc" = 0 ]; then
		echo "FAIL: left behind: $(echo $left)" | tee -a "/tmp/$name.log"
		rc=1
	fi
	r0_cleanup
	oops=$(dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace' | head -5)
	emulator=""
	if [ -n "$oops" ] && [ "$rc" = 0 ] && dmesg | r0_emulator_warning; then
		{ echo "TCG: the kernel complained of the emulator or a starved host, not itself:"
		  echo "$oops"; } | tee -a "/tmp/$name.log"
		emulator=1
	elif [ -n "$oops" ]; then
		{ echo "FAIL: kernel complained:"; dmesg | grep -E -A12 'WARNING:|BUG:|Oops|general protection|rcu: INFO' | head -40; } |
			tee -a "/tmp/$name.log"
		rc=1
	fi
	# what the kernel said while a failed test ran (dmesg was emptied before
	# it): a member's error, an md array failing; a CI report shows only the log
	if [ "$rc" != 0 ] && [ -z "$oops" ] && [ -n "$(dmesg)" ]; then
		{ echo "driver: the kernel's messages during the test (the last 30):"; dmesg | tail -30; } |
			tee -a "/tmp/$name.log"
	fi
	secs=$(echo "$(cut -d' ' -f1 /proc/uptime) $start" | awk '{ printf "%.1f", $1 - $2 }')
	case $rc in
	0) verdict=PASS; [ -n "$emulator" ] && verdict=TCG ;;
	77) verdict=FAIL; echo "FAIL: exit 77 (a skip): nothing may be skipped here" | tee -a "/tmp/$name.log" ;;
	143|124) verdict=FAIL; echo "FAIL: timed out" | tee -a "/tmp/$name.log" ;;
	*) verdict=FAIL ;;
	esac
	echo "$verdict $name $secs" >> "$summary"
	cp "/tmp/$name.log" "$R0_RESULTS/$name.log"
	# shipped before the verdict line: a death in between runs the test again
	r0_ship_results
	echo "--- $verdict $name (${secs} s)"
done
! grep -q '^FAIL' "$summary"
