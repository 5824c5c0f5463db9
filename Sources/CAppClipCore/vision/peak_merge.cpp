#include "peak_merge.hpp"

#include <algorithm>
#include <cmath>

namespace appclip::vision {
namespace {
constexpr int kMaxCells = 64;   // per side of the grid
}  // namespace

void PeakMerger::merge(const std::vector<Candidate>& peaks, double scale, std::vector<Candidate>& merged) {
    merged.clear();
    if (peaks.empty()) return;
    // No two peaks further apart than the widest reach across or down merge (merged peaks'
    // smallest sizes only ever shrink), so a peak's partners lie in its own cell or a neighbour.
    // (A peak off the finite plane merges with none, as the plain test would have it; it is
    // kept out of the grid.)
    auto finite = [](const Candidate& p) { return std::isfinite(p.center.x) && std::isfinite(p.center.y); };
    double largest = 0, x_lo = 0, y_lo = 0, x_hi = 0, y_hi = 0;
    bool seen = false;
    for (const Candidate& p : peaks) {
        if (!finite(p)) continue;
        if (!seen) x_lo = x_hi = p.center.x, y_lo = y_hi = p.center.y, seen = true;
        largest = std::max(largest, p.diameter_lo);
        x_lo = std::min(x_lo, p.center.x), x_hi = std::max(x_hi, p.center.x);
        y_lo = std::min(y_lo, p.center.y), y_hi = std::max(y_hi, p.center.y);
    }
    // A hair wider than the widest reach, so that rounding cannot put a partner two cells away,
    // and at most kMaxCells across (only the fine levels' peaks, spread over a large frame).
    const double cell = std::max(merge_reach(largest, largest, scale) * (1 + 1e-9),
                                 std::max(x_hi - x_lo, y_hi - y_lo) / (kMaxCells - 1));
    const int cells_x = static_cast<int>((x_hi - x_lo) / cell) + 1, cells_y = static_cast<int>((y_hi - y_lo) / cell) + 1;
    cell_first_.assign(static_cast<size_t>(cells_x) * cells_y, -1);
    cell_last_.assign(cell_first_.size(), -1);
    next_.clear();
    for (const Candidate& c : peaks) {
        if (!finite(c)) {
            merged.push_back(c);
            next_.push_back(-1);
            continue;
        }
        const int cx = static_cast<int>((c.center.x - x_lo) / cell), cy = static_cast<int>((c.center.y - y_lo) / cell);
        // The first merged peak (lowest index) that reaches c: each cell's list is in merged
        // order, so a cell is read only up to its first one that reaches c.
        int first = -1;
        for (int j = std::max(0, cy - 1); j <= std::min(cells_y - 1, cy + 1); ++j)
            for (int i = std::max(0, cx - 1); i <= std::min(cells_x - 1, cx + 1); ++i)
                for (int k = cell_first_[static_cast<size_t>(j) * cells_x + i]; k >= 0 && (first < 0 || k < first);
                     k = next_[k]) {
                    const Candidate& m = merged[k];
                    const double reach = merge_reach(m.diameter_lo, c.diameter_lo, scale);
                    // Most pairs are far apart across: the distance is at least that, so they
                    // are passed over before the square root (the same test, as the root is
                    // never less).
                    if (std::abs(c.center.x - m.center.x) >= reach) continue;
                    if (cv::norm(c.center - m.center) < reach) {
                        first = k;
                        break;
                    }
                }
        if (first >= 0) {
            Candidate& m = merged[first];
            m.levels |= c.levels;
            m.diameter_lo = std::min(m.diameter_lo, c.diameter_lo);
            m.diameter_hi = std::max(m.diameter_hi, c.diameter_hi);
            m.prominence = std::max(m.prominence, c.prominence);
            continue;
        }
        const int index = static_cast<int>(merged.size());
        merged.push_back(c);
        next_.push_back(-1);
        const size_t at = static_cast<size_t>(cy) * cells_x + cx;
        if (cell_last_[at] >= 0) next_[cell_last_[at]] = index;
        else cell_first_[at] = index;
        cell_last_[at] = index;
    }
}

}  // namespace appclip::vision
