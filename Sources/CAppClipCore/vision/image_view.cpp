#include "image_view.hpp"

#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace appclip::vision {
namespace {

// Each cell's two pixel pairs (top-left and top-right, bottom-left and bottom-right), read
// as one 16-bit word each, the left pixel in the low byte: half the reads of one pixel at a
// time. The callers take the words apart in loops that run on vectors.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pairs are read as little-endian words");
void read_pixel_pairs(const uchar* data, size_t step, const int* ix, const int* iy, int m, uint16_t* top,
                      uint16_t* bottom) {
    for (int j = 0; j < m; ++j) {
        const uchar* r0 = data + iy[j] * step + ix[j];
        std::memcpy(&top[j], r0, sizeof top[j]);
        std::memcpy(&bottom[j], r0 + step, sizeof bottom[j]);
    }
}

int bytes_per_pixel(acc_pixel_format format) {
    switch (format) {
        case ACC_PIXEL_GRAY8: case ACC_PIXEL_NV12: case ACC_PIXEL_NV21: return 1;
        case ACC_PIXEL_RGB8: case ACC_PIXEL_BGR8: return 3;
        case ACC_PIXEL_RGBA8: case ACC_PIXEL_BGRA8: return 4;
    }
    return 0;
}

int luma_conversion(acc_pixel_format format) {
    switch (format) {
        case ACC_PIXEL_RGB8: return cv::COLOR_RGB2GRAY;
        case ACC_PIXEL_BGR8: return cv::COLOR_BGR2GRAY;
        case ACC_PIXEL_RGBA8: return cv::COLOR_RGBA2GRAY;
        case ACC_PIXEL_BGRA8: return cv::COLOR_BGRA2GRAY;
        default: return -1;
    }
}

}  // namespace

Failure validate_view(const acc_image_view* view, long long max_pixels) {
    if (view == nullptr) return fail(ACC_E_INVALID_ARGUMENT, "image view is NULL");
    const int bpp = bytes_per_pixel(view->format);
    if (bpp == 0) return fail(ACC_E_INVALID_ARGUMENT, "unknown pixel format", -1, static_cast<int>(view->format));
    if (view->data == nullptr) return fail(ACC_E_INVALID_ARGUMENT, "image view has no pixel data");
    if (view->width <= 0 || view->height <= 0)
        return fail(ACC_E_INVALID_ARGUMENT, "image width and height must be positive");
    if (max_pixels > 0 && static_cast<long long>(view->width) * view->height > max_pixels)
        return fail(ACC_E_IMAGE_TOO_LARGE, "image has more pixels than the configured limit", -1,
                    static_cast<int>(std::min<long long>(max_pixels, 0x7fffffff)));
    if (static_cast<long long>(view->stride) < static_cast<long long>(view->width) * bpp)
        return fail(ACC_E_IMAGE_STRIDE, "row stride " + std::to_string(view->stride) +
                                            " is smaller than a row of " + std::to_string(view->width * bpp) +
                                            " bytes", -1, view->stride);
    if (view->format == ACC_PIXEL_NV12 || view->format == ACC_PIXEL_NV21) {
        if (view->chroma == nullptr) return fail(ACC_E_INVALID_ARGUMENT, "NV12/NV21 view has no chroma plane");
        const int chroma_row = ((view->width + 1) / 2) * 2;
        if (view->chroma_stride < chroma_row)
            return fail(ACC_E_IMAGE_STRIDE, "chroma stride " + std::to_string(view->chroma_stride) +
                                                " is smaller than a chroma row of " + std::to_string(chroma_row) +
                                                " bytes", -1, view->chroma_stride);
    }
    return Failure{};
}

void Frame::wrap(const acc_image_view& v, cv::Mat& luma_scratch, const cv::Rect* region, const cv::Rect* core) {
    format_ = v.format;
    auto* data = const_cast<uchar*>(v.data);
    color_ = cv::Mat();
    chroma_ = cv::Mat();
    partial_ = false;
    x_lo_ = 0, y_lo_ = 0, x_hi_ = v.width - 1, y_hi_ = v.height - 1;
    cx_lo_ = x_lo_, cy_lo_ = y_lo_, cx_hi_ = x_hi_, cy_hi_ = y_hi_;
    switch (v.format) {
        case ACC_PIXEL_GRAY8:
        case ACC_PIXEL_NV12:
        case ACC_PIXEL_NV21:
            luma_ = cv::Mat(v.height, v.width, CV_8UC1, data, static_cast<size_t>(v.stride));
            if (v.format != ACC_PIXEL_GRAY8)
                chroma_ = cv::Mat((v.height + 1) / 2, (v.width + 1) / 2, CV_8UC2, const_cast<uchar*>(v.chroma),
                                  static_cast<size_t>(v.chroma_stride));
            has_color_ = false;
            has_chroma_ = !chroma_.empty();
            cb_at_ = v.format == ACC_PIXEL_NV12 ? 0 : 1;
            return;
        case ACC_PIXEL_RGB8:
        case ACC_PIXEL_BGR8:
            color_ = cv::Mat(v.height, v.width, CV_8UC3, data, static_cast<size_t>(v.stride));
            break;
        case ACC_PIXEL_RGBA8:
        case ACC_PIXEL_BGRA8:
            color_ = cv::Mat(v.height, v.width, CV_8UC4, data, static_cast<size_t>(v.stride));
            break;
    }
    has_color_ = !color_.empty();
    has_chroma_ = false;
    colour_channels_ = color_.channels();
    const bool bgr = v.format == ACC_PIXEL_BGR8 || v.format == ACC_PIXEL_BGRA8;
    red_at_ = bgr ? 2 : 0;
    luma_scratch.create(v.height, v.width, CV_8UC1);
    luma_ = luma_scratch;
    const cv::Rect area = region != nullptr ? (*region & cv::Rect(0, 0, v.width, v.height)) : cv::Rect();
    // A region under 2 x 2 pixels has no bilinear sample: convert the whole frame instead.
    if (area.width >= 2 && area.height >= 2 && area.area() < static_cast<long long>(v.width) * v.height) {
        partial_ = true;
        x_lo_ = area.x, y_lo_ = area.y, x_hi_ = area.x + area.width - 1, y_hi_ = area.y + area.height - 1;
        const cv::Rect first = core != nullptr ? (*core & area) : area;
        if (first.width >= 2 && first.height >= 2) {
            convert(first);
            cx_lo_ = first.x, cy_lo_ = first.y, cx_hi_ = first.x + first.width - 1, cy_hi_ = first.y + first.height - 1;
        } else {
            cx_lo_ = 0, cy_lo_ = 0, cx_hi_ = -1, cy_hi_ = -1;   // nothing converted yet
        }
        return;
    }
    cv::cvtColor(color_, luma_scratch, luma_conversion(v.format));
}

void Frame::complete_luma(cv::Mat& luma_scratch) {
    if (!partial_) return;
    cv::cvtColor(color_, luma_scratch, luma_conversion(format_));
    luma_ = luma_scratch;
    partial_ = false;
    x_lo_ = 0, y_lo_ = 0, x_hi_ = luma_.cols - 1, y_hi_ = luma_.rows - 1;
    cx_lo_ = x_lo_, cy_lo_ = y_lo_, cx_hi_ = x_hi_, cy_hi_ = y_hi_;
}

void Frame::convert(const cv::Rect& area) const {
    cv::Mat part = luma_(area);
    cv::cvtColor(color_(area), part, luma_conversion(format_));
}

void Frame::convert_around(double x, double y) const {
    if (!partial_) return;   // all of it converted (or a camera plane)
    // Reads that leave the converted part usually go on in the same direction (the ring
    // alignment's wider reach): a quarter of the region's size at a time keeps the number
    // of conversions, each with its fixed cost, small.
    const int pad_x = std::max(8, (x_hi_ - x_lo_ + 1) / 4), pad_y = std::max(8, (y_hi_ - y_lo_ + 1) / 4);
    const int ix = static_cast<int>(std::floor(x)), iy = static_cast<int>(std::floor(y));
    const bool empty = cx_hi_ < cx_lo_;
    // Grown only on the sides the point (with a pixel to spare) lies beyond.
    const int x0 = std::max(x_lo_, empty || ix - 1 < cx_lo_ ? ix - 1 - pad_x : cx_lo_);
    const int y0 = std::max(y_lo_, empty || iy - 1 < cy_lo_ ? iy - 1 - pad_y : cy_lo_);
    const int x1 = std::min(x_hi_, empty || ix + 2 > cx_hi_ ? ix + 2 + pad_x : cx_hi_);
    const int y1 = std::min(y_hi_, empty || iy + 2 > cy_hi_ ? iy + 2 + pad_y : cy_hi_);
    if (empty) {
        convert(cv::Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1));
    } else {
        if (x0 == cx_lo_ && y0 == cy_lo_ && x1 == cx_hi_ && y1 == cy_hi_) return;
        // The new rectangle less the converted one: full-width bands above and below it,
        // and the parts beside it.
        if (y0 < cy_lo_) convert(cv::Rect(x0, y0, x1 - x0 + 1, cy_lo_ - y0));
        if (y1 > cy_hi_) convert(cv::Rect(x0, cy_hi_ + 1, x1 - x0 + 1, y1 - cy_hi_));
        if (x0 < cx_lo_) convert(cv::Rect(x0, cy_lo_, cx_lo_ - x0, cy_hi_ - cy_lo_ + 1));
        if (x1 > cx_hi_) convert(cv::Rect(cx_hi_ + 1, cy_lo_, x1 - cx_hi_, cy_hi_ - cy_lo_ + 1));
    }
    cx_lo_ = x0, cy_lo_ = y0, cx_hi_ = x1, cy_hi_ = y1;
}

ACC_VECTOR_CLONES
void bilinear_along(const cv::Mat& image, double x0, double y0, double dx, double dy, int n, float* out) {
    constexpr int kChunk = 64;
    const size_t step = image.step[0];
    for (int first = 0; first < n; first += kChunk) {
        const int m = std::min(kChunk, n - first);
        int ix[kChunk], iy[kChunk];
        float fx[kChunk], fy[kChunk];
        for (int j = 0; j < m; ++j) {
            const int t = first + j;
            const double x = x0 + dx * t, y = y0 + dy * t;
            ix[j] = static_cast<int>(x), iy[j] = static_cast<int>(y);
            fx[j] = static_cast<float>(x - ix[j]), fy[j] = static_cast<float>(y - iy[j]);
        }
        uint16_t top[kChunk], bottom[kChunk];
        read_pixel_pairs(image.data, step, ix, iy, m, top, bottom);
        for (int j = 0; j < m; ++j) {
            const int t0 = top[j] & 0xff, t1 = top[j] >> 8, b0 = bottom[j] & 0xff, b1 = bottom[j] >> 8;
            out[first + j] = (t0 + fx[j] * (t1 - t0)) * (1 - fy[j]) + (b0 + fx[j] * (b1 - b0)) * fy[j];
        }
    }
}

ACC_VECTOR_CLONES
void Frame::luma_cells(const int* ix, const int* iy, const float* fx, const float* fy, int m, float* out) const {
    const size_t step = luma_.step[0];
#ifdef ACC_VISION_DEBUG
    for (int j = 0; j < m; ++j)
        if (ix[j] < cx_lo_ || iy[j] < cy_lo_ || ix[j] + 1 > cx_hi_ || iy[j] + 1 > cy_hi_) unconverted(ix[j], iy[j]);
#endif
    uint16_t top[kBatchChunk], bottom[kBatchChunk];
    read_pixel_pairs(luma_.data, step, ix, iy, m, top, bottom);
    // luma_inside's arithmetic.
    for (int j = 0; j < m; ++j) {
        const int t0 = top[j] & 0xff, t1 = top[j] >> 8, b0 = bottom[j] & 0xff, b1 = bottom[j] >> 8;
        const float t = t0 + fx[j] * (t1 - t0);
        const float u = b0 + fx[j] * (b1 - b0);
        out[j] = t + fy[j] * (u - t);
    }
}

void Frame::luma_at(const double* x, const double* y, int n, float* out) const {
    for (int first = 0; first < n; first += kBatchChunk) {
        const int m = std::min(kBatchChunk, n - first);
        const double* cx = x + first;
        const double* cy = y + first;
        // luma_at's test for a converted point, for the whole chunk: a chunk with a point
        // outside (which may convert, or be outside the frame) is read one point at a time.
        const double lo_x = cx_lo_, lo_y = cy_lo_, hi_x = cx_hi_, hi_y = cy_hi_;
        bool converted = true;
        // (`&` rather than `&&`: no branches, so the compiler runs the loop on vectors.)
        for (int j = 0; j < m; ++j) converted &= (cx[j] >= lo_x) & (cy[j] >= lo_y) & (cx[j] < hi_x) & (cy[j] < hi_y);
        if (!converted) {
            for (int j = 0; j < m; ++j) out[first + j] = luma_at(cx[j], cy[j]);
            continue;
        }
        int ix[kBatchChunk], iy[kBatchChunk];
        float fx[kBatchChunk], fy[kBatchChunk];
        for (int j = 0; j < m; ++j) {
            ix[j] = static_cast<int>(cx[j]), iy[j] = static_cast<int>(cy[j]);
            fx[j] = static_cast<float>(cx[j] - ix[j]), fy[j] = static_cast<float>(cy[j] - iy[j]);
        }
        luma_cells(ix, iy, fx, fy, m, out + first);
    }
}

ACC_VECTOR_CLONES
void Frame::luma_inside_steps(double x0, double y0, double dx, double dy, int n, float* out) const {
    for (int first = 0; first < n; first += kBatchChunk) {
        const int m = std::min(kBatchChunk, n - first);
        int ix[kBatchChunk], iy[kBatchChunk];
        float fx[kBatchChunk], fy[kBatchChunk];
        for (int j = 0; j < m; ++j) {
            const double x = x0 + dx * (first + j), y = y0 + dy * (first + j);
            ix[j] = static_cast<int>(x), iy[j] = static_cast<int>(y);
            fx[j] = static_cast<float>(x - ix[j]), fy[j] = static_cast<float>(y - iy[j]);
        }
        luma_cells(ix, iy, fx, fy, m, out + first);
    }
}

ACC_VECTOR_CLONES
void Frame::luma_inside_along(const cv::Point2d& a, const cv::Point2d& b, const double* fraction, int n,
                              float* out) const {
    const double dx = b.x - a.x, dy = b.y - a.y;
    for (int first = 0; first < n; first += kBatchChunk) {
        const int m = std::min(kBatchChunk, n - first);
        int ix[kBatchChunk], iy[kBatchChunk];
        float fx[kBatchChunk], fy[kBatchChunk];
        for (int j = 0; j < m; ++j) {
            const double x = a.x + dx * fraction[first + j], y = a.y + dy * fraction[first + j];
            ix[j] = static_cast<int>(x), iy[j] = static_cast<int>(y);
            fx[j] = static_cast<float>(x - ix[j]), fy[j] = static_cast<float>(y - iy[j]);
        }
        luma_cells(ix, iy, fx, fy, m, out + first);
    }
}

ACC_VECTOR_CLONES
void Frame::rgb_at(const double* x, const double* y, int n, float* red, float* green, float* blue,
                   unsigned char* inside) const {
    // The region in locals: the compiler cannot tell that the stores below leave it alone.
    const double x_lo = x_lo_, y_lo = y_lo_, x_hi = x_hi_, y_hi = y_hi_;
    // Under 2 x 2 pixels nothing is inside, and the corner read below would not be there.
    if (x_hi_ - x_lo_ < 1 || y_hi_ - y_lo_ < 1) {
        std::fill(inside, inside + n, 0);
        return;
    }
    const int cn = colour_channels_;
    const size_t step = color_.step[0];
    // Colour channel c (in memory) goes to out[c].
    float* out[3] = {red_at_ == 0 ? red : blue, green, red_at_ == 0 ? blue : red};
    for (int first = 0; first < n; first += kBatchChunk) {
        const int m = std::min(kBatchChunk, n - first);
        int ix[kBatchChunk], iy[kBatchChunk];
        float fx[kBatchChunk], fy[kBatchChunk];
        for (int j = 0; j < m; ++j) {
            const double px = x[first + j], py = y[first + j];
            const bool in = px >= x_lo && py >= y_lo && px < x_hi && py < y_hi;
            inside[first + j] = in ? 1 : 0;
            // A point outside reads the region's corner instead, and its colour is not used.
            const double sx = in ? px : x_lo, sy = in ? py : y_lo;
            ix[j] = static_cast<int>(sx), iy[j] = static_cast<int>(sy);
            fx[j] = static_cast<float>(sx - ix[j]), fy[j] = static_cast<float>(sy - iy[j]);
        }
        if (!has_color_) {
            yuv_cells(ix, iy, fx, fy, m, red + first, green + first, blue + first);
            continue;
        }
        // Per channel, the top-left and bottom-left pixels and the steps to their right.
        int top[3][kBatchChunk], top_step[3][kBatchChunk], bottom[3][kBatchChunk], bottom_step[3][kBatchChunk];
        for (int j = 0; j < m; ++j) {
            const uchar* r0 = color_.data + iy[j] * step + ix[j] * cn;
            const uchar* r1 = r0 + step;
            for (int c = 0; c < 3; ++c) {
                top[c][j] = r0[c], top_step[c][j] = r0[c + cn] - r0[c];
                bottom[c][j] = r1[c], bottom_step[c][j] = r1[c + cn] - r1[c];
            }
        }
        for (int c = 0; c < 3; ++c)
            for (int j = 0; j < m; ++j) {
                const float t = top[c][j] + fx[j] * top_step[c][j];
                const float u = bottom[c][j] + fx[j] * bottom_step[c][j];
                out[c][first + j] = t + fy[j] * (u - t);
            }
    }
}

ACC_VECTOR_CLONES
void Frame::yuv_cells(const int* ix, const int* iy, const float* fx, const float* fy, int m, float* red,
                      float* green, float* blue) const {
    float l[kBatchChunk];
    luma_cells(ix, iy, fx, fy, m, l);
    if (!has_chroma_) {
        for (int j = 0; j < m; ++j) red[j] = green[j] = blue[j] = l[j];
        return;
    }
    // yuv_at's nearest chroma sample and arithmetic.
    int cb[kBatchChunk], cr[kBatchChunk];
    for (int j = 0; j < m; ++j) {
        const int cx = std::min(ix[j] / 2, chroma_.cols - 1), cy = std::min(iy[j] / 2, chroma_.rows - 1);
        const uchar* c = chroma_.data + cy * chroma_.step[0] + 2 * cx;
        cb[j] = c[cb_at_], cr[j] = c[1 - cb_at_];
    }
    for (int j = 0; j < m; ++j) {
        const float b = cb[j] - 128.f, r = cr[j] - 128.f;
        red[j] = l[j] + 1.402f * r, green[j] = l[j] - 0.344136f * b - 0.714136f * r, blue[j] = l[j] + 1.772f * b;
    }
}

#ifdef ACC_VISION_DEBUG
void Frame::unconverted(double x, double y) const {
    std::fprintf(stderr, "luma read at %.3f,%.3f outside the converted [%d,%d]x[%d,%d]\n", x, y, cx_lo_, cx_hi_, cy_lo_,
                 cy_hi_);
    std::abort();
}
#endif

void Frame::yuv_at(double x, double y, cv::Vec3f& out) const {
    const float l = luma_inside(x, y);
    if (!has_chroma_) {
        out = cv::Vec3f(l, l, l);
        return;
    }
    // 4:2:0 chroma, nearest sample is enough for clustering colours.
    const int ix = static_cast<int>(x), iy = static_cast<int>(y);
    const int cx = std::min(ix / 2, chroma_.cols - 1), cy = std::min(iy / 2, chroma_.rows - 1);
    const uchar* c = chroma_.data + cy * chroma_.step[0] + 2 * cx;
    const float cb = c[cb_at_] - 128.f, cr = c[1 - cb_at_] - 128.f;
    out = cv::Vec3f(l + 1.402f * cr, l - 0.344136f * cb - 0.714136f * cr, l + 1.772f * cb);
}

}  // namespace appclip::vision
