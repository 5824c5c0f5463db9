#include "vote_filters.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "border.hpp"
#include "vector_clones.hpp"

namespace appclip::vision {

namespace {

// The horizontal pass over one row of floats.
inline void gaussian5_row(const float* s, int w, const float* k, float* d) {
    // The first and last two cells, whose taps reflect at the ends.
    auto reflected = [&](int x) {
        return k[0] * s[reflect101(x - 2, w)] + k[1] * s[reflect101(x - 1, w)] + k[2] * s[x] +
               k[3] * s[reflect101(x + 1, w)] + k[4] * s[reflect101(x + 2, w)];
    };
    for (int x = 0; x < 2; ++x) d[x] = reflected(x);
    for (int x = 2; x < w - 2; ++x) d[x] = k[0] * (s[x - 2] + s[x + 2]) + k[1] * (s[x - 1] + s[x + 1]) + k[2] * s[x];
    for (int x = std::max(2, w - 2); x < w; ++x) d[x] = reflected(x);
}

// The passes' loops, built for AVX2 as well (vector_clones.hpp). Row r of `in` into d; 16-bit
// counts are made floats once into `converted` (w cells; exact in float, so the same sums)
// rather than at each of the five taps.
ACC_VECTOR_CLONES
void gaussian5_row_of(const cv::Mat& in, int r, const float* k, float* converted, float* d) {
    const float* s = in.ptr<float>(r);
    if (in.type() == CV_16U) {
        const unsigned short* counts = in.ptr<unsigned short>(r);
        for (int x = 0; x < in.cols; ++x) converted[x] = static_cast<float>(counts[x]);
        s = converted;
    }
    gaussian5_row(s, in.cols, k, d);
}
ACC_VECTOR_CLONES
void gaussian5_column(const float* r0, const float* r1, const float* r2, const float* r3, const float* r4, int w,
                      const float* k, float* d) {
    for (int x = 0; x < w; ++x) d[x] = k[0] * (r0[x] + r4[x]) + k[1] * (r1[x] + r3[x]) + k[2] * r2[x];
}

}  // namespace

void gaussian5_sigma1(const cv::Mat& in, cv::Mat& rows, cv::Mat& out) {
    CV_Assert((in.type() == CV_32F || in.type() == CV_16U) && in.cols >= 3 && in.rows >= 3);
    // GaussianBlur's own kernel, made once (its one allocation).
    static const cv::Mat kernel = cv::getGaussianKernel(5, 1.0, CV_32F);
    const float* k = kernel.ptr<float>();
    const int w = in.cols, h = in.rows;
    // The horizontal pass's rows in a ring of five (row r in slot r % 5), made just before the
    // vertical pass needs them: every row an output row reads (reflected at the ends) lies
    // within two of it, and five rows stay in cache where a whole plane of them would not.
    // (A sixth row holds a row of counts made floats.)
    rows.create(6, w, CV_32F);
    out.create(h, w, CV_32F);
    auto horizontal = [&](int r) { gaussian5_row_of(in, r, k, rows.ptr<float>(5), rows.ptr<float>(r % 5)); };
    horizontal(0);
    horizontal(1);
    for (int y = 0; y < h; ++y) {
        if (y + 2 < h) horizontal(y + 2);
        const float* r0 = rows.ptr<float>(reflect101(y - 2, h) % 5);
        const float* r1 = rows.ptr<float>(reflect101(y - 1, h) % 5);
        const float* r2 = rows.ptr<float>(y % 5);
        const float* r3 = rows.ptr<float>(reflect101(y + 1, h) % 5);
        const float* r4 = rows.ptr<float>(reflect101(y + 2, h) % 5);
        float* d = out.ptr<float>(y);
        gaussian5_column(r0, r1, r2, r3, r4, w, k, d);
    }
}

}  // namespace appclip::vision
