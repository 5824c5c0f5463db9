// Random test images shared by the checks in tools/dev: ellipses anywhere over an image.
#pragma once
#include <algorithm>
#include <random>

#include <opencv2/imgproc.hpp>

namespace appclip::checks {

// One to eight ellipses of any size and angle, filled or outlined 1-3 px wide, overlapping
// and running over the image's edges; `value()` gives each one's pixel value.
template <typename Value>
void draw_random_ellipses(cv::Mat& image, std::mt19937& rng, Value value) {
    const int w = image.cols, h = image.rows;
    // (The count is drawn again at each step, and each ellipse's numbers in this order: the
    // checks' images and the figures the README gives for them stay as they were.)
    for (int s = 0; s < 1 + static_cast<int>(rng() % 8); ++s) {
        const cv::Point c(rng() % w, rng() % h);
        const cv::Size axes(1 + rng() % std::max(1, w / 2), 1 + rng() % std::max(1, h / 2));
        const int angle = static_cast<int>(rng() % 180);
        const int pixel = value();
        const int thickness = rng() % 3 == 0 ? cv::FILLED : 1 + static_cast<int>(rng() % 3);
        cv::ellipse(image, c, axes, angle, 0, 360, pixel, thickness);
    }
}

}  // namespace appclip::checks
