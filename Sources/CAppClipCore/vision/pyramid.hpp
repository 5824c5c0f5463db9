// The locator's image pyramid, written out because cv::pyrDown and cv::resize run through
// OpenCV's parallel loop framework, which allocates on every call (a few heap allocations
// a frame, valgrind) even on one thread; these reuse the caller's buffers. All give exactly
// OpenCV's pixels (tools/pyramid_check.sh).
#pragma once
#include <vector>

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

// What cv::resize(in, out, size, 0, 0, INTER_AREA) computes on a CV_8U image for a size no
// larger than the input's. Both sides shrunk by the same whole factor go to
// shrink_by_whole_factor, as OpenCV takes its own path for them (frames of 1,280 px and more,
// by 2). For other sizes (frames under 1,280 px, or with an odd side) each output pixel is the
// area-weighted mean of the input pixels its cell covers, in OpenCV's float arithmetic and
// order. (Whole factors that differ between the sides are not OpenCV's pixels.) The weights
// are worked out once per pair of sizes and kept, with the row buffers, so warm frames
// allocate nothing.
class AreaShrink {
public:
    void run(const cv::Mat& in, cv::Size size, cv::Mat& out);

private:
    // One input pixel's share of an output pixel: entries for an output pixel are adjacent,
    // in input order (the order the sums are taken in).
    struct Share {
        int out;
        int in;
        float weight;
    };
    static void shares(int in_size, int out_size, std::vector<Share>& table);
    cv::Size in_size_, out_size_;
    std::vector<Share> columns_, rows_;
    std::vector<float> row_sum_, cell_sum_;
};

}  // namespace appclip::vision
