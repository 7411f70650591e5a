# SPDX-License-Identifier: GPL-2.0-or-later
# The demo's TRIM step (guest side): r0trim on md raid0 and dm-stripe of
# the given members at a 64K chunk, one cycle each (~2 min for three
# 16 MiB sata-real members on a loaded host). Writes trim-md.json and trim-dm.json (r0trim/1)
# to $R0_RESULTS; r0report renders them (verdict, discards per member). Run by recipes/studies/sweep-demo.sh after the sweep, or
# alone: sandbox/vm/run recipes/studies/trim-demo.sh (it then makes
# three such members itself). Exit status: 0 when every r0trim passed.
. "$R0_GUEST/guest.sh"
if [ $# -lt 2 ]; then
	members=$(r0_members sata-real 3 size=16) || exit 1
	set -- $members
fi
trc=0
for b in md dm; do
	dev=$(r0build create --yes -q -f --backend "$b" -c 64K --name demotrim "$@") || { echo "demo: r0build $b failed"; trc=1; continue; }
	r0trim --yes -f -J --cycles 1 "$dev" > "$R0_RESULTS/trim-$b.json" || trc=1
	echo "r0trim $b over $# members, 64K chunk: $(sed -n 's/^  "verdict":"\(.*\)",*$/\1/p' "$R0_RESULTS/trim-$b.json")"
	r0build remove demotrim || trc=1
done
exit $trc
