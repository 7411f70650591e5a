#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the report r0report made in 047-r0report-sweep from
# a real sweep, and one from a stored demo sweep, rendered in headless
# Chromium: SVGs well-formed, nothing fetched, every chart in the DOM, the
# screenshot neither blank nor without the charts (tests/report/run).
# Usage: 041-r0report-browser.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
exec "$root/tests/report/run" --build "$2" --results "$1" --require
