#!/usr/bin/env bash
# Builds and runs tools/dev/parted_rings_check.cpp: the edge fit on large codes in steep
# perspective, handed one true ring's ellipse, against the drawn rings (see the source).
exec "$(dirname "$0")/vision_check.sh" "parted rings" parted_rings_check concentric_fit rough_ellipse rim_edge steep_rim ellipse_fit image_view
