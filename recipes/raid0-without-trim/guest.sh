# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of recipes/raid0-without-trim/run: the scenario with the
# arguments the host passed (CYCLES SSD_MIB BENCH_SECONDS FILL_PCT).
. "$R0_GUEST/guest.sh"
. "$R0_GUEST/scenarios/raid0-without-trim.sh"
[ -e /dev/ublk-control ] || { echo "no /dev/ublk-control (ublk_drv)"; exit 1; }
t0=$(cut -d' ' -f1 /proc/uptime)
r0s_scenario "$R0_RESULTS/scenario.jsonl" "$@"
rc=$?
echo "scenario: exit $rc after $(echo "$(cut -d' ' -f1 /proc/uptime) $t0" | awk '{ printf "%.0f", $1 - $2 }') s of guest time"
r0ssd --cleanup > /dev/null 2>&1
exit $rc
