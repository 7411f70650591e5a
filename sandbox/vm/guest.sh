# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for scripts that run inside the sandbox guest (busybox sh):
# emulated members from drive profiles, module loading, bounded waits,
# and clean-up of everything a script built. Source it: . "$R0_GUEST/guest.sh"

R0_NULLB=/sys/kernel/config/nullb

# r0_wait_dev PATH [TENTHS]: waits until PATH is a block device (default 5 s).
r0_wait_dev() {
	_n=${2:-50}
	while [ ! -b "$1" ]; do
		_n=$((_n - 1))
		[ "$_n" -le 0 ] && { echo "guest: $1 did not appear" >&2; return 1; }
		sleep 0.1
	done
}

# r0_loop_parts FILE N: attaches FILE, a disk image with a partition table,
# as a loop device with its partitions, and prints the device once
# partition N is there to stay. losetup opens the device for writing, and
# on its close udev's inotify watch (60-block.rules) re-reads the table:
# the partitions vanish and come back a moment after the kernel's own
# scan. A partition opened in between is gone under its user (seen: r0age
# failing on p1; an md array over p1 failing its member). So this waits
# for that second scan (at most 3 s: it does not always come), then for
# udev's events.
r0_loop_parts() {
	_lp=$(losetup -f) || return 1
	_scans() { dmesg | grep -c " ${_lp##*/}: p[0-9]"; }
	_before=$(_scans)
	losetup -P "$_lp" "$1" || return 1
	_n=30
	while [ "$(_scans)" -lt $((_before + 2)) ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	r0_settle
	r0_wait_dev "${_lp}p$2" || return 1
	echo "$_lp"
}

# r0_modprobe NAME [ARG...]: loads an on-demand module (scsi_debug, xfs, dm_crypt,
# xts, dm_thin_pool, raid1, raid10, ahci) with
# the dependencies recorded when the initramfs was built. Fails loudly: the
# sandbox is ours, so a module that does not load is an error, not a skip; so
# is NAME still loaded when ARGs are given (its parameters could not change).
r0_modprobe() {
	_m=$1; shift
	_k=/lib/modules/$(cat /etc/r0-kernel)
	[ -f "$_k/$_m.chain" ] || { echo "guest: no module $_m in the initramfs" >&2; return 1; }
	if grep -q "^$_m " /proc/modules; then
		[ $# = 0 ] && return 0
		echo "guest: $_m is loaded already; cannot load it with $*" >&2
		return 1
	fi
	for _d in $(cat "$_k/$_m.chain"); do
		grep -q "^$_d " /proc/modules && continue
		if [ "$_d" = "$_m" ]; then insmod "$_k/$_d.ko" "$@"
		else insmod "$_k/$_d.ko"; fi || { echo "guest: insmod $_d failed" >&2; return 1; }
	done
}

# r0_boot_modules: prints the boot modules (/etc/r0-modules) that are not
# loaded (empty: all are); /init only warns when one fails to load.
r0_boot_modules() {
	while read -r _m _args; do
		grep -q "^$_m " /proc/modules || echo "$_m"
	done < /etc/r0-modules
}

# r0_member NAME PROFILE [KEY=VALUE...]: creates the null_blk disk /dev/NAME
# from sandbox/drives/PROFILE.drive (drive settings), KEY=VALUE overriding them
# (size is in MiB); prints the device path.
r0_member() {
	_name=$1 _prof=$R0_GUEST/drives/$2.drive; shift 2
	[ -f "$_prof" ] || { echo "guest: no drive profile $_prof" >&2; return 1; }
	_dir=$R0_NULLB/$_name
	mkdir "$_dir" || return 1
	for _kv in $(grep -v '^[[:space:]]*#' "$_prof") "$@"; do
		_key=${_kv%%=*}
		echo "${_kv#*=}" > "$_dir/$_key" ||
			{ echo "guest: $_name: cannot set $_key" >&2; rmdir "$_dir"; return 1; }
	done
	echo 1 > "$_dir/power" || { rmdir "$_dir"; return 1; }
	r0_wait_dev "/dev/$_name" || return 1
	# null_blk's bandwidth cap refills its budget 50 times a second and never
	# passes a request larger than one refill (mbps x 20971 bytes): a discard
	# of up to 4 GiB would hang for ever. Keep discards to 1 MiB, and to whole
	# 4 KiB blocks within one refill, on capped members.
	_mbps=$(cat "$_dir/mbps")
	_cap=$((_mbps * 20971 / 4096 * 4096))
	[ "$_cap" -gt 1048576 ] && _cap=1048576
	if [ "$_mbps" != 0 ] && [ "$(cat "/sys/block/$_name/queue/discard_max_bytes")" -gt "$_cap" ]; then
		echo "$_cap" > "/sys/block/$_name/queue/discard_max_bytes" ||
			{ echo "guest: $_name: cannot cap discard_max_bytes" >&2; return 1; }
	fi
	echo "/dev/$_name"
}

# r0_members PROFILE N [KEY=VALUE...]: N members r0m0, r0m1, ... (the next
# free numbers); prints their paths on one line.
r0_members() {
	_p=$1 _count=$2 _i=0 _made=""; shift 2
	while [ "$_count" -gt 0 ]; do
		while [ -e "$R0_NULLB/r0m$_i" ]; do _i=$((_i + 1)); done
		_dev=$(r0_member "r0m$_i" "$_p" "$@") || return 1
		_made="$_made $_dev"
		_count=$((_count - 1))
	done
	echo $_made
}

# r0_members_shared PROFILE N CAP [KEY=VALUE...]: N members that share one
# limit, as drives behind one link or controller do: N dm-linear slices
# r0sh0, r0sh1, ... of one null_blk disk r0shared built from PROFILE, N
# times its size and queue depth, its bandwidth capped at CAP MiB/s for all
# of them together (KEY=VALUE override the rest, size excepted: the slices
# are the profile's size). Every slice keeps the
# profile's latency; no slice has a cap of its own, so one member alone can
# take all of CAP. (cgroup v2 io.max could cap each slice, but in the 6.12
# guest it stalls io_uring reads: 0-1.5 MiB/s under a 16 MiB/s limit where
# libaio reads 16.) Prints the slices' paths on one line.
r0_members_shared() {
	_p=$1 _count=$2 _capm=$3; shift 3
	_prof=$R0_GUEST/drives/$_p.drive
	[ -f "$_prof" ] || { echo "guest: no drive profile $_prof" >&2; return 1; }
	_mib=$(sed -n 's/^size=//p' "$_prof") _qd=$(sed -n 's/^hw_queue_depth=//p' "$_prof")
	_dev=$(r0_member r0shared "$_p" size=$((_mib * _count)) hw_queue_depth=$((${_qd:-64} * _count)) \
		mbps="$_capm" "$@") || return 1
	_sec=$((_mib * 2048)) _i=0 _made=""
	while [ "$_i" -lt "$_count" ]; do
		echo "0 $_sec linear $_dev $((_i * _sec))" | dmsetup create "r0sh$_i" ||
			{ echo "guest: cannot create slice r0sh$_i of $_dev" >&2; return 1; }
		r0_wait_dev "/dev/mapper/r0sh$_i" || return 1
		_made="$_made /dev/mapper/r0sh$_i"
		_i=$((_i + 1))
	done
	echo $_made
}

# r0_members_ssd N SIZE [r0ssd options...]: N r0ssd servers (the flash
# model: garbage collection, so writes depend on the drive's state), each
# SIZE, started as daemons. Prints the devices' paths on one line.
r0_members_ssd() {
	_count=$1 _size=$2 _made=""
	shift 2
	for _i in $(seq "$_count"); do
		_dev=$(r0ssd --capacity "$_size" --daemon --pid-file "/tmp/r0ssd$_i.pid" "$@") &&
			r0_wait_dev "$_dev" && _made="$_made $_dev" ||
			{ echo "guest: cannot start r0ssd $_i of $_count" >&2; return 1; }
	done
	echo $_made
}

# r0_members_queue PROFILE N TAGS [KEY=VALUE...]: N members r0m0, r0m1, ...
# from PROFILE, each with its own limits, that share one queue of TAGS
# commands, as drives behind one controller do: null_blk's shared_tags, whose
# one tag set the module sizes (hw_queue_depth) when it loads, so null_blk is
# loaded again (no member may exist; it stays so until the next reload).
# Unlike r0_members_shared, one member alone stays at its own limit and the
# shared one shows only when several are busy. Prints the paths on one line.
r0_members_queue() {
	_p=$1 _count=$2 _tags=$3; shift 3
	for _d in "$R0_NULLB"/*; do
		[ -d "$_d" ] && { echo "guest: null_blk member ${_d##*/} exists; cannot reload null_blk" >&2; return 1; }
	done
	rmmod null_blk || { echo "guest: cannot unload null_blk" >&2; return 1; }
	insmod "/lib/modules/$(cat /etc/r0-kernel)/null_blk.ko" nr_devices=0 shared_tags=1 hw_queue_depth="$_tags" ||
		{ echo "guest: cannot load null_blk with $_tags shared tags" >&2; return 1; }
	r0_members "$_p" "$_count" shared_tags=1 "$@"
}

# r0_remove_member NAME: powers off and deletes a null_blk member.
r0_remove_member() {
	[ -d "$R0_NULLB/$1" ] || return 0
	echo 0 > "$R0_NULLB/$1/power" 2>/dev/null
	rmdir "$R0_NULLB/$1"
}

# r0_remove_members: removes every null_blk member; 1 if one stays (held
# open, or configfs refused).
r0_remove_members() {
	r0_settle
	for _d in "$R0_NULLB"/*; do
		[ -d "$_d" ] && r0_remove_member "${_d##*/}"
	done
	for _d in "$R0_NULLB"/*; do
		[ -d "$_d" ] && { echo "guest: cannot remove member ${_d##*/}" >&2; return 1; }
	done
	return 0
}

# r0_ublk_servers: pids of running r0ssd servers.
r0_ublk_servers() {
	# one grep over every process, not a cat each (twice a test, under TCG)
	grep -lx r0ssd /proc/[0-9]*/comm 2>/dev/null | sed 's|^/proc/||; s|/comm$||'
	return 0
}

# r0_settle: waits (at most 30 s) until udev, where it runs, has handled
# every event: its probe of a device just written or built holds the device
# open for a moment, as on any host, and a removal then meets EBUSY.
r0_settle() {
	[ -e /run/udev/control ] && udevadm settle --timeout=30 2>/dev/null
	return 0
}

# r0_cleanup: removes every array, dm device, loop device, ublk device (its
# r0ssd server stopped) and null_blk member, so the next script starts from
# a bare kernel. Used by traps and between tests.
r0_cleanup() {
	r0_settle
	# a test that failed with a file system mounted on its array must not hold it
	for _mp in $(awk '$2 ~ "^/(mnt|tmp)/" { print $2 }' /proc/mounts | sort -r); do
		umount "$_mp" 2>/dev/null || umount -l "$_mp" 2>/dev/null
	done
	for _c in $(dmsetup ls --target crypt 2>/dev/null | awk '{ print $1 }'); do
		cryptsetup close "$_c" 2>/dev/null
	done
	for _vg in $(vgs --noheadings -o vg_name 2>/dev/null); do
		vgchange -an "$_vg" > /dev/null 2>&1
	done
	for _md in /sys/block/md*; do
		[ -e "$_md" ] || continue
		mdadm --stop "/dev/${_md##*/}" >/dev/null 2>&1 ||
			echo clear > "$_md/md/array_state" 2>/dev/null
	done
	dmsetup remove_all --force >/dev/null 2>&1
	for _l in $(losetup -a 2>/dev/null | cut -d: -f1); do losetup -d "$_l"; done
	_srv=$(r0_ublk_servers)
	if [ -n "$_srv" ]; then
		kill -TERM $_srv 2>/dev/null
		sleep 1
		kill -KILL $_srv 2>/dev/null
	fi
	command -v r0ssd > /dev/null && ls /dev/ublkc* > /dev/null 2>&1 &&
		r0ssd --cleanup > /dev/null 2>&1
	r0_remove_members 2>/dev/null
	return 0
}

# r0_leftovers: prints what r0_cleanup would have to remove (empty: clean):
# md, dm, loop and ublk devices, r0ssd servers and null_blk members.
r0_leftovers() {
	for _md in /sys/block/md*; do [ -e "$_md" ] && echo "md:${_md##*/}"; done
	dmsetup ls 2>/dev/null | grep -v '^No devices found' | sed 's/^/dm:/;s/[[:space:]].*//'
	losetup -a 2>/dev/null | sed 's/^/loop:/;s/:[^:]*$//'
	for _u in /dev/ublkb* /dev/ublkc*; do [ -e "$_u" ] && echo "ublk:${_u##*/}"; done
	for _p in $(r0_ublk_servers); do echo "r0ssd:$_p"; done
	for _d in "$R0_NULLB"/*; do [ -d "$_d" ] && echo "nullb:${_d##*/}"; done
	return 0
}

# r0_emulator_warning: true when the kernel messages on stdin complain of
# nothing but what TCG or a starved host causes:
# - a debug exception taken in kernel mode (exc_debug_kernel's WARN_ON_ONCE):
#   the kernel sets no single step or breakpoint there itself, and its own
#   comment names QEMU as the known source of such a #DB;
# - an RCU stall or a soft lockup: a vCPU thread the host did not run for
#   20 s looks to the guest like a CPU stuck in the kernel (a busy CI host
#   under TCG).
# The test may then run again in a fresh boot (twice is a failure). Any other
# warning, BUG or oops is the kernel's, and false.
r0_emulator_warning() {
	_msgs=$(cat)
	echo "$_msgs" | grep -q -E 'WARNING: .* exc_debug_kernel\+|rcu: INFO: .*detected stall|BUG: soft lockup' ||
		return 1
	echo "$_msgs" | grep -E 'WARNING:|BUG:|Oops|general protection' |
		grep -v -E 'WARNING: .* exc_debug_kernel\+|BUG: soft lockup' | grep -q . && return 1
	return 0
}

# r0_sysfs DEV ATTR: prints /sys/block/DEV/ATTR for a /dev path or name.
r0_sysfs() {
	_b=${1##*/}
	cat "/sys/block/$_b/$2"
}

# r0_drop_caches: so reads come from the device, not the page cache.
r0_drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# r0_ship_results: sends what is new or changed in $R0_RESULTS since the
# last call to the host now, as one base64 tar block on the second serial
# port; the host unpacks every complete block in order (sandbox/vm/run),
# so what a script shipped survives a guest death. /init ships once more at
# the end, with .exit-status. (Only the changes: the whole of a test suite's
# results took 3 s a shipment under TCG.)
r0_ship_results() {
	_shipped=/tmp/.r0-shipped
	# "HASH  ./PATH" lines not shipped before, as PATHs; all of it (.) where
	# that cannot be told or a name has a space (busybox tar takes no list
	# file, so the names go as arguments)
	if (cd "$R0_RESULTS" && find . -type f -exec md5sum {} +) > "$_shipped.now" &&
		awk 'NR == FNR { old[$0] = 1; next } !($0 in old) { print substr($0, 35) }' \
			"$_shipped" "$_shipped.now" > "$_shipped.list" 2>/dev/null; then
		[ -s "$_shipped.list" ] || return 0
		grep -q '[[:space:]]' "$_shipped.list" && echo . > "$_shipped.list"
	else
		echo . > "$_shipped.list"
	fi
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	{
		echo "R0-RESULTS-BEGIN"
		# shellcheck disable=SC2046
		tar -C "$R0_RESULTS" -cf - $(cat "$_shipped.list") | base64
		echo "R0-RESULTS-END"
	} > /dev/ttyS1 && mv "$_shipped.now" "$_shipped"
}

# r0_stream FILE: copies FILE's complete lines to the host as they are
# appended (the run's OUT/stream.log, through the third serial port), so what
# a long study wrote survives a guest death; results/ comes back only when
# shipped (r0_ship_results) or at a clean end. One stream per boot; it
# starts with what FILE already holds.
# (busybox tail -f polls once a second; this loop every half second.)
r0_stream() {
	[ -c /dev/ttyS2 ] || { echo "guest: no /dev/ttyS2 for the stream" >&2; return 1; }
	stty -F /dev/ttyS2 raw -echo 2>/dev/null
	touch "$1" || return 1
	(
		_sent=0
		while :; do
			_have=$(wc -l < "$1")
			if [ "$_have" -gt "$_sent" ]; then
				tail -n +$((_sent + 1)) "$1" | head -n $((_have - _sent))
				_sent=$_have
			fi
			sleep 0.5
		done
	) > /dev/ttyS2 2>/dev/null &
}

# r0_drive nvme|sata N: the /dev node of the Nth drive of that kind that
# sandbox/vm/run attached (--nvme, --sata), found by its serial
# (r0nvmeN, r0sataN); waits up to 5 s for it.
r0_drive() {
	_n=50
	while [ "$_n" -gt 0 ]; do
		for _b in /sys/block/nvme* /sys/block/sd*; do
			[ -e "$_b" ] || continue
			if [ "$1" = nvme ]; then
				[ "$(cat "$_b/device/serial" 2>/dev/null | tr -d ' ')" = "r0nvme$2" ] || continue
			else
				grep -q "r0sata$2" "$_b/device/vpd_pg80" 2>/dev/null || continue
			fi
			echo "/dev/${_b##*/}"
			return 0
		done
		_n=$((_n - 1))
		sleep 0.1
	done
	echo "guest: no $1 drive $2 (sandbox/vm/run --$1)" >&2
	return 1
}

# r0_drives_by_id nvme|sata N: the first N drives of that kind (r0_drive)
# by their /dev/disk/by-id links, as a user names drives (the /dev node of
# one without a link); prints them on one line.
r0_drives_by_id() {
	udevadm settle >&2   # nothing of it among the names printed
	_i=0 _made=""
	while [ "$_i" -lt "$2" ]; do
		_dev=$(r0_drive "$1" $_i) || return 1
		_link=$(ls /dev/disk/by-id/ | grep -E "^(nvme|ata)-.*r0$1$_i\$" | head -1)
		_made="$_made ${_link:+/dev/disk/by-id/}${_link:-$_dev}"
		_i=$((_i + 1))
	done
	echo $_made
}

# r0_describe_drives nvme|sata N: what N drives of r0_drives_by_id are, for
# r0sweep --describe: "N x QEMU KIND drives (MODEL, throttled by QEMU: ...)".
r0_describe_drives() {
	_dev=$(r0_drive "$1" $(($2 - 1))) || return 1
	echo "$2 x QEMU $1 drives ($(cat /sys/block/${_dev#/dev/}/device/model 2>/dev/null | tr -s ' '), throttled by QEMU: sandbox/drives/$1.qemu)"
}

# r0_describe_profile PROFILE N: what N members of r0_members PROFILE are,
# for r0sweep --describe: "N x null_blk PROFILE profile (its settings)".
r0_describe_profile() {
	echo "$2 x null_blk $1 profile ($(grep -v '^#' "$R0_GUEST/drives/$1.drive" | tr '\n' ' '))"
}
