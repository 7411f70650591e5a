#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the r0trim JSON the guest tests wrote (030:
# range checks and a raw cycle, 032: a "no" with its reason, 033: file
# system cycles) validate against tools/schema/r0trim-1.schema.json.
# Usage: 063-r0trim-json-schema.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
results=$1
shopt -s nullglob
files=("$results"/*.r0trim.json)
((${#files[@]} >= 3)) || { echo "expected 030's, 032's and 033's r0trim JSON in $results, found ${#files[@]}"; exit 1; }
/usr/bin/python3 "$here/schema-check.py" "$root/tools/schema/r0trim-1.schema.json" "${files[@]}"
