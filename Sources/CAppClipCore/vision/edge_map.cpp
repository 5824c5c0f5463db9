#include "edge_map.hpp"

#include <algorithm>
#include <cstdlib>

#include <opencv2/imgproc.hpp>

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

}  // namespace

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
    seeds_.clear();
    for (int y = 0; y < h; ++y) {
        const short* gx = dx.ptr<short>(y);
        const short* gy = dy.ptr<short>(y);
        const short* mag = magnitude.ptr<short>(y);
        const short* above = y > 0 ? magnitude.ptr<short>(y - 1) : nullptr;
        const short* below = y + 1 < h ? magnitude.ptr<short>(y + 1) : nullptr;
        const bool inner_row = above != nullptr && below != nullptr;
        uint8_t* state = state_.data() + static_cast<size_t>(y + 1) * stride + 1;
        for (int x = 0; x < w; ++x) {
            const int m = mag[x];
            if (m <= low) continue;
            const bool kept = inner_row && x > 0 && x + 1 < w
                                  ? crest(m, gx[x], gy[x],
                                          [&](int ox, int oy) { return int{(oy < 0 ? above : oy > 0 ? below : mag)[x + ox]}; })
                                  : crest(m, gx[x], gy[x], [&](int ox, int oy) {
                                        const short* row = oy < 0 ? above : oy > 0 ? below : mag;
                                        const int nx = x + ox;
                                        return row != nullptr && nx >= 0 && nx < w ? int{row[nx]} : 0;
                                    });
            if (!kept) continue;
            state[x] = m > high ? kStrong : kWeak;
            if (m > high) seeds_.push_back(static_cast<int>(&state[x] - state_.data()));
        }
    }
    // Hysteresis, one curve at a time: everything 8-connected to a seed through crests.
    const int offsets[8] = {-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1};
    for (const int seed : seeds_) {
        if (state_[seed] != kStrong) continue;
        state_[seed] = kEdge;
        stack_.assign(1, seed);
        curve_.assign(1, seed);
        int x0 = seed % stride, x1 = x0, y0 = seed / stride, y1 = y0;
        while (!stack_.empty()) {
            const int at = stack_.back();
            stack_.pop_back();
            for (const int o : offsets) {
                const int next = at + o;
                if (state_[next] > kStrong) continue;
                state_[next] = kEdge;
                stack_.push_back(next);
                curve_.push_back(next);
                const int x = next % stride, y = next / stride;
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
