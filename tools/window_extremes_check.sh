#!/usr/bin/env bash
# The locator's window maxima and minima (vision/window_extremes.hpp) against a plain scan of
# every window, ties included (tools/dev/window_extremes_check.cpp).
exec "$(dirname "$0")/header_check.sh" "window extremes" window_extremes_check
