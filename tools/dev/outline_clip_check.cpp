// Check of the comb's clip level (vision/comb_table.hpp, outline_clip) against what it stands
// for: the fourth largest local maximum of |d| (a sample at least as high as both neighbours),
// found here by listing every such sample and sorting; infinity with fewer than four, or when
// the fourth is 0. Random profiles: many ties among few values, zeros of both signs, continuous
// values, and lengths 0 to 300 (the lane blocks' remainders all covered). Run by
// tools/outline_clip_check.sh (tools/test.sh).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "vision/comb_table.hpp"

namespace {

float plain_clip(const std::vector<float>& d) {
    const int n = static_cast<int>(d.size());
    std::vector<float> maxima;
    for (int j = 1; j + 1 < n; ++j) {
        const float a = std::abs(d[j]);
        if (a >= std::abs(d[j - 1]) && a >= std::abs(d[j + 1])) maxima.push_back(a);
    }
    if (maxima.size() < 4) return std::numeric_limits<float>::infinity();
    std::sort(maxima.begin(), maxima.end(), std::greater<float>());
    return maxima[3] > 0 ? maxima[3] : std::numeric_limits<float>::infinity();
}

}  // namespace

int main() {
    std::mt19937 rng(2026);
    std::vector<float> scratch;
    int checked = 0, failed = 0;
    for (int trial = 0; trial < 60000; ++trial) {
        const int n = std::uniform_int_distribution<int>(0, 300)(rng);
        std::vector<float> d(static_cast<size_t>(n));
        std::uniform_int_distribution<int> few(-3, 3);
        std::normal_distribution<float> wide(0.f, 10.f);
        const int kind = trial % 3;
        for (float& v : d) {
            if (kind == 0) v = static_cast<float>(few(rng)) * (rng() % 2 ? 1.f : -1.f);   // ties, -0 and +0
            else if (kind == 1) v = wide(rng);
            else v = rng() % 8 == 0 ? wide(rng) * 10.f : 0.f;   // a few edges in a flat profile
        }
        const float got = appclip::vision::outline_clip(d.data(), n, scratch);
        const float want = plain_clip(d);
        ++checked;
        if (got != want) {
            if (++failed <= 5) std::fprintf(stderr, "trial %d n %d: clip %g, plain %g\n", trial, n, got, want);
        }
    }
    std::printf("%d profiles checked against a plain ranking, %d failed\n", checked, failed);
    return failed == 0 ? 0 : 1;
}
