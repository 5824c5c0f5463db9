#include "vote_filters.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "border.hpp"
#include "branchless_list.hpp"
#include "vector_clones.hpp"

namespace appclip::vision {

namespace {

// The maxima of five rows, cell by cell.
ACC_VECTOR_CLONES
void column_max5(const float* r0, const float* r1, const float* r2, const float* r3, const float* r4, int w,
                 float* out) {
    for (int x = 0; x < w; ++x) out[x] = std::max(std::max(std::max(r0[x], r1[x]), std::max(r2[x], r3[x])), r4[x]);
}

// Per cell x = 2 .. w - 3 of row s, whether it reaches `floor` and the 5-wide maxima of its
// columns' maxima `column` (its 5 x 5 window's maximum) do not exceed it.
ACC_VECTOR_CLONES
void flag_peaks(const float* s, const float* column, int w, float floor, unsigned char* flags) {
    for (int x = 2; x + 2 < w; ++x) {
        const float window = std::max(std::max(std::max(column[x - 2], column[x - 1]), std::max(column[x + 1], column[x + 2])),
                                      column[x]);
        flags[x] = (s[x] >= floor) & (s[x] >= window);
    }
}

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

int row_peaks(const cv::Mat& plane, int y, float floor, float* window_max, unsigned char* flags, int* peaks) {
    const int w = plane.cols;
    if (w < 5) return 0;
    column_max5(plane.ptr<float>(y - 2), plane.ptr<float>(y - 1), plane.ptr<float>(y), plane.ptr<float>(y + 1),
                plane.ptr<float>(y + 2), w, window_max);
    flag_peaks(plane.ptr<float>(y), window_max, w, floor, flags);
    return list_where(2, w - 2, [flags](int x) { return flags[x] != 0; }, peaks);
}

}  // namespace appclip::vision
