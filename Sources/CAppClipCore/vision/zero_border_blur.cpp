#include "zero_border_blur.hpp"

#include <algorithm>

namespace appclip::vision {

void blur_zero_border(cv::Mat1f& image, const cv::Mat& kernel, BlurScratch& scratch) {
    CV_Assert(kernel.type() == CV_32F && kernel.total() % 2 == 1 && (kernel.rows == 1 || kernel.cols == 1));
    const float* k = kernel.ptr<float>();
    const int taps = static_cast<int>(kernel.total()), reach = taps / 2;
    const int w = image.cols, h = image.rows;
    scratch.rows.assign(static_cast<size_t>(w) * h, 0.f);
    // Per row of the row pass, the span [first, end) where it can be non-zero (empty: first
    // >= end). Rendered pieces are thin arcs in boxes with a margin: most of a canvas is zero,
    // and only the spans are filtered (adding the zeros would change no value).
    scratch.spans.assign(static_cast<size_t>(2) * h, 0);
    for (int y = 0; y < h; ++y) {
        const float* s = image.ptr<float>(y);
        int first = 0, last = w - 1;
        while (first < w && s[first] == 0.f) ++first;
        if (first == w) continue;
        while (s[last] == 0.f) --last;
        float* d = scratch.rows.data() + static_cast<size_t>(y) * w;
        // Tap by tap over the x whose neighbour lies in [first, last]: inner loops on vectors.
        for (int t = 0; t < taps; ++t) {
            const int offset = t - reach;
            const float kt = k[t];
            const int x0 = std::max(0, first - offset), x1 = std::min(w, last - offset + 1);
            for (int x = x0; x < x1; ++x) d[x] += kt * s[x + offset];
        }
        scratch.spans[2 * y] = std::max(0, first - reach);
        scratch.spans[2 * y + 1] = std::min(w, last + reach + 1);
    }
    // Columns, from the row pass back into the image.
    for (int y = 0; y < h; ++y) {
        float* d = image.ptr<float>(y);
        std::fill(d, d + w, 0.f);
        for (int t = std::max(0, reach - y); t < std::min(taps, h - y + reach); ++t) {
            const int source = y + t - reach;
            const int x0 = scratch.spans[2 * source], x1 = scratch.spans[2 * source + 1];
            const float* s = scratch.rows.data() + static_cast<size_t>(source) * w;
            const float kt = k[t];
            for (int x = x0; x < x1; ++x) d[x] += kt * s[x];
        }
    }
}

}  // namespace appclip::vision
