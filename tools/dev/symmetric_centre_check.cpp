// Check of the symmetric-pair centre (vision/symmetric_centres.cpp) against known geometry:
// codes drawn by the generator's rasterizer in every template, 24-46 px across (the sizes a
// pyramid level looks for), squashed to 0.35-1 across one axis (views up to ~70°), turned,
// blurred with σ 0.5-1.2 px, with noise of σ 3 grey levels, on plain grey ground or on ground
// strewn with grey boxes. Under an affine map the rings' centres are the code's, so the true
// centre is known exactly. The search starts where a tilted code's gradient-line votes peak:
// 10-35 % of the diameter off the centre, in any direction. The edge pixels it is given are
// this check's own (Sobel crests over a fixed threshold), not the locator's. A centre found
// must lie within kTolerance px of the true one. A box is as symmetric as a code, and on
// strewn ground one can outvote a small steep code (the detector then reads the vote peak's
// own centre only). Run by tools/symmetric_centre_check.sh (tools/test.sh); exits 1 when
// fewer than kMinFound cases find the centre or any on plain ground finds another point.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/code_geometry.hpp"
#include "vision/symmetric_centres.hpp"
#include "drawn_code.hpp"

namespace {

using appclip::vision::EdgeVoter;
using appclip::vision::kDeg;
using appclip::vision::kPi;

constexpr int kCases = 48;
constexpr double kTolerance = 1.0;
constexpr int kMinFound = 42;

// Edge pixels at the crest of their gradient (across the edge, in one of four directions)
// with |gx| + |gy| of at least 40 (3 x 3 Sobel).
std::vector<EdgeVoter> crest_edges(const cv::Mat& frame) {
    cv::Mat gx, gy;
    cv::Sobel(frame, gx, CV_16S, 1, 0, 3);
    cv::Sobel(frame, gy, CV_16S, 0, 1, 3);
    cv::Mat magnitude = cv::abs(gx) + cv::abs(gy);
    std::vector<EdgeVoter> edges;
    for (int y = 1; y < frame.rows - 1; ++y)
        for (int x = 1; x < frame.cols - 1; ++x) {
            const int m = magnitude.at<short>(y, x);
            if (m < 40) continue;
            const int ax = std::abs(gx.at<short>(y, x)), ay = std::abs(gy.at<short>(y, x));
            int dx = 1, dy = 0;
            if (ax * 5 < ay * 2) dx = 0, dy = 1;
            else if (ay * 5 >= ax * 2) dx = 1, dy = (gx.at<short>(y, x) > 0) == (gy.at<short>(y, x) > 0) ? 1 : -1;
            if (m < magnitude.at<short>(y - dy, x - dx) || m <= magnitude.at<short>(y + dy, x + dx)) continue;
            edges.push_back({x, y, gx.at<short>(y, x), gy.at<short>(y, x)});
        }
    return edges;
}

}  // namespace

int main() {
    std::mt19937 rng(29);
    std::uniform_real_distribution<double> turn(0, 180), squash(0.35, 1.0), size(24, 46), blur(0.5, 1.2),
        offset(0.10, 0.35), direction(0, 360);
    std::normal_distribution<double> noise(0, 3);
    const cv::Size frame_size(200, 200);
    const cv::Vec2d centre(100.3, 99.6);
    int found = 0, off = 0, declined = 0;
    std::vector<double> errors, starts;
    std::string report;
    appclip::vision::SymmetricCentres centres;
    for (int i = 0; i < kCases; ++i) {
        const std::string url = "https://example.com/centre?case=" + std::to_string(i);
        cv::Mat code;
        if (!drawn_code::case_code(url, i, code)) return 1;
        const double diameter = size(rng), s = squash(rng), t = turn(rng) * kDeg, sigma = blur(rng);
        const cv::Matx23d affine = drawn_code::placement(diameter, s, t, centre);
        const bool strewn = i % 2 == 1;
        const cv::Mat ground = strewn ? drawn_code::strewn_ground(frame_size, 12, rng) : cv::Mat();
        cv::Mat frame = drawn_code::draw(code, affine, frame_size, sigma, ground);
        cv::Mat grain(frame.size(), CV_16S);
        for (int y = 0; y < grain.rows; ++y)
            for (int x = 0; x < grain.cols; ++x) grain.at<short>(y, x) = static_cast<short>(std::lround(noise(rng)));
        cv::Mat noisy;
        frame.convertTo(noisy, CV_16S);
        cv::Mat(noisy + grain).convertTo(frame, CV_8U);

        const double away = offset(rng) * diameter, a = direction(rng) * kDeg;
        const cv::Point2d start(centre[0] + away * std::cos(a), centre[1] + away * std::sin(a));
        starts.push_back(away);
        appclip::vision::SymmetricPeak peak;
        if (!centres.find_near(crest_edges(frame), start, peak)) {
            ++declined;
            continue;
        }
        const double error = std::hypot(peak.center.x - centre[0], peak.center.y - centre[1]);
        errors.push_back(error);
        if (error <= kTolerance) {
            ++found;
        } else {
            off += strewn ? 0 : 1;
            char line[200];
            std::snprintf(line, sizeof line, "\n  case %d (template %d, %.0f px, squash %.2f, %s ground): %.1f px off",
                          i, i % 18, diameter, s, strewn ? "strewn" : "grey", error);
            report += line;
        }
    }
    std::sort(errors.begin(), errors.end());
    std::sort(starts.begin(), starts.end());
    const double median = errors.empty() ? 0 : errors[errors.size() / 2];
    std::printf("%d of %d centres within %.1f px (median error %.2f px; starts %.1f-%.1f px off), %d declined, "
                "%d off on plain ground%s\n",
                found, kCases, kTolerance, median, starts.front(), starts.back(), declined, off, report.c_str());
    return found >= kMinFound && off == 0 ? 0 : 1;
}
