# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim --watch judging a history, on an mdadm raid0 of 3 null_blk members
# that each received discards (blkdiscard of the array): a history in which
# the third member got nothing while the others got their discards is a
# FAIL naming it and since when; one in which it got a quarter of the
# others' is a PASS with DRIFT. r0trim -J --watch on copies of the same
# readings says what the text says (r0trim-watch-lib.sh; stopped_since and
# the FAIL's reason too), both kept in $R0_RESULTS for host/063's schema
# check, and r0report renders them: the verdicts and their sentences, and
# the table with the drifting share and the stopped member. (The readings
# themselves over use with fstrim: 038-r0trim-watch-readings.)
. ./lib.sh
. ./r0trim-watch-lib.sh
trap 'r0_cleanup' EXIT

members=$(r0_members fast 3 size=128) || fail "members"
set -- $members
mdadm --create /dev/md/watch --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=3 "$1" "$2" "$3" \
	> /dev/null 2>&1 || fail "mdadm --create"
blkdiscard /dev/md/watch || fail "blkdiscard"
# today's reading: the members' discard counters as --watch reads them
log=/tmp/watch.jsonl
rm -f "$log"
r0trim --watch "$log" /dev/md/watch > /tmp/watch.out 2>&1 || { cat /tmp/watch.out; fail "the reading of today"; }

# the third member stopped: a history whose readings before today gave it its count of today
last=$(tail -1 "$log")
names=$(echo "$last" | grep -o '"name":"[^"]*"' | cut -d'"' -f4 | tr '\n' ' ')
set -- $(echo "$last" | grep -o '"discard_sectors":[0-9]*' | cut -d: -f2)
c1=$1 c2=$2 c3=$3
x=$(( (c1 < c2 ? c1 : c2) / 2 ))
[ "$x" -ge 4096 ] || fail "too few discarded sectors to build the history: $c1 $c2 $c3"
boot=$(cat /proc/sys/kernel/random/boot_id)
now=$(date +%s)
rec() {   # TIME S1 S2 S3
	set -- "$@" $names
	printf '{"schema":"r0trim-watch/1","time":%s,"boot_id":"%s","top":"md127","devices":[{"name":"%s","serial":"","discard_sectors":%s},{"name":"%s","serial":"","discard_sectors":%s},{"name":"%s","serial":"","discard_sectors":%s}]}\n' \
		"$1" "$boot" "$5" "$2" "$6" "$3" "$7" "$4"
}
{ rec $((now - 172800)) $((c1 - 2 * x)) $((c2 - 2 * x)) $((c3 - x)); rec $((now - 86400)) $((c1 - x)) $((c2 - x)) "$c3"; } > /tmp/stopped.jsonl
cp /tmp/stopped.jsonl /tmp/stopped-copy.jsonl
expect_status 1 "a member that stopped" r0trim --watch /tmp/stopped.jsonl /dev/md/watch
cat /tmp/expect.out
third=$(echo $names | cut -d' ' -f3)
grep -q "^verdict FAIL: $third stopped receiving discards after " /tmp/expect.out ||
	fail "the stopped member not named: $(tail -1 /tmp/expect.out)"
grep -q "^  $third: .*: none since " /tmp/expect.out || fail "its line does not say since when"
stopped_share=$(grep "^  $third: " /tmp/expect.out | sed -n 's/.* discarded, \([0-9.]*\) % of all.*/\1/p')
watch_json 1 "a member that stopped" /tmp/stopped-copy.jsonl /dev/md/watch
watch_same /tmp/expect.out /tmp/watch.json "a member that stopped"
expect_eq "$(jval /tmp/watch.json stopped_since)" "$(date -u -d "@$((now - 86400))" +%Y-%m-%dT%H:%M:%SZ)" \
	"the JSON's stopped_since: the reading after which $third got nothing"
expect_eq "$(jval /tmp/watch.json reason)" "$(jval /tmp/watch.json detail)" "a FAIL's reason: the verdict's sentence"
cp /tmp/watch.json "$R0_RESULTS/watch-stopped.r0trim.json"

# a drift: the third member got a quarter of what each of the others got (more than 64 MiB in all)
[ "$x" -ge 32768 ] || fail "too few discarded sectors for a drift: $c1 $c2 $c3"
rec $((now - 86400)) $((c1 - 2 * x)) $((c2 - 2 * x)) $((c3 - x / 2)) > /tmp/drift.jsonl
cp /tmp/drift.jsonl /tmp/drift-copy.jsonl
expect_status 0 "a share that drifts" r0trim --watch /tmp/drift.jsonl /dev/md/watch
cat /tmp/expect.out
grep -q "^verdict PASS with DRIFT: every bottom device received discards since .*, but a share is more than 25 % off" \
	/tmp/expect.out || fail "no drift: $(tail -1 /tmp/expect.out)"
watch_json 0 "a share that drifts" /tmp/drift-copy.jsonl /dev/md/watch
watch_same /tmp/expect.out /tmp/watch.json "a share that drifts"
cp /tmp/watch.json "$R0_RESULTS/watch-drift.r0trim.json"
drift_share=$(grep "^  $third: " /tmp/expect.out | sed -n 's/.* discarded, \([0-9.]*\) % of all.*/\1/p')
desc=$(jval /tmp/watch.json description | head -1)

# r0report: the verdict and its sentence, and the table with the drifting share and the stopped member
expect_status 0 "r0report renders the watch" r0report --output-dir /tmp/watch-report \
	"$R0_RESULTS/watch-drift.r0trim.json" "$R0_RESULTS/watch-stopped.r0trim.json"
cat /tmp/expect.out
grep -qxF "TRIM over repeated use on $desc: PASS with DRIFT. TRIM over repeated use on $desc: FAIL." /tmp/expect.out ||
	fail "r0report's verdict: $(head -1 /tmp/expect.out)"
md=/tmp/watch-report/report.md
sed -n '/^## TRIM/,$p' "$md"
grep -qF "verdict PASS with DRIFT: $(jval "$R0_RESULTS/watch-drift.r0trim.json" detail)" "$md" ||
	fail "the report lacks the drift's sentence"
grep -qF "verdict FAIL: $(jval "$R0_RESULTS/watch-stopped.r0trim.json" detail)" "$md" ||
	fail "the report lacks the FAIL's sentence"
grep -q "^| $third | - | [0-9.]* MiB | \*\*$drift_share %\*\* | 33.3 % | - |$" "$md" ||
	fail "the report's drift row of $third: $(grep "^| $third " "$md" | head -1)"
grep -q "^| $third | - | [^|]* | $stopped_share % | 33.3 % | \*\*after $(date -u -d "@$((now - 86400))" '+%Y-%m-%d %H:%M') UTC (the others: [^|]*)\*\* |$" "$md" ||
	fail "the report's row of the stopped $third: $(grep "^| $third " "$md" | tail -1)"
exit 0
