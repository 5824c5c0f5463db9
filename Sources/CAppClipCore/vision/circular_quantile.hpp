// An order statistic over a window sliding round a circle of values, kept sorted as it slides
// (one value out, one in) instead of selected afresh at every place: the light field's shadow
// levels took an nth_element of eleven values at each of a band's 360 degrees. Checked against
// nth_element at every place by tools/circular_quantile_check.sh.
#pragma once
#include <algorithm>

namespace appclip::vision {

// For each a in [0, n): of the values v[(a + d) mod n], d in [-kHalf, kHalf], that are not
// negative (a negative or NaN value is missing), m in all, the one nth_element would put at index
// (numerator * m) / denominator; or -1 when m < min_count. Needs 2 kHalf + 1 <= n (the window
// meets no value twice).
template <int kHalf>
void circular_quantiles(const float* v, int n, int numerator, int denominator, int min_count, float* out) {
    float sorted[2 * kHalf + 1];
    int m = 0;
    auto insert = [&](float x) {
        if (!(x >= 0)) return;
        int at = m;
        while (at > 0 && sorted[at - 1] > x) sorted[at] = sorted[at - 1], --at;
        sorted[at] = x;
        ++m;
    };
    auto remove = [&](float x) {
        if (!(x >= 0)) return;
        int at = 0;
        while (at < m && sorted[at] != x) ++at;   // (x is in the window)
        if (at == m) return;
        for (; at + 1 < m; ++at) sorted[at] = sorted[at + 1];
        --m;
    };
    for (int d = -kHalf; d <= kHalf; ++d) insert(v[(d + n) % n]);
    for (int a = 0; a < n; ++a) {
        if (a > 0) {
            remove(v[(a - kHalf - 1 + n) % n]);
            insert(v[(a + kHalf) % n]);
        }
        out[a] = m < min_count ? -1.f : sorted[(numerator * m) / denominator];
    }
}

}  // namespace appclip::vision
