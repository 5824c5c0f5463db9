// Sums of a comb of stroke edges along a ray's derivative profile, at a range of scales.
// Every ray of one scan shares the comb's tap positions at each scale, so they are worked
// out once per scan instead of once per ray and scale (the locator's ring check and the
// rough fit's scale search spent most of their time there).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vector_clones.hpp"

namespace appclip::vision {

// A ray through a code crosses ten stroke edges, and also the disc's rim, a card's edge or
// clutter, which on a faint print over a contrasting card can be many times stronger: one
// such edge under a single tooth would outweigh the comb's agreement across all ten.
// The level the comb's derivative d[0..n) is clipped to: its fourth strongest edge (local
// maximum of |d|); infinity when it has fewer than four. `peaks` is scratch: the local maxima
// are found first, in a loop of their own that runs on vectors (every sample is tested; in
// one loop with the ranking, the tests' branches were half of the rough fit's ray scan).
inline float outline_clip(const float* d, int n, std::vector<float>& peaks) {
    if (n < 3) return std::numeric_limits<float>::infinity();
    // The fourth largest height: each of kLanes lanes keeps the four largest of its samples
    // (taken in turn by max and min, no branch: a ranking with a test per sample was most of
    // the ring check's and the rough fit's profile time). Zeros pad the last block: they
    // change no ranking of heights, which are never negative.
    constexpr int kLanes = 8;
    peaks.resize(static_cast<size_t>(n) + kLanes);
    float* height = peaks.data();
    for (int j = 1; j + 1 < n; ++j) {
        const float a = std::abs(d[j]);
        height[j] = a >= std::max(std::abs(d[j - 1]), std::abs(d[j + 1])) ? a : 0.f;
    }
    std::fill(height + n - 1, height + n + kLanes, 0.f);
    float top[4][kLanes] = {};   // top[k][i]: lane i's (k+1)-th largest
    for (int j = 1; j + 1 < n; j += kLanes)
        for (int i = 0; i < kLanes; ++i) {
            float a = height[j + i];
            for (int k = 0; k < 4; ++k) {
                const float larger = std::max(top[k][i], a);
                a = std::min(top[k][i], a);
                top[k][i] = larger;
            }
        }
    // Lanes folded in halves. Of two lists sorted largest first, the larger of each's k-th and
    // the other's (3-k)-th are together the four largest of both (a bitonic half-cleaner),
    // sorted again by two rounds of compare-exchange.
    auto exchange = [](float& hi, float& lo) {
        const float larger = std::max(hi, lo);
        lo = std::min(hi, lo);
        hi = larger;
    };
    for (int half = kLanes / 2; half >= 1; half /= 2)
        for (int i = 0; i < half; ++i) {
            float c[4];
            for (int k = 0; k < 4; ++k) c[k] = std::max(top[k][i], top[3 - k][i + half]);
            exchange(c[0], c[2]), exchange(c[1], c[3]);
            exchange(c[0], c[1]), exchange(c[2], c[3]);
            for (int k = 0; k < 4; ++k) top[k][i] = c[k];
        }
    return top[3][0] > 0 ? top[3][0] : std::numeric_limits<float>::infinity();
}

class CombTable {
public:
    // Taps at r * comb[e] for r = r_lo + r_step * m (m < count, e < teeth, comb increasing).
    // A scale's comb ends at the first tap whose right neighbour sample is at or past `limit`.
    // Scans often ask for the same table again (the ring check of most levels, the rough
    // fit's first pass): then the last one is kept.
    void build(const double* comb, int teeth, double r_lo, double r_step, int count, int limit) {
        if (teeth == teeth_ && r_lo == r_lo_ && r_step == r_step_ && count == count_ && limit == limit_ &&
            std::equal(comb, comb + teeth, comb_.begin()))
            return;
        comb_.assign(comb, comb + teeth);
        r_lo_ = r_lo, r_step_ = r_step, count_ = count, limit_ = limit;
        teeth_ = teeth;
        index_.resize(static_cast<size_t>(count) * teeth);
        fraction_.resize(index_.size());
        reach_.resize(count);
        for (int m = 0; m < count; ++m) {
            const double r = r_lo + r_step * m;
            int e = 0;
            for (; e < teeth; ++e) {
                const double x = r * comb[e];
                const int j = static_cast<int>(x);
                if (j + 1 >= limit) break;
                index_[static_cast<size_t>(m) * teeth + e] = j;
                fraction_[static_cast<size_t>(m) * teeth + e] = x - j;
            }
            reach_[m] = e;
        }
    }

    // Per profile i < N, Σ over the taps of scale m of the linearly interpolated profile, the
    // rising edges (even taps) counted positive and the falling ones negative, taken in pairs
    // in tap order. The N profiles are stored interleaved (sample t of profile i at t * N + i):
    // every profile's taps are the same, so each step works on N neighbouring floats, which
    // the compiler turns into vector instructions.
    template <int N>
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((always_inline))   // into float_sums8's AVX2 build too
#endif
    void sums(const float* interleaved, int m, double* out) const {
        const int* j = index_.data() + static_cast<size_t>(m) * teeth_;
        const double* f = fraction_.data() + static_cast<size_t>(m) * teeth_;
        const int reach = reach_[m];
        double s[N] = {};
        int e = 0;
        for (; e + 1 < reach; e += 2) {
            const float* rise = interleaved + static_cast<size_t>(j[e]) * N;
            const float* fall = interleaved + static_cast<size_t>(j[e + 1]) * N;
            const double fr = f[e], ff = f[e + 1];
            for (int i = 0; i < N; ++i) {
                s[i] += rise[i] + fr * (rise[N + i] - rise[i]);
                s[i] -= fall[i] + ff * (fall[N + i] - fall[i]);
            }
        }
        if (e < reach) {
            const float* p = interleaved + static_cast<size_t>(j[e]) * N;
            for (int i = 0; i < N; ++i) s[i] += p[i] + f[e] * (p[N + i] - p[i]);
        }
        for (int i = 0; i < N; ++i) out[i] = s[i];
    }

    // sums<8> at every scale m < count (the table's count at most), as floats, out[m * 8 + i]:
    // the ring check's eight rays. Built for AVX2 too (vector_clones.hpp), which a member
    // template cannot be: four doubles per instruction instead of two. (The rough fit's
    // blocks of four rays the same way were slower: 1080p +1.9 %.)
    ACC_VECTOR_CLONES void float_sums8(const float* interleaved, int count, float* out) const;

private:
    int teeth_ = 0;
    std::vector<double> comb_;   // what the table was built for
    double r_lo_ = 0, r_step_ = 0;
    int count_ = -1, limit_ = -1;
    std::vector<int> index_;
    std::vector<double> fraction_;
    std::vector<int> reach_;
};

}  // namespace appclip::vision
