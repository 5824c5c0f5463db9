#!/usr/bin/env bash
# Builds and runs tools/dev/steep_rim_check.cpp: the rough fit on steep, blurred codes drawn
# by the generator's rasterizer, from their true centres, against the drawn rim (see the
# source for the tolerances).
exec "$(dirname "$0")/vision_check.sh" "steep rims" steep_rim_check rough_ellipse rim_edge steep_rim concentric_fit ellipse_fit image_view
