#include "pyramid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <opencv2/core/hal/intrin.hpp>

#include "border.hpp"

namespace appclip::vision {

void pyr_down(const cv::Mat& in, cv::Mat& out, cv::Mat& rows) {
    CV_Assert(in.type() == CV_8UC1 && in.cols >= 3 && in.rows >= 3);
    const int w = in.cols, h = in.rows;
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    // One row of vertical sums (at most 16 x 255) per kept row, then the horizontal pass
    // (at most 256 x 255): both fit 16 bits, and both loops run on vectors.
    // The scratch row only grows: a pyramid's levels shrink, and one row serves them all.
    if (rows.type() != CV_16U || rows.cols < w) rows.create(1, w, CV_16U);
    out.create(oh, ow, CV_8UC1);
    uint16_t* v = rows.ptr<uint16_t>();
    for (int y = 0; y < oh; ++y) {
        const int c = 2 * y;
        const uint8_t* r0 = in.ptr<uint8_t>(reflect101(c - 2, h));
        const uint8_t* r1 = in.ptr<uint8_t>(reflect101(c - 1, h));
        const uint8_t* r2 = in.ptr<uint8_t>(c);
        const uint8_t* r3 = in.ptr<uint8_t>(reflect101(c + 1, h));
        const uint8_t* r4 = in.ptr<uint8_t>(reflect101(c + 2, h));
        for (int x = 0; x < w; ++x)
            v[x] = static_cast<uint16_t>(r0[x] + 4 * r1[x] + 6 * r2[x] + 4 * r3[x] + r4[x]);
        uint8_t* d = out.ptr<uint8_t>(y);
        auto at = [&](int x) {
            return v[reflect101(x - 2, w)] + 4 * v[reflect101(x - 1, w)] + 6 * v[x] + 4 * v[reflect101(x + 1, w)] +
                   v[reflect101(x + 2, w)];
        };
        d[0] = static_cast<uint8_t>((at(0) + 128) >> 8);
        int x = 1;
        for (; 2 * x + 2 < w; ++x) {
            const uint16_t* k = v + 2 * x;
            d[x] = static_cast<uint8_t>((k[-2] + 4 * k[-1] + 6 * k[0] + 4 * k[1] + k[2] + 128) >> 8);
        }
        for (; x < ow; ++x) d[x] = static_cast<uint8_t>((at(2 * x) + 128) >> 8);
    }
}

bool shrink_by_whole_factor(const cv::Mat& in, int factor, cv::Mat& out) {
    CV_Assert(in.type() == CV_8UC1);
    if (factor < 1 || in.cols % factor != 0 || in.rows % factor != 0) return false;
    const int ow = in.cols / factor, oh = in.rows / factor;
    out.create(oh, ow, CV_8UC1);
    if (factor == 2) {
        // OpenCV rounds halves up for a factor of 2. The common case (720p and 1080p frames):
        // 16 pixels at a time with OpenCV's portable vectors (SSE2, NEON), as cv::resize does.
        for (int y = 0; y < oh; ++y) {
            const uint8_t* a = in.ptr<uint8_t>(2 * y);
            const uint8_t* b = in.ptr<uint8_t>(2 * y + 1);
            uint8_t* d = out.ptr<uint8_t>(y);
            int x = 0;
#if CV_SIMD128
            for (; x + 16 <= ow; x += 16) {
                cv::v_uint8x16 a_even, a_odd, b_even, b_odd;
                cv::v_load_deinterleave(a + 2 * x, a_even, a_odd);
                cv::v_load_deinterleave(b + 2 * x, b_even, b_odd);
                cv::v_uint16x8 low, high, more_low, more_high;
                cv::v_expand(a_even, low, high);
                for (const cv::v_uint8x16& v : {a_odd, b_even, b_odd}) {
                    cv::v_expand(v, more_low, more_high);
                    low += more_low;
                    high += more_high;
                }
                cv::v_store(d + x, cv::v_rshr_pack<2>(low, high));   // (sum + 2) >> 2
            }
#endif
            for (; x < ow; ++x)
                d[x] = static_cast<uint8_t>((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) >> 2);
        }
        return true;
    }
    // Other factors: to even, through a float.
    const float inverse_area = 1.f / static_cast<float>(factor * factor);
    for (int y = 0; y < oh; ++y) {
        uint8_t* d = out.ptr<uint8_t>(y);
        for (int x = 0; x < ow; ++x) {
            int sum = 0;
            for (int j = 0; j < factor; ++j) {
                const uint8_t* s = in.ptr<uint8_t>(y * factor + j) + x * factor;
                for (int i = 0; i < factor; ++i) sum += s[i];
            }
            d[x] = static_cast<uint8_t>(cvRound(static_cast<float>(sum) * inverse_area));
        }
    }
    return true;
}

void AreaShrink::shares(int in_size, int out_size, std::vector<Share>& table) {
    table.clear();
    // cv::resize's cell width: the inverse of its output-to-input ratio (not in / out, which
    // can differ in the last bit).
    const double cell = 1.0 / (static_cast<double>(out_size) / in_size);
    for (int o = 0; o < out_size; ++o) {
        const double start = o * cell, end = start + cell;
        // The last cell may reach past the input; its weights are over what it covers.
        const double width = std::min(cell, in_size - start);
        const int last = std::min(static_cast<int>(std::floor(end)), in_size - 1);
        const int first = std::min(static_cast<int>(std::ceil(start)), last);
        // Shares under a thousandth of a pixel are left out, as OpenCV leaves them.
        if (first - start > 1e-3) table.push_back({o, first - 1, static_cast<float>((first - start) / width)});
        for (int i = first; i < last; ++i) table.push_back({o, i, static_cast<float>(1.0 / width)});
        if (end - last > 1e-3)
            table.push_back({o, last, static_cast<float>(std::min(std::min(end - last, 1.0), width) / width)});
    }
}

void AreaShrink::run(const cv::Mat& in, cv::Size size, cv::Mat& out) {
    CV_Assert(in.type() == CV_8UC1 && size.width >= 1 && size.height >= 1 && size.width <= in.cols &&
              size.height <= in.rows);
    const int factor = in.cols / size.width;
    if (in.cols == factor * size.width && in.rows == factor * size.height && shrink_by_whole_factor(in, factor, out))
        return;
    if (in.size() != in_size_ || size != out_size_) {
        shares(in.cols, size.width, columns_);
        shares(in.rows, size.height, rows_);
        in_size_ = in.size(), out_size_ = size;
        row_sum_.resize(size.width);
        cell_sum_.resize(size.width);
    }
    out.create(size, CV_8UC1);
    float* row_sum = row_sum_.data();
    float* cell_sum = cell_sum_.data();
    // Per input row, its horizontal sums per output column; an output row is the weighted sum
    // of its input rows' sums, written when the next output row starts.
    int current = 0;
    std::fill(cell_sum_.begin(), cell_sum_.end(), 0.f);
    auto write = [&](int y) {
        uint8_t* d = out.ptr<uint8_t>(y);
        for (int x = 0; x < size.width; ++x) d[x] = cv::saturate_cast<uint8_t>(cell_sum[x]);
    };
    for (const Share& r : rows_) {
        const uint8_t* s = in.ptr<uint8_t>(r.in);
        std::fill(row_sum_.begin(), row_sum_.end(), 0.f);
        for (const Share& c : columns_) row_sum[c.out] += s[c.in] * c.weight;
        if (r.out != current) {
            write(current);
            for (int x = 0; x < size.width; ++x) cell_sum[x] = r.weight * row_sum[x];
            current = r.out;
        } else {
            for (int x = 0; x < size.width; ++x) cell_sum[x] += r.weight * row_sum[x];
        }
    }
    write(current);
}

}  // namespace appclip::vision
