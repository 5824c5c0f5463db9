// The locator's own pyramid (vision/pyramid.cpp) against the OpenCV calls it replaces: pyr_down
// against cv::pyrDown, shrink_by_whole_factor against cv::resize(INTER_AREA) by factors 2 to 6,
// and AreaShrink against cv::resize(INTER_AREA) to any smaller size but whole factors that
// differ between the sides (and to the detector's own: a frame's long side to ~640 px), on
// random 8-bit images of every size from 3 x 3 (odd and even sides, all border cases), pixel
// for pixel.
// Prints what it compared and exits 1 on any differing pixel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <opencv2/imgproc.hpp>

#include "vision/pyramid.hpp"

int main() {
    std::mt19937 rng(31);
    int pyramids = 0, shrinks = 0, pyramid_diffs = 0, shrink_diffs = 0, areas = 0, area_diffs = 0;
    cv::Mat ours, theirs, rows, frame;   // reused, as the locator reuses them
    appclip::vision::AreaShrink area;
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
        // Any smaller size (odd trials), or the long side to ~640 px as the detector shrinks a
        // frame of 641 to 1,279 px (even trials: the image enlarged to such a frame, with noise
        // so that its pixels are not runs); every other one through a view with a stride.
        cv::Mat source = image;
        cv::Size to(1 + static_cast<int>(rng() % w), 1 + static_cast<int>(rng() % h));
        if (t % 2 == 0) {
            const int long_side = 641 + static_cast<int>(rng() % 639);
            cv::resize(image, frame, cv::Size(long_side, std::max(3, long_side * h / std::max(w, h))), 0, 0,
                       cv::INTER_LINEAR);
            for (int y = 0; y < frame.rows; ++y)
                for (int x = 0; x < frame.cols; ++x)
                    frame.at<uint8_t>(y, x) =
                        cv::saturate_cast<uint8_t>(frame.at<uint8_t>(y, x) + static_cast<int>(rng() % 9) - 4);
            const double f = std::max(frame.cols, frame.rows) / 640.0;
            to = cv::Size(std::max(1, static_cast<int>(std::lround(frame.cols / f))),
                          std::max(1, static_cast<int>(std::lround(frame.rows / f))));
            source = frame;
        }
        if (t % 4 >= 2) {
            source = source(cv::Rect(0, 0, source.cols - 1, source.rows));
            to.width = std::min(to.width, source.cols);
        }
        const bool whole_x = source.cols % to.width == 0, whole_y = source.rows % to.height == 0;
        if (!(whole_x && whole_y) || source.cols / to.width == source.rows / to.height) {
            cv::resize(source, theirs, to, 0, 0, cv::INTER_AREA);
            area.run(source, to, ours);
            ++areas;
            if (ours.size() != theirs.size() || cv::norm(ours, theirs, cv::NORM_INF) != 0) ++area_diffs;
        }
        const int factor = 2 + static_cast<int>(rng() % 5);
        const cv::Mat block = image(cv::Rect(0, 0, w / factor * factor, h / factor * factor));
        if (block.empty()) continue;
        cv::resize(block, theirs, cv::Size(block.cols / factor, block.rows / factor), 0, 0, cv::INTER_AREA);
        if (!appclip::vision::shrink_by_whole_factor(block, factor, ours)) return 1;   // a view with a stride
        ++shrinks;
        if (ours.size() != theirs.size() || cv::norm(ours, theirs, cv::NORM_INF) != 0) ++shrink_diffs;
    }
    std::printf("pyramid: %d images against cv::pyrDown, %d differ; %d against cv::resize (INTER_AREA, factors 2-6), "
                "%d differ; %d against cv::resize (INTER_AREA, AreaShrink), %d differ\n",
                pyramids, pyramid_diffs, shrinks, shrink_diffs, areas, area_diffs);
    return pyramid_diffs == 0 && shrink_diffs == 0 && area_diffs == 0 ? 0 : 1;
}
