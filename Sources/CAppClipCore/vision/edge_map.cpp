#include "edge_map.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include <opencv2/imgproc.hpp>

#include "branchless_list.hpp"
#include "vector_clones.hpp"

namespace appclip::vision {
namespace {

// tan(22.5 deg) in 15-bit fixed point: the sector boundaries of the gradient direction.
constexpr int kShift = 15;
constexpr int kTan22 = 13573;

// Crests not yet reached by hysteresis (weak or strong) sort first: one comparison finds them.
enum State : uint8_t { kWeak = 0, kStrong = 1, kNone = 2, kEdge = 3, kDropped = 4 };

// Whether the pixel with magnitude m and gradient (gx, gy) is a crest across its gradient:
// strictly over the neighbour behind, at least the one ahead (strictly both on diagonals).
// `at(ox, oy)` is the magnitude of the neighbour at that offset (0 outside the image).
template <typename At>
inline bool crest(int m, int gx, int gy, At at) {
    const int ax = std::abs(gx), ay = std::abs(gy) << kShift;
    const int tan22x = ax * kTan22;
    if (ay < tan22x) return m > at(-1, 0) && m >= at(1, 0);
    const int tan67x = tan22x + (ax << (kShift + 1));
    if (ay > tan67x) return m > at(0, -1) && m >= at(0, 1);
    const int s = (gx ^ gy) < 0 ? -1 : 1;
    return m > at(-s, -1) && m > at(s, 1);
}

// crest() over a row's inner pixels (x = 1 .. w-2 of a row with rows above and below),
// in 16-bit arithmetic and without branches, so that the compiler runs it on vectors: every
// pixel's three neighbour pairs are read and its gradient's sector picks one. With
// t = ax·tan 22.5° (ax ≤ 1020, so ax·13573 is never a multiple of 2^15 unless 0), crest()'s
// sector tests ay·2^15 < ax·13573 and ay·2^15 > ax·(13573 + 2^16) read ay ≤ ⌊t⌋ and
// ay > 2 ax + ⌊t⌋, where ⌊t⌋ = (ax · 2·13573) >> 16. `state` gets kStrong or kWeak, or stays.
ACC_VECTOR_CLONES
void inner_crests(const short* gx, const short* gy, const short* mag, const short* above, const short* below, int w,
                  int low, int high, uint8_t* state) {
    const short low16 = static_cast<short>(low), high16 = static_cast<short>(high);
    for (int x = 1; x + 1 < w; ++x) {
        const short m = mag[x], sx = gx[x], sy = gy[x];
        const short ax = static_cast<short>(sx < 0 ? -sx : sx), ay = static_cast<short>(sy < 0 ? -sy : sy);
        const short tan22 = static_cast<short>((ax * (2 * kTan22)) >> 16);
        const short tan67 = static_cast<short>(2 * ax + tan22);
        const bool same_sign = (sx ^ sy) >= 0;   // s = +1 in crest()
        const int across_x = (m > mag[x - 1]) & (m >= mag[x + 1]);
        const int across_y = (m > above[x]) & (m >= below[x]);
        // Both diagonals tested, then one chosen: choosing the neighbours to read instead
        // (`?:` between loads) made the compiler read them one lane at a time.
        const int falling = (m > above[x - 1]) & (m > below[x + 1]), rising = (m > above[x + 1]) & (m > below[x - 1]);
        const int diagonal = same_sign ? falling : rising;
        const int horizontal = ay <= tan22, vertical = ay > tan67;
        const int crest_here = (horizontal & across_x) | (vertical & across_y) | ((1 - horizontal - vertical) & diagonal);
        const int kept = (m > low16) & crest_here;
        // kNone (2) where not kept, else kStrong (1) or kWeak (0).
        state[x] = static_cast<uint8_t>(kNone - kept * (kNone - (m > high16)));
    }
}

}  // namespace

ACC_VECTOR_CLONES
void l1_magnitude(const cv::Mat& dx, const cv::Mat& dy, cv::Mat& magnitude) {
    magnitude.create(dx.rows, dx.cols, CV_16S);
    for (int y = 0; y < dx.rows; ++y) {
        const short* gx = dx.ptr<short>(y);
        const short* gy = dy.ptr<short>(y);
        short* mag = magnitude.ptr<short>(y);
        for (int x = 0; x < dx.cols; ++x) mag[x] = static_cast<short>(std::abs(gx[x]) + std::abs(gy[x]));
    }
}

void EdgeMap::trace(const cv::Mat& image, int low, int high, int min_extent, cv::Mat& edges) {
    cv::spatialGradient(image, dx_, dy_, 3, cv::BORDER_REPLICATE);
    l1_magnitude(dx_, dy_, magnitude_);
    trace_gradients(dx_, dy_, magnitude_, low, high, min_extent, edges);
}

void EdgeMap::trace(const cv::Mat& image, cv::Mat& dx, cv::Mat& dy, cv::Mat& magnitude, int low, int high,
                    int min_extent, cv::Mat& edges) {
    replicate_border(image, dx, dy, magnitude);
    trace_gradients(dx, dy, magnitude, low, high, min_extent, edges);
}

void EdgeMap::replicate_border(const cv::Mat& image, cv::Mat& dx, cv::Mat& dy, cv::Mat& magnitude) {
    const int w = image.cols, h = image.rows;
    auto p = [&](int x, int y) { return int{image.ptr<uchar>(std::clamp(y, 0, h - 1))[std::clamp(x, 0, w - 1)]}; };
    auto redo = [&](int x, int y) {
        // The 3x3 Sobel pair (integer sums: any order gives the same values).
        const int gx = (p(x + 1, y - 1) - p(x - 1, y - 1)) + 2 * (p(x + 1, y) - p(x - 1, y)) + (p(x + 1, y + 1) - p(x - 1, y + 1));
        const int gy = (p(x - 1, y + 1) - p(x - 1, y - 1)) + 2 * (p(x, y + 1) - p(x, y - 1)) + (p(x + 1, y + 1) - p(x + 1, y - 1));
        dx.ptr<short>(y)[x] = static_cast<short>(gx);
        dy.ptr<short>(y)[x] = static_cast<short>(gy);
        magnitude.ptr<short>(y)[x] = static_cast<short>(std::abs(gx) + std::abs(gy));
    };
    for (int x = 0; x < w; ++x) redo(x, 0), redo(x, h - 1);
    for (int y = 1; y + 1 < h; ++y) redo(0, y), redo(w - 1, y);
}

void EdgeMap::trace_gradients(const cv::Mat& dx, const cv::Mat& dy, const cv::Mat& magnitude, int low, int high,
                              int min_extent, cv::Mat& edges) {
    const int w = dx.cols, h = dx.rows, stride = w + 2;
    // Thinning: crests over `low`, those over `high` seeds of the curves.
    state_.assign(static_cast<size_t>(stride) * (h + 2), kNone);
    for (int y = 0; y < h; ++y) {
        const short* gx = dx.ptr<short>(y);
        const short* gy = dy.ptr<short>(y);
        const short* mag = magnitude.ptr<short>(y);
        const short* above = y > 0 ? magnitude.ptr<short>(y - 1) : nullptr;
        const short* below = y + 1 < h ? magnitude.ptr<short>(y + 1) : nullptr;
        uint8_t* state = state_.data() + static_cast<size_t>(y + 1) * stride + 1;
        // The frame's edge pixels, whose neighbours may lie outside (read as 0). Captured by
        // value: a reference would take w's address, and the byte stores of the output loop
        // below could then alias it, which keeps that loop off vectors.
        auto edge_pixel = [=](int x) {
            const int m = mag[x];
            if (m <= low) return;
            const bool kept = crest(m, gx[x], gy[x], [&](int ox, int oy) {
                const short* row = oy < 0 ? above : oy > 0 ? below : mag;
                const int nx = x + ox;
                return row != nullptr && nx >= 0 && nx < w ? int{row[nx]} : 0;
            });
            if (kept) state[x] = m > high ? kStrong : kWeak;
        };
        if (above == nullptr || below == nullptr || w < 3) {
            for (int x = 0; x < w; ++x) edge_pixel(x);
            continue;
        }
        edge_pixel(0);
        inner_crests(gx, gy, mag, above, below, w, low, high, state);
        edge_pixel(w - 1);
    }
    // Seeds in raster order, as the curves are traced from them (list_where: which pixels are
    // seeds is noise to the branch predictor). The buffer only ever grows.
    if (seeds_.size() < state_.size() + 1) seeds_.resize(state_.size() + 1);
    const uint8_t* states = state_.data();
    int* seed_list = seeds_.data();
    const int seed_count = list_where(0, static_cast<int>(state_.size()),
                                      [states](int i) { return states[i] == kStrong; }, seed_list);
    // Hysteresis, one curve at a time: everything 8-connected to a seed through crests.
    const int offsets[8] = {-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1};
    const int step_x[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, step_y[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    for (int k = 0; k < seed_count; ++k) {
        const int seed = seed_list[k];
        if (state_[seed] != kStrong) continue;
        state_[seed] = kEdge;
        const int sx = seed % stride, sy = seed / stride;
        stack_.assign(1, Visit{seed, sx, sy});
        curve_.assign(1, seed);
        int x0 = sx, x1 = sx, y0 = sy, y1 = sy;
        while (!stack_.empty()) {
            const Visit v = stack_.back();
            stack_.pop_back();
            for (int k = 0; k < 8; ++k) {
                const int next = v.at + offsets[k];
                if (state_[next] > kStrong) continue;
                state_[next] = kEdge;
                const int x = v.x + step_x[k], y = v.y + step_y[k];
                stack_.push_back(Visit{next, x, y});
                curve_.push_back(next);
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
        }
        if (std::max(x1 - x0, y1 - y0) + 1 < min_extent)
            for (const int p : curve_) state_[p] = kDropped;
    }
    edges.create(h, w, CV_8U);
    for (int y = 0; y < h; ++y) {
        const uint8_t* state = state_.data() + static_cast<size_t>(y + 1) * stride + 1;
        uint8_t* out = edges.ptr<uint8_t>(y);
        for (int x = 0; x < w; ++x) out[x] = state[x] == kEdge ? 255 : 0;
    }
}

}  // namespace appclip::vision
