// The outline search's edge map (vision/edge_map.cpp) against the OpenCV call it stands for:
// cv::Canny (3x3 Sobel, L1 magnitude, replicated border) with the 8-connected edge curves
// whose bounding box is under `min_extent` on both sides removed (cv::connectedComponents-
// WithStats). Both of EdgeMap's ways in are checked: from the image, and from derivatives
// computed as the vote computes them (reflected border, which the edge map rewrites). Images:
// noise, smoothed noise and drawn shapes over noise, 1 x 1 to 300 x 200, with random
// thresholds and extents, and the images given on the command line (as gray, and at half
// size). Prints what it compared and exits 1 on any pixel that differs.
#include <cstdio>
#include <random>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "random_shapes.hpp"
#include "vision/edge_map.hpp"

namespace {

// cv::Canny's edges without the curves whose box is under min_extent on both sides.
cv::Mat expected_edges(const cv::Mat& image, int low, int high, int min_extent) {
    cv::Mat edges;
    cv::Canny(image, edges, low, high, 3, false);
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(edges, labels, stats, centroids, 8, CV_32S);
    std::vector<uint8_t> keep(static_cast<size_t>(n), 0);
    for (int i = 1; i < n; ++i)
        keep[i] = std::max(stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT)) >= min_extent;
    for (int y = 0; y < edges.rows; ++y)
        for (int x = 0; x < edges.cols; ++x) edges.at<uint8_t>(y, x) = keep[labels.at<int>(y, x)] ? 255 : 0;
    return edges;
}

// Whether both ways of the edge map give the expected edges; describes the first difference.
bool same_edges(const cv::Mat& image, int low, int high, int min_extent, appclip::vision::EdgeMap& edge_map,
                const char* what) {
    const cv::Mat expected = expected_edges(image, low, high, min_extent);
    cv::Mat from_image, from_vote;
    edge_map.trace(image, low, high, min_extent, from_image);
    // As the vote leaves them: cv::spatialGradient's default (reflected) border.
    cv::Mat dx, dy, magnitude;
    cv::spatialGradient(image, dx, dy, 3, cv::BORDER_DEFAULT);
    appclip::vision::l1_magnitude(dx, dy, magnitude);
    edge_map.trace(image, dx, dy, magnitude, low, high, min_extent, from_vote);
    for (const cv::Mat* got : {&from_image, &from_vote}) {
        cv::Mat differ;
        cv::compare(*got, expected, differ, cv::CMP_NE);
        std::vector<cv::Point> where;
        cv::findNonZero(differ, where);
        if (!where.empty()) {
            std::printf("%s (%dx%d, thresholds %d/%d, extent %d, %s): %zu pixels differ, first (%d,%d)\n", what,
                        image.cols, image.rows, low, high, min_extent, got == &from_image ? "image" : "derivatives",
                        where.size(), where[0].x, where[0].y);
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::mt19937 rng(42);
    appclip::vision::EdgeMap edge_map;   // reused, as the locator reuses it
    int images = 0, failures = 0;
    auto thresholds = [&rng](int& low, int& high, int& extent) {
        low = 5 + static_cast<int>(rng() % 80);
        high = low + static_cast<int>(rng() % (2 * low + 1));
        extent = rng() % 3 == 0 ? 0 : 1 + static_cast<int>(rng() % 40);
    };
    for (int t = 0; t < 3000; ++t) {
        // Sizes of 1 and 2 (no inner pixels) among the small ones.
        const int w = 1 + static_cast<int>(rng() % (t < 1000 ? 8 : 300));
        const int h = 1 + static_cast<int>(rng() % (t < 1000 ? 8 : 200));
        cv::Mat image(h, w, CV_8U);
        cv::randu(image, 0, 256);
        switch (t % 3) {
            case 0:   // plain noise
                break;
            case 1:   // smoothed noise: long, wandering crests
                cv::GaussianBlur(image, image, cv::Size(0, 0), 0.5 + (rng() % 40) / 10.0);
                break;
            default:   // shapes over faint noise, touching the edges
                image = image / 8 + static_cast<int>(rng() % 120);
                appclip::checks::draw_random_ellipses(image, rng, [&rng] { return static_cast<int>(rng() % 256); });
        }
        int low, high, extent;
        thresholds(low, high, extent);
        ++images;
        if (!same_edges(image, low, high, extent, edge_map, "random")) ++failures;
    }
    for (int i = 1; i < argc; ++i) {
        cv::Mat gray = cv::imread(argv[i], cv::IMREAD_GRAYSCALE);
        if (gray.empty()) {
            std::printf("cannot read %s\n", argv[i]);
            return 1;
        }
        for (int half = 0; half < 2; ++half) {
            if (half) cv::resize(gray, gray, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
            // The locator's thresholds and extents, then random ones.
            for (const int extent : {0, 13, 40}) {
                ++images;
                if (!same_edges(gray, 20, 60, extent, edge_map, argv[i])) ++failures;
            }
            int low, high, extent;
            thresholds(low, high, extent);
            ++images;
            if (!same_edges(gray, low, high, extent, edge_map, argv[i])) ++failures;
        }
    }
    std::printf("%d images, %d differ from cv::Canny without the small curves\n", images, failures);
    return failures == 0 ? 0 : 1;
}
