// The vote planes' smoothing, written out because OpenCV's GaussianBlur builds its kernel and
// filter engine on every call (with dilate, about 90 heap allocations a 720p frame across the
// pyramid's levels, callgrind); this reuses the caller's buffers.
#pragma once
#include <opencv2/core.hpp>

namespace appclip::vision {

// What cv::GaussianBlur(in, out, Size(5, 5), 1.0) computes on a CV_32F plane (to float
// rounding): the separable kernel of sigma 1, normalised, borders reflected without repeating
// the edge (BORDER_DEFAULT). `rows` is scratch for the horizontal pass.
void gaussian5_sigma1(const cv::Mat& in, cv::Mat& rows, cv::Mat& out);

}  // namespace appclip::vision
