// Check of the edge fit (vision/concentric_fit.cpp) on large codes in steep perspective, where
// the rings' centres part: codes drawn by the generator's rasterizer in every template, seen
// through a pinhole camera (f = 900 px) from 50-65° off their axis, 300-520 px across, on a
// ground of their own background colour, blurred (σ 1.0-1.6 px) with noise (σ 3). The fit is
// handed what the rough fit hands it: the true ellipse of one ring (ring 1 to 5 in turn), taken
// as the middle ring, with the polarity of its template's palette. The fitted plane must put rings 1 and 5 where the
// drawing has them: their ellipses' centres within 1 px and their axes within 1 %. The ground
// truth is the camera's homography (OpenCV warps the raster), not the reader's.
// Run by tools/parted_rings_check.sh (tools/test.sh); exits 1 when fewer than kMinPassing
// of the cases pass, or fewer than kMinOuterPassing of those handed ring 4 or 5.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <opencv2/imgproc.hpp>

#include "appclip_core.h"
#include "vision/code_geometry.hpp"
#include "vision/concentric_fit.hpp"
#include "vision/image_view.hpp"
#include "vision/rough_ellipse.hpp"
#include "drawn_code.hpp"

namespace {

using appclip::vision::CodeGeometry;
using appclip::vision::kDeg;
using appclip::vision::kPi;

constexpr int kCases = 60;
// Measured when written (forty-seventh session): 57 of 60, 21 of the 24 handed ring 4 or 5;
// with every fit started from the middle ring, as before that session, 47 and 15. Forty-eighth
// session: 58 and 22, the gain a misnamed ring's poor fit renamed when its ring 1 or 5 finds no
// stroke (kPoorFitRms); the outer floor asks for that case, so losing the renaming fails it.
constexpr int kMinPassing = 52;
constexpr int kMinOuterPassing = 22;   // of the 24 cases handed ring 4 or 5
constexpr double kFocal = 900;
const cv::Size kFrame(1280, 960);

// How far `got` is from `want`: centre distance (px) and the larger axis error (fraction).
void compare(const cv::RotatedRect& got, const cv::RotatedRect& want, double& centre_px, double& axis_error) {
    centre_px = std::hypot(got.center.x - want.center.x, got.center.y - want.center.y);
    const double g1 = std::max(got.size.width, got.size.height), g2 = std::min(got.size.width, got.size.height);
    const double w1 = std::max(want.size.width, want.size.height), w2 = std::min(want.size.width, want.size.height);
    axis_error = std::max(std::abs(g1 / w1 - 1), std::abs(g2 / w2 - 1));
}

}  // namespace

int main() {
    const CodeGeometry& g = CodeGeometry::get();
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> tilt_deg(50, 65), axis(0, kPi), size(300, 520), blur(1.0, 1.6),
        offset(-0.08, 0.08);
    std::normal_distribution<double> noise(0, 3);
    int passing = 0, outer_cases = 0, outer_passing = 0;
    std::string misses;
    appclip::vision::ConcentricFit fit;
    for (int i = 0; i < kCases; ++i) {
        const std::string url = "https://example.com/parted?case=" + std::to_string(i);
        cv::Mat code;
        if (!drawn_code::case_code(url, i, code)) return 1;
        const double tilt = tilt_deg(rng) * kDeg, diameter_px = size(rng), sigma = blur(rng);
        const double z = kFocal * 0.1 / diameter_px;
        const cv::Vec3d centre(offset(rng) * z, offset(rng) * z, z);
        const cv::Matx33d raster_to_frame = drawn_code::pinhole_placement(tilt, axis(rng), centre, kFocal, kFrame);
        // The truth: centred code units → raster pixels → frame.
        const double units = drawn_code::kRaster / (2 * g.disc_radius), c = drawn_code::kRaster / 2.0 - 0.5;
        const cv::Matx33d truth = raster_to_frame * cv::Matx33d(units, 0, c, 0, units, c, 0, 0, 1);
        // The code's own background (between ring 5 and the rim) as the ground: no rim outline.
        cv::Mat frame(kFrame, CV_8UC1, cv::Scalar(drawn_code::background_luma(code)));
        drawn_code::draw_in_perspective(code, raster_to_frame, sigma, noise, rng, frame);

        const acc_image_view view = drawn_code::gray_view(frame);
        appclip::vision::Frame wrapped;
        cv::Mat scratch;
        wrapped.wrap(view, scratch);
        // What the rough fit hands over: a traced ring's ellipse taken as the middle ring.
        const int traced = i % 5;
        const cv::RotatedRect traced_ellipse = drawn_code::plane_ellipse(truth, g.rings[traced].radius);
        cv::Matx33d h = appclip::vision::affine_from_ellipse(traced_ellipse, g.rings[2].radius);
        const double polarity = drawn_code::case_polarity(i);
        appclip::vision::FitQuality quality;
        const bool ok = fit.refine(wrapped, h, polarity, quality);
        double centre1 = 1e9, axes1 = 1, centre5 = 1e9, axes5 = 1;
        if (ok) {
            compare(drawn_code::plane_ellipse(h, g.rings[0].radius), drawn_code::plane_ellipse(truth, g.rings[0].radius), centre1, axes1);
            compare(drawn_code::plane_ellipse(h, g.rings[4].radius), drawn_code::plane_ellipse(truth, g.rings[4].radius), centre5, axes5);
        }
        const bool good = ok && centre1 <= 1.0 && centre5 <= 1.0 && axes1 <= 0.01 && axes5 <= 0.01;
        if (traced >= 3) ++outer_cases, outer_passing += good;
        if (good) {
            ++passing;
        } else {
            char line[200];
            std::snprintf(line, sizeof line, "\n  case %d (%.0f px, %.0f°, ring %d handed, blur %.2f): %s, ring 1 %.1f px %.3f, ring 5 %.1f px %.3f",
                          i, diameter_px, tilt / kDeg, traced + 1, sigma, ok ? "off" : "no fit", centre1, axes1,
                          centre5, axes5);
            misses += line;
        }
    }
    // The summary first (the test script shows its first line), then the cases off tolerance.
    std::printf("%d large steep codes: %d fitted within 1 px and 1 %% (%d of %d handed ring 4 or 5); at least %d and %d needed; off:%s\n",
                kCases, passing, outer_passing, outer_cases, kMinPassing, kMinOuterPassing, misses.c_str());
    return passing >= kMinPassing && outer_passing >= kMinOuterPassing ? 0 : 1;
}
