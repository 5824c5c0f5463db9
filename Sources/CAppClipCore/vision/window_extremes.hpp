// Maxima and minima of a row over windows [m, end[m]] whose both ends never move left as m
// grows (the locator's ring check: each scale's window reaches to 2.2 times that scale).
// One call gives both, so the check's two polarities share the passes: the window maximum of
// the negated row is minus the window minimum. Ties go to the later index for both, as a
// monotonic queue that pops equal values keeps them.
#pragma once
#include <algorithm>
#include <vector>

namespace appclip::vision {

class WindowExtremes {
public:
    // `end[m]` >= m, nondecreasing, at most n - 1. Results in max_value/max_at/min_value/min_at.
    void run(const float* row, const int* end, int n) {
        // Per block of kBlock indices, the extremes from the block's start up to each index and
        // from each index to the block's end; a window is then the suffix of its first block,
        // the blocks it covers whole and the prefix of its last. Windows reaching the row's end
        // (most: they grow faster than they start) take the whole row's suffix instead.
        constexpr int kBlock = 16;
        prefix_.resize(n), suffix_.resize(n), tail_.resize(n);
        max_value.resize(n), max_at.resize(n), min_value.resize(n), min_at.resize(n);
        for (int start = 0; start < n; start += kBlock) {
            const int stop = std::min(n, start + kBlock);
            Extremes e{row[start], start, row[start], start};
            for (int k = start; k < stop; ++k) e.take_forward(row[k], k), prefix_[k] = e;
            e = Extremes{row[stop - 1], stop - 1, row[stop - 1], stop - 1};
            for (int k = stop - 1; k >= start; --k) e.take_backward(row[k], k), suffix_[k] = e;
        }
        Extremes e{row[n - 1], n - 1, row[n - 1], n - 1};
        for (int k = n - 1; k >= 0; --k) e.take_backward(row[k], k), tail_[k] = e;
        for (int m = 0; m < n; ++m) {
            const int last = end[m];
            const int first_block = m / kBlock, last_block = last / kBlock;
            if (last == n - 1) {
                e = tail_[m];
            } else if (first_block == last_block) {
                e = Extremes{row[m], m, row[m], m};
                for (int k = m; k <= last; ++k) e.take_forward(row[k], k);
            } else {
                e = suffix_[m];
                // A whole block's extremes are its first index's suffix.
                for (int b = first_block + 1; b < last_block; ++b) e.take_later(suffix_[b * kBlock]);
                e.take_later(prefix_[last]);
            }
            max_value[m] = e.max, max_at[m] = e.max_at, min_value[m] = e.min, min_at[m] = e.min_at;
        }
    }

    std::vector<float> max_value, min_value;
    std::vector<int> max_at, min_at;

private:
    struct Extremes {
        float max;
        int max_at;
        float min;
        int min_at;
        // Indices in increasing order: an equal value is later.
        void take_forward(float v, int k) {
            if (v >= max) max = v, max_at = k;
            if (v <= min) min = v, min_at = k;
        }
        // Indices in decreasing order: an equal value is earlier.
        void take_backward(float v, int k) {
            if (v > max) max = v, max_at = k;
            if (v < min) min = v, min_at = k;
        }
        // The extremes of a later stretch of the row.
        void take_later(const Extremes& o) {
            if (o.max >= max) max = o.max, max_at = o.max_at;
            if (o.min <= min) min = o.min, min_at = o.min_at;
        }
    };
    std::vector<Extremes> prefix_, suffix_, tail_;
};

}  // namespace appclip::vision
