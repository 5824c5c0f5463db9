// The vote planes' smoothing, written out because OpenCV's GaussianBlur builds its kernel and
// filter engine on every call (with dilate, about 90 heap allocations a 720p frame across the
// pyramid's levels, callgrind); this reuses the caller's buffers.
#pragma once
#include <opencv2/core.hpp>

namespace appclip::vision {

// What cv::GaussianBlur(in, out, Size(5, 5), 1.0) computes on a CV_32F plane (to float
// rounding): the separable kernel of sigma 1, normalised, borders reflected without repeating
// the edge (BORDER_DEFAULT). `in` may also be CV_16U counts, smoothed as their float values
// (the same sums); `out` is CV_32F. `rows` is scratch: six rows (five of the horizontal pass,
// one of counts made floats).
void gaussian5_sigma1(const cv::Mat& in, cv::Mat& rows, cv::Mat& out);

// The peaks of row y of a CV_32F plane (2 <= y < rows - 2): the cells x = 2 .. cols - 3 that
// reach `floor` and that no cell of their 5 x 5 window exceeds, listed in increasing x into
// `peaks`; returns how many. `window_max` and `flags` are scratch of cols entries, `peaks` of
// cols + 1. (The window maxima in two vector passes; equal cells do not exclude each other.)
int row_peaks(const cv::Mat& plane, int y, float floor, float* window_max, unsigned char* flags, int* peaks);

// Sub-cell position of a peak along one axis, from the cells either side of it: the vertex of
// the parabola through the three, in cells from the middle one (within ±0.5; 0 when flat).
inline double peak_offset(float before, float at, float after) {
    const float curvature = before + after - 2 * at;
    if (!(curvature < -1e-3f)) return 0.0;
    const double offset = (before - after) / (2.0 * curvature);
    return offset < -0.5 ? -0.5 : (offset > 0.5 ? 0.5 : offset);
}

}  // namespace appclip::vision
