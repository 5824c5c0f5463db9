#include "symmetric_centres.hpp"

#include <algorithm>
#include <cmath>

#include "branchless_list.hpp"
#include "vector_clones.hpp"
#include "vote_filters.hpp"

namespace appclip::vision {
namespace {

constexpr int kDirectionBins = 32;
// Opposite within 15 degrees: a bin either side of the opposite one is searched.
constexpr float kMinOpposition = 0.9659f;   // cos 15 degrees
// The chord between a pair must cross the first pixel's edge, not run along it: for a circle
// it runs along the gradient; at the views the locator covers (axis ratios from 0.2) it
// stays within ~70 degrees of it, while pairs from two straight edges side by side do not.
constexpr float kMinChordAlongGradient = 0.3f;

// The place on the half-pixel midpoint grid (see find_near) of the voter's pairs.
struct MidpointGrid {
    float twice_ox, twice_oy;   // the grid's origin, in half pixels
    int extent;                 // half positions 0 .. extent - 1 are counted
    int row_step;               // of the grid, which has a guard row and column first
};

// Whether each partner b in [lo, hi) pairs with the voter (px, py, pgx, pgy) with its midpoint
// on the grid, and the grid cell of that midpoint: in a loop of its own, every test in each lane
// alike, which the compiler runs on vectors (AVX2 as well).
ACC_VECTOR_CLONES
void pair_tests(const float* fx, const float* fy, const float* fgx, const float* fgy, const float* fnorm2, int lo,
                int hi, float px, float py, float pgx, float pgy, float pnorm2, float min2, float max2,
                const MidpointGrid& grid, unsigned char* keep, int* cell) {
    constexpr float opposition2 = kMinOpposition * kMinOpposition;
    constexpr float along2 = kMinChordAlongGradient * kMinChordAlongGradient;
    const float twice_ox = grid.twice_ox, twice_oy = grid.twice_oy;
    const int extent = grid.extent, row_step = grid.row_step;
    for (int b = lo; b < hi; ++b) {
        const float dx = fx[b] - px, dy = fy[b] - py;
        const float d2 = dx * dx + dy * dy;
        const float dot = pgx * fgx[b] + pgy * fgy[b];
        const float along = dx * pgx + dy * pgy;
        // (Sums of whole pixels: exact as floats.)
        const int hx = static_cast<int>(px + fx[b] - twice_ox), hy = static_cast<int>(py + fy[b] - twice_oy);
        keep[b - lo] = (d2 >= min2) & (d2 <= max2) & (dot < 0) & (dot * dot >= opposition2 * pnorm2 * fnorm2[b]) &
                       (along * along >= along2 * d2 * pnorm2) & (hx >= 0) & (hy >= 0) & (hx < extent) &
                       (hy < extent);
        cell[b - lo] = (hy + 1) * row_step + hx + 1;
    }
}

int direction_bin(float gx, float gy) {
    const float a = std::atan2(gy, gx);   // -pi..pi
    const int bin = static_cast<int>((a + 3.14159265f) * (kDirectionBins / 6.2831853f));
    return std::clamp(bin, 0, kDirectionBins - 1);
}

}  // namespace

bool SymmetricCentres::find_near(const std::vector<EdgeVoter>& voters, const cv::Point2d& centre, SymmetricPeak& out) {
    // The plane holds midpoints within kNearRadius (and the blur's margin); a pair with its
    // midpoint there has both ends within kNearRadius + kMaxPairDistance / 2.
    constexpr int side = 2 * kNearRadius + 5, half = side / 2;
    const int ox = static_cast<int>(std::lround(centre.x)) - half, oy = static_cast<int>(std::lround(centre.y)) - half;
    const int reach = half + kMaxPairDistance / 2 + 1;
    const int cx = ox + half, cy = oy + half;
    bin_start_.assign(kDirectionBins + 1, 0);
    local_.clear();
    // Only the rows within reach are looked at (the voters are in raster order).
    auto row = std::lower_bound(voters.begin(), voters.end(), cy - reach,
                                [](const EdgeVoter& v, int y) { return v.y < y; });
    for (; row != voters.end() && row->y <= cy + reach; ++row)
        if (std::abs(row->x - cx) <= reach) local_.push_back(*row);
    if (local_.size() > kMaxNearVoters) {
        const auto kth = local_.begin() + static_cast<std::ptrdiff_t>(kMaxNearVoters);
        std::nth_element(local_.begin(), kth, local_.end(), [](const EdgeVoter& a, const EdgeVoter& b) {
            return std::abs(a.gx) + std::abs(a.gy) > std::abs(b.gx) + std::abs(b.gy);
        });
        local_.resize(kMaxNearVoters);
    }
    const int n = static_cast<int>(local_.size());
    bin_of_.resize(n);
    for (int i = 0; i < n; ++i) {
        bin_of_[i] = direction_bin(local_[i].gx, local_[i].gy);
        ++bin_start_[bin_of_[i] + 1];
    }
    for (int b = 1; b <= kDirectionBins; ++b) bin_start_[b] += bin_start_[b - 1];
    order_.resize(n);
    for (int i = 0; i < n; ++i) order_[bin_start_[bin_of_[i]]++] = i;
    for (int b = kDirectionBins; b > 0; --b) bin_start_[b] = bin_start_[b - 1];
    bin_start_[0] = 0;

    // Midpoints of whole pixels fall on a half-pixel grid: each is counted there (one add),
    // and the plane's cells gather the counts afterwards (see below).
    constexpr int half_side = 2 * side + 1;   // half-pixel positions -1 .. 2 side - 1
    midpoints_.assign(static_cast<size_t>(half_side) * half_side, 0);
    const int min2 = kMinPairDistance * kMinPairDistance, max2 = kMaxPairDistance * kMaxPairDistance;
    // The voters in bin order, as floats (one array per field: the inner loop below runs
    // over a bin's stretch of each), with squared gradient lengths so that no test needs a root.
    for (std::vector<float>* field : {&fx_, &fy_, &fgx_, &fgy_, &fnorm2_}) field->resize(n);
    for (int k = 0; k < n; ++k) {
        const EdgeVoter& v = local_[order_[k]];
        fx_[k] = v.x, fy_[k] = v.y, fgx_[k] = v.gx, fgy_[k] = v.gy;
        fnorm2_[k] = fgx_[k] * fgx_[k] + fgy_[k] * fgy_[k];
    }
    const float min2f = static_cast<float>(min2), max2f = static_cast<float>(max2);
    // Midpoints in half plane cells, kept off the plane's last row and column (as each takes
    // the cell after it too).
    const MidpointGrid grid{static_cast<float>(2 * ox), static_cast<float>(2 * oy), 2 * (side - 1), half_side};
    partners_.resize(static_cast<size_t>(n) + 1);
    keep_.resize(static_cast<size_t>(n) + 1);
    cells_.resize(static_cast<size_t>(n) + 1);
    // Each pair once: from each bin to the opposite ones after it.
    for (int bin = 0; bin < kDirectionBins; ++bin)
        for (int db = kDirectionBins / 2 - 1; db <= kDirectionBins / 2 + 1; ++db) {
            const int other = (bin + db) % kDirectionBins;
            if (other <= bin) continue;
            for (int a = bin_start_[bin]; a < bin_start_[bin + 1]; ++a) {
                // The partners that pass the pair tests (list_where: which pairs pass is noise to
                // the branch predictor), then their midpoints.
                int* partners = partners_.data();
                const int lo = bin_start_[other], hi = bin_start_[other + 1];
                pair_tests(fx_.data(), fy_.data(), fgx_.data(), fgy_.data(), fnorm2_.data(), lo, hi, fx_[a], fy_[a],
                           fgx_[a], fgy_[a], fnorm2_[a], min2f, max2f, grid, keep_.data(), cells_.data());
                const unsigned char* keep = keep_.data();
                const int passed = list_where(0, hi - lo, [keep](int j) { return keep[j] != 0; }, partners);
                for (int k = 0; k < passed; ++k) ++midpoints_[static_cast<size_t>(cells_[partners[k]])];
            }
        }
    // Each midpoint gives a quarter vote to each of the (up to) four cells it falls between, a
    // half to each of two when it lies on a cell's row or column, a whole one when on a cell:
    // in each direction the weights 0.5, 1, 0.5 over the half positions 2x - 1, 2x, 2x + 1.
    // (Sums of quarters: exact, whatever their order.)
    votes_.create(side, side, CV_32F);
    for (int y = 0; y < side; ++y) {
        float* cell = votes_.ptr<float>(y);
        const int* above = midpoints_.data() + static_cast<size_t>(2 * y) * half_side + 1;
        const int* on = above + half_side;
        const int* below = on + half_side;
        for (int x = 0; x < side; ++x) {
            const int h = 2 * x;
            const float row_above = 0.5f * static_cast<float>(above[h - 1] + above[h + 1]) + static_cast<float>(above[h]);
            const float row_on = 0.5f * static_cast<float>(on[h - 1] + on[h + 1]) + static_cast<float>(on[h]);
            const float row_below = 0.5f * static_cast<float>(below[h - 1] + below[h + 1]) + static_cast<float>(below[h]);
            cell[x] = 0.5f * (row_above + row_below) + row_on;
        }
    }
    gaussian5_sigma1(votes_, rows_, smooth_);
    const cv::Mat& s = smooth_;
    float best = 0;
    int bx = -1, by = -1;
    for (int y = 1; y < side - 1; ++y) {
        const float* row = s.ptr<float>(y);
        for (int x = 1; x < side - 1; ++x) {
            if ((x - half) * (x - half) + (y - half) * (y - half) > kNearRadius * kNearRadius) continue;
            if (row[x] > best) best = row[x], bx = x, by = y;
        }
    }
    if (best < kMinPeakVotes) return false;
    const float* peak_row = s.ptr<float>(by);
    const double fx = peak_offset(peak_row[bx - 1], best, peak_row[bx + 1]);
    const double fy = peak_offset(s.ptr<float>(by - 1)[bx], best, s.ptr<float>(by + 1)[bx]);
    out = SymmetricPeak{cv::Point2d(ox + bx + fx, oy + by + fy), best};
    return true;
}

}  // namespace appclip::vision
