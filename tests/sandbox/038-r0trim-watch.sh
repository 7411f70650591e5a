# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim --watch over repeated use, on ext4 on an mdadm raid0 of 3 null_blk
# members in use: each run appends one reading of the bottom devices'
# discard counters and writes nothing to any device; the first reading is a
# baseline (exit 0), one with no discard since is not conclusive (exit 3); after an fstrim
# every member received its share (pass); a history in which the third
# member got nothing while the others got their discards is a FAIL naming
# it; another array in the same file starts a history of its own.
# r0trim -J --watch on the same readings says what the text says (verdict,
# its sentence, records, since, each device's discards, shares and
# stopped_since): the first reading, the pass, a drift and the FAIL, each
# kept in $R0_RESULTS for host/063's schema check and rendered by r0report.
. ./lib.sh
mkdir -p /mnt/watch
trap 'umount /mnt/watch 2> /dev/null; r0_cleanup' EXIT

members=$(r0_members fast 3 size=128) || fail "members"
set -- $members
mdadm --create /dev/md/watch --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=3 "$1" "$2" "$3" \
	> /dev/null 2>&1 || fail "mdadm --create"
# no lazy init: its background writes would be counted as the tool's
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 /dev/md/watch || fail "mkfs.ext4"
mount /dev/md/watch /mnt/watch || fail "mount"
log=/tmp/watch.jsonl
rm -f "$log"
# the members' write counters (stat field 5): --watch must leave them as they are
writes() { for m in "$@"; do k=$(basename "$(readlink -f "$m")"); awk '{print $5}' "/sys/block/$k/stat"; done | tr '\n' ' '; }

# jval FILE KEY: the values of KEY in r0trim's JSON (one key a line), in order, quotes off
jval() { sed -n "s/^ *\"$2\":\(.*\)/\1/p" "$1" | sed 's/,$//; s/^"\(.*\)"$/\1/'; }
# bytes SIZE: r0trim's exact size ("120M", "1536K", "8192") in bytes
bytes() {
	case $1 in
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*G) echo $((${1%G} * 1073741824)) ;;
	*) echo "$1" ;;
	esac
}
# local_time ISO: r0trim's UTC time in JSON as its text gives times ("2025-01-31 06:00", local)
local_time() { date -d "@$(date -u -D '%Y-%m-%dT%H:%M:%SZ' -d "$1" +%s)" '+%Y-%m-%d %H:%M'; }
# watch_json STATUS WHAT LOG TARGET: r0trim -J --watch LOG TARGET into /tmp/watch.json, exit STATUS
watch_json() {
	r0trim -J --watch "$3" "$4" > /tmp/watch.json 2> /tmp/watch.err
	_rc=$?
	[ "$_rc" = "$1" ] || { cat /tmp/watch.err /tmp/watch.json; fail "$2: r0trim -J --watch: exit $_rc, expected $1"; }
	note "ok: $2: r0trim -J --watch (exit $_rc)"
	[ "$_rc" = 2 ] || expect_eq "$(jval /tmp/watch.json record_file)" "$3" "$2: the JSON's record file"
}
# watch_same TEXT JSON WHAT: the JSON of the same readings says what the text says
watch_same() {
	grep -q '"mode":"watch"' "$2" || fail "$3: the JSON does not say watch"
	expect_eq "$(jval "$2" verdict)" "$(sed -n 's/^verdict \([^:]*\): .*/\1/p' "$1" | head -1)" "$3: the JSON's verdict"
	expect_eq "$(jval "$2" detail)" "$(sed -n 's/^verdict [^:]*: //p' "$1" | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')" \
		"$3: the JSON's verdict sentence"
	expect_eq "$(jval "$2" discards_pass)" "$(grep -q '^verdict PASS' "$1" && echo true || echo false)" "$3: discards_pass"
	expect_eq "$(jval "$2" records)" "$(sed -n 's/^r0trim: watch of .*: record \([0-9]*\) in .*/\1/p' "$1")" "$3: records"
	if grep -q '^  since ' "$1"; then
		expect_eq "since $(local_time "$(jval "$2" since)"): $(jval "$2" intervals) interval" \
			"$(sed -n 's/^\(  since .*: [0-9]* interval\).*/\1/p' "$1" | sed 's/^  //')" "$3: since and intervals"
	fi
	sed -n '/"devices":\[/,/^    \]/p' "$2" > /tmp/watch-devices.json
	_k=0
	for _name in $(jval /tmp/watch-devices.json name); do
		_k=$((_k + 1))
		_line=$(grep "^  $_name[ :]" "$1") || fail "$3: no text line of $_name"
		_dev=$(sed -n '/^      {/=' /tmp/watch-devices.json | sed -n "${_k}p")
		_obj=$(sed -n "$_dev,/^      }/p" /tmp/watch-devices.json)
		echo "$_obj" > /tmp/watch-device.json
		expect_eq "$(jval /tmp/watch-device.json discarded_bytes)" \
			"$(bytes "$(echo "$_line" | sed -n 's/^[^:]*: \([0-9]*[KMG]\{0,1\}\) discarded.*/\1/p')")" "$3: $_name discarded bytes"
		_obs=$(echo "$_line" | sed -n 's/.* discarded, \([0-9.]*\) % of all.*/\1/p')
		_pred=$(echo "$_line" | sed -n 's/.*(the geometry: \([0-9.]*\) %.*/\1/p')
		if [ -n "$_obs" ]; then
			_o=$(jval /tmp/watch-device.json observed_share) _p=$(jval /tmp/watch-device.json predicted_share)
			check "$_o * 100 - $_obs <= 0.051 && $_obs - $_o * 100 <= 0.051" "$3: $_name observed share (text $_obs %)"
			check "$_p * 100 - $_pred <= 0.051 && $_pred - $_p * 100 <= 0.051" "$3: $_name predicted share (text $_pred %)"
		fi
		_stop=$(echo "$_line" | sed -n 's/.*: none since \(.*\) while the others got \([0-9]*[KMG]\{0,1\}\)$/\1/p')
		if [ -n "$_stop" ]; then
			expect_eq "$(local_time "$(jval /tmp/watch-device.json stopped_since)")" "$_stop" "$3: $_name stopped since"
			expect_eq "$(jval /tmp/watch-device.json others_since_bytes)" \
				"$(bytes "$(echo "$_line" | sed -n 's/.* while the others got \([0-9]*[KMG]\{0,1\}\)$/\1/p')")" \
				"$3: what the others got since $_name stopped"
		else
			expect_eq "$(jval /tmp/watch-device.json stopped_since)" "" "$3: $_name did not stop"
		fi
	done
	expect_eq "$_k" "$(grep -c '^  [^ ].* discarded' "$1")" "$3: devices in the JSON and in the text"
}

sync
sleep 1
before=$(writes "$@")
# the first reading is a baseline, not a failure: a timer's first run succeeds
expect_status 0 "the first reading" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict BASELINE RECORDED: the first reading of these devices" /tmp/expect.out || fail "first reading"
rm -f /tmp/watch-first.jsonl
watch_json 0 "the first reading" /tmp/watch-first.jsonl /mnt/watch
watch_same /tmp/expect.out /tmp/watch.json "the first reading"
cp /tmp/watch.json "$R0_RESULTS/watch-first.r0trim.json"
expect_eq "$(writes "$@")" "$before" "the members' writes after --watch and -J --watch"
expect_eq "$(wc -l < "$log")" 1 "records after the first reading"
expect_status 3 "no discard since" r0trim --watch "$log" /mnt/watch
grep -q "^verdict NOT CONCLUSIVE: no discard reached any bottom device since" /tmp/expect.out ||
	fail "no discard since: $(tail -1 /tmp/expect.out)"

# use, then fstrim: every member receives discards
dd if=/dev/urandom of=/mnt/watch/big bs=1M count=48 2> /dev/null || fail "dd"
sync
rm /mnt/watch/big
sync
fstrim /mnt/watch || fail "fstrim"
cp "$log" /tmp/watch-copy.jsonl
expect_status 0 "after an fstrim" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict PASS: every bottom device received discards since" /tmp/expect.out || fail "pass after fstrim"
expect_eq "$(grep -c '% of all (the geometry: 33.3 %)' /tmp/expect.out)" 3 "members with a share and the geometry's"
# -J on a copy of the same readings: no discard comes between the two runs
watch_json 0 "after an fstrim" /tmp/watch-copy.jsonl /mnt/watch
cat /tmp/watch.json
watch_same /tmp/expect.out /tmp/watch.json "after an fstrim"
cp /tmp/watch.json "$R0_RESULTS/watch-ext4-md.r0trim.json"

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
expect_status 1 "a member that stopped" r0trim --watch /tmp/stopped.jsonl /mnt/watch
cat /tmp/expect.out
third=$(echo $names | cut -d' ' -f3)
grep -q "^verdict FAIL: $third stopped receiving discards after " /tmp/expect.out ||
	fail "the stopped member not named: $(tail -1 /tmp/expect.out)"
grep -q "^  $third: .*: none since " /tmp/expect.out || fail "its line does not say since when"
stopped_share=$(grep "^  $third: " /tmp/expect.out | sed -n 's/.* discarded, \([0-9.]*\) % of all.*/\1/p')
watch_json 1 "a member that stopped" /tmp/stopped-copy.jsonl /mnt/watch
watch_same /tmp/expect.out /tmp/watch.json "a member that stopped"
expect_eq "$(jval /tmp/watch.json stopped_since)" "$(date -u -d "@$((now - 86400))" +%Y-%m-%dT%H:%M:%SZ)" \
	"the JSON's stopped_since: the reading after which $third got nothing"
expect_eq "$(jval /tmp/watch.json reason)" "$(jval /tmp/watch.json detail)" "a FAIL's reason: the verdict's sentence"
cp /tmp/watch.json "$R0_RESULTS/watch-stopped.r0trim.json"

# a drift: the third member got a quarter of what each of the others got (more than 64 MiB in all)
[ "$x" -ge 32768 ] || fail "too few discarded sectors for a drift: $c1 $c2 $c3"
rec $((now - 86400)) $((c1 - 2 * x)) $((c2 - 2 * x)) $((c3 - x / 2)) > /tmp/drift.jsonl
cp /tmp/drift.jsonl /tmp/drift-copy.jsonl
expect_status 0 "a share that drifts" r0trim --watch /tmp/drift.jsonl /mnt/watch
cat /tmp/expect.out
grep -q "^verdict PASS with DRIFT: every bottom device received discards since .*, but a share is more than 25 % off" \
	/tmp/expect.out || fail "no drift: $(tail -1 /tmp/expect.out)"
watch_json 0 "a share that drifts" /tmp/drift-copy.jsonl /mnt/watch
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

# another array in the same file (other devices): a history of its own, the first reading
umount /mnt/watch
mdadm --stop /dev/md/watch > /dev/null 2>&1 || fail "mdadm --stop"
set -- $members
mdadm --create /dev/md/watch2 --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=2 "$1" "$2" \
	> /dev/null 2>&1 || fail "mdadm --create of 2"
expect_status 0 "another array in the same file" r0trim --watch "$log" /dev/md/watch2
grep -q "^verdict BASELINE RECORDED: the first reading of these devices" /tmp/expect.out ||
	fail "a new array's history: $(tail -1 /tmp/expect.out)"
mdadm --stop /dev/md/watch2 > /dev/null 2>&1
# bad input: a file that is no block device nor directory, and options that do not go with it
expect_status 2 "--watch on a regular file" r0trim --watch "$log" /tmp/stopped.jsonl
expect_status 2 "--watch with --yes" r0trim --watch "$log" --yes /mnt/watch
expect_status 2 "-J --watch with --plan" r0trim -J --watch "$log" --plan /mnt/watch
watch_json 2 "-J --watch on a regular file" "$log" /tmp/stopped.jsonl
expect_eq "$(wc -c < /tmp/watch.json)" 0 "-J --watch's output on an error"
exit 0
