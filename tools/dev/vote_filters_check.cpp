// The locator's vote smoothing (vision/vote_filters.cpp) against OpenCV's own
// cv::GaussianBlur(Size(5, 5), 1.0), which it replaces to keep warm frames free of heap
// allocations: random sparse vote planes from 3 x 3 to 400 x 300 cells, every border case.
// Prints the largest difference and exits 1 when any exceeds float rounding.
#include <cstdio>
#include <random>

#include <opencv2/imgproc.hpp>

#include "vision/vote_filters.hpp"

int main() {
    std::mt19937 rng(29);
    double worst = 0, worst_relative = 0;
    int planes = 0;
    cv::Mat rows, ours, theirs;   // reused, as the locator reuses them
    for (int t = 0; t < 2000; ++t, ++planes) {
        const int w = 3 + static_cast<int>(rng() % (t < 1000 ? 20 : 400));
        const int h = 3 + static_cast<int>(rng() % (t < 1000 ? 20 : 300));
        cv::Mat votes(h, w, CV_32F);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) votes.at<float>(y, x) = rng() % 3 == 0 ? static_cast<float>(rng() % 60) : 0.f;
        cv::GaussianBlur(votes, theirs, cv::Size(5, 5), 1.0);
        appclip::vision::gaussian5_sigma1(votes, rows, ours);
        double max_value = 0;
        cv::minMaxLoc(theirs, nullptr, &max_value);
        const double diff = cv::norm(ours, theirs, cv::NORM_INF);
        worst = std::max(worst, diff);
        if (max_value > 0) worst_relative = std::max(worst_relative, diff / max_value);
    }
    // Float sums in another order differ in the last bits: a few units of 1e-7 of the peak.
    const bool ok = worst_relative < 1e-5;
    std::printf("%d planes, largest difference %.2g (%.2g of the plane's peak)%s\n", planes, worst, worst_relative,
                ok ? "" : ": FAILED");
    return ok ? 0 : 1;
}
