// The locator's image pyramid, written out because cv::pyrDown and cv::resize run through
// OpenCV's parallel loop framework, which allocates on every call (a few heap allocations
// a frame, valgrind) even on one thread; these reuse the caller's buffers. Both give exactly
// OpenCV's pixels (tools/pyramid_check.sh).
#pragma once
#include <opencv2/core.hpp>

namespace appclip::vision {

// What cv::pyrDown(in, out) computes on a CV_8U image: the binomial kernel [1 4 6 4 1] / 16
// along both axes, borders reflected without repeating the edge (BORDER_DEFAULT), every
// other pixel kept (out is (w + 1) / 2 by (h + 1) / 2), sums rounded to nearest. `rows` is
// scratch (one row of vertical sums, grown as needed).
void pyr_down(const cv::Mat& in, cv::Mat& out, cv::Mat& rows);

// What cv::resize(in, out, Size(in.cols / factor, in.rows / factor), 0, 0, INTER_AREA)
// computes on a CV_8U image whose sides `factor` divides: each output pixel the mean of its
// factor x factor block, rounded as OpenCV does. Returns false (and leaves `out` alone) for
// other sizes.
bool shrink_by_whole_factor(const cv::Mat& in, int factor, cv::Mat& out);

}  // namespace appclip::vision
