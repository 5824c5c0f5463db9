// Merging the vote peaks that one code gives on several pyramid levels. Busy frames give over a
// thousand peaks, most of which stay apart: compared with every merged peak in turn, a 1080p
// frame spent up to 0.7 ms here. A grid of cells as wide as the widest reach confines each
// comparison to the merged peaks in the 3 x 3 cells around a peak, with the same outcome.
#pragma once
#include <algorithm>
#include <vector>

#include "candidate.hpp"

namespace appclip::vision {

class PeakMerger {
public:
    // Merges `peaks` (strongest first) into `merged`: each peak is absorbed by the first merged
    // peak (in `merged`'s order) within merge_reach of it, which takes its levels and
    // prominence and widens its size range to cover both; a peak no merged one reaches is
    // appended. `scale`: full-resolution pixels per working pixel.
    void merge(const std::vector<Candidate>& peaks, double scale, std::vector<Candidate>& merged);

    // How near two peaks must lie (full-resolution pixels) to be one code's: 15 % of the
    // larger of their smallest sizes, and two working pixels.
    static double merge_reach(double diameter_lo_a, double diameter_lo_b, double scale) {
        return 0.15 * std::max(diameter_lo_a, diameter_lo_b) + 2.0 * scale;
    }

private:
    // Per cell, the merged peaks in it as a list through next_ (in merged order).
    std::vector<int> cell_first_, cell_last_, next_;
};

}  // namespace appclip::vision
