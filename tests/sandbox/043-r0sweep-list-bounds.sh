# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep's list options hold a bounded number of items: the last one
# allowed passes the parser (then the missing devices stop the sweep), one
# more is a usage error: --preset 7, --qd 8, --chunks 16 (17 distinct sizes
# exist). No device is needed (tests/unit/test_lists.c checks the library's
# parsers the same way).
. ./lib.sh

# list N ITEMS: the first N of ITEMS, comma-separated
list() { _i=0 _l=""; for _v in $2; do [ "$_i" -lt "$1" ] || break; _l="$_l${_l:+,}$_v"; _i=$((_i + 1)); done; echo "$_l"; }
presets="cdm cdm3 cdm-nvme cdm cdm3 cdm-nvme cdm cdm3 cdm-nvme"
qds="1 2 3 4 5 6 7 8 9 10"
chunks="4K 8K 16K 32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M 128M 256M 512M"
for opt in "-p 7 presets" "--qd 8 qds" "--chunks 16 chunks"; do
	set -- $opt
	eval "items=\$$3"
	expect_status 2 "$1 with $2 items" r0sweep --yes --output /tmp/bounds.jsonl "$1" "$(list "$2" "$items")" /dev/nosuch0 /dev/nosuch1
	grep -q "/dev/nosuch0: no such device" /tmp/expect.out || fail "$1 with $2 items: $(cat /tmp/expect.out)"
	expect_status 2 "$1 with $(($2 + 1)) items, one too many" \
		r0sweep --yes --output /tmp/bounds.jsonl "$1" "$(list $(($2 + 1)) "$items")" /dev/nosuch0 /dev/nosuch1
done
exit 0
