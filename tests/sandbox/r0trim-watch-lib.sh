# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers shared by the r0trim --watch sandbox tests (038, 039): r0trim -J
# --watch against the text of the same readings. Sourced after lib.sh; not
# a test itself (no number).

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
