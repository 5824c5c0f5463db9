// Check of the locator's window extremes (vision/window_extremes.hpp) against a plain scan of
// every window: for random rows (many ties among few values, zeros of both signs, and continuous
// values), and for window ends made as the ring check makes them and at random (never left of
// their start, never moving left), each lane's maximum and minimum and their indices (the later of equals)
// must be exactly what the scan finds. Run by tools/window_extremes_check.sh (tools/test.sh).
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "vision/window_extremes.hpp"

namespace {

constexpr int kLanes = 8;

struct Scan {
    float max, min;
    int max_at, min_at;
};

// The extremes of lane `l` over [m, last] by a plain scan; ties go to the later index.
Scan scan(const std::vector<float>& rows, int l, int m, int last) {
    Scan s{rows[static_cast<size_t>(m) * kLanes + l], rows[static_cast<size_t>(m) * kLanes + l], m, m};
    for (int k = m; k <= last; ++k) {
        const float v = rows[static_cast<size_t>(k) * kLanes + l];
        if (v >= s.max) s.max = v, s.max_at = k;
        if (v <= s.min) s.min = v, s.min_at = k;
    }
    return s;
}

}  // namespace

int main() {
    std::mt19937 rng(2026);
    appclip::vision::WindowExtremes<kLanes> extremes;
    int checked = 0, failed = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const int n = std::uniform_int_distribution<int>(1, 200)(rng);
        std::vector<float> rows(static_cast<size_t>(n) * kLanes);
        const bool ties = trial % 2 == 0;
        std::uniform_int_distribution<int> few(-3, 3);
        std::normal_distribution<float> wide(0.f, 10.f);
        // Zeros of either sign among the ties: -0 equals +0, so the later index takes it.
        for (float& v : rows) v = ties ? static_cast<float>(few(rng)) * (rng() % 2 ? 1.f : -1.f) : wide(rng);
        std::vector<int> end(n);
        if (trial % 3 != 0) {
            // As the ring check: each scale's window reaches 2.2 times its scale.
            const double r_lo = std::uniform_real_distribution<double>(0.0, 40.0)(rng);
            for (int m = 0; m < n; ++m) end[m] = std::min(n - 1, static_cast<int>(2.2 * (r_lo + m) - r_lo));
        } else {
            int last = 0;
            for (int m = 0; m < n; ++m) {
                last = std::min(n - 1, std::max(last, m) + std::uniform_int_distribution<int>(0, 3)(rng));
                end[m] = last;
            }
        }
        extremes.run(rows.data(), end.data(), n);
        for (int m = 0; m < n; ++m)
            for (int l = 0; l < kLanes; ++l) {
                const Scan s = scan(rows, l, m, end[m]);
                const size_t at = static_cast<size_t>(m) * kLanes + l;
                ++checked;
                if (extremes.max_value[at] != s.max || extremes.max_at[at] != s.max_at ||
                    extremes.min_value[at] != s.min || extremes.min_at[at] != s.min_at) {
                    if (++failed <= 5)
                        std::fprintf(stderr, "trial %d n %d m %d lane %d: max %g@%d min %g@%d, scan %g@%d %g@%d\n", trial, n,
                                     m, l, extremes.max_value[at], extremes.max_at[at], extremes.min_value[at],
                                     extremes.min_at[at], s.max, s.max_at, s.min, s.min_at);
                }
            }
    }
    std::printf("%d windows checked against a plain scan, %d failed\n", checked, failed);
    return failed == 0 ? 0 : 1;
}
