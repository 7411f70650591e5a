# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side: the time of the 3-member NVMe check (tests/sandbox/host/070)
# for another r0trim binary and this tree's, alternately on one md raid0,
# so both see the same host load. Run from the tree:
#   recipes/sandbox/run --nvme 64M --nvme 64M --nvme 64M \
#       recipes/studies/trim-nvme-ab.sh OTHER_R0TRIM [-- ROUNDS]
# (OTHER_R0TRIM: e.g. a build of an older commit, copied in as a file).
# One line a run, "ab NAME rc RC SECONDS s", to the console and to
# $R0_RESULTS/trim-nvme-ab.txt. Guest time is host time under TCG.
. "$R0_GUEST/guest.sh"
rounds=${1:-3}
other=$(ls ./*r0trim* 2>/dev/null | head -1)
[ -x "$other" ] || { echo "ab: no other r0trim among the files"; exit 1; }
for d in 0 1 2; do eval "nv$d=\$(r0_drive nvme $d)" || exit 1; done
md=$(r0build create --yes -q -f --backend md -c 64K --name ab "$nv0" "$nv1" "$nv2") || exit 1
up() { cut -d' ' -f1 /proc/uptime; }
rc=0
for i in $(seq "$rounds"); do
	for b in "$other" r0trim; do
		t1=$(up); "$b" -f "$md" > /tmp/ab.out 2>&1; r=$?; t2=$(up)
		[ "$r" = 0 ] || rc=1
		echo "ab ${b##*/} rc $r $(echo "$t2 $t1" | awk '{ printf "%.2f", $1 - $2 }') s" |
			tee -a "$R0_RESULTS/trim-nvme-ab.txt"
	done
done
r0build remove ab || rc=1
exit $rc
