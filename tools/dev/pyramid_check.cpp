// The locator's own pyramid (vision/pyramid.cpp) against the OpenCV calls it replaces: pyr_down
// against cv::pyrDown and shrink_by_whole_factor against cv::resize(INTER_AREA), on random
// 8-bit images of every size from 3 x 3 (odd and even sides, all border cases) and factors
// 2 to 6, pixel for pixel. Prints what it compared and exits 1 on any differing pixel.
#include <cstdio>
#include <random>

#include <opencv2/imgproc.hpp>

#include "vision/pyramid.hpp"

int main() {
    std::mt19937 rng(31);
    int pyramids = 0, shrinks = 0, pyramid_diffs = 0, shrink_diffs = 0;
    cv::Mat ours, theirs, rows;   // reused, as the locator reuses them
    for (int t = 0; t < 3000; ++t) {
        const int w = 3 + static_cast<int>(rng() % (t < 1500 ? 14 : 700));
        const int h = 3 + static_cast<int>(rng() % (t < 1500 ? 14 : 500));
        cv::Mat image(h, w, CV_8UC1);
        // Noise over a gradient: every value, and sums that round both ways.
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                image.at<uint8_t>(y, x) = static_cast<uint8_t>(t % 2 ? rng() % 256 : (x * 7 + y * 3 + rng() % 9) % 256);
        cv::pyrDown(image, theirs);
        appclip::vision::pyr_down(image, ours, rows);
        ++pyramids;
        if (ours.size() != theirs.size() || cv::norm(ours, theirs, cv::NORM_INF) != 0) ++pyramid_diffs;
        const int factor = 2 + static_cast<int>(rng() % 5);
        const cv::Mat block = image(cv::Rect(0, 0, w / factor * factor, h / factor * factor));
        if (block.empty()) continue;
        cv::resize(block, theirs, cv::Size(block.cols / factor, block.rows / factor), 0, 0, cv::INTER_AREA);
        if (!appclip::vision::shrink_by_whole_factor(block, factor, ours)) return 1;   // a view with a stride
        ++shrinks;
        if (ours.size() != theirs.size() || cv::norm(ours, theirs, cv::NORM_INF) != 0) ++shrink_diffs;
    }
    std::printf("pyramid: %d images against cv::pyrDown, %d differ; %d against cv::resize (INTER_AREA, factors 2-6), "
                "%d differ\n", pyramids, pyramid_diffs, shrinks, shrink_diffs);
    return pyramid_diffs == 0 && shrink_diffs == 0 ? 0 : 1;
}
