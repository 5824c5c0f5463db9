// Small symmetric positive definite systems solved on the stack. cv::solve copies its input
// into a buffer that goes to the heap past ~1 KB (an 11 x 11 system does), on every call; the
// Cholesky it then runs is the one used here, so the results are the same to the bit.
#pragma once
#include <opencv2/core.hpp>

namespace appclip::vision {

// Solves a x = b. False when `a` is not positive definite (x is then unspecified).
template <int n, int m>
bool solve_cholesky(const cv::Matx<double, n, n>& a, const cv::Matx<double, n, m>& b, cv::Matx<double, n, m>& x) {
    static_assert(n > 3, "cv::solve solves 2 x 2 and 3 x 3 systems in closed form, without a buffer");
    cv::Matx<double, n, n> factor = a;
    x = b;
    return cv::Cholesky(factor.val, n * sizeof(double), n, x.val, m * sizeof(double), m);
}

}  // namespace appclip::vision
