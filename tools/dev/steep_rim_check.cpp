// Check of the rough fit on steep codes (vision/rough_ellipse.cpp with vision/steep_rim.cpp)
// against known geometry: codes drawn by the generator's rasterizer in every template, seen
// at 55-73° (squashed to 0.30-0.58 across one axis, turned), 130-300 px across, blurred with
// σ 1.2-1.8 px so that their rings wash out across the minor axis, on grey ground. From the
// code's true centre, with the size range a vote peak would give, the rough fit must return a
// plane whose rim matches the drawn rim: centre within 6 % of the major axis, major axis
// within 8 % (of the rim's, or of a ring's taken as the middle ring: the concentric fit settles
// which ring was traced), axis ratio within 15 %, angle within 6°. Run by tools/steep_rim_check.sh
// (tools/test.sh); exits 1 when fewer than kMinPassing of the cases pass.
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
#include "vision/locate.hpp"
#include "vision/rough_ellipse.hpp"
#include "drawn_code.hpp"

namespace {

using appclip::vision::CodeGeometry;

constexpr int kCases = 36;
constexpr int kMinPassing = 24;   // two in three (without the steep-rim vote: 12)

// Major-axis angle in degrees [0, 180) and the axes of an OpenCV ellipse.
void axes_of(const cv::RotatedRect& e, double& major, double& minor, double& angle) {
    major = std::max(e.size.width, e.size.height);
    minor = std::min(e.size.width, e.size.height);
    angle = e.angle + (e.size.width >= e.size.height ? 0.0 : 90.0);
    angle = std::fmod(std::fmod(angle, 180.0) + 180.0, 180.0);
}

}  // namespace

int main() {
    const double rim = CodeGeometry::get().disc_radius;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> turn(0, 180), squash(0.30, 0.58), size(130, 300), blur(1.2, 1.8);
    int passing = 0, fitted = 0;
    std::string misses;   // one line per case off tolerance
    double worst_centre = 0, worst_major = 0, worst_ratio = 0, worst_angle = 0;
    for (int i = 0; i < kCases; ++i) {
        const std::string url = "https://example.com/steep?case=" + std::to_string(i);
        cv::Mat code;
        if (!drawn_code::case_code(url, i, code)) return 1;
        const double diameter = size(rng), s = squash(rng), t = turn(rng) * appclip::vision::kDeg, sigma = blur(rng);
        const cv::Vec2d centre(360, 300);
        const cv::Matx23d affine = drawn_code::placement(diameter, s, t, centre);
        const cv::Mat frame = drawn_code::draw(code, affine, cv::Size(720, 600), sigma);

        // The drawn rim: the raster's rim circle through the affine map.
        const cv::RotatedRect truth = drawn_code::outline(affine, rim, 0, 0);

        const acc_image_view view = drawn_code::gray_view(frame);
        appclip::vision::Frame wrapped;
        cv::Mat scratch;
        wrapped.wrap(view, scratch);
        // The size range of the level whose codes are 20-48 level pixels across (as a vote
        // peak's), widened as the detector widens it.
        appclip::vision::Candidate candidate;
        candidate.center = cv::Point2d(centre[0], centre[1]);
        candidate.level0_scale = 1.0;
        int level = 0;
        while (level < 4 && candidate.level_hi(level) < diameter) ++level;
        candidate.diameter_lo = 0.8 * candidate.level_lo(level);
        candidate.diameter_hi = 1.25 * candidate.level_hi(level);

        appclip::vision::RoughEllipse rough;
        rough.new_frame();
        cv::Matx33d h;
        double polarity = 0;
        const bool ok = rough.fit(wrapped, candidate, false, h, polarity) || rough.fit(wrapped, candidate, true, h, polarity);
        double centre_error = 1, major_error = 1, ratio_error = 1, angle_error = 90;
        if (ok) {
            ++fitted;
            // The plane's rim, fitted the same way as the drawn one.
            const cv::RotatedRect got = drawn_code::plane_ellipse(h, rim);
            double tm, tn, ta, gm, gn, ga;
            axes_of(truth, tm, tn, ta);
            axes_of(got, gm, gn, ga);
            centre_error = std::hypot(got.center.x - truth.center.x, got.center.y - truth.center.y) / tm;
            // A ring traced on the rays is taken as the middle one (the concentric fit finds out
            // which it was), so the plane's rim may be any ring's size over the middle one's.
            const CodeGeometry& g = CodeGeometry::get();
            major_error = std::abs(gm / tm - 1);
            for (const auto& ring : g.rings)
                major_error = std::min(major_error, std::abs(gm / tm / (ring.radius / g.rings[2].radius) - 1));
            ratio_error = std::abs((gn / gm) / (tn / tm) - 1);
            angle_error = std::abs(ga - ta);
            angle_error = std::min(angle_error, 180 - angle_error);
        }
        const bool good = centre_error <= 0.06 && major_error <= 0.08 && ratio_error <= 0.15 && angle_error <= 6;
        if (good) {
            ++passing;
            worst_centre = std::max(worst_centre, centre_error);
            worst_major = std::max(worst_major, major_error);
            worst_ratio = std::max(worst_ratio, ratio_error);
            worst_angle = std::max(worst_angle, angle_error);
        } else {
            char line[200];
            std::snprintf(line, sizeof line, "\n  case %d (d %.0f, ratio %.2f, blur %.2f): %s, centre %.3f major %.3f ratio %.3f angle %.1f",
                          i, diameter, s, sigma, ok ? "off" : "no fit", centre_error, major_error, ratio_error, angle_error);
            misses += line;
        }
    }
    // The summary first (the test script shows its first line), then the cases off tolerance.
    std::printf("%d steep codes: %d fitted, %d within tolerance (worst of those: centre %.3f, major %.3f, ratio %.3f, "
                "angle %.1f deg); at least %d needed; off tolerance:%s\n",
                kCases, fitted, passing, worst_centre, worst_major, worst_ratio, worst_angle, kMinPassing, misses.c_str());
    return passing >= kMinPassing ? 0 : 1;
}
