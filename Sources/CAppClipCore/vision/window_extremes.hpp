// Maxima and minima of several rows at once over windows [m, end[m]] whose both ends never
// move left as m grows (the locator's ring check: each scale's window reaches to 2.2 times
// that scale, the same for all its rays). One call gives both, so the check's two polarities
// share the passes: the window maximum of the negated row is minus the window minimum. Ties go
// to the later index for both, as a monotonic queue that pops equal values keeps them. The
// rows are interleaved (index k of row l at k * Lanes + l) and every step is the same
// comparison in each lane, which the compiler runs on vectors.
#pragma once
#include <algorithm>
#include <cstring>
#include <vector>

#include "vector_clones.hpp"

namespace appclip::vision {

template <int Lanes>
class WindowExtremes {
public:
    // `end[m]` >= m, nondecreasing, at most n - 1. Results at m * Lanes + l.
    ACC_VECTOR_CLONES
    void run(const float* rows, const int* end, int n) {
        // Per block of kBlock indices, the extremes from the block's start up to each index and
        // from each index to the block's end; a window is then the suffix of its first block,
        // the blocks it covers whole and the prefix of its last. Windows reaching the rows' end
        // (most: they grow faster than they start) take the whole rows' suffix instead.
        constexpr int kBlock = 16;
        prefix_.resize(n), suffix_.resize(n), tail_.resize(n);
        max_value.resize(static_cast<size_t>(n) * Lanes), max_at.resize(static_cast<size_t>(n) * Lanes);
        min_value.resize(static_cast<size_t>(n) * Lanes), min_at.resize(static_cast<size_t>(n) * Lanes);
        // The windows from `to_end` on reach the rows' end (`end` is nondecreasing); those before
        // it end by `reach`, and only the blocks up to there need their prefixes and suffixes,
        // only the indices from `to_end` on the suffix to the end (the ring check's first
        // third of scales ends short of it).
        const int to_end = static_cast<int>(std::lower_bound(end, end + n, n - 1) - end);
        const int reach = to_end > 0 ? end[to_end - 1] : -1;
        Extremes e;
        for (int start = 0; start <= reach; start += kBlock) {
            const int stop = std::min(n, start + kBlock);
            e.reset(rows, start);
            for (int k = start; k < stop; ++k) e.template take<true>(rows, k), prefix_[k] = e;
            e.reset(rows, stop - 1);
            for (int k = stop - 1; k >= start; --k) e.template take<false>(rows, k), suffix_[k] = e;
        }
        e.reset(rows, n - 1);
        for (int k = n - 1; k >= to_end; --k) e.template take<false>(rows, k), tail_[k] = e;
        for (int m = 0; m < n; ++m) {
            const int last = end[m];
            const int first_block = m / kBlock, last_block = last / kBlock;
            if (last == n - 1) {
                e = tail_[m];
            } else if (first_block == last_block) {
                e.reset(rows, m);
                for (int k = m; k <= last; ++k) e.template take<true>(rows, k);
            } else {
                e = suffix_[m];
                // A whole block's extremes are its first index's suffix.
                for (int b = first_block + 1; b < last_block; ++b) e.take_later(suffix_[b * kBlock]);
                e.take_later(prefix_[last]);
            }
            const size_t at = static_cast<size_t>(m) * Lanes;
            for (int l = 0; l < Lanes; ++l) {
                max_value[at + l] = e.max[l], max_at[at + l] = e.max_at[l];
                min_value[at + l] = e.min[l], min_at[at + l] = e.min_at[l];
            }
        }
    }

    std::vector<float> max_value, min_value;
    std::vector<int> max_at, min_at;

private:
    struct Extremes {
        float max[Lanes], min[Lanes];
        int max_at[Lanes], min_at[Lanes];
        void reset(const float* rows, int k) {
            for (int l = 0; l < Lanes; ++l) {
                max[l] = min[l] = rows[k * Lanes + l];
                max_at[l] = min_at[l] = k;
            }
        }
        // Index k's values, the indices met in increasing order (an equal value is later, so
        // it is taken) or in decreasing order (an equal value is earlier, so it is not).
        template <bool Increasing>
        void take(const float* rows, int k) {
            float v[Lanes];
            std::memcpy(v, rows + static_cast<size_t>(k) * Lanes, sizeof v);   // no aliasing: vectors
            for (int l = 0; l < Lanes; ++l) {
                const bool above = Increasing ? v[l] >= max[l] : v[l] > max[l];
                const bool below = Increasing ? v[l] <= min[l] : v[l] < min[l];
                max[l] = above ? v[l] : max[l], max_at[l] = above ? k : max_at[l];
                min[l] = below ? v[l] : min[l], min_at[l] = below ? k : min_at[l];
            }
        }
        // The extremes of a later stretch of the rows. The places are chosen by masks from the
        // signs of the differences: chosen with `?:` between two loads, the compiler loaded each
        // lane's place from a chosen address, one lane at a time.
        void take_later(const Extremes& o) {
            for (int l = 0; l < Lanes; ++l) {
                const int above = ~negative_mask(o.max[l] - max[l]), below = ~negative_mask(min[l] - o.min[l]);
                max_at[l] = (o.max_at[l] & above) | (max_at[l] & ~above);
                min_at[l] = (o.min_at[l] & below) | (min_at[l] & ~below);
                // (The later stretch's value first: of equals, a -0 and a +0 too, it is the one kept.)
                max[l] = std::max(o.max[l], max[l]), min[l] = std::min(o.min[l], min[l]);
            }
        }
        // All ones when the difference x of two finite floats is negative, else zero. Rounding
        // keeps a difference's sign and gives zero only for equal values (gradual underflow);
        // + 0 makes the one -0 (from -0 - +0) +0.
        static int negative_mask(float x) {
            const float signed_zero_free = x + 0.f;
            int bits;
            std::memcpy(&bits, &signed_zero_free, sizeof bits);
            return -static_cast<int>(static_cast<unsigned>(bits) >> 31);
        }
    };
    std::vector<Extremes> prefix_, suffix_, tail_;
};

}  // namespace appclip::vision
