// Check of the locator's outline ranking (vision/outline_rings.cpp) against known geometry:
// codes drawn by the generator's rasterizer in every template, turned and squashed (tilts up
// to ~55°), blurred a little, on grey ground. The outline that is the code's rim, and the one
// that is its logo's disc, must score as rings; the same outline a fifth too large or too
// small, or moved off the code by half its radius, and outlines over texture must not score
// as well. Run by tools/outline_rings_check.sh (tools/test.sh); exits 1 on any failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <opencv2/imgproc.hpp>

#include "appclip_core.h"
#include "vision/code_geometry.hpp"
#include "vision/outline_rings.hpp"
#include "drawn_code.hpp"

namespace {

using appclip::vision::CodeGeometry;
using appclip::vision::kLogoDiscRadius;
using appclip::vision::OutlineRingCheck;
using drawn_code::outline;

}  // namespace

int main() {
    const double rim = CodeGeometry::get().disc_radius;
    OutlineRingCheck check;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> turn(0, 180), squash(0.55, 1.0), size(110, 320);
    int cases = 0, failures = 0;
    double worst_code = 1e9, best_other = 0;
    for (int i = 0; i < 36; ++i) {
        const std::string url = "https://example.com/rings?case=" + std::to_string(i);
        cv::Mat code;
        if (!drawn_code::case_code(url, i, code)) return 1;
        // The code `diameter` px across, turned, squashed across one axis, at the frame's centre.
        const double diameter = size(rng), s = squash(rng), t = turn(rng) * 3.14159265358979 / 180;
        const cv::Matx23d affine = drawn_code::placement(diameter, s, t, cv::Vec2d(360, 300));
        const cv::Mat frame = drawn_code::draw(code, affine, cv::Size(720, 600), 0.8);

        const double as_rim = check.score(frame, outline(affine, rim, 0, 0));
        const double as_logo = check.score(frame, outline(affine, kLogoDiscRadius, 0, 0));
        const double larger = check.score(frame, outline(affine, 1.2 * rim, 0, 0));
        const double smaller = check.score(frame, outline(affine, 0.8 * rim, 0, 0));
        const double moved = check.score(frame, outline(affine, rim, 0.5 * rim, 0));
        // Texture: blurred noise under the same outline.
        cv::Mat texture(frame.size(), CV_8UC1);
        cv::randu(texture, 0, 255);
        cv::GaussianBlur(texture, texture, cv::Size(), 1.5);
        const double over_texture = check.score(texture, outline(affine, rim, 0, 0));

        const double code_score = std::min(as_rim, i % 3 == 0 ? as_rim : as_logo);
        const double other = std::max({larger, smaller, moved, over_texture});
        worst_code = std::min(worst_code, code_score);
        best_other = std::max(best_other, other);
        ++cases;
        // Rim (and logo disc) clearly ring-like; everything else under half of it.
        const bool ok = as_rim >= 0.25 && (i % 3 == 0 || as_logo >= 0.25) && other < 0.5 * as_rim;
        if (!ok) {
            ++failures;
            std::printf("case %d (d %.0f, squash %.2f): rim %.3f logo %.3f | larger %.3f smaller %.3f moved %.3f texture %.3f\n",
                        i, diameter, s, as_rim, as_logo, larger, smaller, moved, over_texture);
        }
    }
    std::printf("%d codes: rim and logo outlines score >= %.3f, wrong outlines <= %.3f; %d failed\n", cases, worst_code,
                best_other, failures);
    return failures == 0 ? 0 : 1;
}
