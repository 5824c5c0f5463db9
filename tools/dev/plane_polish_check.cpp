// Check of the ring polish (vision/plane_polish.cpp) against known geometry: codes drawn by
// the generator's rasterizer in every template, 90-200 px across, seen steep (squashed to
// 0.35-0.70 across one axis, turned), blurred with σ 0.8-1.4 px and noised (σ 3 grey levels)
// on grey ground, so their rings lie 2-6 px apart across the minor axis. Each polish starts
// from the true plane made 4-10 % too long or short across one axis and moved along it: across
// the minor axis by 0.8-1.6 px (an edge fit's typical miss there), polished with
// PolishAxes::minor, in even cases; along the major axis by 2-5 px (a plane whose perspective
// is off), polished with PolishAxes::both, in odd ones. The polished rim must lie within 2 % of
// the drawn rim's axes and 0.4 px of its centre; every start is outside that by construction.
// Every case is polished twice: on the grey ground, and on a ground of the strokes' own luma
// (a dark leaf around a light code with dark strokes): there a plane grown past the rim puts
// its outer ring on the ground, which reads like a stroke, and a polish that scores only the
// rings and the bands between them grows it (5 of the 36 rims ended 14-15 % off; with the
// margin outside ring 5 counted among the bands, as ring_contrast_in_disc does, none).
// Run by tools/plane_polish_check.sh (tools/test.sh); exits 1 when fewer than kMinPassing pass
// on the grey ground, fewer than kMinPassingInk on the other, or more than kMaxGrossInk of its
// rims end over 10 % off.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "appclip_core.h"
#include "vision/code_geometry.hpp"
#include "vision/homography.hpp"
#include "vision/image_view.hpp"
#include "vision/plane_polish.hpp"
#include "drawn_code.hpp"

namespace {

using appclip::vision::CodeGeometry;

constexpr int kCases = 36;
constexpr int kMinPassing = 30;
constexpr int kMinPassingInk = 27;
constexpr int kMaxGrossInk = 2;
constexpr double kGrossAxis = 0.10;

struct Outcome {
    int passing = 0, gross = 0;   // within the tolerances; an axis over kGrossAxis off
};

struct Rim {
    double cx, cy, major, minor;
};

// The rim of a plane (centred code units → pixels), as an ellipse fitted to 64 of its points.
Rim rim_of(const cv::Matx33d& h) {
    const cv::RotatedRect e = drawn_code::plane_ellipse(h, CodeGeometry::get().disc_radius);
    return {e.center.x, e.center.y, std::max(e.size.width, e.size.height), std::min(e.size.width, e.size.height)};
}

// The luma of the code's strokes: the raster's darkest (dark strokes) or lightest value.
int stroke_luma(const cv::Mat& code, int case_index) {
    double lo = 0, hi = 0;
    cv::minMaxLoc(code, &lo, &hi, nullptr, nullptr, drawn_code::disc_mask());
    return static_cast<int>(drawn_code::case_polarity(case_index) > 0 ? hi : lo);
}

// Polishes every case on a grey ground, or on one of the strokes' luma.
Outcome run(bool ink_ground) {
    const CodeGeometry& g = CodeGeometry::get();
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> turn(0, 180), squash(0.35, 0.70), size(90, 200), blur(0.8, 1.4),
        axis_error(0.04, 0.10), minor_shift(0.8, 1.6), major_shift(2.0, 5.0), coin(0, 1);
    int passing = 0, start_passing = 0, gross = 0;
    double worst_centre = 0, worst_axis = 0;
    std::string misses;
    for (int i = 0; i < kCases; ++i) {
        const std::string url = "https://example.com/polish?case=" + std::to_string(i);
        cv::Mat code;
        if (!drawn_code::case_code(url, i, code)) return {};   // the generator refused it: fails the check
        const double diameter = size(rng), s = squash(rng), t = turn(rng) * appclip::vision::kDeg, sigma = blur(rng);
        const cv::Vec2d centre(300, 260);
        const cv::Matx23d affine = drawn_code::placement(diameter, s, t, centre);
        const cv::Size size(600, 520);
        const cv::Mat ground = ink_ground ? cv::Mat(size, CV_8UC1, cv::Scalar(stroke_luma(code, i))) : cv::Mat();
        cv::Mat frame = drawn_code::draw(code, affine, size, sigma, ground);
        cv::Mat noise(frame.size(), CV_16SC1);
        cv::randn(noise, 0, 3);
        frame.convertTo(frame, CV_16SC1);
        frame += noise;
        frame.convertTo(frame, CV_8UC1);

        // The true plane: centred code units → raster pixels → frame.
        const double units = drawn_code::kRaster / (2.0 * g.disc_radius), c = drawn_code::kRaster / 2.0 - 0.5;
        const cv::Matx33d raster(units, 0, c, 0, units, c, 0, 0, 1);
        const cv::Matx33d placed(affine(0, 0), affine(0, 1), affine(0, 2), affine(1, 0), affine(1, 1), affine(1, 2), 0, 0, 1);
        const cv::Matx33d truth = placed * raster;
        // The start: one axis (the minor one along (-sin t, cos t), squashed by s in placement;
        // the major one along (cos t, sin t)) scaled about the centre, and the centre moved along it.
        const bool minor = i % 2 == 0;
        const double m = 1 + (coin(rng) < 0.5 ? -1 : 1) * axis_error(rng);
        const double d = (coin(rng) < 0.5 ? -1 : 1) * (minor ? minor_shift(rng) : major_shift(rng));
        const cv::Vec2d n = minor ? cv::Vec2d(-std::sin(t), std::cos(t)) : cv::Vec2d(std::cos(t), std::sin(t));
        const cv::Matx22d stretch = cv::Matx22d::eye() + (m - 1) * cv::Matx22d(n[0] * n[0], n[0] * n[1], n[1] * n[0], n[1] * n[1]);
        const cv::Vec2d moved = centre - stretch * centre + d * n;
        const cv::Matx33d image(stretch(0, 0), stretch(0, 1), moved[0], stretch(1, 0), stretch(1, 1), moved[1], 0, 0, 1);
        cv::Matx33d h = image * truth;

        const Rim want = rim_of(truth);
        auto errors = [&](const cv::Matx33d& plane, double& centre_px, double& axis) {
            const Rim got = rim_of(plane);
            centre_px = std::hypot(got.cx - want.cx, got.cy - want.cy);
            axis = std::max(std::abs(got.major / want.major - 1), std::abs(got.minor / want.minor - 1));
        };
        double centre_px, axis;
        errors(h, centre_px, axis);
        const bool start_good = centre_px <= 0.4 && axis <= 0.02;
        start_passing += start_good ? 1 : 0;

        const acc_image_view view = drawn_code::gray_view(frame);
        appclip::vision::Frame wrapped;
        cv::Mat scratch;
        wrapped.wrap(view, scratch);
        appclip::vision::RingPolish polish;
        if (polish.start(wrapped, h))
            polish.polish(wrapped, minor ? appclip::vision::PolishAxes::minor : appclip::vision::PolishAxes::both, h);
        errors(h, centre_px, axis);
        gross += axis > kGrossAxis ? 1 : 0;
        if (centre_px <= 0.4 && axis <= 0.02) {
            ++passing;
            worst_centre = std::max(worst_centre, centre_px);
            worst_axis = std::max(worst_axis, axis);
        } else {
            char line[200];
            std::snprintf(line, sizeof line, "\n  case %d (%s, d %.0f, squash %.2f, blur %.2f, pitch %.1f px): centre %.2f px, axes %.3f",
                          i, minor ? "minor" : "major", diameter, s, sigma, appclip::vision::minor_ring_pitch(truth), centre_px, axis);
            misses += line;
        }
    }
    std::printf("%d steep codes on %s polished from planes 4-10 %% off along one axis: %d within 0.4 px and 2 %% of the "
                "drawn rim (worst of those: centre %.2f px, axes %.3f; %d of the starts were); at least %d needed; "
                "%d with an axis over %.0f %% off; off:%s\n",
                kCases, ink_ground ? "ground of their strokes' luma" : "grey ground", passing, worst_centre, worst_axis,
                start_passing, ink_ground ? kMinPassingInk : kMinPassing, gross, 100 * kGrossAxis, misses.c_str());
    if (start_passing != 0) return {};
    return {passing, gross};
}

}  // namespace

int main() {
    const Outcome grey = run(false), ink = run(true);
    if (ink.gross > kMaxGrossInk) std::printf("more than %d rims over %.0f %% off on the strokes' ground\n", kMaxGrossInk, 100 * kGrossAxis);
    return grey.passing >= kMinPassing && ink.passing >= kMinPassingInk && ink.gross <= kMaxGrossInk ? 0 : 1;
}
