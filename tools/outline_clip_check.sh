#!/usr/bin/env bash
# The comb's clip level (vision/comb_table.hpp, outline_clip) against a plain listing and sort
# of the profile's local maxima (tools/dev/outline_clip_check.cpp).
exec "$(dirname "$0")/header_check.sh" "outline clip" outline_clip_check
