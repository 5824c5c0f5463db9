#!/usr/bin/env bash
# Builds and runs tools/dev/peak_merge_check.cpp: the locator's grid-confined peak merging
# against the merging rule applied to every pair in turn.
set -euo pipefail
exec "$(dirname "$0")/vision_check.sh" "peak merge" peak_merge_check peak_merge
