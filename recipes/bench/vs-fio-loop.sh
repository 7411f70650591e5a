# SPDX-License-Identifier: GPL-2.0-or-later
# vs_fio_loop DEV OUTDIR PAIRS RUNTIME [WORKLOAD...]: r0bench and fio on DEV, alternating
# (which goes first flips every pair), one JSON file a run in OUTDIR named
# WORKLOAD.PAIR.TOOL.json, and beside it WORKLOAD.PAIR.TOOL.cpu: the user
# and system seconds of the whole process (r0cputime), the same ruler for
# both. Sourced by vs-fio (host) and vs-fio-guest.sh.
vs_fio_loop() {
	_dev=$1 _out=$2 _pairs=$3 _rt=$4
	# WORKLOAD:BS:QD[:BATCH[:MODE]]; BATCH: both tools wait for that many
	# completions at once (r0bench --reap-batch, fio iodepth_batch_complete_min);
	# MODE: hipri (polled completions, r0bench --hipri and fio hipri: a
	# device with poll queues) or sqpoll (r0bench --sqpoll, fio sqthread_poll)
	shift 4
	[ $# = 0 ] && set -- randread:4k:1 randread:4k:32 read:1m:8 randwrite:4k:32 randread:4k:32:8 \
		randread:4k:32:1:sqpoll
	for _wl in "$@"; do
		_rw=${_wl%%:*} _rest=${_wl#*:}
		_bs=${_rest%%:*} _rest=${_rest#*:}
		_qd=${_rest%%:*} _batch=1 _mode=""
		[ "$_rest" != "$_qd" ] && _batch=${_rest#*:}
		case $_batch in *:*) _mode=${_batch#*:} _batch=${_batch%%:*} ;; esac
		case $_mode in
		"") _r0mode="" _fiomode="" ;;
		hipri) _r0mode=--hipri _fiomode=--hipri=1 ;;
		sqpoll) _r0mode=--sqpoll _fiomode=--sqthread_poll=1 ;;
		*) echo "bench: unknown mode $_mode in $_wl" >&2; return 1 ;;
		esac
		# at QD1 (no mode) r0bench reads itself (pread); fio's best there
		# is the same, psync, which beat fio's io_uring on zram
		# (docs/validation.md); the fio options below that are io_uring's
		# own are left out there
		_fioengine="--ioengine=io_uring --fixedbufs=1 --registerfiles=1"
		_fiobatch="--iodepth_batch_submit=$_qd --iodepth_batch_complete_max=$_qd --iodepth_batch_complete_min=$_batch"
		if [ "$_qd" = 1 ] && [ -z "$_mode" ]; then
			_fioengine=--ioengine=psync _fiobatch=""
		fi
		_name=$_rw-$_bs-qd$_qd
		[ "$_batch" != 1 ] && _name=$_name-batch$_batch
		[ -n "$_mode" ] && _name=$_name-$_mode
		_i=1
		while [ "$_i" -le "$_pairs" ]; do
			if [ $((_i % 2)) = 1 ]; then _order="r0bench fio"; else _order="fio r0bench"; fi
			for _tool in $_order; do
				_f=$_out/$_name.$_i.$_tool.json
				if [ "$_tool" = r0bench ]; then
					r0cputime "${_f%.json}.cpu" r0bench --yes --json -f --rw "$_rw" --bs "$_bs" --qd "$_qd" \
						--reap-batch "$_batch" $_r0mode -t "$_rt" "$_dev" > "$_f" ||
						{ echo "bench: r0bench failed on $_name" >&2; return 1; }
				else
					# fio's best: registered buffers and file, no random map,
					# the whole free queue submitted and reaped per call as
					# r0bench does; incompressible data refilled every write
					# (zram compresses: fio's default buffers halve its writes)
					r0cputime "${_f%.json}.cpu" fio --name=x --filename="$_dev" $_fioengine --direct=1 \
						--norandommap --randrepeat=0 $_fiobatch \
						--buffer_compress_percentage=0 --refill_buffers=1 \
						--lat_percentiles=1 \
						--rw="$_rw" --bs="$_bs" --iodepth="$_qd" --runtime="$_rt" \
						$_fiomode --time_based --output-format=json > "$_f" ||
						{ echo "bench: fio failed on $_name" >&2; return 1; }
				fi
			done
			echo "bench: $_name pair $_i done" >&2
			_i=$((_i + 1))
		done
	done
}
