#!/usr/bin/env bash
# Builds and runs tools/dev/rim_edge_check.cpp: the rim snap on codes drawn at known
# geometry, started from outlines a few pixels and percent off.
set -euo pipefail
exec "$(dirname "$0")/vision_check.sh" "rim snap" rim_edge_check rim_edge rough_ellipse steep_rim concentric_fit ellipse_fit image_view
