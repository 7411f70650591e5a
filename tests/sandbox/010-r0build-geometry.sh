# SPDX-License-Identifier: GPL-2.0-or-later
# r0build creates md raid0 and dm-stripe arrays at 4K, 64K, 512K and 1M
# chunks over 1, 2 and 3 members, equal and unequal; mdadm --detail and
# dmsetup table agree; a tag written into every chunk through the array is
# found on the member at the offset the library's geometry predicts (every
# md zone included); remove leaves nothing behind.
. ./lib.sh

majmin() { r0_sysfs "$1" dev; }

# check_array BACKEND CHUNK MEMBER...
check_array() {
	be=$1 chunk=$2; shift 2
	path=$(r0build create --yes --backend "$be" --chunk "$chunk" --name t "$@") ||
		fail "r0build create --backend $be --chunk $chunk $*"
	[ -b "$path" ] || fail "r0build printed '$path', not a block device"
	cb=$(r0_parse_k "$chunk")
	if [ "$be" = md ]; then
		expect_eq "$path" /dev/md_r0-t "md array path"
		d=$(mdadm --detail "$path")
		expect_eq "$(echo "$d" | sed -n 's/^ *Raid Level : //p')" raid0 "mdadm level"
		expect_eq "$(echo "$d" | sed -n 's/^ *Raid Devices : //p')" $# "mdadm raid devices"
		expect_eq "$(echo "$d" | sed -n 's/^ *Chunk Size : //p')" "$(mdadm_chunk "$cb")" "mdadm chunk"
	else
		expect_eq "$path" /dev/mapper/r0-t "dm array path"
		tab=$(dmsetup table r0-t)
		want="$# $((cb / 512))"
		for m in "$@"; do want="$want $(majmin "$m") 0"; done
		expect_eq "${tab#* * striped }" "$want" "dmsetup table striped args"
	fi
	expect_eq "$(r0build list | awk -v p="$path" '$NF == p { print $2, $3, $4 }')" \
		"$be $chunk $#" "r0build list row"
	r0tagcheck "$path" "$@" || fail "tags not where the geometry predicts ($be $chunk $*)"
	r0build remove t || fail "r0build remove t"
	[ -e "$path" ] && fail "$path still exists after remove"
	expect_eq "$(r0build list | wc -l)" 1 "r0build list after remove (header only)"
}

r0_parse_k() { case $1 in *K) echo $(( ${1%K} * 1024 )) ;; *M) echo $(( ${1%M} * 1048576 )) ;; esac; }
mdadm_chunk() { echo "$(( $1 / 1024 ))K"; }   # mdadm --detail prints 1M as 1024K

members=$(r0_members fast 3 size=8) || fail "members"
set -- $members
for be in md dm; do
	for chunk in 4K 64K 512K 1M; do
		check_array "$be" "$chunk" "$1"
		check_array "$be" "$chunk" "$1" "$2"
		check_array "$be" "$chunk" "$1" "$2" "$3"
	done
done
r0_cleanup

# unequal members: md builds zones (layout set), dm uses n x the smallest
a=$(r0_member u0 fast size=5) && b=$(r0_member u1 fast size=7) && c=$(r0_member u2 fast size=12) ||
	fail "unequal members"
for chunk in 4K 64K 512K 1M; do
	check_array md "$chunk" "$a" "$b" "$c"
	check_array md "$chunk" "$c" "$a" "$b"
	check_array dm "$chunk" "$a" "$b" "$c"
done
# what create says it built: dm leaves what is past the smallest member unused
r0build create --yes --backend dm -c 64K --name t "$a" "$b" "$c" > /dev/null 2> /tmp/summary || fail "dm create"
grep -q "^r0build: /dev/mapper/r0-t: dm stripe of 3, chunk 64K, 15.0 MiB usable$" /tmp/summary ||
	fail "dm summary: $(cat /tmp/summary)"
grep -q "^r0build: $b: 2.0 MiB of it unused$" /tmp/summary || fail "dm unused on $b: $(cat /tmp/summary)"
grep -q "^r0build: $c: 7.0 MiB of it unused$" /tmp/summary || fail "dm unused on $c: $(cat /tmp/summary)"
r0build remove t || fail "remove"
r0build create --yes --backend md -c 64K --name t "$a" "$b" "$c" > /dev/null 2> /tmp/summary || fail "md create"
grep -q "^r0build: /dev/md_r0-t: md raid0 stripe of 3, chunk 64K, 24.0 MiB usable, 3 zones (layout alt)$" \
	/tmp/summary || fail "md summary: $(cat /tmp/summary)"
grep -q "unused" /tmp/summary && fail "md uses every chunk of these members: $(cat /tmp/summary)"
r0build remove t || fail "remove"

# 1M chunks: zone 0 ends at chunk 15, so zone 1 starts on an odd chunk and
# the two layouts put its chunks on different members
for layout in orig alt; do
	path=$(r0build create --yes --backend md --chunk 1M --layout $layout --name t "$a" "$b" "$c") ||
		fail "--layout $layout"
	r0tagcheck "$path" "$a" "$b" "$c" || fail "tags ($layout layout)"
	r0build remove t || fail "remove"
done
path=$(r0build create --yes --backend md --chunk 64K --layout orig --name t "$a" "$b" "$c") || fail "--layout orig"
expect_eq "$(r0_sysfs md_r0-t md/layout)" 1 "md layout with --layout orig"
r0build remove t || fail "remove"
path=$(r0build create --yes --backend md --chunk 64K --name t "$a" "$b" "$c") || fail "default layout"
expect_eq "$(r0_sysfs md_r0-t md/layout)" 2 "md layout by default (alt multizone)"
r0build remove t || fail "remove"
r0_remove_members || fail "a member stayed"
