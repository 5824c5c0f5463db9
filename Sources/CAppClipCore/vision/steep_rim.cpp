#include "steep_rim.hpp"

#include <cmath>

#include "code_geometry.hpp"

namespace appclip::vision {

std::pair<float, int> SteepRimVote::votes_for(double ratio, double angle, double r_lo, double r_grid, int r_count) {
    bins_.assign(static_cast<size_t>(r_count), 0.f);
    const float c = static_cast<float>(std::cos(angle)), s = static_cast<float>(std::sin(angle));
    const float inverse_ratio = static_cast<float>(1.0 / ratio);
    const size_t n = xs_.size();
    // The peak in the ellipse's axes, the minor one stretched to the major's scale.
    for (size_t k = 0; k < n; ++k) {
        const float u = xs_[k] * c + ys_[k] * s, w = (ys_[k] * c - xs_[k] * s) * inverse_ratio;
        axes_[k] = std::sqrt(u * u + w * w);
    }
    const float lo = static_cast<float>(r_lo), per_bin = static_cast<float>(1.0 / r_grid);
    for (size_t k = 0; k < n; ++k) {
        const float bin = (axes_[k] - lo) * per_bin + 0.5f;
        if (bin < 0) continue;
        const int j = static_cast<int>(bin);
        if (j >= r_count) continue;
        // Half a vote to each neighbouring bin: a peak's scale is only as fine as the grid.
        const float v = strengths_[k];
        bins_[j] += v;
        if (j > 0) bins_[j - 1] += 0.5f * v;
        if (j + 1 < r_count) bins_[j + 1] += 0.5f * v;
    }
    int at = 0;
    for (int m = 1; m < r_count; ++m)
        if (bins_[m] > bins_[at]) at = m;
    return {bins_[at], at};
}

bool SteepRimVote::find(double r_lo, double r_grid, int r_count, SteepRim& out) {
    if (xs_.empty() || r_count < 1) return false;
    axes_.resize(xs_.size());
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
