// The vision layer's own blurs against the OpenCV calls they replace to keep warm frames free
// of heap allocations: the locator's vote smoothing (vision/vote_filters.cpp) against
// cv::GaussianBlur(Size(5, 5), 1.0) on random sparse vote planes (float, and 16-bit counts),
// and the drawing fit's blur (vision/zero_border_blur.cpp) against cv::sepFilter2D with a zero
// border on random canvases and Gaussian kernels of 3 to 31 taps, every border case included.
// Beside them, the vote peaks found in those planes (row_peaks in vision/vote_filters.cpp)
// against cells equal to their cv::dilate over a 5 x 5 window, on the raw planes (many ties)
// and the smoothed ones. Prints the largest differences and exits 1 when any exceeds float
// rounding, or when any peak differs.
#include <cstdio>
#include <random>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/vote_filters.hpp"
#include "vision/zero_border_blur.hpp"

namespace {

// Peaks of `plane` (row_peaks) that are not cells reaching `floor` and equal to the maximum of
// their 5 x 5 window (cv::dilate), and such cells it did not list; `peaks` counts those found.
int peak_differences(const cv::Mat& plane, float floor, long& peaks) {
    const int w = plane.cols, h = plane.rows;
    cv::Mat window_max;
    cv::dilate(plane, window_max, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    std::vector<float> scratch(static_cast<size_t>(w));
    std::vector<unsigned char> flags(static_cast<size_t>(w));
    std::vector<int> listed(static_cast<size_t>(w) + 1);
    int differ = 0;
    for (int y = 2; y < h - 2; ++y) {
        const int n = appclip::vision::row_peaks(plane, y, floor, scratch.data(), flags.data(), listed.data());
        peaks += n;
        int k = 0;
        for (int x = 2; x < w - 2; ++x) {
            const float v = plane.at<float>(y, x);
            const bool expected = v >= floor && v == window_max.at<float>(y, x);
            const bool found = k < n && listed[k] == x;
            if (found) ++k;
            differ += expected != found ? 1 : 0;
        }
        differ += n - k;   // listed out of order or outside the row's inner cells
    }
    return differ;
}

// Largest |a - b| over the larger of |b|'s maximum and 1.
double relative_difference(const cv::Mat& a, const cv::Mat& b) {
    double peak = 0;
    cv::minMaxLoc(cv::abs(b), nullptr, &peak);
    return cv::norm(a, b, cv::NORM_INF) / std::max(peak, 1.0);
}

}  // namespace

int main() {
    std::mt19937 rng(29);
    // Float sums in another order differ in the last bits: a few units of 1e-7 of the peak.
    constexpr double kTolerance = 1e-5;
    double worst_votes = 0, worst_canvas = 0;
    long peaks = 0;
    int peaks_differ = 0;
    const int planes = 2000, canvases = 2000;
    cv::Mat rows, ours, theirs;   // reused, as the locator reuses them
    for (int t = 0; t < planes; ++t) {
        const int w = 3 + static_cast<int>(rng() % (t < planes / 2 ? 20 : 400));
        const int h = 3 + static_cast<int>(rng() % (t < planes / 2 ? 20 : 300));
        cv::Mat votes(h, w, CV_32F);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) votes.at<float>(y, x) = rng() % 3 == 0 ? static_cast<float>(rng() % 60) : 0.f;
        cv::GaussianBlur(votes, theirs, cv::Size(5, 5), 1.0);
        appclip::vision::gaussian5_sigma1(votes, rows, ours);
        worst_votes = std::max(worst_votes, relative_difference(ours, theirs));
        const float floor = static_cast<float>(rng() % 8);
        peaks_differ += peak_differences(votes, floor, peaks) + peak_differences(ours, floor, peaks);
        // The locator counts its votes in 16 bits: the same plane as counts, up to the
        // largest count a level can hold.
        cv::Mat counts(h, w, CV_16U);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) counts.at<unsigned short>(y, x) = rng() % 3 == 0 ? rng() % 65536 : 0;
        cv::Mat counts_float;
        counts.convertTo(counts_float, CV_32F);
        cv::GaussianBlur(counts_float, theirs, cv::Size(5, 5), 1.0);
        appclip::vision::gaussian5_sigma1(counts, rows, ours);
        worst_votes = std::max(worst_votes, relative_difference(ours, theirs));
    }
    appclip::vision::BlurScratch scratch;
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    for (int t = 0; t < canvases; ++t) {
        const int w = 1 + static_cast<int>(rng() % (t < canvases / 2 ? 12 : 160));
        const int h = 1 + static_cast<int>(rng() % (t < canvases / 2 ? 12 : 160));
        const int reach = 1 + static_cast<int>(rng() % 15);
        const double sigma = 0.3 + reach / 3.0 * (rng() % 100) / 100.0;
        const cv::Mat kernel = cv::getGaussianKernel(2 * reach + 1, sigma, CV_32F);
        cv::Mat1f canvas(h, w);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) canvas(y, x) = rng() % 2 ? value(rng) : 0.f;
        cv::Mat expected;
        cv::sepFilter2D(canvas, expected, CV_32F, kernel, kernel, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
        appclip::vision::blur_zero_border(canvas, kernel, scratch);
        worst_canvas = std::max(worst_canvas, relative_difference(canvas, expected));
    }
    const bool ok = worst_votes < kTolerance && worst_canvas < kTolerance && peaks_differ == 0;
    std::printf("vote smoothing: %d planes (float and 16-bit counts), largest difference %.2g of the plane's peak; "
                "vote peaks: %ld found, %d cells differ from the dilation; drawing blur: %d canvases, %.2g%s\n",
                planes, worst_votes, peaks, peaks_differ, canvases, worst_canvas, ok ? "" : ": FAILED");
    return ok ? 0 : 1;
}
