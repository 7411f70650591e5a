# SPDX-License-Identifier: GPL-2.0-or-later
# The raid0-without-trim scenario, run inside the sandbox guest (busybox
# sh; source it after $R0_GUEST/guest.sh): two md raid0 arrays of two
# r0ssd simulated SSDs each, one passing discards, one with its discard
# turned off (queue/discard_max_bytes = 0), taken through cycles of use:
# a new ext4 (made without discard, so the SSDs keep what they hold),
# files written up to FILL_PCT % of it, deleted, fstrim (which fails on
# the array without discard), then a write benchmark on the raw array
# with r0bench: 4K random writes at QD32, then 128K sequential writes at
# QD8, BENCH_SECONDS each, and the SSDs' counters. Cycle 0 is the fresh
# array (no fill). One JSON line per array and cycle, schema
# r0scenario/1 (recipes/raid0-without-trim/README.md), written by r0age
# record-cycle from what the cycle did, the r0bench results and the counters.
#
#   r0s_scenario OUT.jsonl CYCLES SSD_MIB BENCH_SECONDS [FILL_PCT]

R0S_CHUNK=64K

# r0s_counter STATS PID KEY: KEY from a fresh stats file (SIGUSR1, wait for seq to move)
r0s_counter() {
	_s=$(sed -n 's/^seq=//p' "$1")
	kill -USR1 "$2" || return 1
	_n=100
	while [ "$(sed -n 's/^seq=//p' "$1")" = "$_s" ]; do
		_n=$((_n - 1)); [ "$_n" -gt 0 ] || { echo "r0s: $1 did not change after SIGUSR1" >&2; return 1; }
		sleep 0.05
	done
	# a missing counter must not read as 0 (a WAF of 0 would pass for "near 1")
	_c=$(sed -n "s/^$3=//p" "$1")
	case $_c in
	'' | *[!0-9]*) echo "r0s: $1: $3 is '$_c', not a count" >&2; return 1 ;;
	esac
	echo "$_c"
}

# r0s_sum T KEY: the sum of KEY over the SSDs of array T (1: passes discards, 0: not)
r0s_sum() {
	_sum=0
	for _i in "${1}0" "${1}1"; do
		_v=$(r0s_counter "/tmp/r0s-$_i.stats" "$(cat "/tmp/r0s-$_i.pid")" "$2") || return 1
		_sum=$((_sum + _v))
	done
	echo "$_sum"
}

# r0s_counts T: the counters of array T's SSDs r0age record-cycle takes, as HOST,FLASH,GC
r0s_counts() {
	_ch=$(r0s_sum "$1" host_write_pages) && _cf=$(r0s_sum "$1" flash_program_pages) &&
		_cg=$(r0s_sum "$1" gc_runs) || return 1
	echo "$_ch,$_cf,$_cg"
}

r0s_mnt() { echo "/tmp/r0s-mnt$1"; }

# r0s_mapped_pct T: the mapped share of array T's SSDs, in %
r0s_mapped_pct() {
	_mp=$(r0s_sum "$1" mapped_pages) && _lp=$(r0s_sum "$1" logical_pages) || return 1
	awk -v m="$_mp" -v l="$_lp" 'BEGIN { printf "%.1f", 100 * m / l }'
}

# r0s_stop: unmounts and removes both arrays, stops their SSDs
r0s_stop() {
	for _t in 1 0; do
		umount "$(r0s_mnt "$_t")" 2> /dev/null
		rm -f "/tmp/r0s-$_t.md"
		r0build remove "r0s$_t" > /dev/null 2>&1
		for _i in "${_t}0" "${_t}1"; do
			[ -f "/tmp/r0s-$_i.pid" ] && kill -TERM "$(cat "/tmp/r0s-$_i.pid")" 2> /dev/null
		done
	done
	for _i in 10 11 00 01; do
		_n=100
		while [ -f "/tmp/r0s-$_i.pid" ] && [ "$_n" -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
	done
}

# r0s_start T SSD_MIB: two r0ssd, md raid0 r0sT (T 0: discard turned off), ext4 on it
r0s_start() {
	_devs=""
	for _i in "${1}0" "${1}1"; do
		rm -f "/tmp/r0s-$_i.stats"
		_d=$(r0ssd --capacity "${2}M" --daemon --pid-file "/tmp/r0s-$_i.pid" \
			--stats "/tmp/r0s-$_i.stats" --stats-interval 60) || return 1
		_devs="$_devs $_d"
	done
	# shellcheck disable=SC2086
	_md=$(r0build create --yes -q --backend md -c "$R0S_CHUNK" --name "r0s$1" $_devs) || return 1
	if [ "$1" = 0 ]; then
		echo 0 > "/sys/block/${_md##*/}/queue/discard_max_bytes" || return 1
	fi
	echo "$_md" > "/tmp/r0s-$1.md"
	echo "r0s: array r0s$1: $_md of$_devs, discard_max_bytes $(cat "/sys/block/${_md##*/}/queue/discard_max_bytes")"
}

# r0s_fill MNT PCT: files of 4 MiB (O_DIRECT) until the file system is PCT % used; prints bytes written
r0s_fill() {
	set -- "$1" "$2" $(df -k "$1" | awk 'NR == 2 { print $2, $3 }')
	_files=$(( ($3 * $2 / 100 - $4) / 4096 ))
	_k=0
	mkdir -p "$1/fill"
	while [ "$_k" -lt "$_files" ]; do
		dd if=/dev/zero of="$1/fill/f$_k" bs=1M count=4 oflag=direct 2> /dev/null || return 1
		_k=$((_k + 1))
	done
	sync
	echo $((_files * 4 << 20))
}

# r0s_prepare T CYCLE FILL_PCT: the cycle's use of array T: a new ext4
# (mkfs without discard: the SSDs keep what they hold), fill, delete,
# fstrim (cycle 0: no fill), unmount; sets r0s_filled, and r0s_fstrim and
# r0s_mapped_deleted, which stay empty where they are not known
r0s_prepare() {
	_m=$(r0s_mnt "$1") _md=$(cat "/tmp/r0s-$1.md")
	r0s_filled=0 r0s_fstrim='' r0s_mapped_deleted=''
	# the inode tables and journal written now, not by a thread later
	mkfs.ext4 -q -F -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$_md" || return 1
	mkdir -p "$_m"
	mount -o nodiscard "$_md" "$_m" || return 1
	if [ "$2" -gt 0 ]; then
		r0s_filled=$(r0s_fill "$_m" "$3") || { umount "$_m"; return 1; }
		rm -rf "$_m/fill"
		sync
		# what the SSDs still hold once the files are gone, before any fstrim
		r0s_mapped_deleted=$(r0s_mapped_pct "$1") || { umount "$_m"; return 1; }
		if _o=$(fstrim -v "$_m" 2>&1); then
			r0s_fstrim=$(echo "$_o" | sed -n 's/.*(\([0-9]*\) bytes) trimmed.*/\1/p')
			[ -n "$r0s_fstrim" ] || r0s_fstrim=0
		elif [ "$1" = 1 ]; then
			echo "r0s: fstrim failed on the array that passes discards: $_o" >&2
			umount "$_m"
			return 1
		fi
	fi
	umount "$_m"
}

# r0s_bench T CYCLE BENCH_S OUT AT_START: the benchmark on the raw array T
# (over its whole span, as a drive review's benchmark) and the cycle's
# r0scenario/1 line appended to OUT by r0age record-cycle (AT_START: the
# counters r0s_counts read before the cycle)
r0s_bench() {
	_md=$(cat "/tmp/r0s-$1.md")
	_mapped=$(r0s_mapped_pct "$1") && _at_bench=$(r0s_counts "$1") || return 1
	# --force: the array holds the ext4 this cycle made, which the benchmark overwrites
	r0bench --yes --json -f --rw randwrite --bs 4K --qd 32 -t "$3" "$_md" > /tmp/r0s-rand.json || return 1
	_at_rand=$(r0s_counts "$1") || return 1
	r0bench --yes --json -f --rw write --bs 128K --qd 8 -t "$3" "$_md" > /tmp/r0s-seq.json || return 1
	_at_seq=$(r0s_counts "$1") || return 1
	# unknown (cycle 0, or no fstrim): left out, and the record holds null
	# shellcheck disable=SC2086
	r0age record-cycle --scenario raid0-without-trim --array "r0s$1" --member-count 2 \
		--ssd-mib "$r0s_ssd_mib" --trim "$([ "$1" = 1 ] && echo yes || echo no)" --cycle "$2" \
		--fill "$r0s_fill_pct" --fill-bytes "$r0s_filled" \
		${r0s_mapped_deleted:+--mapped-after-delete $r0s_mapped_deleted} \
		${r0s_fstrim:+--fstrim-bytes $r0s_fstrim} --mapped-before-bench "$_mapped" \
		--randwrite /tmp/r0s-rand.json --seqwrite /tmp/r0s-seq.json \
		--counters-start "$5" --counters-bench "$_at_bench" --counters-randwrite "$_at_rand" \
		--counters-seqwrite "$_at_seq" "$4"
}

# r0s_up SSD_MIB [FILL_PCT]: both arrays up (r0s_stop takes them down)
r0s_up() {
	r0s_ssd_mib=$1 r0s_fill_pct=${2:-90}
	for _t in 1 0; do
		r0s_start "$_t" "$r0s_ssd_mib" || { r0s_stop; return 1; }
	done
}

# r0s_cycle OUT CYCLE BENCH_S: one cycle, run on one array and then the
# other (so a slower host hurts both alike); the arrays stay up
r0s_cycle() {
	for _t in 1 0; do
		_at0=$(r0s_counts "$_t") &&
			r0s_prepare "$_t" "$2" "$r0s_fill_pct" &&
			r0s_bench "$_t" "$2" "$3" "$1" "$_at0" || return 1
	done
}

# r0s_scenario OUT CYCLES SSD_MIB BENCH_S [FILL_PCT]: both arrays up,
# cycles 0 (the fresh arrays) to CYCLES, both arrays down
r0s_scenario() {
	: > "$1"
	r0s_up "$3" "$5" || return 1
	_c=0
	while [ "$_c" -le "$2" ]; do
		r0s_cycle "$1" "$_c" "$4" || { r0s_stop; return 1; }
		_c=$((_c + 1))
	done
	r0s_stop
}
