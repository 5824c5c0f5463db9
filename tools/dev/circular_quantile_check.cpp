// Check of the sliding order statistic (vision/circular_quantile.hpp) against nth_element over
// each window gathered afresh, as the light field's shadow levels were computed before it:
// random circles of values with missing ones (negative, NaN), many ties (zeros of both signs
// among them) and continuous values, windows of several half-widths, ranks and minimum counts.
// Run by tools/circular_quantile_check.sh (tools/test.sh).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "vision/circular_quantile.hpp"

namespace {

constexpr int kMaxHalf = 8;

float plain(const std::vector<float>& v, int a, int half, int numerator, int denominator, int min_count) {
    const int n = static_cast<int>(v.size());
    std::vector<float> window;
    for (int d = -half; d <= half; ++d) {
        const float x = v[static_cast<size_t>((a + d + n) % n)];
        if (x >= 0) window.push_back(x);
    }
    const int m = static_cast<int>(window.size());
    if (m < min_count) return -1.f;
    std::nth_element(window.begin(), window.begin() + (numerator * m) / denominator, window.end());
    return window[static_cast<size_t>((numerator * m) / denominator)];
}

// The half-width is the function's template argument: one instance per half-width checked.
template <int kHalf>
void run(const std::vector<float>& v, int half, int numerator, int denominator, int min_count, float* out) {
    if constexpr (kHalf < kMaxHalf) {
        if (half != kHalf) return run<kHalf + 1>(v, half, numerator, denominator, min_count, out);
    }
    appclip::vision::circular_quantiles<kHalf>(v.data(), static_cast<int>(v.size()), numerator, denominator, min_count,
                                               out);
}

}  // namespace

int main() {
    std::mt19937 rng(2026);
    int checked = 0, failed = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int half = std::uniform_int_distribution<int>(0, kMaxHalf)(rng);
        const int n = std::uniform_int_distribution<int>(2 * half + 1, 400)(rng);
        const int denominator = std::uniform_int_distribution<int>(1, 5)(rng);
        const int numerator = std::uniform_int_distribution<int>(0, denominator - 1)(rng);
        const int min_count = std::uniform_int_distribution<int>(1, 2 * half + 1)(rng);
        const float missing = trial % 5 == 0 ? 0.4f : trial % 5 == 1 ? 0.f : 0.1f;
        std::vector<float> v(static_cast<size_t>(n));
        std::uniform_int_distribution<int> few(0, 3);
        std::uniform_real_distribution<float> wide(0.f, 255.f), unit(0.f, 1.f);
        for (float& x : v) {
            if (unit(rng) < missing) x = rng() % 4 == 0 ? std::numeric_limits<float>::quiet_NaN() : -1.f;
            else if (trial % 2 == 0) x = static_cast<float>(few(rng));
            else x = wide(rng);
            if (trial % 2 == 0 && x == 0 && rng() % 2) x = -0.f;   // -0 is present, not missing
        }
        std::vector<float> out(static_cast<size_t>(n));
        run<0>(v, half, numerator, denominator, min_count, out.data());
        for (int a = 0; a < n; ++a) {
            const float want = plain(v, a, half, numerator, denominator, min_count);
            ++checked;
            if (!(out[static_cast<size_t>(a)] == want)) {
                if (++failed <= 5)
                    std::fprintf(stderr, "trial %d n %d half %d rank %d/%d min %d at %d: %g, plain %g\n", trial, n, half,
                                 numerator, denominator, min_count, a, out[static_cast<size_t>(a)], want);
            }
        }
    }
    std::printf("%d windows checked against nth_element, %d failed\n", checked, failed);
    return failed == 0 ? 0 : 1;
}
