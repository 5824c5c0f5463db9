// A caller's pixels seen through OpenCV headers (never copied), plus sub-pixel sampling.
#pragma once
#include <algorithm>
#include <opencv2/core.hpp>

#include "../format/status.hpp"
#include "appclip_core.h"
#include "vector_clones.hpp"

namespace appclip::vision {

// Checks planes, sizes and strides; `max_pixels` <= 0 means no limit.
Failure validate_view(const acc_image_view* view, long long max_pixels);

// Pixels kept from the frame's last bilinear cell by steps_inside and surely_inside.
constexpr double kInsideMargin = 1e-3;

// How many of the points (x0 + dx j, y0 + dy j), j = 0, 1, ..., are surely inside
// [0, cols − 1) × [0, rows − 1), with a margin far above rounding: sampling loops skip the
// per-sample bounds test for those and test the rest as before.
inline int steps_inside(double x0, double y0, double dx, double dy, int cols, int rows) {
    constexpr double kMargin = kInsideMargin;
    auto axis = [](double p0, double d, double hi) {
        if (!(p0 >= kMargin && p0 < hi - kMargin)) return 0.0;
        if (d > 0) return (hi - kMargin - p0) / d;
        if (d < 0) return (p0 - kMargin) / -d;
        return 1e9;
    };
    const double steps = std::min({axis(x0, dx, cols - 1), axis(y0, dy, rows - 1), 1e9});
    return std::max(0, static_cast<int>(steps) - 1);
}

// Bilinear grey levels of the 8-bit `image` at (x0 + dx j, y0 + dy j) for j < n, every point
// surely inside (see steps_inside): positions, pixels and values each in a loop of their own,
// so that the first and last run several samples at once (the locator's rays).
ACC_VECTOR_CLONES
void bilinear_along(const cv::Mat& image, double x0, double y0, double dx, double dy, int n, float* out);

class Frame {
public:
    // `luma_scratch` receives the converted luma for colour formats; gray and NV12/NV21
    // frames use their own plane 0 directly. With `region` (colour formats only), the frame
    // ends there for luma sampling until complete_luma(), and only `core` (within it) is
    // converted now; the rest of the region is converted when a sample first reaches it
    // (luma_at, steps_inside): a tracked code's read mostly needs its disc, while the region
    // is sized for the ring alignment's reach, about three times the disc's area.
    void wrap(const acc_image_view& view, cv::Mat& luma_scratch, const cv::Rect* region = nullptr,
              const cv::Rect* core = nullptr);
    // Converts the rest of a frame wrapped with a region (no-op otherwise); `luma_scratch`
    // is the one given to wrap().
    void complete_luma(cv::Mat& luma_scratch);

    // The whole frame's luma: only after complete_luma() when wrapped with a region.
    const cv::Mat& luma() const { return luma_; }
    int width() const { return luma_.cols; }
    int height() const { return luma_.rows; }
    bool is_gray() const { return format_ == ACC_PIXEL_GRAY8; }

    // Bilinear luma; -1 outside the frame (or outside the region it was wrapped with).
    float luma_at(double x, double y) const {
        if (x >= cx_lo_ && y >= cy_lo_ && x < cx_hi_ && y < cy_hi_) return luma_inside(x, y);
        if (!(x >= x_lo_ && y >= y_lo_ && x < x_hi_ && y < y_hi_)) return -1.f;
        convert_around(x, y);
        return luma_inside(x, y);
    }
    // luma_at at the n points (x[j], y[j]) into out[j]: the converted points' pixels are
    // fetched in one loop and interpolated in another (see luma_cells), the rest one by one.
    void luma_at(const double* x, const double* y, int n, float* out) const;
    // steps_inside for the part of the frame whose luma can be read; those steps' luma is
    // converted before this returns.
    int steps_inside(double x0, double y0, double dx, double dy) const {
        const int n = vision::steps_inside(x0 - x_lo_, y0 - y_lo_, dx, dy, x_hi_ - x_lo_ + 1, y_hi_ - y_lo_ + 1);
        if (n > 0) cover(x0, y0), cover(x0 + dx * (n - 1), y0 + dy * (n - 1));
        return n;
    }
    // Inside with steps_inside's margin: every point computed between two such points is
    // inside too, whatever the rounding.
    // (steps_inside(x, y, 0, 0) > 0 without its divisions: the stroke search asks twice per ray.)
    bool surely_inside(double x, double y) const {
        const double px = x - x_lo_, py = y - y_lo_;
        const bool inside = px >= kInsideMargin && px < (x_hi_ - x_lo_) - kInsideMargin && py >= kInsideMargin &&
                            py < (y_hi_ - y_lo_) - kInsideMargin;
        if (inside) cover(x, y);
        return inside;
    }
    // luma_inside at (x0 + dx · j, y0 + dy · j) for j < n, into out[j], as luma_inside_along.
    ACC_VECTOR_CLONES
    void luma_inside_steps(double x0, double y0, double dx, double dy, int n, float* out) const;
    // luma_inside at a + (b − a) · fraction[j] for j < n, into out[j]: positions, pixels and
    // values each in a loop of its own, so that the first and last run several samples at once.
    ACC_VECTOR_CLONES
    void luma_inside_along(const cv::Point2d& a, const cv::Point2d& b, const double* fraction, int n,
                           float* out) const;
    // luma_at for a point known to be inside (see steps_inside).
    float luma_inside(double x, double y) const {
        const int ix = static_cast<int>(x), iy = static_cast<int>(y);
#ifdef ACC_VISION_DEBUG
        if (ix < cx_lo_ || iy < cy_lo_ || ix + 1 > cx_hi_ || iy + 1 > cy_hi_) unconverted(x, y);
#endif
        const float fx = static_cast<float>(x - ix), fy = static_cast<float>(y - iy);
        const uchar* r0 = luma_.ptr<uchar>(iy) + ix;
        const uchar* r1 = r0 + luma_.step[0];
        const float top = r0[0] + fx * (r0[1] - r0[0]);
        const float bottom = r1[0] + fx * (r1[1] - r1[0]);
        return top + fy * (bottom - top);
    }

    // Bilinear colour as (R, G, B); gray frames give (g, g, g). False outside the frame.
    // (The ring sampler's thousands of points per plane go through the batch below.)
    bool rgb_at(double x, double y, cv::Vec3f& out) const {
        if (!(x >= x_lo_ && y >= y_lo_ && x < x_hi_ && y < y_hi_)) return false;
        if (!has_color_) {
            yuv_at(x, y, out);
            return true;
        }
        const int ix = static_cast<int>(x), iy = static_cast<int>(y);
        const float fx = static_cast<float>(x - ix), fy = static_cast<float>(y - iy);
        const int cn = colour_channels_;
        const uchar* r0 = color_.data + iy * color_.step[0] + ix * cn;
        const uchar* r1 = r0 + color_.step[0];
        auto channel = [&](int c) {
            const float top = r0[c] + fx * (r0[c + cn] - r0[c]);
            const float bottom = r1[c] + fx * (r1[c + cn] - r1[c]);
            return top + fy * (bottom - top);
        };
        out = cv::Vec3f(channel(red_at_), channel(1), channel(2 - red_at_));
        return true;
    }
    // rgb_at at the n points (x[j], y[j]) into red[j], green[j], blue[j] (set where inside[j]):
    // the pixels are fetched in one loop and interpolated in another, which runs several
    // points at once with rgb_at's arithmetic. For the ring sampler's thousands per plane.
    ACC_VECTOR_CLONES
    void rgb_at(const double* x, const double* y, int n, float* red, float* green, float* blue,
                unsigned char* inside) const;

private:
    cv::Mat luma_;
    cv::Mat color_;          // RGB/BGR/RGBA/BGRA view, else empty
    cv::Mat chroma_;         // NV12/NV21 interleaved chroma plane (CV_8UC2), else empty
    acc_pixel_format format_ = ACC_PIXEL_GRAY8;
    // Which of the two is set, kept beside them: rgb_at asks per sample.
    bool has_color_ = false, has_chroma_ = false;
    // rgb_at's per-frame constants, so that a sample costs no format tests beyond the one
    // above: bytes per colour pixel and where red sits in it (green at 1, blue at 2 - red);
    // where Cb sits in a chroma pair (Cr at 1 - Cb).
    int colour_channels_ = 3, red_at_ = 0, cb_at_ = 0;
    // rgb_at for gray and NV12/NV21 frames, at a point inside.
    void yuv_at(double x, double y, cv::Vec3f& out) const;
    // The batches' (rgb_at's and luma_inside_along's) chunk of points, and their luma_inside
    // and yuv_at at m <= kBatchChunk pixels, given as integer part and fraction.
    static constexpr int kBatchChunk = 64;
    ACC_VECTOR_CLONES
    void luma_cells(const int* ix, const int* iy, const float* fx, const float* fy, int m, float* out) const;
    ACC_VECTOR_CLONES
    void yuv_cells(const int* ix, const int* iy, const float* fx, const float* fy, int m, float* red, float* green,
                   float* blue) const;
    // Converts the luma of `area` (colour frames only).
    void convert(const cv::Rect& area) const;
    // Grows the converted part to hold (x, y)'s bilinear neighbours and some room around.
    void convert_around(double x, double y) const;
    // convert_around when (x, y) is not yet converted with a pixel to spare either way.
    void cover(double x, double y) const {
        if (!(x - 1 >= cx_lo_ && y - 1 >= cy_lo_ && x + 1 < cx_hi_ && y + 1 < cy_hi_)) convert_around(x, y);
    }
#ifdef ACC_VISION_DEBUG
    [[noreturn]] void unconverted(double x, double y) const;
#endif

    // Luma may be read on [x_lo_, x_hi_ + 1) x [y_lo_, y_hi_ + 1); bilinear reads need x < x_hi_.
    int x_lo_ = 0, y_lo_ = 0, x_hi_ = -1, y_hi_ = -1;
    // Of that, pixels [cx_lo_, cx_hi_] x [cy_lo_, cy_hi_] are converted (all of it unless
    // wrapped with a region): grown by const reads, as a cache of the colour pixels is.
    mutable int cx_lo_ = 0, cy_lo_ = 0, cx_hi_ = -1, cy_hi_ = -1;
    bool partial_ = false;
};

}  // namespace appclip::vision
