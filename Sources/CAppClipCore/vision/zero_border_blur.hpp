// The drawing fit's blur of its rendered pieces, written out because cv::sepFilter2D builds
// its filter engine and buffers on every call (~260 calls, and as many heap allocations times
// a few, per frame with a look-alike); this reuses the caller's scratch.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

// In place, what cv::sepFilter2D(image, image, CV_32F, kernel, kernel, Point(-1, -1), 0,
// BORDER_CONSTANT) computes (to float rounding): the separable filter `kernel` (an odd column
// of CV_32F taps, as cv::getGaussianKernel makes) along rows and then columns, with zeros
// outside the image.
struct BlurScratch {
    std::vector<float> rows;   // the row pass
    std::vector<int> spans;    // per row of it, where it can be non-zero
};
void blur_zero_border(cv::Mat1f& image, const cv::Mat& kernel, BlurScratch& scratch);

}  // namespace appclip::vision
