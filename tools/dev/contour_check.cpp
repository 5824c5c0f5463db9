// The vision layer's contour tracing (vision/contour_tracer.cpp) against the OpenCV call it
// replaces, cv::findContours(RETR_LIST, CHAIN_APPROX_NONE): the same contours, in the same
// order, with the same points in the same order, on random binary images (sparse to dense
// speckle, strokes, filled and hollow shapes, 1 x 1 to 300 x 200) and on the Canny edges of
// the images given on the command line. Prints what it compared and exits 1 on any difference.
#include <cstdio>
#include <random>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "random_shapes.hpp"
#include "vision/contour_tracer.hpp"

namespace {

// Whether the tracer's contours equal OpenCV's; describes the first difference.
bool same_contours(const cv::Mat& binary, appclip::vision::ContourTracer& tracer, const char* what) {
    std::vector<std::vector<cv::Point>> expected;
    cv::findContours(binary, expected, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
    tracer.trace(binary);
    if (tracer.count() != expected.size()) {
        std::printf("%s (%dx%d): %zu contours, OpenCV %zu\n", what, binary.cols, binary.rows, tracer.count(),
                    expected.size());
        return false;
    }
    for (size_t i = 0; i < expected.size(); ++i) {
        const bool same_size = tracer.size(i) == expected[i].size();
        for (size_t k = 0; same_size && k < expected[i].size(); ++k)
            if (tracer.points(i)[k] != expected[i][k]) {
                std::printf("%s (%dx%d): contour %zu point %zu (%d,%d), OpenCV (%d,%d)\n", what, binary.cols,
                            binary.rows, i, k, tracer.points(i)[k].x, tracer.points(i)[k].y, expected[i][k].x,
                            expected[i][k].y);
                return false;
            }
        if (!same_size) {
            std::printf("%s (%dx%d): contour %zu has %zu points, OpenCV %zu (starts (%d,%d), OpenCV (%d,%d))\n", what,
                        binary.cols, binary.rows, i, tracer.size(i), expected[i].size(), tracer.points(i)[0].x,
                        tracer.points(i)[0].y, expected[i][0].x, expected[i][0].y);
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::mt19937 rng(30);
    appclip::vision::ContourTracer tracer;   // reused, as the locator reuses it
    int images = 0, failures = 0;
    size_t contours = 0;
    for (int t = 0; t < 6000; ++t) {
        const int w = 1 + static_cast<int>(rng() % (t < 3000 ? 12 : 300));
        const int h = 1 + static_cast<int>(rng() % (t < 3000 ? 12 : 200));
        cv::Mat binary = cv::Mat::zeros(h, w, CV_8U);
        switch (t % 3) {
            case 0: {   // speckle of any density
                const unsigned density = 1 + rng() % 9;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) binary.at<uint8_t>(y, x) = rng() % 10 < density ? 255 : 0;
                break;
            }
            case 1: {   // thin strokes, as edge maps have
                for (int s = 0; s < 1 + static_cast<int>(rng() % 12); ++s)
                    cv::line(binary, cv::Point(rng() % w, rng() % h), cv::Point(rng() % w, rng() % h), 255, 1,
                             rng() % 2 ? cv::LINE_8 : cv::LINE_4);
                break;
            }
            default:   // shapes, filled and hollow, overlapping and touching the edges
                appclip::checks::draw_random_ellipses(binary, rng, [&rng] { return rng() % 2 ? 255 : 0; });
        }
        ++images;
        if (!same_contours(binary, tracer, "random")) ++failures;
        contours += tracer.count();
    }
    for (int i = 1; i < argc; ++i) {
        const cv::Mat gray = cv::imread(argv[i], cv::IMREAD_GRAYSCALE);
        if (gray.empty()) {
            std::printf("cannot read %s\n", argv[i]);
            return 1;
        }
        cv::Mat edges;
        cv::Canny(gray, edges, 20, 60);
        ++images;
        if (!same_contours(edges, tracer, argv[i])) ++failures;
        contours += tracer.count();
    }
    std::printf("contour tracing: %d images, %zu contours, %d differ from cv::findContours\n", images, contours,
                failures);
    return failures == 0 ? 0 : 1;
}
