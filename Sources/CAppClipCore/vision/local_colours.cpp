#include "local_colours.hpp"

#include <algorithm>
#include <cmath>

namespace appclip::vision {

void local_colour_thresholds(const float* x, const float* y, const bool* known, const float* ink, double radius_px,
                             double width, double lo, double hi, float threshold[ACC_RING_POSITIONS],
                             float share[ACC_RING_POSITIONS]) {
    constexpr int n = ACC_RING_POSITIONS;
    // Two local classes closer than this share of the code's are one colour and noise.
    constexpr double kMinShare = 0.4;
    // Weight each local class must carry (the position itself weighs 1).
    constexpr double kMinClassWeight = 1.5;
    constexpr int kRounds = 8;
    // Weights (1 - d²/R²)², which reach 0 at R: a Gaussian's spread at R = √7 sigma, and no
    // exponential per pair of positions.
    const float reach = static_cast<float>(std::sqrt(7.0) * std::max(1.0, width * radius_px));
    const float inv_reach2 = 1.f / (reach * reach);
    const double distance = hi - lo;
    for (int i = 0; i < n; ++i) threshold[i] = static_cast<float>(0.5 * (lo + hi)), share[i] = 1.f;
    if (distance <= 0) return;
    for (int i = 0; i < n; ++i) {
        if (!known[i]) continue;
        float closeness[n];   // 1 - d²/R², over 0 within reach
        for (int j = 0; j < n; ++j) {
            const float dx = x[j] - x[i], dy = y[j] - y[i];
            closeness[j] = 1.f - (dx * dx + dy * dy) * inv_reach2;
        }
        // The known positions within reach, with their weights.
        float neighbour_ink[n], weight[n];
        int count = 0;
        for (int j = 0; j < n; ++j) {
            if (!known[j] || closeness[j] <= 0) continue;
            neighbour_ink[count] = ink[j];
            weight[count++] = closeness[j] * closeness[j];
        }
        double local_lo = lo, local_hi = hi;
        bool two_classes = true;
        for (int round = 0; round < kRounds && two_classes; ++round) {
            const double t = 0.5 * (local_lo + local_hi);
            double w_lo = 0, w_hi = 0, sum_lo = 0, sum_hi = 0;
            for (int k = 0; k < count; ++k) {
                const float v = neighbour_ink[k];
                if (v < t)
                    w_lo += weight[k], sum_lo += weight[k] * v;
                else
                    w_hi += weight[k], sum_hi += weight[k] * v;
            }
            two_classes = w_lo >= kMinClassWeight && w_hi >= kMinClassWeight;
            if (!two_classes) break;
            const double lo_was = local_lo, hi_was = local_hi;
            local_lo = sum_lo / w_lo, local_hi = sum_hi / w_hi;
            // Means that stay put give the same split again.
            if (local_lo == lo_was && local_hi == hi_was) break;
        }
        if (!two_classes || local_hi - local_lo < kMinShare * distance) continue;
        threshold[i] = static_cast<float>(0.5 * (local_lo + local_hi));
        share[i] = static_cast<float>((local_hi - local_lo) / distance);
    }
}

}  // namespace appclip::vision
