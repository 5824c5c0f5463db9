#!/usr/bin/env bash
# Builds and runs tools/dev/symmetric_centre_check.cpp: the centre of symmetric edge pairs
# on codes drawn at known geometry, searched from where a tilted code's vote peaks lie.
set -euo pipefail
exec "$(dirname "$0")/vision_check.sh" "symmetric centres" symmetric_centre_check symmetric_centres vote_filters
