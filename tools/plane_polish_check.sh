#!/usr/bin/env bash
# Builds and runs tools/dev/plane_polish_check.cpp: the ring polish on steep, blurred, noisy
# codes drawn by the generator's rasterizer, from planes a few per cent off across the minor
# axis, against the drawn rim (see the source for the tolerances).
exec "$(dirname "$0")/vision_check.sh" "plane polish" plane_polish_check plane_polish concentric_fit rough_ellipse rim_edge steep_rim ellipse_fit image_view
