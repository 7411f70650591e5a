#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the docs' examples only the sandbox can
# make (tests/docs/examples.txt "@sandbox": r0bench's stall, I/O error and
# --hipri refusal, r0sweep's refused resume), as the guest tests saved them
# (doc_example in lib.sh), are their golden files, word for word.
# Usage: 064-doc-examples.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
exec "$root/tests/docs/check-examples" --bin "$2/bin" --results "$1"
