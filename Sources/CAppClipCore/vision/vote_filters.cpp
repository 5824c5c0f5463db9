#include "vote_filters.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "border.hpp"

namespace appclip::vision {

void gaussian5_sigma1(const cv::Mat& in, cv::Mat& rows, cv::Mat& out) {
    CV_Assert(in.type() == CV_32F && in.cols >= 3 && in.rows >= 3);
    // GaussianBlur's own kernel, made once (its one allocation).
    static const cv::Mat kernel = cv::getGaussianKernel(5, 1.0, CV_32F);
    const float* k = kernel.ptr<float>();
    const int w = in.cols, h = in.rows;
    rows.create(h, w, CV_32F);
    out.create(h, w, CV_32F);
    for (int y = 0; y < h; ++y) {
        const float* s = in.ptr<float>(y);
        float* d = rows.ptr<float>(y);
        for (int x = 0; x < 2; ++x)
            d[x] = k[0] * s[reflect101(x - 2, w)] + k[1] * s[reflect101(x - 1, w)] + k[2] * s[x] +
                   k[3] * s[reflect101(x + 1, w)] + k[4] * s[reflect101(x + 2, w)];
        for (int x = 2; x < w - 2; ++x) d[x] = k[0] * (s[x - 2] + s[x + 2]) + k[1] * (s[x - 1] + s[x + 1]) + k[2] * s[x];
        for (int x = std::max(2, w - 2); x < w; ++x)
            d[x] = k[0] * s[reflect101(x - 2, w)] + k[1] * s[reflect101(x - 1, w)] + k[2] * s[x] +
                   k[3] * s[reflect101(x + 1, w)] + k[4] * s[reflect101(x + 2, w)];
    }
    for (int y = 0; y < h; ++y) {
        const float* r0 = rows.ptr<float>(reflect101(y - 2, h));
        const float* r1 = rows.ptr<float>(reflect101(y - 1, h));
        const float* r2 = rows.ptr<float>(y);
        const float* r3 = rows.ptr<float>(reflect101(y + 1, h));
        const float* r4 = rows.ptr<float>(reflect101(y + 2, h));
        float* d = out.ptr<float>(y);
        for (int x = 0; x < w; ++x) d[x] = k[0] * (r0[x] + r4[x]) + k[1] * (r1[x] + r3[x]) + k[2] * r2[x];
    }
}

}  // namespace appclip::vision
