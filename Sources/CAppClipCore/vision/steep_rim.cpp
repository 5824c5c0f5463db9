#include "steep_rim.hpp"

#include <cmath>
#include <limits>

#include "code_geometry.hpp"
#include "vector_clones.hpp"

namespace appclip::vision {

ACC_VECTOR_CLONES
std::pair<float, int> SteepRimVote::votes_for(double ratio, double angle, double r_lo, double r_grid, int r_count) {
    // Each peak adds its vote to one bin; the half votes to the neighbouring bins are spread
    // afterwards. One add per peak, to a slot worked out with the rest on vectors: a code's
    // peaks crowd into a few bins, and adds to one bin wait for each other.
    // Slots: 0 and r_count + 1 guard the grid's ends; the votes off it go to the kOffGrid
    // after those, in turn (into one slot, each add would wait for the last).
    constexpr int kOffGrid = 8;
    bins_.assign(static_cast<size_t>(r_count) + 2 + kOffGrid, 0.f);
    const float c = static_cast<float>(std::cos(angle)), s = static_cast<float>(std::sin(angle));
    const float inverse_ratio = static_cast<float>(1.0 / ratio);
    const float lo = static_cast<float>(r_lo), per_bin = static_cast<float>(1.0 / r_grid);
    const float bins_on_grid = static_cast<float>(r_count);
    const int off_grid = r_count + 2;
    const size_t n = xs_.size();
    for (size_t k = 0; k < n; ++k) {
        // The peak in the ellipse's axes, the minor one stretched to the major's scale.
        const float u = xs_[k] * c + ys_[k] * s, w = (ys_[k] * c - xs_[k] * s) * inverse_ratio;
        const float bin = (std::sqrt(u * u + w * w) - lo) * per_bin + 0.5f;
        slots_[k] = bin >= 0 && bin < bins_on_grid ? static_cast<int>(bin) + 1 : off_grid + static_cast<int>(k % kOffGrid);
    }
    float* slot_votes = bins_.data();
    for (size_t k = 0; k < n; ++k) slot_votes[slots_[k]] += strengths_[k];
    // Half a vote to each neighbouring bin: a peak's scale is only as fine as the grid (the
    // guard slots stand in for the neighbours past its ends).
    const float* raw = bins_.data() + 1;
    int at = 0;
    float best = -std::numeric_limits<float>::infinity();
    for (int m = 0; m < r_count; ++m) {
        const float v = raw[m] + 0.5f * (raw[m - 1] + raw[m + 1]);
        if (v > best) best = v, at = m;
    }
    return {best, at};
}

bool SteepRimVote::find(double r_lo, double r_grid, int r_count, SteepRim& out) {
    if (xs_.empty() || r_count < 1) return false;
    slots_.resize(xs_.size());
    struct Best {
        float votes = 0;
        int bin = 0;
        double ratio = 1, angle = 0;
    };
    const float circle = votes_for(1.0, 0.0, r_lo, r_grid, r_count).first;
    // Coarse: five ratios (views of ~55° to ~73°) by 10°; then finer around the best, ratio by
    // 4 % and angle by 2°.
    constexpr int kCoarseAngles = 18;
    Best best;
    for (double ratio : {0.3, 0.36, 0.43, 0.5, 0.58})
        for (int k = 0; k < kCoarseAngles; ++k) {
            const double angle = k * kPi / kCoarseAngles;
            const auto v = votes_for(ratio, angle, r_lo, r_grid, r_count);
            if (v.first > best.votes) best = {v.first, v.second, ratio, angle};
        }
    if (best.votes <= kMinLead * circle) return false;
    const Best coarse = best;
    for (int qi = -3; qi <= 3; ++qi)
        for (int k = -4; k <= 4; ++k) {
            const double ratio = coarse.ratio * (1 + 0.04 * qi), angle = coarse.angle + k * 2.0 * kDeg;
            const auto v = votes_for(ratio, angle, r_lo, r_grid, r_count);
            if (v.first > best.votes) best = {v.first, v.second, ratio, angle};
        }
    if (best.votes <= kMinLead * circle || best.ratio > kMaxRatio) return false;
    out = {r_lo + r_grid * best.bin, best.ratio, best.angle};
    return true;
}

}  // namespace appclip::vision
