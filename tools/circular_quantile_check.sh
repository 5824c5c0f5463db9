#!/usr/bin/env bash
# The light field's sliding order statistic (vision/circular_quantile.hpp) against nth_element
# over each window gathered afresh (tools/dev/circular_quantile_check.cpp).
exec "$(dirname "$0")/header_check.sh" "circular quantiles" circular_quantile_check
